#!/usr/bin/env bats
# The archive's index (spec 6.8, issue 18): -c writes it after the
# payload, -t lists from it alone and -x MEMBER reads only the records
# that hold the member, on a seekable file; a pipe, --no-index and
# --test read in full and still check it; a damaged, cut, swapped or
# hostile index is never used, and says so.

load test_helper

setup_file() {
	cd "$BATS_FILE_TMPDIR" || return 1
	"$AESCRYPT" --gen-key k
	mkdir -p src/a src/b
	# 40 files of 30 KB of random bytes: the archive has ~20 chunks of
	# 64 KiB, and each member its own records
	for i in $(seq -w 1 40); do head -c 30000 /dev/urandom > "src/a/f$i"; done
	seq 1 20000 > src/b/text
	ln -s ../b/text src/a/link
	ln src/b/text src/b/hard
	# 1,200 empty files: an index of two records of 64 KiB
	mkdir src/many
	(cd src/many && seq -f 'empty-file-with-a-longish-name-%04g' 1 1200 | xargs touch)
	"$AESCRYPT" -c -q -k k --chunk-size 64K -f a.aes src
}

setup() {
	cd "$BATS_FILE_TMPDIR" || return 1
	T=$(mktemp -d "$BATS_FILE_TMPDIR/t.XXXXXX")
}

teardown() {
	rm -rf "$T"
}

# damage FILE OFFSET: flip the byte at OFFSET of a copy of a.aes.
damage() {
	flip_byte "$1" "$2"
	refute cmp -s "$1" "$BATS_FILE_TMPDIR/a.aes"
}

@test "-c writes an index; --no-index does not; --info says which" {
	run_aescrypt 0 --info a.aes
	assert_match "with an index"
	run_aescrypt 0 -c -q -k k --no-index -f "$T/b.aes" src
	run_aescrypt 0 --info "$T/b.aes"
	refute_match "with an index"
	run_aescrypt 0 --info=json a.aes
	assert_match '"index":true'
}

@test "-t and -tv from the index list exactly what a full read and tar list" {
	local via full
	via=$("$AESCRYPT" -t -k k -f a.aes)
	full=$("$AESCRYPT" -t --no-index -k k -f a.aes)
	[ "$via" = "$full" ]
	[ "$via" = "$("$AESCRYPT" -d -k k a.aes | tar -t)" ]
	[ "$(wc -l <<< "$via")" -gt 1240 ]
	via=$("$AESCRYPT" -tv -k k -f a.aes)
	[ "$via" = "$("$AESCRYPT" -tv --no-index -k k -f a.aes)" ]
	[ "$via" = "$("$AESCRYPT" -d -k k a.aes | tar -tv)" ]
	# patterns select the same way
	[ "$("$AESCRYPT" -t -k k -f a.aes 'src/a/f1*' src/b)" = \
	  "$("$AESCRYPT" -t --no-index -k k -f a.aes 'src/a/f1*' src/b)" ]
	run_aescrypt 1 -t -k k -f a.aes src/nothere
	assert_match "src/nothere: not found in archive"
}

@test "the interop implementation checks the index against the tar stream" {
	run /usr/bin/python3 "$BATS_TEST_DIRNAME/../interop/aescrypt_v1.py" index -k k a.aes
	[ "$status" -eq 0 ] || { echo "$output" >&2; return 1; }
	assert_match "index: 12[0-9][0-9] members"
	run /usr/bin/python3 "$BATS_TEST_DIRNAME/../interop/aescrypt_v1.py" decode -k k a.aes "$T/p.tar"
	[ "$status" -eq 0 ]
	"$AESCRYPT" -d -k k a.aes | cmp - "$T/p.tar"
}

