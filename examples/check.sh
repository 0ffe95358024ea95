#!/bin/sh
# examples/check.sh MINITAR AESCRYPT -- make check's proof that the engine
# is a library: minitar (examples/minitar.c, no cli/) round-trips a tree,
# aescrypt reads minitar's archive, minitar reads aescrypt's (without an
# index: minitar reads payload type 1 alone), and a changed byte makes
# minitar fail with nothing extracted.  Everything in a temp directory.
set -eu
mt=$1 ae=$2
t=$(mktemp -d "${TMPDIR:-/tmp}/aescrypt-example.XXXXXX")
trap 'rm -rf "$t"' EXIT INT TERM
cd "$t"
mkdir -p tree/sub/deeper tree/empty
echo hello > tree/a.txt
: > tree/sub/zero
head -c 700000 /dev/urandom > tree/sub/deeper/random.bin   # three chunks
seq 1 50000 > tree/sub/numbers
ln -s ../a.txt tree/sub/link
"$ae" --gen-key key > /dev/null 2>&1
# minitar both ways
"$mt" -c key m.aes tree
mkdir out1
"$mt" -x key m.aes out1
diff -r tree out1/tree
[ "$(readlink out1/tree/sub/link)" = ../a.txt ]
# the command reads minitar's archive
"$ae" -t -k key -f m.aes | sed 's|/$||' | LC_ALL=C sort > listed
find tree | LC_ALL=C sort > found
cmp listed found
mkdir out2
"$ae" -x -q -k key -f m.aes -C out2
diff -r tree out2/tree
# minitar reads the command's archive
"$ae" -c -q -k key --no-index -f a.aes tree
mkdir out3
"$mt" -x key a.aes out3
diff -r tree out3/tree
# a changed byte inside a record: minitar fails, nothing extracted
cp m.aes bad.aes
# (the byte xored, not overwritten: a fixed byte is a no-op 1 time in 256)
b=$(od -An -tu1 -j400 -N1 bad.aes | tr -d ' ')
printf "$(printf '\\%03o' $(( b ^ 255 )))" | dd of=bad.aes bs=1 seek=400 conv=notrunc 2> /dev/null
cmp -s m.aes bad.aes && { echo "examples: the byte did not change" >&2; exit 1; }
mkdir out4
if "$mt" -x key bad.aes out4 2> err; then
	echo "examples: minitar took a damaged archive" >&2
	exit 1
fi
grep -q 'minitar: bad.aes:' err
[ -z "$(ls -A out4)" ]
echo "examples: minitar round-trips a tree; aescrypt and minitar read each other's archives; a changed byte is refused"
