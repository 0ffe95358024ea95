#!/bin/sh
# examples/check.sh PKGCONFIGDIR AESCRYPT [CC] -- make check's proof that
# the engine is a library others can build on: both examples are built
# outside the tree against the library installed in a staging DESTDIR,
# found through pkg-config (minitar against libaescrypt.so.1, catmember
# against libaescrypt.a); then minitar round-trips a tree, aescrypt reads
# minitar's archive and minitar reads aescrypt's (with an index and
# without), a changed byte makes minitar fail with nothing extracted,
# and catmember prints byte ranges of members, checked against the
# files; indexes that lie are refused by both.  Everything in a temp directory.
set -eu
pcdir=$1 ae=$2 cc=${3:-cc}
here=$(cd "$(dirname "$0")" && pwd)
t=$(mktemp -d "${TMPDIR:-/tmp}/aescrypt-example.XXXXXX")
trap 'rm -rf "$t"' EXIT INT TERM
pc() { PKG_CONFIG_PATH=$pcdir pkg-config --define-prefix "$@" aescrypt; }
# shellcheck disable=SC2046
$cc -o "$t/minitar" "$here/minitar.c" $(pc --cflags --libs)
# shellcheck disable=SC2046
$cc -o "$t/catmember" "$here/catmember.c" $(pc --cflags) \
    "$(pc --variable=libdir)/libaescrypt.a" $(pc --static --libs-only-l | sed 's/-laescrypt//')
LD_LIBRARY_PATH=$(pc --variable=libdir)
export LD_LIBRARY_PATH
readelf -d "$t/minitar" | grep -q 'NEEDED.*libaescrypt.so.1' ||
    { echo "examples: minitar does not load libaescrypt.so.1" >&2; exit 1; }
readelf -d "$t/catmember" | grep -q 'NEEDED.*libaescrypt' &&
    { echo "examples: catmember was to link libaescrypt.a" >&2; exit 1; }
mt=$t/minitar cm=$t/catmember
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
# the command reads minitar's archive, which describes itself as -c's
# do (format 6.7: the global header, with when it was made)
"$ae" --info -k key m.aes | grep -q '^created: *[0-9]'
"$ae" -t -k key -f m.aes | sed 's|/$||' | LC_ALL=C sort > listed
find tree | LC_ALL=C sort > found
cmp listed found
mkdir out2
"$ae" -x -q -k key -f m.aes -C out2
diff -r tree out2/tree
# minitar reads the command's archives, with and without an index
"$ae" -c -q -k key -f a.aes tree
"$ae" -c -q -k key --no-index -f b.aes tree
mkdir out3 out3b
"$mt" -x key a.aes out3
"$mt" -x key b.aes out3b
diff -r tree out3/tree
diff -r tree out3b/tree
# catmember: ranges of members of both writers' archives, through the
# index (a range across chunks, one past the end, a whole file)
for arc in m.aes a.aes; do
	"$cm" key $arc tree/sub/deeper/random.bin 200000 300000 > range
	tail -c +200001 tree/sub/deeper/random.bin | head -c 300000 | cmp - range
	"$cm" key $arc tree/sub/numbers 288000 > tail
	tail -c +288001 tree/sub/numbers | cmp - tail
	"$cm" key $arc tree/a.txt | cmp - tree/a.txt
done
# random access needs the index, and says so
if "$cm" key b.aes tree/a.txt > /dev/null 2> err; then
	echo "examples: catmember read an archive without an index" >&2
	exit 1
fi
grep -q 'index' err
if "$cm" key m.aes tree/nothing > /dev/null 2> err; then
	echo "examples: catmember found a member that is not there" >&2
	exit 1
fi
# indexes sealed with the right key that lie (tests/cli/index_tool.py):
# a member smuggled in from inside a stored .tar, and one said to be
# longer than it is; catmember reads neither, and the honest members
# still read
mkdir lies lies/in lies/src
printf '#!/bin/sh\necho pwned\n' > lies/in/evil.sh
tar -cf lies/src/inner.tar -C lies/in evil.sh
echo a > lies/src/a.txt && echo b > lies/src/b.txt && echo h > lies/src/hideme
"$ae" -c -q -k key -f lies/t.aes -C lies/src a.txt inner.tar b.txt hideme
/usr/bin/python3 "$here/../tests/cli/index_tool.py" lies key lies/t.aes lies inner.tar evil.sh hideme
for arc in smuggle:evil.sh longer:b.txt; do
	if "$cm" key "lies/${arc%%:*}.aes" "${arc#*:}" > out 2> err; then
		echo "examples: catmember read ${arc#*:} through a lying index (${arc%%:*})" >&2
		exit 1
	fi
	grep -q 'index does not match' err
	[ ! -s out ]
	"$cm" key "lies/${arc%%:*}.aes" a.txt | cmp - lies/src/a.txt
done
# ... and a full read (minitar -x) compares the index with what it read:
# any of the lies fails the run at its end
for arc in smuggle lie hide longer; do
	mkdir "out-$arc"
	if "$mt" -x key "lies/$arc.aes" "out-$arc" 2> err; then
		echo "examples: minitar read $arc.aes as whole" >&2
		exit 1
	fi
	grep -q 'index does not match its payload' err
done
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
grep -q 'minitar: .*failed authentication' err
[ -z "$(ls -A out4)" ]
echo "examples: built against the installed library by pkg-config (shared and static); minitar round-trips a tree, aescrypt and minitar read each other's archives, catmember reads ranges through the index and refuses lying indexes, minitar's full read fails on them, a changed byte is refused"