@test "-t lists from the index and the last chunk alone: damage anywhere else does not stop it; --test and --no-index find it" {
	mkdir "$T/s"
	head -c 2000000 /dev/urandom > "$T/s/big"
	echo small > "$T/s/small"
	run_aescrypt 0 -c -q -k k --chunk-size 64K -f "$T/b.aes" -C "$T" s
	cp "$T/b.aes" "$T/d.aes"
	# the middle of big's data: a record that holds no header
	damage "$T/d.aes" 1000000
	run_aescrypt 0 -t -k k -f "$T/d.aes"
	[ "$output" = "$(printf 's/\ns/big\ns/small')" ]
	run_aescrypt 4 -t --no-index -k k -f "$T/d.aes"
	assert_match "failed authentication"
	run_aescrypt 4 --test -k k -f "$T/d.aes"
	assert_match "failed authentication"
	# the first record holds the headers of s/ and s/big: -t does not
	# read it (-x checks each header against the index before it
	# writes), so that damage does not hide the listing either
	cp "$T/b.aes" "$T/h.aes"
	damage "$T/h.aes" 300
	run_aescrypt 0 -t -k k -f "$T/h.aes"
	[ "$output" = "$(printf 's/\ns/big\ns/small')" ]
	run_aescrypt 4 -x -k k -f "$T/h.aes" -C "$T/s"
	assert_match "chunk 0 .*failed authentication"
	# the last payload record holds the end-of-archive block that shows
	# the index complete: damaged, -t reads in full and says so
	local last
	last=$(/usr/bin/python3 - "$T/b.aes" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
off = struct.unpack(">H", d[9:11])[0]
while True:
    n = struct.unpack(">I", d[off + 1:off + 5])[0]
    if d[off] & 1:
        print(off + 5 + n // 2)
        break
    off += 21 + n
PY
)
	cp "$T/b.aes" "$T/e.aes"
	damage "$T/e.aes" "$last"
	run_aescrypt 4 -t -k k -f "$T/e.aes"
	assert_match "warning: .*the chunk that holds the end of the tar stream cannot be read .*reading the whole archive"
	assert_match "failed authentication"
}

@test "-x MEMBER decodes only its records: a damaged chunk elsewhere does not matter, its own does" {
	cp a.aes "$T/d.aes"
	damage "$T/d.aes" 400000
	# a member far from the damage, and the link that needs its target
	mkdir "$T/o"
	run_aescrypt 0 -x -k k -f "$T/d.aes" -C "$T/o" src/b/text src/b/hard src/a/link
	cmp "$T/o/src/b/text" src/b/text
	[ "$(stat -c %i "$T/o/src/b/text")" = "$(stat -c %i "$T/o/src/b/hard")" ]
	[ "$(readlink "$T/o/src/a/link")" = ../b/text ]
	# every file the full read gets right, the index gets right too
	mkdir "$T/p"
	run_aescrypt 0 -x -k k -f a.aes -C "$T/p" 'src/a/f0*' src/many
	for f in "$T"/p/src/a/f0*; do cmp "$f" "src/a/${f##*/}"; done
	[ "$(ls "$T/p/src/a" | wc -l)" -eq 9 ]
	[ "$(ls "$T/p/src/many" | wc -l)" -eq 1200 ]
	# the members in the damaged chunk: exit 4, nothing half-written
	mkdir "$T/q"
	run "$AESCRYPT" -x -k k -f "$T/d.aes" -C "$T/q" 'src/a/*'
	[ "$status" -eq 4 ]
	assert_match "failed authentication"
	assert_no_temps "$T/q"
	for f in "$T"/q/src/a/f*; do [ ! -e "$f" ] || cmp "$f" "src/a/${f##*/}"; done
}

@test "-O, --strip-components and --exclude through the index give what a full read gives" {
	local via full
	via=$("$AESCRYPT" -x -O -k k -f a.aes src/a/f05 | sha256sum)
	full=$("$AESCRYPT" -x -O --no-index -k k -f a.aes src/a/f05 | sha256sum)
	[ "$via" = "$full" ]
	[ "$via" = "$(sha256sum < src/a/f05)" ]
	mkdir "$T/i" "$T/f"
	run_aescrypt 0 -x --strip-components 2 --exclude '*f0[2-9]' -k k -f a.aes -C "$T/i" 'src/a/f0*'
	run_aescrypt 0 -x --strip-components 2 --exclude '*f0[2-9]' --no-index -k k -f a.aes -C "$T/f" 'src/a/f0*'
	[ "$(ls "$T/i")" = f01 ]
	diff -r "$T/i" "$T/f"
}

@test "a pipe reads in full and checks the index: whole, cut, damaged, swapped" {
	local n t
	run bash -c "cat a.aes | '$AESCRYPT' -t -k k -f - | wc -l"
	[ "$output" -gt 1240 ]
	# n: where the copy of the header (6.9), t bytes, starts
	t=$(( $(header_len a.aes) + 2 ))
	n=$(( $(stat -c %s a.aes) - t ))
	head -c $((n - 1)) a.aes > "$T/cut.aes"
	run bash -c "cat '$T/cut.aes' | '$AESCRYPT' -t -k k -f - > /dev/null"
	[ "$status" -eq 4 ]
	assert_match "footer is missing or cut short"
	head -c $((n + t - 1)) a.aes > "$T/cut.aes"
	run bash -c "cat '$T/cut.aes' | '$AESCRYPT' -t -k k -f - > /dev/null"
	[ "$status" -eq 4 ]
	assert_match "the copy of the header at the end of the file is missing or cut short"
	cp a.aes "$T/d.aes"
	damage "$T/d.aes" $((n - 100))
	run bash -c "'$AESCRYPT' -d -k k < '$T/d.aes' > /dev/null"
	[ "$status" -eq 4 ]
	assert_match "index"
}

@test "standard input that is a file read part-way: the index's offsets do not fit, the archive is read in full" {
	(printf 'JUNKJUN'; cat a.aes) > "$T/pre.aes"
	run bash -c "{ dd bs=7 count=1 of=/dev/null 2> /dev/null; '$AESCRYPT' -t -k k -f -; } < '$T/pre.aes'"
	[ "$status" -eq 0 ]
	[ "$output" = "$("$AESCRYPT" -t -k k -f a.aes)" ]
	refute_match "warning"
}

@test "a damaged index or footer is not used: a warning, then the full read, which fails at the index" {
	local n
	# n: where the footer ends and the copy of the header starts
	n=$(( $(stat -c %s a.aes) - $(header_len a.aes) - 2 ))
	cp a.aes "$T/f.aes"
	damage "$T/f.aes" $((n - 5))        # the footer's tag
	run_aescrypt 4 -t -k k -f "$T/f.aes"
	assert_match "warning: .*index cannot be used: the file does not end with its footer \(it may be cut short, or its end damaged\); reading the whole archive"
	assert_match "error: .*the footer failed authentication"
	cp a.aes "$T/i.aes"
	# the tag of the index's final record (the 16 bytes before the
	# footer), whatever the engine made of the sizes before it
	damage "$T/i.aes" $((n - 40))
	mkdir "$T/o"
	run_aescrypt 4 -x -k k -f "$T/i.aes" -C "$T/o" src/a/f01
	assert_match "warning: .*index fails authentication; reading the whole archive"
	assert_match "error: .*index .*failed authentication"
}

@test "a cut file is reported as cut: the index's warning says so first, the full read names the cut" {
	local n
	n=$(stat -c %s a.aes)
	head -c $((n / 2)) a.aes > "$T/half.aes"
	run_aescrypt 4 -t -k k -f "$T/half.aes"
	assert_match "warning: .*the file does not end with its footer \(it may be cut short"
	refute_match "warning: .*fails authentication"
	assert_match "error: .*(truncated|is missing|no final)"
}

@test "an index from another archive of the same files is not used" {
	local m
	run_aescrypt 0 -c -q -k k --chunk-size 64K -f "$T/b.aes" src
	# a's payload with b's index and footer (same sizes: only the keys
	# and the random data differ)
	m=$(/usr/bin/python3 - a.aes "$T/b.aes" "$T/s.aes" <<'PY'
import struct, sys
a, b = open(sys.argv[1], "rb").read(), open(sys.argv[2], "rb").read()
def payload_end(d):
    off = struct.unpack(">H", d[9:11])[0]
    while True:
        n = struct.unpack(">I", d[off + 1:off + 5])[0]
        fin = d[off] & 1
        off += 21 + n
        if fin:
            return off
open(sys.argv[3], "wb").write(a[:payload_end(a)] + b[payload_end(b):])
print("ok")
PY
)
	[ "$m" = ok ]
	run_aescrypt 4 -t -k k -f "$T/s.aes"
	assert_match "warning: .*index (.*fails authentication|cannot be used)"
	assert_match "error: .*(index|footer)"
}

@test "a hostile index, sealed with the right key, is checked field by field, never used, and fails the full read" {
	local name want
	mkdir "$T/h"
	/usr/bin/python3 "$BATS_TEST_DIRNAME/index_tool.py" hostile k a.aes "$T/h" > "$T/cases"
	[ "$(wc -l < "$T/cases")" -ge 20 ]
	while IFS=$'\t' read -r name want; do
		run "$AESCRYPT" -t -k k -f "$T/h/$name.aes"
		grep -Eq "warning: .*the archive's index .*($want).*reading the whole archive" <<< "$output" || {
			echo "$name: wanted /$want/: $output" >&2
			return 1
		}
		# the full read that follows lists every member, then finds
		# the index it authenticated unfit (or, for a footer that
		# lies about the payload, the footer): damage, exit 4
		case $name in
		footer-*) [ "$status" -eq 4 ] ;;
		*) [ "$status" -eq 4 ] && [ "$(grep -c '^src/' <<< "$output")" -gt 1240 ] \
		    && grep -Eq "error: .*the archive's index (authenticates but|does not match)" <<< "$output" ;;
		esac || { echo "$name: exit $status" >&2; return 1; }
	done < "$T/cases"
}

