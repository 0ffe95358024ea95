#!/usr/bin/env bats
# Post-quantum hybrid recipients (issue 39, format 4.8): ML-KEM-768 +
# X25519 (X-Wing) keys from --gen-identity --pq, in age 1.3's text forms;
# round trips through -e/-d and -c/-x/-t from pipes and files, beside
# other recipients; the header budget; and the slot's failures: a changed
# ciphertext (implicit rejection: a wrong key), a wrong length and a
# low-order X25519 half (malformed).

load test_helper

setup() {
	test_dir
	unset AESCRYPT_PASSPHRASE
	head -c 300000 /dev/urandom > data.bin
	mkdir -p tree/sub && echo one > tree/a && echo two > tree/sub/b
}

# fix_crc FILE: recompute the header CRC after a slot byte was changed,
# so the file reaches the slot checks (spec 3.1: CRC-32 of [0, L-36)).
fix_crc() {
	/usr/bin/python3 - "$1" <<'PY'
import struct, sys, zlib
p = sys.argv[1]
b = bytearray(open(p, 'rb').read())
L = struct.unpack('>H', b[9:11])[0]
b[L-36:L-32] = struct.pack('>I', zlib.crc32(bytes(b[:L-36])) & 0xffffffff)
open(p, 'wb').write(b)
PY
}

@test "--gen-identity --pq writes age 1.3's hybrid key format, 0600, and prints the age1pq1 recipient; --pq in any place, never a file name" {
	run_aescrypt 0 --gen-identity pq.txt --pq
	[[ $output =~ ^age1pq1[a-z0-9]{1952}$ ]]
	local r=$output
	[ "$(stat -c %a pq.txt)" = 600 ]
	[ "$(wc -l < pq.txt)" -eq 3 ]
	grep -qx "# public key: $r" pq.txt
	grep -Eq '^AGE-SECRET-KEY-PQ-1[A-Z0-9]{58}$' pq.txt
	# two runs make two different keys
	run_aescrypt 0 --gen-identity pq2.txt --pq
	[ "$output" != "$r" ]
	# --pq before the file, or first, as the README and SYNOPSIS write
	# it (issue 51: --pq was taken for the file name, exit 2)
	run_aescrypt 0 --gen-identity --pq pq3.txt
	[[ $output =~ ^age1pq1 ]]
	grep -q '^AGE-SECRET-KEY-PQ-1' pq3.txt
	run_aescrypt 0 --pq --gen-identity pq4.txt
	grep -q '^AGE-SECRET-KEY-PQ-1' pq4.txt
	# an option is never a file name: none is made, and no file is
	# named after one
	run_aescrypt 2 --gen-identity --pq
	assert_match "--gen-identity needs the file to write"
	run_aescrypt 2 --gen-identity=--pq
	[ ! -e ./--pq ]
	# --pq is for --gen-identity only
	run_aescrypt 2 -e --pq -r "$r" -o x.aes data.bin
	assert_match "--pq goes with --gen-identity"
	[ ! -e x.aes ]
}

@test "a PQ round trip through -e/-d and -c/-x/-t, from pipes and files, beside X25519 and ssh-ed25519 recipients" {
	run_aescrypt 0 --gen-identity pq.txt --pq
	local pq=$output
	run_aescrypt 0 --gen-identity x.txt
	local x=$output
	# -e/-d, file to file and pipe to pipe
	run_aescrypt 0 -e -q -r "$pq" -o d.aes data.bin
	run_aescrypt 0 -d -q -i pq.txt -o out.bin d.aes
	cmp data.bin out.bin
	"$AESCRYPT" -e -q -r "$pq" < data.bin | "$AESCRYPT" -d -q -i pq.txt > out2.bin
	cmp data.bin out2.bin
	run_aescrypt 0 --info d.aes
	assert_match "slot 0: +recipient, ML-KEM-768 \+ X25519, post-quantum"
	run_aescrypt 0 --info=json d.aes
	assert_match '"type":"mlkem768x25519","tag":"[0-9a-f]{8}"'
	# -c/-x/-t with a PQ, an X25519 and an ssh-ed25519 recipient (no
	# passphrase beside them, 4.4); each identity opens it
	local ssh=()
	if command -v ssh-keygen > /dev/null; then
		ssh-keygen -q -t ed25519 -N '' -f ssh.key
		ssh=(-R ssh.key.pub)
	fi
	# -R: a recipients file with a comment, the PQ key (1,959
	# characters on one line) and the X25519 one
	printf '# backup keys\n%s\n%s\n' "$pq" "$x" > keys.txt
	"$AESCRYPT" -c -q -R keys.txt "${ssh[@]}" tree > a.aes
	run_aescrypt 0 --info a.aes
	assert_match "slot 0: +recipient, ML-KEM-768"
	assert_match "slot 1: +recipient, X25519"
	for id in pq.txt x.txt ${ssh:+ssh.key}; do
		run_aescrypt 0 -t -i $id -f a.aes
		assert_match "tree/sub/b"
		rm -rf o && mkdir o
		"$AESCRYPT" -x -q -i $id -C o < a.aes
		cmp tree/sub/b o/tree/sub/b
	done
}

