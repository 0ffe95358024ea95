#!/usr/bin/env bats
# aescrypt against a second implementation of format/aescrypt-v1.md
# (tests/interop/aescrypt_v1.py: OpenSSL's AES-GCM, Python's HKDF, HMAC,
# CRC-32 and zlib).  Each reads what the other writes, and both give
# every sample the same result.

load test_helper

PY=/usr/bin/python3
IMPL=$BATS_TEST_DIRNAME/../interop/aescrypt_v1.py

setup_file() {
	if ! /usr/bin/python3 -c 'import cryptography, argon2' 2>/dev/null; then
		echo "the interop tests need python3-cryptography and python3-argon2" >&2
		return 1
	fi
}

# py_batch JOBS: run the implementation once for every job in the file
# JOBS (a command line a line, arguments separated by tabs), leaving
# each job's exit status, a line each, in JOBS.st and the messages in
# JOBS.err.  (A process a job cost most of this file's time.)
py_batch() {
	"$PY" "$IMPL" batch < "$1" > "$1.st" 2> "$1.err"
}

# job ARG...: one batch line
job() {
	local IFS=$'\t'
	printf '%s\n' "$*"
}

@test "the second implementation gives every sample the recorded result" {
	local n=0 file key rc sum msg args got
	while IFS=$'\t' read -r file key rc sum msg; do
		sample_args "$key" py || { [ $? -eq 2 ] && continue; return 1; }
		n=$((n + 1))
		job decode "${args[@]}" "$SAMPLES/$file" "$T/out$n" >> jobs
		printf '%s\t%s\t%s\n' "$file" "$rc" "$sum" >> want
	done < <(manifest_rows)
	py_batch jobs
	[ "$(wc -l < jobs.st)" -eq "$n" ] || { cat jobs.err >&2; return 1; }
	n=0
	while IFS=$'\t' read -r file rc sum <&5 && read -r got <&6; do
		n=$((n + 1))
		if [ "$got" -ne "$rc" ]; then
			echo "$file: python exit $got, expected $rc" >&2
			cat jobs.err >&2
			return 1
		fi
		if [ "$sum" != - ]; then
			[ "$(sha256sum < "$T/out$n" | cut -d' ' -f1)" = "$sum" ] || {
				echo "$file: python plaintext differs" >&2
				return 1
			}
		fi
	done 5< want 6< jobs.st
	[ "$n" -ge 25 ]
}

# inputs_of_size N: r.bin (random) and t.bin (text), N bytes each.
inputs_of_size() {
	head -c "$1" /dev/urandom > r.bin
	seq 1 $(($1 / 6 + 1)) | head -c "$1" > t.bin
}

@test "python decodes what aescrypt encodes: sizes, levels, chunk sizes, slots" {
	make_key k
	printf 'pw\n' > pw
	local n f i=0
	for n in 0 1 65535 65536 65537 300000; do
		inputs_of_size "$n"
		for f in r.bin t.bin; do
			for opt in "-0 --chunk-size 64K" "-6" "-9 --chunk-size 1M"; do
				i=$((i + 1))
				cp "$f" in$i
				"$AESCRYPT" -e -k k $opt -o c$i.aes "$f"
				job decode -k k c$i.aes out$i >> jobs
			done
		done
	done
	i=$((i + 1))
	cp t.bin in$i
	"$AESCRYPT" -e -k k --passphrase-file pw "${FAST_KDF[@]}" -o c$i.aes t.bin
	job decode -p pw c$i.aes out$i >> jobs
	py_batch jobs
	[ "$(grep -cx 0 jobs.st)" -eq "$i" ] || { cat jobs.st jobs.err >&2; return 1; }
	for n in $(seq 1 "$i"); do
		assert_same in$n out$n
	done
}

@test "aescrypt decodes what python encodes: sizes, levels, chunk sizes, slots" {
	make_key k
	printf 'pw\n' > pw
	local n f i=0
	for n in 0 1 65535 65536 65537 300000; do
		inputs_of_size "$n"
		for f in r.bin t.bin; do
			for opt in "--level 0 --chunk-log2 16" "--level 6" "--level 9 --chunk-log2 22"; do
				i=$((i + 1))
				cp "$f" in$i
				# shellcheck disable=SC2086
				job encode -k k $opt in$i c$i.aes >> jobs
			done
		done
	done
	py_batch jobs
	[ "$(grep -cx 0 jobs.st)" -eq "$i" ] || { cat jobs.st jobs.err >&2; return 1; }
	for n in $(seq 1 "$i"); do
		"$AESCRYPT" -d -k k -o out$n c$n.aes
		assert_same in$n out$n
	done
	"$PY" "$IMPL" encode -k k -p pw --kdf 8192,2,2 t.bin c.aes
	"$AESCRYPT" -d --passphrase-file pw -o out.bin c.aes
	assert_same t.bin out.bin
	"$AESCRYPT" -d -k k -o out2.bin c.aes
	assert_same t.bin out2.bin
	# files without the copy of the header (before 0.3) still read
	"$PY" "$IMPL" encode -k k --no-copy t.bin old.aes
	[ "$(od -An -tu1 -j 11 -N 1 old.aes | tr -d ' ')" = 0 ]
	"$AESCRYPT" -d -k k -o out3.bin old.aes
	assert_same t.bin out3.bin
}