@test "--no-index on -t and -x reads in full; --no-index belongs to -c, -t and -x" {
	run_aescrypt 0 -t --no-index -k k -f a.aes src/b/text
	[ "$output" = src/b/text ]
	run_aescrypt 2 -d --no-index -k k a.aes
	assert_match "no-index"
}

@test "--salvage steps over damaged record frames by the index's offsets; without an index, by the next record's tag" {
	local f
	mkdir "$T/src"
	for f in $(seq -w 1 80); do head -c 20000 /dev/urandom > "$T/src/f$f"; done
	run_aescrypt 0 -c -q -k k --chunk-size 64K -f "$T/a.aes" -C "$T" src
	run_aescrypt 0 -c -q -k k --chunk-size 64K --no-index -f "$T/b.aes" -C "$T" src
	# record 10's length and record 15's flags (now saying FINAL)
	/usr/bin/python3 - "$T/a.aes" "$T/b.aes" <<'PY'
import struct, sys
for name in sys.argv[1:]:
    d = bytearray(open(name, "rb").read())
    off, recs = struct.unpack(">H", d[9:11])[0], []
    while True:
        n = struct.unpack(">I", d[off + 1:off + 5])[0]
        recs.append(off)
        fin = d[off] & 1
        off += 21 + n
        if fin:
            break
    d[recs[10] + 2] ^= 0x40
    d[recs[15]] = 0x01
    open(name + ".bad", "wb").write(bytes(d))
PY
	mkdir "$T/o1" "$T/o2"
	run_aescrypt 4 -x --salvage -k k -f "$T/a.aes.bad" -C "$T/o1"
	assert_match "lost: tar stream bytes 655360 to 720895 \(chunk 10\)"
	assert_match "lost: tar stream bytes 983040 to 1048575 \(chunk 15\)"
	# everything clear of chunks 10 and 15 is back, byte-exact
	[ "$(ls "$T/o1/src" | wc -l)" -ge 70 ]
	for f in "$T"/o1/src/*; do cmp "$f" "$T/src/${f##*/}"; done
	assert_no_temps "$T/o1"
	# without an index, the record after the damaged frame is found by
	# its tag (6.5): chunk 10 is lost, 11 to 14 are read (chunk 15, now
	# marked final, fails and ends the payload)
	run_aescrypt 4 -x --salvage -k k -f "$T/b.aes.bad" -C "$T/o2"
	assert_match "chunk 10 at offset [0-9]+ has a damaged frame; its bytes are lost"
	refute_match "chunk 1[1-4] at offset"
	[ "$(ls "$T/o2/src" | wc -l)" -ge 40 ]
	for f in "$T"/o2/src/*; do cmp "$f" "$T/src/${f##*/}"; done
	# -d: zeros exactly in chunks 10 and 15, the rest byte-exact
	"$AESCRYPT" -d -k k "$T/a.aes" > "$T/good.tar"
	run_aescrypt 4 -d --salvage -k k -o "$T/out.tar" "$T/a.aes.bad"
	[ ! -e "$T/out.tar" ]
	/usr/bin/python3 - "$T/out.tar.damaged" "$T/good.tar" <<'PY'
