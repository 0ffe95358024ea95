#!/usr/bin/env bats
# The tamper campaign (issue 7) on a multi-chunk archive with an index
# (spec 6.8): every header byte, 2,000 random bytes across the chunks,
# the index and the footer, truncation at every record boundary (payload
# and index) and at 200 random offsets, dropped, duplicated and swapped
# records of the payload and of the index, and appended garbage.  Every case must fail with its error
# class (header, chunk N, truncated, trailing data) and exit 4, and leave
# nothing under the output's name (tamper_campaign.py runs the cases,
# in process where the build has tests/inproc/: inproc.py).  The counts
# are reported as "#" lines.  AE_CAMPAIGN_SEED changes the random
# choices; the default seed makes a failure replay.  The exhaustive
# classes (every header byte, every record boundary, every reorder) run
# whole at both scales; the random ones run a tenth of their cases at
# the quick scale (AE_TEST_SCALE; make check-long runs them all).

load test_helper

SEED=${AE_CAMPAIGN_SEED:-20261130}
SCALE=$(scaled 0.1 1)

setup_file() {
	W=$(fast_tmpdir tamper)
	export W
	cd "$W" || return 1
	"$AESCRYPT" --gen-key k
	mkdir src
	head -c 200000 /dev/urandom > src/random.bin
	seq 1 60000 > src/text.txt
	head -c 150000 /dev/urandom > src/more.bin
	# 1,000 empty files with long names: an index of two records, so
	# that its records can be dropped, repeated and swapped too
	mkdir src/many
	(cd src/many && seq -f 'an-empty-file-whose-long-name-fills-the-index-%04g' 1 1000 | xargs touch)
	"$AESCRYPT" -c -q -k k --chunk-size 64K -f a.aes -C src .
	# the same tree with the zstd codec (issue 23)
	[ "${AE_HAVE_ZSTD:-1}" = 0 ] ||
	    "$AESCRYPT" -c -q --zstd -k k --chunk-size 64K -f z.aes -C src .
}

teardown_file() {
	rm -rf "$W"
}

setup() {
	cd "$W" || return 1
}

# campaign CLASS [ARCHIVE [SCALE]]: run one class (on a.aes, at
# $SCALE); its summary goes to the TAP output.
campaign() {
	run /usr/bin/python3 "$BATS_TEST_DIRNAME/tamper_campaign.py" "$1" \
	    "$AESCRYPT" k "${2:-a.aes}" "$W" "$SEED" "${3:-$SCALE}"
	echo "# ${lines[0]}" >&3
	if [ "$status" -ne 0 ]; then
		echo "$output" >&2
		return 1
	fi
	[[ ${lines[0]} =~ ^$1:\ [0-9]+\ cases,\ 0\ wrong ]]
}

@test "the archive is whole before the campaign, and has many chunks" {
	run_aescrypt 0 -d -q -k k -o out.tar a.aes
	[ "$(tar -tf out.tar | wc -l)" -eq 1005 ]
	[ "$(stat -c %s a.aes)" -gt $((6 * 65536)) ]
}

@test "every header byte flipped: refused as a header fault" {
	campaign header
}

@test "random payload bytes flipped (2,000 at full scale): each names its chunk" {
	campaign payload
}

@test "truncated at every chunk boundary and at random offsets (200 at full scale)" {
	campaign truncate
}

@test "every chunk dropped, duplicated, and swapped with the next: named" {
	campaign reorder
}

@test "garbage or a whole record after the final chunk is refused" {
	campaign trailing
}

@test "a --zstd archive: a quarter of the payload, truncation and reorder cases, each named" {
	[ "${AE_HAVE_ZSTD:-1}" = 1 ] || skip "built without zstd"
	run_aescrypt 0 --info z.aes
	assert_match "codec: +zstd"
	local c
	for c in payload truncate reorder; do
		campaign $c z.aes "$(awk -v s="$SCALE" 'BEGIN { print s / 4 }')"
	done
}

@test "-x: the archive cut every 64 KiB leaves no partial member and no temp file" {
	local n i off
	n=$(stat -c %s a.aes)
	for off in $(seq 70000 65557 "$n"); do
		head -c "$off" a.aes > cut.aes
		rm -rf x && mkdir x
		run "$AESCRYPT" -x -q -k k -f cut.aes -C x
		[ "$status" -eq 4 ] || { echo "cut at $off: exit $status: $output" >&2; return 1; }
		assert_no_temps x
		for i in random.bin text.txt more.bin; do
			[ ! -e "x/$i" ] || cmp -s "x/$i" "src/$i" || {
				echo "x/$i is there but not whole (cut at $off)" >&2
				return 1
			}
		done
	done
}
