#!/usr/bin/env bats
# The zstd codec (issue 23, spec 6.4): --zstd on -c and -e, every reader
# follows the header without an option, every mode works with it, the
# options that choose a codec cannot be mixed, and a build without
# libzstd refuses such a file as unsupported, not as damaged.
#
# AE_HAVE_ZSTD (from the Makefile: what ./configure found) says which
# build is under test.  The zstd tests skip only where configure found
# no libzstd; then the last test, the refusal, runs instead (make
# check-nozstd runs this file against such a build).

load test_helper

zstd_build() {
	[ "${AE_HAVE_ZSTD:-1}" = 1 ] || skip "built without zstd (the refusal test below runs instead)"
}

setup() {
	test_dir
	export AESCRYPT_PASSPHRASE=zstd
}

@test "the binary has the codec ./configure found, and --version says so" {
	run_aescrypt 0 --version
	if [ "${AE_HAVE_ZSTD:-1}" = 1 ]; then
		assert_match "codecs: DEFLATE \(the default\), zstd \(--zstd\)"
		assert_match "libzstd 1\.[0-9]+\.[0-9]+"
	else
		assert_match "codecs: DEFLATE \(the default\), no zstd \(built without libzstd\)"
		refute_match "libzstd 1\."
	fi
}

@test "-e/-d --zstd: byte-exact for sizes around the chunk edges, every chunk size, three levels" {
	zstd_build
	head -c 70000 /dev/urandom > r
	seq 1 400000 > s             # 2.6 MB of text
	cat r s r > mix
	: > empty
	printf x > one
	local f c l
	for c in 64K 1M 8M; do
		for f in empty one r s mix; do
			"$AESCRYPT" -e -q --zstd --chunk-size $c "${FAST_KDF[@]}" -o "$f.$c.aes" "$f"
			"$AESCRYPT" -d -q -o "$f.$c.out" "$f.$c.aes"
			assert_same "$f" "$f.$c.out"
			"$AESCRYPT" -d -q < "$f.$c.aes" > "$f.$c.pipe"
			assert_same "$f" "$f.$c.pipe"
		done
	done
	# a text compresses, and more at -9 than at -1
	for l in 1 6 9; do
		"$AESCRYPT" -e -q --zstd -$l "${FAST_KDF[@]}" -o "s.$l.aes" s
		"$AESCRYPT" -d -q -o "s.$l.out" "s.$l.aes"
		assert_same s "s.$l.out"
	done
	[ "$(stat -c %s s.9.aes)" -lt "$(stat -c %s s.1.aes)" ]
	[ "$(stat -c %s s.1.aes)" -lt $(( $(stat -c %s s) / 2 )) ]
}

@test "--info, --stats and --test name the codec; the header says it, not an option" {
	zstd_build
	seq 1 100000 > s
	"$AESCRYPT" -e -q --zstd "${FAST_KDF[@]}" -o s.aes s
	run_aescrypt 0 --info s.aes
	assert_match "codec: +zstd \(--zstd\)"
	assert_match "chunk size: +8192 KiB"
	run_aescrypt 0 --info=json s.aes
	assert_match '"codec":"zstd"'
	run_aescrypt 0 -d --stats -o s.out s.aes
	assert_match "codec zstd 1\.[0-9]+"
	assert_same s s.out
	# every stage, however short, is in the JSON: zstd decompresses
	run_aescrypt 0 -d --stats=json -o s.out s.aes
	assert_match '"codec":"zstd","deflate":null,'
	assert_match '"decompress":\{"cpu_s"'
	refute_match '"inflate"'
	run_aescrypt 0 --test s.aes
	# --zstd on a reader is a note, not an error: the file says its codec
	run_aescrypt 0 -d --zstd -o s.out2 s.aes
	assert_match "note: --zstd is not needed to read"
	assert_same s s.out2
	# and the DEFLATE default says its engine
	"$AESCRYPT" -e -q "${FAST_KDF[@]}" -o d.aes s
	run_aescrypt 0 --info d.aes
	assert_match "codec: +DEFLATE"
	assert_match "chunk size: +256 KiB"
}