@test "a header holds three PQ slots; a fourth is refused with the arithmetic, before anything is written" {
	local r=()
	for i in 1 2 3 4; do
		run_aescrypt 0 --gen-identity p$i.txt --pq
		r+=(-r "$output")
	done
	run_aescrypt 0 -e -q "${r[@]:0:6}" -o three.aes data.bin
	run_aescrypt 0 -d -q -i p3.txt -o out.bin three.aes
	cmp data.bin out.bin
	[ "$(header_len three.aes)" -eq 3639 ]
	run_aescrypt 2 -e -q "${r[@]}" -o four.aes data.bin
	assert_match "4 recipients need 4830 bytes"
	assert_match "slot takes 1191 bytes, so 3 fit beside the header's own 66"
	[ ! -e four.aes ]
	# beside three PQ slots there is room for four X25519 ones
	local x=()
	for i in 1 2 3 4 5; do
		run_aescrypt 0 --gen-identity x$i.txt
		x+=(-r "$output")
	done
	run_aescrypt 0 -e -q "${r[@]:0:6}" "${x[@]:0:8}" -o seven.aes data.bin
	run_aescrypt 0 -d -q -i x4.txt -o out2.bin seven.aes
	cmp data.bin out2.bin
	run_aescrypt 2 -e -q "${r[@]:0:6}" "${x[@]}" -o eight.aes data.bin
	assert_match "8 recipients need 4134 bytes"
}

@test "a changed PQ ciphertext opens nothing (exit 3); a wrong length or a low-order X25519 half is malformed (exit 4)" {
	run_aescrypt 0 --gen-identity pq.txt --pq
	run_aescrypt 0 -e -q -r "$output" -o d.aes data.bin
	# the slot starts at 30: type, length, tag (4), then the ciphertext
	# (1,088 bytes of ML-KEM, then X25519's 32)
	cp d.aes mlkem.aes
	flip_byte mlkem.aes $((30 + 3 + 4 + 500)) 1
	fix_crc mlkem.aes
	run_aescrypt 3 -d -q -i pq.txt -o out.bin mlkem.aes
	assert_match "no identity matched"
	assert_no_output . out.bin
	cp d.aes x25519.aes
	flip_byte x25519.aes $((30 + 3 + 4 + 1100)) 1
	fix_crc x25519.aes
	run_aescrypt 3 -d -q -i pq.txt -o out.bin x25519.aes
	assert_match "no identity matched"
	assert_no_output . out.bin
	# the X25519 half set to a low-order point (zero): malformed,
	# before any key is tried, even with no identity at all
	cp d.aes low.aes
	dd if=/dev/zero of=low.aes bs=1 seek=$((30 + 3 + 4 + 1088)) count=32 conv=notrunc status=none
	fix_crc low.aes
	run_aescrypt 4 -d -q -i pq.txt -o out.bin low.aes
	assert_match "key slot 0: its ephemeral key is of low order"
	assert_no_output . out.bin
	run_aescrypt 4 --info low.aes
	assert_match "low order"
	# a body one byte short: the wrong length for the type
	cp d.aes short.aes
	printf '\x04\xa3' | dd of=short.aes bs=1 seek=31 conv=notrunc status=none
	fix_crc short.aes
	run_aescrypt 4 -d -q -i pq.txt -o out.bin short.aes
	assert_match "wrong length for its type"
	assert_no_output . out.bin
}

@test "a bad age1pq1 string is refused where it is given: a changed character, a key that fails FIPS 203's check" {
	run_aescrypt 0 --gen-identity pq.txt --pq
	local r=$output
	# one character changed: the checksum fails
	local c=${r:100:1} d=q
	[ "$c" = q ] && d=p
	run_aescrypt 2 -e -r "${r:0:100}$d${r:101}" -o x.aes data.bin
	assert_match "checksum"
	[ ! -e x.aes ]
	# a well-formed string whose ML-KEM key has a coefficient >= q
	local bad
	bad=$(/usr/bin/python3 -c '
import sys; sys.path.insert(0, sys.argv[1]); import aescrypt_v1 as a
print(a.bech32_encode("age1pq", b"\xff" * 1184 + b"\x09" + bytes(31)))' "$BATS_TEST_DIRNAME/../interop")
	run_aescrypt 2 -e -r "$bad" -o x.aes data.bin
	assert_match "not a usable ML-KEM-768 \+ X25519 public key"
	[ ! -e x.aes ]
	# an identity line with a wrong checksum names the file and line (the
	# first data character changed to another: 1 in 32 it was Q already)
	local first to=Q
	first=$(sed -n 's/.*PQ-1\(.\).*/\1/p' pq.txt)
	[ "$first" = Q ] && to=P
	sed "s/PQ-1./PQ-1$to/" pq.txt > badid.txt
	refute cmp -s pq.txt badid.txt
	chmod 600 badid.txt
	run_aescrypt 0 -e -q -r "$r" -o d.aes data.bin
	run_aescrypt 3 -d -q -i badid.txt -o out.bin d.aes
	assert_match "badid.txt: line 3"
	assert_no_output . out.bin
}
