#!/usr/bin/env bats
# Hostile archives: tar files built with Python's tarfile
# (hostile_tar.py) that try to write outside the target directory,
# encrypted with aescrypt -e and extracted with aescrypt -x -C dest.
# Each must be refused or neutralised with a warning (exit 1), and
# nothing outside dest may change.  Also: archives cut or damaged inside
# a member leave no file under its name.

load test_helper

PY=/usr/bin/python3
GEN=$BATS_TEST_DIRNAME/hostile_tar.py

setup() {
	test_dir || return 1
	export AESCRYPT_PASSPHRASE=hostile
	mkdir dest outside
	echo original > outside/target
	echo keep > outside-file
	cp /etc/passwd passwd.before
	snapshot_outside > outside.before
}

# Everything outside dest: the outside dir, the test dir's other files,
# and /etc/passwd.
snapshot_outside() {
	(cd "$T" && find . -path ./dest -prune -o -path ./outside.before -prune \
	    -o -path ./outside.after -prune -o -path ./out.txt -prune \
	    -o -path ./archive.aes -prune -o -printf '%p %y %s %m\n' | LC_ALL=C sort
	    cat outside/target outside-file)
	cmp /etc/passwd "$T/passwd.before" && echo "passwd unchanged"
}

# hostile CASE: build, encrypt and extract it; $status and $output are
# aescrypt -x's.
hostile() {
	"$PY" "$GEN" "$1" "$T/outside" > case.tar
	"$AESCRYPT" -e "${FAST_KDF[@]}" < case.tar > archive.aes
	rm case.tar
	run "$AESCRYPT" -x -f archive.aes -C dest
}

assert_outside_untouched() {
	snapshot_outside > outside.after
	if ! diff outside.before outside.after; then
		echo "something outside dest changed" >&2
		return 1
	fi
	[ ! -e "$T/outside/pwned" ]
	[ ! -e "$T/pwned" ]
	[ ! -e /pwned ]
	assert_no_temps dest
}

@test "../pwned is refused" {
	hostile dotdot
	[ "$status" -eq 1 ]
	assert_match "warning: \.\./pwned: its name contains '\.\.'; not extracted"
	assert_outside_untouched
	[ -z "$(ls -A dest)" ]
}

@test "a/../../pwned is refused" {
	hostile dotdot-deep
	[ "$status" -eq 1 ]
	assert_match "contains '\.\.'; not extracted"
	assert_outside_untouched
}

