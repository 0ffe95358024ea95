#!/usr/bin/env bats
# Trees deeper than the stack and than PATH_MAX (issue 22): the walk of
# -c and the extraction of -x both go one directory at a time, with their
# state on the heap.  A tree 850 levels deep once killed -c with SIGSEGV
# (10 KiB of stack a level) and left its temp file behind.

load test_helper

TOOL=$BATS_TEST_DIRNAME/tree_tool.py

setup() {
	test_dir || return 1
	export AESCRYPT_PASSPHRASE=deep
}

teardown() {
	rm -rf "$T"
}

@test "a tree 5,000 levels deep round-trips through -c and -x, as GNU tar lists it" {
	/usr/bin/python3 "$TOOL" deep tree 5000
	run_aescrypt 0 -c "${FAST_KDF[@]}" -f a.aes tree
	assert_no_output . .a.aes
	# 4,999 directories below tree/, five files and a symlink
	run_aescrypt 0 -t -f a.aes
	[ "$(printf '%s\n' "$output" | wc -l)" -eq 5006 ]
	# the longest name: tree/, 4,999 directories, the link: 10,004 bytes
	[ "$(printf '%s\n' "$output" | awk '{ print length }' | sort -n | tail -1)" -eq 10004 ]
	"$AESCRYPT" -t -f a.aes > ours
	"$AESCRYPT" -d a.aes | tar -t > gnu
	cmp ours gnu
	mkdir out
	run_aescrypt 0 -x -p -f a.aes -C out
	/usr/bin/python3 "$TOOL" same tree out/tree
}

@test "a tree 5,000 levels deep made by GNU tar is extracted, and an -x of part of it too" {
	/usr/bin/python3 "$TOOL" deep tree 5000
	tar -cf t.tar tree
	"$AESCRYPT" -e "${FAST_KDF[@]}" < t.tar > t.aes
	mkdir out
	run_aescrypt 0 -x -p -f t.aes -C out
	/usr/bin/python3 "$TOOL" same tree out/tree
	# --strip-components into the middle of the chain
	mkdir part
	run_aescrypt 0 -x -p --strip-components 2500 -f t.aes -C part
	[ "$(find part -name f -type f | wc -l)" -eq 3 ]
}