@test "-c/-t/-x --zstd: the tree comes back; the index lists it and -x of one member reads through it" {
	zstd_build
	make_key k
	mkdir -p src/d/e
	seq 1 50000 > src/d/text
	head -c 200000 /dev/urandom > src/d/e/rand
	ln -s ../text src/d/e/link
	: > src/empty
	"$AESCRYPT" -c -q --zstd -k k --chunk-size 64K -f a.aes src
	run_aescrypt 0 --info a.aes
	assert_match "with an index"
	assert_match "codec: +zstd"
	run_aescrypt 0 -t -k k -f a.aes
	[ "$output" = "$("$AESCRYPT" -t --no-index -k k -f a.aes)" ]
	assert_match "src/d/e/link"
	mkdir out
	run_aescrypt 0 -x -k k -f a.aes -C out
	diff -r src out/src
	[ "$(readlink out/src/d/e/link)" = ../text ]
	mkdir one
	run_aescrypt 0 -x -k k -f a.aes -C one src/d/e/rand
	assert_same src/d/e/rand one/src/d/e/rand
	[ ! -e one/src/d/text ]
	run_aescrypt 0 -x -O -k k -f a.aes src/d/text
	[ "$output" = "$(cat src/d/text)" ]
	run_aescrypt 0 --test -k k a.aes
	# the interop implementation reads it and checks the index
	run /usr/bin/python3 "$BATS_TEST_DIRNAME/../interop/aescrypt_v1.py" index -k k a.aes
	[ "$status" -eq 0 ]
	assert_match "index: [0-9]+ members"
}

