#!/usr/bin/env bats
# The pax/ustar header encoder (src/archive/tar.c; the start of `aescrypt -c`)
# against GNU tar: an archive of awkward members written by
# build/tests/unit/test_tar is listed and extracted by tar, and every
# member comes out exactly as described.

load test_helper

GEN=${AE_TAR_GEN:-$BATS_TEST_DIRNAME/../../build/tests/unit/test_tar}

setup_file() {
	[ -x "$GEN" ] || {
		echo "build $GEN first (make check does)" >&2
		return 1
	}
}

@test "GNU tar lists and extracts what the encoder writes, byte-exact" {
	AE_TAR_OUT=t.tar "$GEN" > /dev/null
	run tar -tf t.tar
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | grep -vc 'hdrcharset')" -eq 14 ]
	mkdir out
	tar -xf t.tar -C out --preserve-permissions --no-same-owner 2> err || {
		cat err >&2
		return 1
	}
	cd out/dir
	[ "$(cat file.txt)" = hello ]
	[ "$(stat -c %y file.txt)" = "2023-11-14 22:13:20.123456789 +0000" ] ||
	    [ "$(stat -c %.9Y file.txt)" = 1700000000.123456789 ]
	[ "$(stat -c %Y ..//dir/old)" -eq -1 ]
	local long
	long=$(find . -name file -path './aaaa*')
	[ "${#long}" -gt 255 ]
	[ "$(cat "$long")" = xxxxx ]
	[ -f "caf$(printf '\303\251')" ]
	[ -f "bad$(printf '\377\376')" ]
	[ -f "spaces and
newline" ]
	[ "$(readlink link)" = file.txt ]
	[ "$(readlink longlink)" = "$(printf 't%.0s' $(seq 150))" ]
	[ "$(stat -c %i hard)" = "$(stat -c %i file.txt)" ]
	[ "$(stat -c %a suid)" = 4755 ]
	[ "$(stat -c %.1Y ..//dir)" = 1000000000.5 ] || [ "$(stat -c %Y ../dir)" -eq 1000000000 ]
}

@test "GNU tar sees the big ids and the long owner name" {
	AE_TAR_OUT=t.tar "$GEN" > /dev/null
	run tar -tvf t.tar --numeric-owner
	assert_match 'rwsr-xr-x 3000000/3000001'
	run tar -tvf t.tar
	assert_match 'a-user-name-that-is-longer-than-32-bytes/group'
}

@test "the reader lists GNU tar's pax, gnu and ustar archives as GNU tar does" {
	mkdir -p "src/deep/$(printf 'd%.0s' $(seq 120))/$(printf 'e%.0s' $(seq 130))"
	echo hi > "src/deep/$(printf 'd%.0s' $(seq 120))/$(printf 'e%.0s' $(seq 130))/$(printf 'f%.0s' $(seq 90))"
	echo x > "src/caf$(printf '\303\251')"
	echo y > src/plain
	ln -s plain src/sym
	ln -s "$(printf 'l%.0s' $(seq 140))" src/longsym
	ln src/plain src/hard
	mkdir src/empty
	local fmt
	for fmt in pax gnu; do
		tar --format=$fmt -cf "$fmt.tar" src
		AE_TAR_LIST="$fmt.tar" "$GEN" > ours.txt
		tar --quoting-style=literal -tf "$fmt.tar" > theirs.txt
		diff ours.txt theirs.txt
		[ "$(wc -l < ours.txt)" -ge 9 ]
	done
	# ustar cannot hold the long name or link: GNU tar skips those
	tar --format=ustar -cf ustar.tar src 2>/dev/null || true
	AE_TAR_LIST=ustar.tar "$GEN" > ours.txt
	tar --quoting-style=literal -tf ustar.tar > theirs.txt
	diff ours.txt theirs.txt
}

@test "the reader refuses a truncated GNU tar archive" {
	mkdir src
	head -c 100000 /dev/urandom > src/a
	tar -cf t.tar src
	head -c 50000 t.tar > cut.tar
	run env AE_TAR_LIST=cut.tar "$GEN"
	[ "$status" -eq 1 ]
	[[ $output =~ "ends before its end marker" ]]
}
