#!/bin/sh
# make.sh OUTDIR -- the AES Crypt samples, made again byte for byte.
#
# Made by tests/interop/aescrypt_legacy.py (written from AES Crypt's
# published stream format, with OpenSSL's AES through
# python3-cryptography) from fixed seeds, then damaged where a sample is
# meant to be bad.  tests/cli/205-legacy.bats runs this and compares the
# result with the committed files, and runs every row of MANIFEST.
# The passphrase is ../sample.pass ("correct horse battery staple").
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$1
py=${PYTHON:-python3}
gen="$py $here/../../interop/aescrypt_legacy.py"
pass="$here/../sample.pass"
mkdir -p "$out"
cd "$out"
# the plaintext: 1,000 lines, 8,893 bytes (not a multiple of 16)
seq 1 1000 | sed 's/^/line /' > plain.txt
: > empty.txt
printf '0123456789abcdef' > block.txt

for v in 0 1 2 3; do
	$gen encode -v $v -p "$pass" --seed $((10 + v)) --creator "aescrypt tests" \
	    plain.txt v$v.aes
done
$gen encode -v 3 -p "$pass" --seed 20 --iterations 1000 empty.txt v3-empty.aes
$gen encode -v 3 -p "$pass" --seed 21 --iterations 1000 block.txt v3-block.aes
$gen encode -v 2 -p "$pass" --seed 22 empty.txt v2-empty.aes
$gen encode -v 0 -p "$pass" --seed 23 block.txt v0-block.aes
$gen encode -v 3 -p "$pass" --seed 24 --iterations 1000 --bad-padding \
    block.txt bad-v3-padding.aes

# damage, by byte offset from the end or the start
flip() {   # flip FILE OFFSET (negative: from the end) OUT
	$py - "$1" "$2" "$3" <<'PY'
import sys
d = bytearray(open(sys.argv[1], 'rb').read())
d[int(sys.argv[2])] ^= 0x01
open(sys.argv[3], 'wb').write(d)
PY
}
flip v3.aes -100 bad-v3-ciphertext.aes
flip v3.aes -1 bad-v3-mac.aes
flip v1.aes 30 bad-v1-keyblock.aes
head -c 9000 v2.aes > bad-v2-truncated.aes
head -c 40 v2.aes > bad-v2-header-cut.aes
# version 3 asking for 2^32 - 1 PBKDF2 iterations: bytes after the
# extensions of v3-empty.aes (no creator: 5 + 130 + 2 = 137)
$py - v3-empty.aes bad-v3-iterations.aes <<'PY'
import sys
d = bytearray(open(sys.argv[1], 'rb').read())
assert d[135:137] == b'\0\0'
d[137:141] = b'\xff\xff\xff\xff'
open(sys.argv[2], 'wb').write(d)
PY
# what bad-aes-crypt-v3.aes used to be: "AES", 3, and noise
$py -c "import random,sys; r=random.Random(25); sys.stdout.buffer.write(b'AES\x03\x00\x00\x00' + bytes(r.getrandbits(8) for _ in range(160)))" > bad-v3-noise.aes
rm -f plain.txt empty.txt block.txt
