#!/usr/bin/env bats
# Flip one byte at a time in each part of a container and check that
# every change is caught with the error for that part, that the exit
# status is the "corrupt" one, and that no output file is left behind.
# Each test queues its cases (expect_fail) and runs them at once
# (check_cases: flip_cases.py, in process where the build has
# tests/inproc/): 370 cases were 2,400 processes of aescrypt, od, dd
# and the shell.
#
# The file: a key-file slot and a passphrase slot, 64 KiB chunks, three
# chunks of random data (stored, so offsets are fixed):
#   0      prefix (magic, version, length, type, chunk size, count, salt)
#   30     key-file slot (83 bytes)
#   113    passphrase slot (95 bytes)
#   208    CRC-32, 212 header MAC, 244 first chunk
#   chunk records: 5-byte frame, 65536 bytes, 16-byte tag

load test_helper

setup_file() {
	D=$(mktemp -d "${BATS_TMPDIR:-/tmp}/aescrypt-tamper.XXXXXX")
	export D
	"$AESCRYPT" --gen-key "$D/k"
	printf 'pw\n' > "$D/pw"
	head -c $((65536 * 2 + 1000)) /dev/urandom > "$D/in.bin"
	AESCRYPT_PASSPHRASE=pw "$AESCRYPT" -e -k "$D/k" -P "${FAST_KDF[@]}" \
	    --chunk-size 64K -o "$D/c.aes" "$D/in.bin"
}

teardown_file() {
	rm -rf "$D"
}

# expect_fail OFFSET EXIT REGEX [KEYARGS...]: a case for check_cases: the
# container with byte OFFSET xored with 0x01 must fail decryption with
# exit EXIT, a message matching REGEX, and no output file left.
expect_fail() {
	local off=$1 rc=$2 re=$3
	shift 3
	[ $# -gt 0 ] || set -- -k "$D/k"
	local IFS=$'\t'
	printf '%s\n' "$off	1	$rc	$re	$*" >> cases
}

# check_cases: run the cases queued by expect_fail, in one process where
# the build has tests/inproc/ (flip_cases.py); every one must hold, and
# there must be some.
check_cases() {
	run /usr/bin/python3 "$BATS_TEST_DIRNAME/flip_cases.py" "$AESCRYPT" "$D/c.aes" "$T" < cases
	echo "# ${lines[0]}" >&3
	[ "$status" -eq 0 ] || { echo "$output" >&2; return 1; }
	[[ ${lines[0]} =~ ^[1-9][0-9]*\ cases,\ 0\ wrong$ ]]
}

@test "the untouched file decrypts (the control)" {
	run_aescrypt 0 -d -k "$D/k" -o out.bin "$D/c.aes"
	assert_same "$D/in.bin" out.bin
	# header, records, the header's copy and its length
	[ "$(stat -c %s "$D/c.aes")" -eq $((244 + 3 * 21 + 65536 * 2 + 1000 + 246)) ]
}

@test "magic: every byte" {
	for off in 0 1 2 3 4 5 6 7; do
		expect_fail $off 4 'not an aescrypt container \(bad magic\)'
	done
	check_cases
}

@test "version byte" {
	expect_fail 8 4 'unsupported format version 0'
	check_cases
}

@test "header length field" {
	expect_fail 9 4 'header length out of range|header checksum mismatch'
	expect_fail 10 4 'header is truncated|header checksum mismatch|data after|chunk 0'
	check_cases
}

@test "every byte of the prefix and both key slots is caught by the checksum" {
	for off in $(seq 11 207); do
		expect_fail $off 4 'header checksum mismatch \(the header is corrupt\)'
	done
	check_cases
}

@test "every byte of the CRC itself" {
	for off in 208 209 210 211; do
		expect_fail $off 4 'header checksum mismatch'
	done
	check_cases
}

@test "every byte of the header MAC, with either key" {
	for off in $(seq 212 243); do
		expect_fail $off 4 'header failed authentication \(it was modified\)'
	done
	expect_fail 243 4 'header failed authentication' --passphrase-file "$D/pw"
	check_cases
}

@test "chunk frames: flags and length bytes of each chunk" {
	local c base
	for c in 0 1 2; do
		base=$((244 + c * 65557))
		# final bit: the nonce changes, so authentication fails
		expect_fail $base 4 "chunk $c at offset $base failed authentication"
		# length bytes
		for off in $((base + 1)) $((base + 2)) $((base + 3)); do
			expect_fail $off 4 "chunk $c at offset $base (has a length over the chunk size|is truncated|failed authentication)"
		done
		expect_fail $((base + 4)) 4 "chunk $c at offset $base (has a length over the chunk size|is truncated|failed authentication)"
	done
	check_cases
}

@test "ciphertext: 20 bytes spread over each chunk" {
	local c base i
	for c in 0 1 2; do
		base=$((244 + c * 65557))
		for i in $(seq 0 19); do
			off=$((base + 5 + (i * 997) % (c == 2 ? 1000 : 65536)))
			expect_fail $off 4 "chunk $c at offset $base failed authentication"
		done
	done
	check_cases
}

@test "tags: every byte of every chunk's tag" {
	local c base end
	for c in 0 1 2; do
		base=$((244 + c * 65557))
		end=$(( c == 2 ? base + 5 + 1000 : base + 5 + 65536 ))
		for off in $(seq $end $((end + 15))); do
			expect_fail $off 4 "chunk $c at offset $base failed authentication"
		done
	done
	check_cases
}
