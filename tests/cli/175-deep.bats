#!/usr/bin/env bats
# Trees deeper than the stack and than PATH_MAX (issue 22): the walk of
# -c and the extraction of -x both go one directory at a time, with their
# state on the heap.  A tree 850 levels deep once killed -c with SIGSEGV
# (10 KiB of stack a level) and left its temp file behind.  The depth
# comes from AE_TEST_SCALE: 3,000 levels at the quick scale (names of
# 6,000 bytes, past PATH_MAX), 5,000 at the full one; a multiple of
# 1,000, as tree_tool.py puts a file every 1,000 levels.

load test_helper

DEPTH=$(scaled 3000 5000)

TOOL=$BATS_TEST_DIRNAME/tree_tool.py

setup() {
	test_dir || return 1
	export AESCRYPT_PASSPHRASE=deep
}

teardown() {
	rm -rf "$T"
}

@test "a tree thousands of levels deep round-trips through -c and -x, as GNU tar lists it" {
	/usr/bin/python3 "$TOOL" deep tree "$DEPTH"
	run_aescrypt 0 -c "${FAST_KDF[@]}" -f a.aes tree
	assert_no_output . .a.aes
	# tree/, DEPTH - 1 directories below it, a file every 1,000
	# levels and a symlink
	run_aescrypt 0 -t -f a.aes
	[ "$(printf '%s\n' "$output" | wc -l)" -eq $((DEPTH + DEPTH / 1000 + 1)) ]
	# the longest name: tree/, the directories, the link (10,004
	# bytes at 5,000 levels)
	[ "$(printf '%s\n' "$output" | awk '{ print length }' | sort -n | tail -1)" -eq $((2 * DEPTH + 4)) ]
	"$AESCRYPT" -t -f a.aes > ours
	"$AESCRYPT" -d a.aes | tar -t > gnu
	cmp ours gnu
	mkdir out
	run_aescrypt 0 -x -p -f a.aes -C out
	/usr/bin/python3 "$TOOL" same tree out/tree
}

@test "a tree thousands of levels deep made by GNU tar is extracted, and an -x of part of it too" {
	/usr/bin/python3 "$TOOL" deep tree "$DEPTH"
	tar -cf t.tar tree
	"$AESCRYPT" -e "${FAST_KDF[@]}" < t.tar > t.aes
	mkdir out
	run_aescrypt 0 -x -p -f t.aes -C out
	/usr/bin/python3 "$TOOL" same tree out/tree
	# --strip-components into the middle of the chain
	mkdir part
	run_aescrypt 0 -x -p --strip-components $((DEPTH / 2)) -f t.aes -C part
	# the files below the middle
	[ "$(find part -name f -type f | wc -l)" -eq $((DEPTH / 1000 - DEPTH / 2000)) ]
}
