#!/usr/bin/env bats
# Faults (issue 7): a full disk, a closed pipe, unreadable input, short
# reads from a pipe, a read-only target, and tight memory limits.  Each
# must end in a clear message and a documented exit status, with no
# corrupt file under a final name.  (Signals, and files that change
# while read, are in 080-archive.bats; /dev/full and EPIPE for -e/-d in
# 020-stream.bats.)

load test_helper

setup() {
	test_dir || return 1
	"$AESCRYPT" --gen-key k
	mkdir src
	head -c 3000000 /dev/urandom > src/big.bin
	echo small > src/small.txt
	"$AESCRYPT" -c -q -k k -f a.aes -C src .
}

teardown() {
	if [ -n "${MNT:-}" ]; then
		umount "$MNT" 2> /dev/null || true
	fi
	cd / && rm -rf "$T"
}

# small_fs: a 1 MiB tmpfs at $MNT, or skip (it needs root and mount).
small_fs() {
	MNT=$T/small
	mkdir "$MNT"
	mount -t tmpfs -o size=1m tmpfs "$MNT" 2> /dev/null || {
		MNT=
		skip "cannot mount a small tmpfs here"
	}
}

@test "a full disk on -d -o: exit 6, no output, no temp file" {
	small_fs
	run_aescrypt 6 -d -q -k k -o "$MNT/out.tar" a.aes
	assert_match "error: $MNT/out.tar: writing output: No space left on device"
	assert_no_output "$MNT" out.tar
}

@test "a full disk on -c -f: exit 6, no archive, no temp file" {
	small_fs
	run_aescrypt 6 -c -q -0 -k k -f "$MNT/b.aes" -C src .
	assert_match "No space left on device"
	assert_no_output "$MNT" b.aes
}

@test "a full disk on -x: exit 6, the member is named, nothing half-written" {
	small_fs
	run_aescrypt 6 -x -q -k k -f a.aes -C "$MNT"
	assert_match "error: \./big\.bin: No space left on device"
	[ ! -e "$MNT/big.bin" ]
	assert_no_temps "$MNT"
}

@test "a closed pipe on -c, -t and -x -O: exit 141, silent" {
	run bash -c "'$AESCRYPT' -c -q -k k -C src . | head -c 10 > /dev/null; exit \${PIPESTATUS[0]}"
	[ "$status" -eq 141 ]
	[ -z "$output" ]
	# enough members that the listing cannot all fit in the pipe
	mkdir many
	(cd many && seq -f 'member-with-a-long-name-%05g' 1 4000 | xargs touch)
	"$AESCRYPT" -c -q -k k -f many.aes many
	run bash -c "set -o pipefail; '$AESCRYPT' -t -v -k k -f many.aes | head -c 1 > /dev/null"
	[ "$status" -eq 141 ]
	[ -z "$output" ]
	run bash -c "set -o pipefail; '$AESCRYPT' -x -O -k k -f a.aes | head -c 1 > /dev/null"
	[ "$status" -eq 141 ]
	[ -z "$output" ]
}

@test "an unreadable input for -e is an I/O error naming it (exit 6)" {
	echo secret > unreadable && chmod 000 unreadable
	mkdir -p o && chmod 777 o && chmod 755 "$T"
	cp k o/k && chmod 644 o/k
	as_unprivileged "$AESCRYPT" -e -q -k "$T/o/k" -o "$T/o/x.aes" "$T/unreadable"
	[ "$status" -eq 6 ]
	assert_match "error: $T/unreadable: Permission denied"
	assert_no_output o x.aes
}

@test "short reads from a pipe: -d and -x get every byte right" {
	# The container dribbles in pieces of 1 to 7 bytes, with a pause
	# now and then (the sleep makes reads come back short and empty
	# between pieces; nothing waits on it).
	local dribble='import sys, time
data = open(sys.argv[1], "rb").read()
i, n = 0, 1
while i < len(data):
    sys.stdout.buffer.write(data[i:i + n]); sys.stdout.buffer.flush()
    i += n; n = n % 7 + 1
    if i % 100000 < 7: time.sleep(0.01)'
	/usr/bin/python3 -c "$dribble" a.aes | "$AESCRYPT" -d -q -k k > out.tar
	mkdir x
	tar -xf out.tar -C x
	cmp x/big.bin src/big.bin
	rm -r x && mkdir x
	/usr/bin/python3 -c "$dribble" a.aes | "$AESCRYPT" -x -q -k k -C x
	cmp x/big.bin src/big.bin
}

@test "-x into a read-only directory: a warning per member, exit 1, no crash" {
	mkdir ro && chmod 555 ro && chmod 755 "$T" && chmod 644 a.aes k
	as_unprivileged "$AESCRYPT" -x -q -k "$T/k" -f "$T/a.aes" -C "$T/ro"
	[ "$status" -eq 1 ]
	assert_match "warning: \./big\.bin: cannot create it: Permission denied; not extracted"
	assert_match "some members were not extracted"
	[ -z "$(ls -A ro)" ]
}

@test "memory: -d and -x succeed under ulimit -v 64 MiB (peak ~33 MB at -j2)" {
	# ASan and TSan reserve terabytes of address space for shadow memory
	[ -z "${AE_SANITIZED:-}" ] || skip "address-space limits do not apply to sanitizer builds"
	run bash -c "ulimit -v 65536; '$AESCRYPT' -d -q -j2 -k k -o out.tar a.aes"
	[ "$status" -eq 0 ] || { echo "$output" >&2; return 1; }
	mkdir x
	run bash -c "ulimit -v 65536; '$AESCRYPT' -x -q -j2 -k k -f a.aes -C x"
	[ "$status" -eq 0 ] || { echo "$output" >&2; return 1; }
	cmp x/big.bin src/big.bin
}

@test "memory: a huge KDF cost or chunk size is refused before any large allocation" {
	[ -z "${AE_SANITIZED:-}" ] || skip "address-space limits do not apply to sanitizer builds"
	# 4 GiB of Argon2id, under a 64 MiB address-space limit: the cap
	# refuses it (exit 5), not the allocator (which would be exit 6).
	run bash -c "ulimit -v 65536; AESCRYPT_PASSPHRASE=x '$AESCRYPT' -d -q '$SAMPLES/bad-kdf-cost.aes'"
	[ "$status" -eq 5 ]
	assert_match "asks for Argon2id memory 4 GiB, over the limit"
	# chunk_log2 = 31 with the CRC made right: refused as a bad header
	/usr/bin/python3 - a.aes big-chunk.aes <<'PY'
import sys, struct, zlib
d = bytearray(open(sys.argv[1], "rb").read())
L = struct.unpack(">H", d[9:11])[0]
d[12] = 31
d[L - 36:L - 32] = struct.pack(">I", zlib.crc32(bytes(d[:L - 36])))
open(sys.argv[2], "wb").write(d)
PY
	run bash -c "ulimit -v 65536; '$AESCRYPT' -d -q -k k -o out2.tar big-chunk.aes"
	[ "$status" -eq 4 ]
	assert_match "chunk"
	[ ! -e out2.tar ]
}
