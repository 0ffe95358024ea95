#!/usr/bin/env bats
# ssh-rsa recipients (format/aescrypt-v1.md 4.7): keys made by ssh-keygen
# at 2048, 3072 and 4096 bits, plain and under a passphrase, through
# -e/-d and -c/-x, beside other recipient types, through the interop
# implementation (OpenSSL's OAEP via python3-cryptography) both ways;
# what is refused, and the header's room.

load test_helper

PY=/usr/bin/python3
IMPL=$BATS_TEST_DIRNAME/../interop/aescrypt_v1.py

# The keys are made once for the file (ssh-keygen takes about a second
# for a 4096-bit one); each test copies what it uses into its own
# directory.
setup_file() {
	command -v ssh-keygen > /dev/null || return 0
	K=$BATS_FILE_TMPDIR/keys
	mkdir -p "$K"
	for b in 2048 3072 4096; do
		ssh-keygen -q -t rsa -b $b -N '' -C "rsa$b@test" -f "$K/rsa$b"
	done
	ssh-keygen -q -t rsa -b 3072 -N 'rsa words' -a 4 -f "$K/locked"
	ssh-keygen -q -t rsa -b 1024 -N '' -f "$K/small"
	ssh-keygen -q -t ed25519 -N '' -f "$K/ed"
	for i in 1 2 3 4 5 6; do
		ssh-keygen -q -t rsa -b 4096 -N '' -f "$K/more$i"
	done
}