import sys
a, b = open(sys.argv[1], "rb").read(), open(sys.argv[2], "rb").read()
C = 65536
assert len(a) == len(b), (len(a), len(b))
for i in range(0, len(b), C):
    if i // C in (10, 15):
        assert a[i:i + C] == bytes(C), i // C
    else:
        assert a[i:i + C] == b[i:i + C], i // C
PY
}

# lies DIR: an archive with a stored .tar whose first member is evil.sh,
# and indexes sealed with the right key that do not say what it holds
# (index_tool.py lies): DIR/smuggle.aes, DIR/lie.aes, DIR/hide.aes.
lies() {
	mkdir -p "$1/src" "$1/in"
	printf '#!/bin/sh\necho pwned\n' > "$1/in/evil.sh" && chmod 755 "$1/in/evil.sh"
	tar -cf "$1/src/inner.tar" -C "$1/in" evil.sh
	echo a > "$1/src/a.txt" && echo b > "$1/src/b.txt" && echo h > "$1/src/hideme"
	"$AESCRYPT" -c -q -k k -f "$1/t.aes" -C "$1/src" a.txt inner.tar b.txt hideme
	/usr/bin/python3 "$BATS_TEST_DIRNAME/index_tool.py" lies k "$1/t.aes" "$1" \
	    inner.tar evil.sh hideme
}

