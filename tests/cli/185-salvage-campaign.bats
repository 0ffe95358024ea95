#!/usr/bin/env bats
# The salvage campaign (issue 22): damaged copies of an archive of 400
# files and a stored .tar (damage.py makes the tree and the damage: a
# 4 KiB block zeroed, 512 KiB zeroed, one bit flipped, the file cut),
# each extracted with -x --salvage from the file and from a pipe, and
# checked by salvage_campaign.py: exit 4, no member written wrong, every
# member clear of the damage back (with the index), every missing one
# named.  Each line of the TAP output says what share of the files came
# back.  AE_CAMPAIGN_SEED changes the damage; the default replays.  The
# count of cases per model comes from AE_TEST_SCALE: 4 (2 from a pipe)
# at the quick scale, 24 (8) at the full one (make check-long).  The
# cases run in process where the build has tests/inproc/ (inproc.py),
# in a directory on tmpfs.

load test_helper

SEED=${AE_CAMPAIGN_SEED:-20261201}
N=$(scaled 4 24)
NP=$(scaled 2 8)

setup_file() {
	W=$(fast_tmpdir salvage)
	export W
	cd "$W" || return 1
	"$AESCRYPT" --gen-key k
	mkdir tree
	/usr/bin/python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import damage; damage.make_tree("tree", 22)' "$BATS_TEST_DIRNAME"
	(cd tree && "$AESCRYPT" -c -q -k ../k --chunk-size 64K -f ../a.aes -- *)
	"$AESCRYPT" -d -q -k k -o plain.tar a.aes
}

teardown_file() {
	rm -rf "$W"
}

setup() {
	cd "$W" || return 1
}

# campaign MODEL COUNT [pipe]
campaign() {
	run /usr/bin/python3 "$BATS_TEST_DIRNAME/salvage_campaign.py" \
	    "$AESCRYPT" k a.aes tree "$W" "$1" "$2" "$SEED" ${3:+"$3"}
	echo "# ${lines[0]}" >&3
	if [ "$status" -ne 0 ]; then
		echo "$output" >&2
		return 1
	fi
	[[ ${lines[0]} =~ ^$1(\ \(pipe\))?:\ [0-9]+\ cases,\ 0\ wrong ]]
}

@test "the archive is whole before the campaign: many chunks, an index, a stored .tar" {
	run_aescrypt 0 -t -k k -f a.aes
	[ "${#lines[@]}" -gt 400 ]
	assert_match "Downloads/bundle.tar"
	[ "$(stat -c %s a.aes)" -gt $((40 * 65536)) ]
	mkdir whole
	run_aescrypt 0 -x --salvage -k k -f a.aes -C whole
	diff -r tree whole
}

@test "salvage campaign: a 4 KiB block zeroed" {
	campaign block "$N"
}

@test "salvage campaign: 512 KiB zeroed" {
	campaign range "$N"
}

@test "salvage campaign: one bit flipped" {
	campaign bit "$N"
}

@test "salvage campaign: the file cut short" {
	campaign truncate "$N"
}

@test "salvage campaign from a pipe (no index, no copy of the header): every model" {
	local m
	for m in block range bit truncate; do
		campaign "$m" "$NP" pipe
	done
}