setup() {
	test_dir
	unset AESCRYPT_PASSPHRASE
	command -v ssh-keygen > /dev/null || skip "openssh-client is not installed"
	if [ "$BATS_TEST_DESCRIPTION" != "a build without libcrypto refuses ssh-rsa keys and says why" ]; then
		has_rsa || skip "this build has no libcrypto (make check-norsa tests that build)"
	fi
	K=$BATS_FILE_TMPDIR/keys
	cp "$K"/* .
	chmod 600 rsa2048 rsa3072 rsa4096 locked small ed more*
	head -c 300000 /dev/urandom > data.bin
	mkdir -p tree/sub && echo one > tree/a && echo two > tree/sub/b
}

@test "RSA keys of 2048, 3072 and 4096 bits round-trip -e/-d and -c/-x; --info names each slot" {
	for b in 2048 3072 4096; do
		"$AESCRYPT" -e -q -R rsa$b.pub -o s$b.aes data.bin
		"$AESCRYPT" -d -q -i rsa$b -o out$b s$b.aes
		assert_same data.bin out$b
		run_aescrypt 0 --info s$b.aes
		assert_match "slot 0: +recipient, ssh-rsa \($((b / 8))-byte modulus; key tag [0-9a-f]{8}\)"
		# the slot is the modulus's bytes plus 71 (4.7), in a header
		# of 30 + slot + 36 bytes
		assert_match "header: +$((30 + b / 8 + 71 + 36)) bytes"
	done
	"$AESCRYPT" -c -q -r "$(cat rsa3072.pub)" -f a.aes tree
	mkdir x && "$AESCRYPT" -x -q -i rsa3072 -f a.aes -C x
	assert_same tree/sub/b x/tree/sub/b
	run_aescrypt 0 -t -i rsa3072 -f a.aes
	assert_match "tree/sub/b"
	run_aescrypt 0 --info=json s4096.aes
	assert_match '"type":"ssh-rsa","tag":"[0-9a-f]{8}","modulus_bytes":512'
}

@test "a passphrase-protected RSA key opens with its passphrase, and a wrong one is exit 3" {
	"$AESCRYPT" -e -q -R locked.pub -o a.aes data.bin
	AESCRYPT_PASSPHRASE='rsa words' "$AESCRYPT" -d -q -i locked -o out a.aes
	assert_same data.bin out
	echo 'rsa words' > pw && chmod 600 pw
	"$AESCRYPT" -d -q -i locked --passphrase-file pw -o out2 a.aes
	assert_same data.bin out2
	AESCRYPT_PASSPHRASE='rsa wordz' run_aescrypt 3 -d -q -i locked -o out3 a.aes
	assert_match "wrong passphrase for the OpenSSH key"
	assert_no_output . out3
}

@test "the interop implementation (OpenSSL's OAEP) reads aescrypt's RSA slots and writes ones aescrypt reads" {
	for b in 2048 3072 4096; do
		"$AESCRYPT" -e -q -R rsa$b.pub -o a$b.aes data.bin
		"$PY" "$IMPL" decode -i rsa$b a$b.aes py$b.out
		assert_same data.bin py$b.out
		"$PY" "$IMPL" encode -r "$(cat rsa$b.pub)" data.bin p$b.aes
		"$AESCRYPT" -d -q -i rsa$b -o c$b.out p$b.aes
		assert_same data.bin c$b.out
	done
	run "$PY" "$IMPL" decode -i rsa2048 a4096.aes nope
	[ "$status" -eq 3 ]
	run_aescrypt 3 -d -q -i rsa2048 -o nope p4096.aes
	assert_no_output . nope
}

@test "RSA beside ed25519 and age recipients: each key opens the file alone; another RSA key is exit 3" {
	age_ok=0
	if command -v age-keygen > /dev/null; then
		age-keygen -o age.key 2> /dev/null && age_ok=1
	fi
	{
		cat rsa2048.pub ed.pub
		[ $age_ok = 1 ] && age-keygen -y age.key
		true
	} > rcpts
	"$AESCRYPT" -e -q -R rcpts -o a.aes data.bin
	for id in rsa2048 ed; do
		"$AESCRYPT" -d -q -i $id -o out.$id a.aes
		assert_same data.bin out.$id
	done
	if [ $age_ok = 1 ]; then
		"$AESCRYPT" -d -q -i age.key -o out.age a.aes
		assert_same data.bin out.age
	fi
	run_aescrypt 3 -d -q -i rsa4096 -o out.x a.aes
	assert_match "no identity matched"
	assert_no_output . out.x
	# several identities at once: the right one is found among them
	"$AESCRYPT" -d -q -i rsa4096 -i rsa3072 -i rsa2048 -o out.y a.aes
	assert_same data.bin out.y
}

@test "weak keys are refused by -r and skipped by -R; PEM keys (PKCS#1, PKCS#8) open, an encrypted one is named; a damaged RSA slot is a corrupt header" {
	run_aescrypt 2 -e -r "$(cat small.pub)" -o x.aes data.bin
	assert_match "fewer than 2048 bits"
	[ ! -e x.aes ]
	cat small.pub rsa2048.pub > list
	run_aescrypt 0 -e -R list -o y.aes data.bin
	assert_match "list: line 1: an RSA key of fewer than 2048 bits .*; skipped"
	"$AESCRYPT" -d -q -i rsa2048 -o out y.aes
	assert_same data.bin out
	# a private key in PEM form, PKCS#1 and PKCS#8, opens (libcrypto
	# reads it, as age does); an encrypted one is named, with how to
	# convert it
	ssh-keygen -q -t rsa -b 2048 -m PEM -N '' -f pem
	head -1 pem | grep -qx -- '-----BEGIN RSA PRIVATE KEY-----'
	openssl pkcs8 -topk8 -nocrypt -in pem -out pem8
	head -1 pem8 | grep -qx -- '-----BEGIN PRIVATE KEY-----'
	"$AESCRYPT" -e -q -R pem.pub -o p.aes data.bin
	"$AESCRYPT" -d -q -i pem -o outp p.aes
	assert_same data.bin outp
	"$AESCRYPT" -d -q -i pem8 -o outp8 p.aes
	assert_same data.bin outp8
	# the PEM key is the same key as its OpenSSH form
	cp pem pem-ssh
	ssh-keygen -q -p -N '' -f pem-ssh
	"$AESCRYPT" -d -q -i pem-ssh -o outps p.aes
	assert_same data.bin outps
	run_aescrypt 3 -d -q -i pem -o out2 y.aes
	assert_match "no identity matched"
	ssh-keygen -q -t rsa -b 2048 -m PEM -N 'five words' -f pemx
	grep -q ENCRYPTED pemx
	run_aescrypt 3 -d -q -i pemx -o out4 p.aes
	assert_match "pemx: a PEM private key aescrypt does not read \(an encrypted one"
	assert_match "ssh-keygen -p -f KEY"
	assert_no_output . out4
	# a hostile PEM whose numbers are longer than its modulus allows
	# (1024-byte p, q, d and coefficient beside an 8192-bit n): refused
	# before it is laid out in the key's fixed buffer (ASan runs this)
	/usr/bin/python3 - > evil.pem <<'PY'
import base64, sys
def der_len(n):
    if n < 128:
        return bytes([n])
    b = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(b)]) + b
def integer(v):
    b = v.to_bytes(max(1, (v.bit_length() + 8) // 8), "big")
    return b"\x02" + der_len(len(b)) + b
def seq(*items):
    body = b"".join(items)
    return b"\x30" + der_len(len(body)) + body
n = (1 << 8191) | 12345
big = (1 << 8191) | 1
k = seq(integer(0), integer(n), integer(65537), *[integer(big)] * 6)
sys.stdout.write("-----BEGIN RSA PRIVATE KEY-----\n"
    + base64.encodebytes(k).decode() + "-----END RSA PRIVATE KEY-----\n")
PY
	chmod 600 evil.pem
	run_aescrypt 3 -d -q -i evil.pem -o out5 p.aes
	assert_match "evil.pem: a malformed PEM RSA key \(its numbers are too long for its modulus\)"
	assert_no_output . out5
	# one byte of the OAEP ciphertext changed: the header's CRC says so
	# (exit 4), never "wrong key"
	cp y.aes z.aes
	flip_byte z.aes 100
	run_aescrypt 4 -d -q -i rsa2048 -o out3 z.aes
	assert_match "corrupt|damaged"
	assert_no_output . out3
}

@test "a header holds six 4096-bit RSA slots; a seventh is refused with the arithmetic" {
	cat rsa4096.pub more1.pub more2.pub more3.pub more4.pub more5.pub > six
	"$AESCRYPT" -e -q -R six -o six.aes data.bin
	"$AESCRYPT" -d -q -i more5 -o out six.aes
	assert_same data.bin out
	cat six more6.pub > seven
	run_aescrypt 2 -e -R seven -o seven.aes data.bin
	assert_match "7 recipients need 4147 bytes of key slots and header; a header holds 4096"
	[ ! -e seven.aes ]
}

# make check-norsa runs this with AESCRYPT_NORSA set to a build made with
# -DAE_NO_RSA (as ./configure --without-rsa, or no libssl-dev, makes).
@test "a build without libcrypto refuses ssh-rsa keys and says why" {
	[ -n "${AESCRYPT_NORSA:-}" ] || skip "make check-norsa runs this (AESCRYPT_NORSA unset)"
	A=$AESCRYPT_NORSA
	run "$A" --version
	assert_match "libcrypto: not built in \(no ssh-rsa recipients\)"
	run "$A" -e -r "$(cat rsa2048.pub)" -o x.aes data.bin
	[ "$status" -eq 2 ]
	assert_match "built without libcrypto"
	[ ! -e x.aes ]
	cat rsa2048.pub ed.pub > list
	run "$A" -e -q -R list -o y.aes data.bin
	[ "$status" -eq 0 ]
	assert_match "list: line 1: .*built without libcrypto.*; skipped"
	"$A" -d -q -i ed -o out y.aes
	assert_same data.bin out
	run "$A" -d -q -i rsa2048 -o out2 y.aes
	[ "$status" -eq 3 ]
	assert_match "built without libcrypto"
	# a file with an RSA slot still parses, and its other slots open
	"$AESCRYPT" -e -q -R list -o z.aes data.bin
	"$A" -d -q -i ed -o out3 z.aes
	assert_same data.bin out3
	run "$A" --info z.aes
	assert_match "ssh-rsa \(256-byte modulus"
	# PEM keys and OpenSSH's 128-bit AES come from libcrypto: named
	ssh-keygen -q -t rsa -b 2048 -m PEM -N '' -f pem
	run "$A" -d -q -i pem -o out4 z.aes
	[ "$status" -eq 3 ]
	assert_match "pem: a PEM RSA key needs a build with libcrypto"
	ssh-keygen -q -t ed25519 -N 'five words' -Z aes128-ctr -f e128
	run env AESCRYPT_PASSPHRASE='five words' "$A" -d -q -i e128 -o out5 z.aes
	[ "$status" -eq 3 ]
	assert_match "e128: the OpenSSH key is encrypted with a cipher this build does not read"
}