@test "a member smuggled into the index (a header inside a stored .tar) is listed as the index says, never extracted; --test fails" {
	lies "$T"
	local f=$T/smuggle.aes
	# --test compares the index with what a full read finds
	run_aescrypt 4 --test -k k -f "$f"
	assert_match "the archive's index does not match its payload: entry 2 says 'evil.sh' at tar stream byte"
	# -t lists what the authenticated index says (6.8: the archive's
	# maker sealed it), and -x never writes what it does not match
	run_aescrypt 0 -t -k k -f "$f"
	[ "$(grep -vc '^aescrypt:' <<< "$output")" -eq 5 ]
	# -x NAME: the member before it does not end where it starts
	mkdir "$T/o1"
	run_aescrypt 4 -x -k k -f "$f" -C "$T/o1" evil.sh
	assert_match "warning: .*the archive's index does not match its payload"
	[ ! -e "$T/o1/evil.sh" ]
	# -x: inner.tar does not end where the index's next entry starts:
	# the run ends there, nothing of it written
	mkdir "$T/o2"
	run_aescrypt 4 -x -k k -f "$f" -C "$T/o2"
	assert_match "error: .*entry 1 says 'inner.tar' .*nothing of it is written"
	[ ! -e "$T/o2/evil.sh" ]
	[ ! -e "$T/o2/inner.tar" ]
	[ -f "$T/o2/a.txt" ]
	refute grep -qx evil.sh <<< "$("$AESCRYPT" -d -k k "$f" | tar -t)"
	# the implementation written from the spec refuses it too
	run /usr/bin/python3 "$BATS_TEST_DIRNAME/../interop/aescrypt_v1.py" index -k k "$f"
	[ "$status" -eq 4 ]
	assert_match "the index has 5 members, the tar stream 4"
}

