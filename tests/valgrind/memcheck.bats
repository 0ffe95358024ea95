#!/usr/bin/env bats
# aescrypt under valgrind memcheck: the stream round trip and an archive
# round trip, with no memory error and no leak.  (Under valgrind 3.19,
# openat2 is not available, so -x here also runs the O_NOFOLLOW walk.)
# Run by make check-valgrind, against the normal build.

load ../cli/test_helper

VG=(valgrind -q --error-exitcode=99 --leak-check=full
    --errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect)

setup() {
	command -v valgrind > /dev/null || skip "valgrind is not installed"
	test_dir || return 1
	"$AESCRYPT" --gen-key k
	head -c 700000 /dev/urandom > in.bin
	seq 1 50000 >> in.bin
}

@test "memcheck: -e then -d (key file and passphrase), no errors, no leaks" {
	run "${VG[@]}" "$AESCRYPT" -e -q -j2 -k k --chunk-size 64K -o c.aes in.bin
	[ "$status" -eq 0 ] || { echo "$output" >&2; return 1; }
	run "${VG[@]}" "$AESCRYPT" -d -q -j2 -k k -o out.bin c.aes
	[ "$status" -eq 0 ] || { echo "$output" >&2; return 1; }
	cmp in.bin out.bin
	AESCRYPT_PASSPHRASE=pw run "${VG[@]}" "$AESCRYPT" -e -q "${FAST_KDF[@]}" -o p.aes in.bin
	[ "$status" -eq 0 ] || { echo "$output" >&2; return 1; }
	AESCRYPT_PASSPHRASE=pw run "${VG[@]}" "$AESCRYPT" -d -q -o out2.bin p.aes
	[ "$status" -eq 0 ] || { echo "$output" >&2; return 1; }
	cmp in.bin out2.bin
}

@test "memcheck: -e --zstd then -d, and a damaged zstd chunk, no errors, no leaks" {
	"$AESCRYPT" --version | grep -q '^libzstd' || skip "built without zstd"
	run "${VG[@]}" "$AESCRYPT" -e -q -j2 -k k --zstd --chunk-size 256K -o z.aes in.bin
	[ "$status" -eq 0 ] || { echo "$output" >&2; return 1; }
	run "${VG[@]}" "$AESCRYPT" -d -q -j2 -k k -o out.bin z.aes
	[ "$status" -eq 0 ] || { echo "$output" >&2; return 1; }
	cmp in.bin out.bin
	flip_byte z.aes 300000
	run "${VG[@]}" "$AESCRYPT" -d -q -j2 -k k -o out2.bin z.aes
	[ "$status" -eq 4 ] || { echo "$output" >&2; return 1; }
	[ ! -e out2.bin ]
}

@test "memcheck: a damaged file fails cleanly, no errors, no leaks" {
	"$AESCRYPT" -e -q -k k --chunk-size 64K -o c.aes in.bin
	flip_byte c.aes 300000
	run "${VG[@]}" "$AESCRYPT" -d -q -j2 -k k -o out.bin c.aes
	[ "$status" -eq 4 ] || { echo "$output" >&2; return 1; }
	[ ! -e out.bin ]
}

@test "memcheck: -c, -t and -x, no errors, no leaks" {
	mkdir -p src/d && cp in.bin src/d/ && ln -s d/in.bin src/link
	run "${VG[@]}" "$AESCRYPT" -c -q -j2 -k k -f a.aes src
	[ "$status" -eq 0 ] || { echo "$output" >&2; return 1; }
	run "${VG[@]}" "$AESCRYPT" -t -v -k k -f a.aes
	[ "$status" -eq 0 ] || { echo "$output" >&2; return 1; }
	mkdir x
	run "${VG[@]}" "$AESCRYPT" -x -q -j2 -k k -f a.aes -C x
	[ "$status" -eq 0 ] || { echo "$output" >&2; return 1; }
	cmp x/src/d/in.bin in.bin
	[ -L x/src/link ]
}