@test "zstd (6.4): each implementation reads the other's files, streams and archives" {
	[ "${AE_HAVE_ZSTD:-1}" = 1 ] || skip "built without zstd (make check-nozstd tests that build)"
	make_key k
	local n f i=0
	for n in 0 1 65535 65536 65537 300000; do
		inputs_of_size "$n"
		for f in r.bin t.bin; do
			i=$((i + 1))
			cp "$f" in$i
			"$AESCRYPT" -e -k k --zstd --chunk-size 64K -o c$i.aes "$f"
			job decode -k k c$i.aes out$i >> jobs
			job encode -k k --zstd --level 5 --chunk-log2 16 in$i p$i.aes >> jobs
		done
	done
	py_batch jobs
	[ "$(grep -cx 0 jobs.st)" -eq $((2 * i)) ] || { cat jobs.st jobs.err >&2; return 1; }
	for n in $(seq 1 "$i"); do
		assert_same in$n out$n
		"$AESCRYPT" -d -k k -o back$n p$n.aes
		assert_same in$n back$n
	done
	# the default: 8 MiB chunks
	"$AESCRYPT" -e -k k --zstd -o c.aes t.bin
	[ "$(od -An -tu1 -j 12 -N 1 c.aes | tr -d ' ')" = 23 ]
	"$PY" "$IMPL" decode -k k c.aes out.bin
	assert_same t.bin out.bin
	# an archive with its index, the index records zstd too
	mkdir src && cp r.bin t.bin src/
	"$AESCRYPT" -c -q -k k --zstd --chunk-size 64K -f a.aes src
	run "$PY" "$IMPL" index -k k a.aes
	[ "$status" -eq 0 ]
	[[ $output =~ "index: 3 members" ]]
}

@test "a damaged header, a zeroed start, a flipped MAC: each implementation salvages the other's file from its copy (6.9)" {
	make_key k
	seq 1 50000 > t.bin
	"$AESCRYPT" -e -k k --chunk-size 64K -o a.aes t.bin
	"$PY" "$IMPL" encode -k k --chunk-log2 16 t.bin p.aes
	for f in a.aes p.aes; do
		flip_byte "$f" 40
		run "$PY" "$IMPL" decode -k k "$f" out.bin
		[ "$status" -eq 4 ]
		run "$PY" "$IMPL" decode -k k --salvage "$f" out.bin
		[ "$status" -eq 4 ]
		[[ $output =~ "its copy at the end was used" ]]
		assert_same t.bin out.bin
		rm out.bin
		run_aescrypt 4 -d -k k --salvage -o out.bin "$f"
		assert_match "its copy at the end was used"
		assert_same t.bin out.bin
		rm out.bin
	done
	# a zeroed start (the magic gone) and a flipped MAC (which the CRC
	# does not cover): both use the copy, and only with --salvage
	local L
	for f in a.aes p.aes; do
		cp "$f" z.aes
		dd if=/dev/zero of=z.aes bs=1 count=64 conv=notrunc status=none
		L=$(header_len "$f")
		cp "$f" m.aes
		flip_byte m.aes $((L - 5))
		for g in z.aes m.aes; do
			run "$PY" "$IMPL" decode -k k "$g" out.bin
			[ "$status" -eq 4 ]
			run "$PY" "$IMPL" decode -k k --salvage "$g" out.bin
			[ "$status" -eq 4 ]
			[[ $output =~ "its copy at the end was used" ]]
			assert_same t.bin out.bin
			rm out.bin
			run_aescrypt 4 -d -k k -o out.bin "$g"
			[ ! -e out.bin ]
			run_aescrypt 4 -d -k k --salvage -o out.bin "$g"
			assert_match "its copy at the end was used"
			assert_same t.bin out.bin
			rm out.bin
		done
	done
}

@test "the worked example in the spec matches the sample file" {
	spec=$BATS_TEST_DIRNAME/../../format/aescrypt-v1.md
	"$PY" "$IMPL" trace -k "$SAMPLES/sample.key" "$SAMPLES/good-one-chunk.aes" > trace
	local name val
	while read -r name val; do
		grep -q "$val" "$spec" || {
			echo "spec lacks $name = $val" >&2
			return 1
		}
	done < trace
}

@test "the index worked example in the spec (11.3) matches good-index.aes" {
	local spec flat name val n=0
	spec=$BATS_TEST_DIRNAME/../../format/aescrypt-v1.md
	# the spec breaks long values with spaces and lines
	flat=$(sed -n '/^### 11.3/,/^## 12/p' "$spec" | tr -d ' \n')
	"$PY" "$IMPL" trace-index -k "$SAMPLES/sample.key" "$SAMPLES/good-index.aes" > trace
	while read -r name val; do
		[[ $flat == *"$val"* ]] || {
			echo "spec 11.3 lacks $name = $val" >&2
			return 1
		}
		n=$((n + 1))
	done < trace
	[ "$n" -ge 14 ]
}