@test "an index that lies about a member, or hides one: -x and -x NAME write nothing it does not list, and --test fails" {
	lies "$T"
	# lie.aes: b.txt renamed evil.sh, 0755
	mkdir "$T/o1" "$T/o3"
	run_aescrypt 4 -x -k k -f "$T/lie.aes" -C "$T/o1" evil.sh
	[ ! -e "$T/o1/evil.sh" ]
	[ ! -e "$T/o1/b.txt" ]
	run_aescrypt 4 -x -k k -f "$T/lie.aes" -C "$T/o3"
	assert_match "error: .*entry 2 says 'evil.sh' .*nothing of it is written"
	[ ! -e "$T/o3/evil.sh" ]
	[ ! -e "$T/o3/b.txt" ]
	run_aescrypt 4 --test -k k -f "$T/lie.aes"
	assert_match "does not match its payload"
	# hide.aes: hideme left out, b.txt stretching over it
	mkdir "$T/o2" "$T/o4"
	run_aescrypt 4 -x -k k -f "$T/hide.aes" -C "$T/o2" b.txt
	[ ! -e "$T/o2/b.txt" ]
	run_aescrypt 4 -x -k k -f "$T/hide.aes" -C "$T/o4"
	[ ! -e "$T/o4/hideme" ]
	run_aescrypt 4 --test -k k -f "$T/hide.aes"
	assert_match "it lists 3 members, the payload holds 4|does not match its payload"
	# the honest archive passes all of it
	run_aescrypt 0 --test -k k -f "$T/t.aes"
	run_aescrypt 0 -t -k k -f "$T/t.aes"
	refute_match warning
}

@test "the index's typeflag is the type as the tar reader takes it: NUL, old GNU sparse, dumpdirs, pre-POSIX directories (6.8)" {
	cd "$T"
	mkdir -p k/d && echo x > k/d/f
	head -c 4096 /dev/urandom > k/sp
	truncate -s 1M k/sp
	echo end >> k/sp
	tar --format=gnu -S -cf s.tar -C k sp
	/usr/bin/python3 "$BATS_TEST_DIRNAME/other_writers.py" prepos-dir-nul > n.tar
	# a regular file whose typeflag is NUL, as the oldest writers made,
	# and a GNU dumpdir ('D': GNU tar -g's directory, its data the
	# list; made by hand, as Python's tarfile, which the index is built
	# with, takes GNU tar's atime and ctime there for a name prefix)
	PYTHONPATH=$BATS_TEST_DIRNAME /usr/bin/python3 - <<'PY'
from other_writers import header
def member(name, typ, data, magic=b"ustar\x0000"):
    return header(name, typ, len(data), magic=magic) + data + bytes(-len(data) % 512)
# (and a pre-POSIX directory, a '0' member named dir/, with no data:
# other_writers.py's has a size of 1, which Python's tarfile would read)
open("z.tar", "wb").write(member(b"nul-file", b"\0", b"abc")
                          + member(b"dir0/", b"0", b"") + bytes(1024))
open("g.tar", "wb").write(member(b"dd/", b"D", b"Yf\0\0", magic=b"ustar  \0")
                          + bytes(1024))
PY
	local tool=$BATS_TEST_DIRNAME/index_tool.py impl=$BATS_TEST_DIRNAME/../interop/aescrypt_v1.py
	/usr/bin/python3 "$tool" retar "$BATS_FILE_TMPDIR/k" "$BATS_FILE_TMPDIR/a.aes" kinds.aes 0 s.tar g.tar n.tar z.tar
	/usr/bin/python3 "$tool" retar "$BATS_FILE_TMPDIR/k" "$BATS_FILE_TMPDIR/a.aes" raw.aes 1 s.tar g.tar n.tar z.tar
	# the index as 6.8 writes it: both readers take it, and the listing
	# from it is the full read's
	run_aescrypt 0 -t -v -k "$BATS_FILE_TMPDIR/k" -f kinds.aes
	refute grep -q "index" <<< "$output"
	[ "$output" = "$("$AESCRYPT" -t -v --no-index -k "$BATS_FILE_TMPDIR/k" -f kinds.aes)" ]
	grep -q ' sp$' <<< "$output"
	grep -q ' nul-file$' <<< "$output"
	grep -q '^d.* dir0/$' <<< "$output"
	run /usr/bin/python3 "$impl" index -k "$BATS_FILE_TMPDIR/k" kinds.aes
	[ "$status" -eq 0 ] || { echo "$output" >&2; return 1; }
	# the raw typeflags (NUL, S, D, a '0' named dir/): refused by both
	mkdir o
	run_aescrypt 4 -x -k "$BATS_FILE_TMPDIR/k" -f raw.aes -C o
	assert_match "error: .*the archive's index does not match its payload: entry 0 says 'sp'"
	[ -z "$(ls o)" ]
	run /usr/bin/python3 "$impl" index -k "$BATS_FILE_TMPDIR/k" raw.aes
	[ "$status" -eq 4 ]
	assert_match "index entry .* differs from the tar member"
}