@test "an absolute name is extracted beneath the target, with a warning" {
	hostile absolute
	[ "$status" -eq 0 ]
	assert_match "removing leading '/' from member names"
	assert_outside_untouched
	[ "$(cat "dest/${T#/}/outside/pwned")" = pwned ]
}

@test "a symlink out, then a file through it: the file is refused" {
	hostile symlink-write
	[ "$status" -eq 1 ]
	assert_match "l/pwned: cannot open its directory: a component of the path is a symbolic link; not extracted"
	assert_outside_untouched
	[ -L dest/l ]
}

@test "a chain of symlinks out, then a file through it: refused" {
	hostile symlink-chain
	[ "$status" -eq 1 ]
	assert_match "l1/pwned: .*symbolic link; not extracted"
	assert_outside_untouched
}

@test "a hard link to /etc/passwd is refused, and the file after it is new" {
	hostile hardlink-abs
	[ "$status" -eq 1 ]
	assert_match "h: hard link to '/etc/passwd', which is not a file extracted earlier"
	assert_outside_untouched
	[ "$(cat dest/h)" = overwritten ]
	[ "$(stat -c %h dest/h)" -eq 1 ]
}

@test "a hard link to ../outside-file is refused" {
	hostile hardlink-dotdot
	[ "$status" -eq 1 ]
	assert_match "its link target contains '\.\.'"
	assert_outside_untouched
	[ "$(cat dest/h)" = overwritten ]
}

@test "a hard link to a symlink that points out (CVE-2025-4330) is refused" {
	hostile hardlink-to-symlink
	[ "$status" -eq 1 ]
	assert_match "h: hard link to 's', which is not a file extracted earlier"
	assert_outside_untouched
	[ "$(cat "$T/outside/target")" = original ]
	[ -L dest/s ]
	[ "$(cat dest/h)" = overwritten ]
}

@test "a directory replaced by a symlink: the files after it are refused" {
	hostile emptydir-then-symlink
	[ "$status" -eq 1 ]
	assert_match "d/pwned: .*symbolic link; not extracted"
	assert_outside_untouched
}

@test "a symlink over a directory with files in it is refused" {
	hostile dir-then-symlink
	[ "$status" -eq 1 ]
	assert_match "warning: d: a directory that is not empty is in the way; not extracted"
	assert_outside_untouched
	[ -d dest/d ]
	[ ! -L dest/d ]
	# d/pwned lands inside dest, where d is still a real directory.
	[ -f dest/d/pwned ]
	[ -f dest/d/ok ]
}

@test "a hard link through a symlink is refused" {
	hostile hardlink-through-symlink
	[ "$status" -eq 1 ]
	assert_match "h: hard link to 'l/target', which is not a file extracted earlier"
	assert_outside_untouched
	[ ! -e dest/h ]
}

@test "a device node is made by root only, as GNU tar, inside the target; a user gets a warning" {
	hostile device
	if [ "$(id -u)" -eq 0 ]; then
		[ "$status" -eq 0 ]
		[ -c dest/null ]
		[ "$(stat -c %t,%T dest/null)" = 1,3 ]
		rm dest/null
	fi
	assert_outside_untouched
	chmod 755 "$T" && chmod 777 dest
	as_unprivileged "$AESCRYPT" -x -f archive.aes -C dest
	[ "$status" -eq 1 ]
	assert_match "null: a device node, which only root can make; not extracted"
	[ ! -e dest/null ]
	assert_no_temps dest
}

@test "device nodes and FIFOs go by the path rules: no .., no symlink in the way, no absolute name" {
	hostile device-paths
	assert_outside_untouched
	[ ! -e "$T/pwned" ]
	[ ! -e "$T/outside/pwned" ]
	[ ! -e "$T/outside/pwned-fifo" ]
	[ ! -e /abs-dev ]
	# the absolute name is made relative, as every name is
	if [ "$(id -u)" -eq 0 ]; then
		[ -c dest/abs-dev ]
	fi
	assert_no_temps dest
}

@test "setuid and setgid bits are dropped unless -p is given (or, as GNU tar, by root unless --no-same-permissions is)" {
	hostile setuid
	[ "$status" -eq 0 ]
	if [ "$(id -u)" -eq 0 ]; then
		# root restores modes exactly by default, as GNU tar does
		[ "$(stat -c %a dest/suid)" = 4755 ]
		rm -r dest/*
		run_aescrypt 0 -x --no-same-permissions -f archive.aes -C dest
	fi
	[ "$(stat -c %a dest/suid)" = 755 ]
	[ "$(stat -c %a dest/sgid)" = 755 ]
	rm -r dest/*
	run_aescrypt 0 -x -p -f archive.aes -C dest
	[ "$(stat -c %a dest/suid)" = 4755 ]
	[ "$(stat -c %a dest/sgid)" = 2755 ]
	# not root: -x drops them, as GNU tar does for a user
	rm -r dest/*
	chmod 755 "$T" && chmod 777 dest
	as_unprivileged "$AESCRYPT" -x -f archive.aes -C dest
	[ "$status" -eq 0 ]
	[ "$(stat -c %a dest/suid)" = 755 ]
}

@test "an existing symlink at a member's name is replaced, not written through" {
	ln -s "$T/outside/target" dest/victim
	mkdir src && echo new > src/victim
	"$AESCRYPT" -c "${FAST_KDF[@]}" -C src victim > archive.aes
	run_aescrypt 0 -x -f archive.aes -C dest
	[ ! -L dest/victim ]
	[ "$(cat dest/victim)" = new ]
	[ "$(cat "$T/outside/target")" = original ]
}

@test "a symlink in the target path given by the user is not followed either" {
	# dest/sub -> outside, and the archive has sub/file.
	ln -s "$T/outside" dest/sub
	mkdir -p src/sub && echo x > src/sub/file
	"$AESCRYPT" -c "${FAST_KDF[@]}" -C src sub/file > archive.aes
	run_aescrypt 1 -x -f archive.aes -C dest
	assert_match "sub/file: .*symbolic link; not extracted"
	[ ! -e "$T/outside/file" ]
}

# ---- damage inside a member ----

# A source tree whose middle member spans many chunks (64 KiB chunks).
make_three() {
	mkdir src
	echo first > src/a-first
	head -c 1000000 /dev/urandom > src/b-big
	echo last > src/c-last
	"$AESCRYPT" -c -0 --chunk-size 64K "${FAST_KDF[@]}" -C src . > archive.aes
}

@test "an archive cut inside a member leaves no file under its name" {
	make_three
	local size cut
	size=$(stat -c %s archive.aes)
	for cut in 300000 $((size / 2)) $((size - 200000)); do
		rm -rf dest && mkdir dest
		head -c "$cut" archive.aes > cut.aes
		run_aescrypt 4 -x -f cut.aes -C dest
		assert_match "b-big: not extracted: the archive ends or fails inside it"
		assert_match "truncated|ends"
		[ "$(cat dest/a-first)" = first ]
		[ ! -e dest/b-big ]
		[ ! -e dest/c-last ]
		assert_no_temps dest
	done
}

@test "a damaged chunk inside a member leaves no file under its name" {
	make_three
	# Flip a byte about 500 KB in: inside b-big's data.
	flip_byte archive.aes 500000
	run_aescrypt 4 -x -f archive.aes -C dest
	assert_match "chunk [0-9]+ at offset [0-9]+ .*(authenticat|modified)"
	assert_match "b-big: not extracted"
	[ "$(cat dest/a-first)" = first ]
	[ ! -e dest/b-big ]
	assert_no_temps dest
}

@test "a wrong passphrase creates nothing" {
	make_three
	AESCRYPT_PASSPHRASE=wrong run_aescrypt 3 -x -f archive.aes -C dest
	[ -z "$(ls -A dest)" ]
}

@test "a FIFO is made, as GNU tar makes it; an unknown member type is skipped; the members around them are extracted" {
	hostile fifo-and-unknown
	[ "$status" -eq 1 ]
	refute_match "fifo"
	assert_match "warning: odd: unknown member type 'Z'; not extracted"
	[ -p dest/fifo ]
	[ ! -e dest/odd ]
	[ "$(cat dest/before)" = pwned ]
	[ "$(cat dest/after)" = pwned ]
	assert_outside_untouched
}

@test "a bad tar header inside authentic data: exit 4, named, earlier members kept" {
	mkdir src && echo one > src/a && echo two > src/b
	tar --format=ustar -cf t.tar -C src a b
	# the second header's checksum field, made wrong
	printf '0000000' | dd of=t.tar bs=1 seek=$((1024 + 148)) conv=notrunc status=none
	"$AESCRYPT" -e "${FAST_KDF[@]}" < t.tar > archive.aes
	run "$AESCRYPT" -x -f archive.aes -C dest
	[ "$status" -eq 4 ]
	assert_match "error: archive.aes: the member at byte 1024 of the archive's tar stream: bad tar header checksum"
	[ "$(cat dest/a)" = one ]
	[ ! -e dest/b ]
	assert_no_temps dest
	run "$AESCRYPT" -t -f archive.aes
	[ "$status" -eq 4 ]
	[ "${lines[0]}" = a ]
}

@test "a stream container cut inside its first chunk: -t reports the truncation, not 'not an archive'" {
	mkdir src && head -c 200000 /dev/urandom > src/a
	tar -cf t.tar -C src a
	"$AESCRYPT" -e -0 "${FAST_KDF[@]}" < t.tar > full.aes
	head -c 1000 full.aes > cut.aes
	run "$AESCRYPT" -t -f cut.aes
	[ "$status" -eq 4 ]
	assert_match "truncated"
	refute grep -q "not an archive" <<< "$output"
}

# ---- names at the reader's limits (issue 13) ----
# crafted_tar.py builds these by hand; check-asan runs them under
# AddressSanitizer, where a GNU long name one byte over the cap (then
# 4097 bytes) used to be a
# stack-buffer-overflow in extract.c's normalize().

CRAFT=$BATS_TEST_DIRNAME/crafted_tar.py

# crafted CASE MODE: encrypt crafted_tar.py's CASE and run aescrypt MODE
# on it (-x into dest, or -t); $status and $output are aescrypt's.
crafted() {
	"$PY" "$CRAFT" "$1" > case.tar
	"$AESCRYPT" -e "${FAST_KDF[@]}" < case.tar > archive.aes
	rm case.tar
	if [ "$2" = -x ]; then
		run "$AESCRYPT" -x -f archive.aes -C dest
	else
		run "$AESCRYPT" -t -f archive.aes
	fi
}

@test "a GNU long name and long link one byte over the cap with no NUL: refused with its position, every member type, -x and -t" {
	for t in 0 1 2 3 5; do
		for mode in -x -t; do
			crafted lk-over-type$t $mode
			echo "type $t $mode: $status $output"
			[ "$status" -eq 4 ]
			assert_match "aescrypt: error: archive\.aes: the member at byte 0 of the archive's tar stream: tar member name is longer than 65535 bytes"
			refute_match 'AddressSanitizer|runtime error'
		done
		[ -z "$(ls -A dest)" ]
	done
	assert_outside_untouched
}

@test "names one byte over the cap, from 'L', 'K' and pax records, are refused; the link name is named as such; a NUL in a pax name is refused" {
	for c in l-over-nonul l-over-nul pax-path-over l-huge; do
		crafted $c -x
		[ "$status" -eq 4 ]
		assert_match "tar member name is longer than 65535 bytes"
	done
	for c in k-over-nonul pax-link-over; do
		crafted $c -x
		[ "$status" -eq 4 ]
		assert_match "tar member's link name is longer than 65535 bytes"
	done
	crafted pax-path-nul -x
	[ "$status" -eq 4 ]
	assert_match "the member at byte 0 of the archive's tar stream: tar member name contains a NUL byte"
	[ -z "$(ls -A dest)" ]
	assert_outside_untouched
}

@test "names at the cap are read: a component too long for the file system is skipped with its error, the next member extracts" {
	for c in l-cap-nul l-cap-nonul pax-path-cap l-4097-nonul; do
		rm -rf dest && mkdir dest
		crafted $c -x
		[ "$status" -eq 1 ]
		assert_match "File name too long; not extracted"
		[ "$(cat dest/ok)" = ok ]
	done
	crafted l-deep -t
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | head -1 | wc -c)" -eq 10000 ]
	rm -rf dest && mkdir dest
	crafted l-deep -x
	[ "$status" -eq 0 ]
	# 4,999 directories deep, past PATH_MAX: read back one directory
	# at a time
	[ "$("$PY" -c '
import os, sys
fd = os.open("dest", os.O_RDONLY)
for _ in range(4999):
    fd = os.open("d", os.O_RDONLY, dir_fd=fd)
print(os.read(os.open("f", os.O_RDONLY, dir_fd=fd), 100).decode(), end="")
')" = hi ]
	assert_outside_untouched
}