@test "-x --salvage of a --zstd archive: a lost chunk costs its members, named; the rest is whole" {
	zstd_build
	make_key k
	mkdir src
	local i
	for i in $(seq -w 1 30); do head -c 40000 /dev/urandom > "src/f$i"; done
	"$AESCRYPT" -c -q --zstd -k k --chunk-size 64K -f a.aes src
	# flip one byte in the ciphertext of record 5 (the 6th chunk)
	/usr/bin/python3 - a.aes <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
off = struct.unpack(">H", d[9:11])[0]
for _ in range(5):
    off += 5 + struct.unpack(">I", d[off + 1:off + 5])[0] + 16
d[off + 5 + 100] ^= 0x40
open(sys.argv[1], "wb").write(d)
PY
	run_aescrypt 4 -x -k k -f a.aes -C "$(mkdir -p o1 && echo o1)"
	assert_match "failed authentication"
	mkdir o2
	run_aescrypt 4 -x --salvage -k k -f a.aes -C o2
	assert_match "lost: "
	local whole=0 f
	for f in src/*; do
		if [ -e "o2/$f" ]; then
			assert_same "$f" "o2/$f"
			whole=$((whole + 1))
		else
			# every file not extracted is named in the report
			[[ $output == *"$f"* ]] || { echo "$f missing and not named"; return 1; }
		fi
	done
	[ "$whole" -ge 25 ]
}

@test "-d --salvage of a --zstd stream: the lost chunk becomes zeros, the rest byte-exact" {
	zstd_build
	head -c 300000 /dev/urandom > r
	"$AESCRYPT" -e -q --zstd --chunk-size 64K "${FAST_KDF[@]}" -o r.aes r
	local h
	h=$(header_len r.aes)
	# record 0 is stored (random data): its ciphertext starts at h+5
	flip_byte r.aes $((h + 5 + 1000))
	run_aescrypt 4 -d -q --salvage -o out r.aes
	assert_match "lost: plaintext bytes 0 to 65535 \(chunk 0\)"
	cmp -s <(tail -c +65537 r) <(tail -c +65537 out.damaged)
	[ "$(head -c 65536 out.damaged | tr -d '\0' | wc -c)" -eq 0 ]
}

@test "the options that choose a codec do not mix, and 8M chunks are for zstd only" {
	zstd_build
	seq 1 10 > s
	run_aescrypt 2 -e --zstd -z "${FAST_KDF[@]}" -o x.aes s
	assert_match "error: --zstd and -z \\(--gzip\\) choose different codecs"
	run_aescrypt 2 -e --zstd --deflate zlib "${FAST_KDF[@]}" -o x.aes s
	assert_match "error: --zstd and --deflate choose different codecs"
	run_aescrypt 2 -e --chunk-size 8M "${FAST_KDF[@]}" -o x.aes s
	assert_match "error: --chunk-size 8M is for --zstd"
	run_aescrypt 2 -e --zstd --chunk-size 16M "${FAST_KDF[@]}" -o x.aes s
	assert_match "chunk-size"
	assert_no_output . x.aes
	# -z and --gzip are the DEFLATE default, said aloud
	run_aescrypt 0 -e -q --gzip "${FAST_KDF[@]}" -o g.aes s
	run_aescrypt 0 --info g.aes
	assert_match "codec: +DEFLATE"
}

@test "the probe stores random chunks with either codec: the file is the input plus framing" {
	zstd_build
	head -c 3000000 /dev/urandom > r
	"$AESCRYPT" -e -q --zstd "${FAST_KDF[@]}" -o z.aes r
	"$AESCRYPT" -e -q "${FAST_KDF[@]}" -o d.aes r
	# framing: a header (< 300 bytes with its copy), 21 bytes a record
	[ "$(stat -c %s z.aes)" -lt $((3000000 + 1000)) ]
	[ "$(stat -c %s d.aes)" -lt $((3000000 + 12 * 21 + 1000)) ]
	run_aescrypt 0 -d --stats -o r.out z.aes
	assert_same r r.out
	# a text is never stored: it compresses
	seq 1 300000 > s
	"$AESCRYPT" -e -q --zstd "${FAST_KDF[@]}" -o s.aes s
	[ "$(stat -c %s s.aes)" -lt $(( $(stat -c %s s) / 3 )) ]
}

@test "zstd's window is the whole chunk: a text repeated 3 MiB later costs almost nothing" {
	zstd_build
	# 3 MiB of words (text that compresses, so the probe does not store
	# it), then the same 3 MiB again: past the 2 MiB window of zstd's
	# middle levels, inside the 8 MiB chunk (format 6.6)
	/usr/bin/python3 -c '
import random, sys
random.seed(49)
words = ["".join(random.choice("abcdefghijklmnopqrstuvwxyz")
         for _ in range(random.randint(2, 9))) for _ in range(20000)]
lines, n = [], 0
while n < 3 << 20:
    lines.append(" ".join(random.choice(words) for _ in range(12)) + "\n")
    n += len(lines[-1])
sys.stdout.write("".join(lines)[:3 << 20])' > w3
	cat w3 w3 > w6
	"$AESCRYPT" -e -q --zstd "${FAST_KDF[@]}" -o w3.aes w3
	"$AESCRYPT" -e -q --zstd "${FAST_KDF[@]}" -o w6.aes w6
	one=$(stat -c %s w3.aes) two=$(stat -c %s w6.aes)
	echo "one copy $one bytes, two copies $two"
	# the level's own window gave twice one copy's size here
	[ "$two" -lt $((one * 11 / 10)) ]
	run_aescrypt 0 -d -o w6.out w6.aes
	assert_same w6 w6.out
}

@test "a build without zstd: --zstd is refused, and a --zstd file is unsupported, not damaged" {
	[ "${AE_HAVE_ZSTD:-1}" = 0 ] || skip "this build has zstd (make check-nozstd runs this test)"
	seq 1 10 > s
	run_aescrypt 2 -e --zstd "${FAST_KDF[@]}" -o x.aes s
	assert_match "error: --zstd: this build has no zstd"
	assert_no_output . x.aes
	# good-zstd.aes is sealed to sample.key (tests/samples/MANIFEST)
	run_aescrypt 4 -d -k "$SAMPLES/sample.key" -o out "$SAMPLES/good-zstd.aes"
	assert_match "error: .*zstd"
	refute_match "damaged|authentication"
	assert_no_output . out
	run_aescrypt 0 --info "$SAMPLES/good-zstd.aes"
	assert_match "codec: +zstd"
}