@test "an index that leaves out the first or the last member is never used, by either implementation" {
	cd "$T"
	mkdir h
	/usr/bin/python3 "$BATS_TEST_DIRNAME/index_tool.py" hostile "$BATS_FILE_TMPDIR/k" "$BATS_FILE_TMPDIR/a.aes" h > cases
	local name
	for name in drop-first drop-last drop-all; do
		grep -q "^$name	" cases
		# this tool: never listed from, and the full read fails
		run "$AESCRYPT" -t -k "$BATS_FILE_TMPDIR/k" -f h/$name.aes
		[ "$status" -eq 4 ]
		assert_match "warning: .*index (does not start at the tar stream's first member|does not match its payload: no end-of-archive block)"
		# the interop implementation: refused
		run /usr/bin/python3 "$BATS_TEST_DIRNAME/../interop/aescrypt_v1.py" index -k "$BATS_FILE_TMPDIR/k" h/$name.aes
		[ "$status" -eq 4 ]
	done
}

@test "no lying index puts a byte of a member -t does not list on disk: smuggle, lie, hide, first or last member left out" {
	lies "$T"
	mkdir "$T/h"
	/usr/bin/python3 "$BATS_TEST_DIRNAME/index_tool.py" hostile k "$BATS_FILE_TMPDIR/a.aes" "$T/h" > /dev/null
	local f n listing unlisted
	for f in "$T"/smuggle.aes "$T"/lie.aes "$T"/hide.aes "$T"/h/drop-first.aes "$T"/h/drop-last.aes; do
		listing=$("$AESCRYPT" -t -k k -f "$f" 2> /dev/null) || true
		for n in 1 2; do
			rm -rf "$T/o" && mkdir "$T/o"
			# the whole archive, and each listed member by name
			if [ $n = 1 ]; then
				"$AESCRYPT" -x -k k -f "$f" -C "$T/o" 2> /dev/null || true
			else
				"$AESCRYPT" -x -k k -f "$f" -C "$T/o" $(head -3 <<< "$listing") 2> /dev/null || true
			fi
			# every file made is one the listing names (one grep
			# for all of them: a process a file was 90 s of the
			# suite for the 1,200 files of a.aes)
			(cd "$T/o" && find . -mindepth 1 ! -type d | sed 's|^\./||') > made
			printf '%s\n' "$listing" > listed
			unlisted=$(grep -vxF -f listed made) || true
			[ -z "$unlisted" ] || { echo "$f: written, not listed: $unlisted" >&2; return 1; }
		done
	done
}
