#!/usr/bin/env bats
# AES Crypt files (stream format versions 0-3) are read: -d decrypts
# them, --test checks them, --info shows their header; -t and -x say
# what they are.  The files come from tests/interop/aescrypt_legacy.py,
# an implementation written from the published format that shares
# nothing with aescrypt's C (OpenSSL's AES through python3-cryptography).

load test_helper

PY=/usr/bin/python3
GEN=$BATS_TEST_DIRNAME/../interop/aescrypt_legacy.py
LEGACY=$SAMPLES/aes-crypt

@test "the AES Crypt samples are made again byte for byte by make.sh" {
	PYTHON=$PY sh "$LEGACY/make.sh" "$T/made"
	local f n=0
	for f in "$T"/made/*.aes; do
		cmp "$f" "$LEGACY/${f##*/}"
		n=$((n + 1))
	done
	[ "$n" -eq "$(ls "$LEGACY"/*.aes | wc -l)" ]
	[ "$n" -ge 16 ]
}

@test "every AES Crypt sample in its MANIFEST behaves as recorded" {
	local n=0 file key rc sum msg got
	while IFS=$'\t' read -r file key rc sum msg; do
		case $file in ''|'#'*) continue ;; esac
		[ "$key" = pass ]
		run "$AESCRYPT" -d --passphrase-file "$SAMPLES/sample.pass" \
		    -o "$T/out" "$LEGACY/$file"
		if [ "$status" -ne "$rc" ]; then
			echo "$file: exit $status, expected $rc: $output" >&2
			return 1
		fi
		if [ "$sum" != - ]; then
			got=$(sha256sum < "$T/out" | cut -d' ' -f1)
			[ "$got" = "$sum" ] || { echo "$file: sha256 $got" >&2; return 1; }
			rm -f "$T/out"
		else
			assert_no_output "$T" out
			[[ $output =~ aescrypt:\ error:\ .*$msg ]] || {
				echo "$file: '$output' does not match /$msg/" >&2
				return 1
			}
		fi
		n=$((n + 1))
	done < "$LEGACY/MANIFEST"
	[ "$n" -ge 16 ]
}

@test "the python decoder agrees with every good AES Crypt sample" {
	local f
	for f in v0 v1 v2 v3 v0-block v3-block v2-empty v3-empty; do
		"$PY" "$GEN" decode -p "$SAMPLES/sample.pass" "$LEGACY/$f.aes" py.out
		"$AESCRYPT" -d --passphrase-file "$SAMPLES/sample.pass" -o c.out \
		    "$LEGACY/$f.aes"
		assert_same py.out c.out
	done
}

@test "AES Crypt files of every size and version decrypt, both tiers" {
	printf 'pässwörd\n' > pw
	local v n c
	# every file made by one run of the implementation (batch: a job
	# a line, its status a line)
	head -c 1048625 /dev/urandom > all.bin
	for v in 0 1 2 3; do
		for n in 0 1 15 16 17 4096 100000 1048576 1048625; do
			head -c "$n" all.bin > p$n.bin
			printf 'encode\t-v\t%s\t-p\tpw\t--iterations\t1000\tp%s.bin\tc%s-%s.aes\n' \
			    "$v" "$n" "$v" "$n" >> jobs
		done
	done
	"$PY" "$GEN" batch < jobs > jobs.st
	[ "$(grep -cx 0 jobs.st)" -eq 36 ]
	for c in c*-*.aes; do
		n=${c#*-}
		n=${n%.aes}
		"$AESCRYPT" -d --passphrase-file pw -o a.out "$c"
		assert_same "p$n.bin" a.out
		"$AESCRYPT" -d --no-hw --passphrase-file pw -o b.out "$c"
		assert_same "p$n.bin" b.out
		rm -f a.out b.out
	done
}

@test "versions 0-2: a passphrase that is not valid UTF-8 is read by aes-crypt.md's rule, as the implementation reads it" {
	# surrogates, overlong forms, above U+10FFFF, cut sequences, stray
	# bytes, and valid sequences of each length among them
	local cases='eda080 edb08041 e08080 c0af f4908080 f09f9880 e282 e28241 80fffe c3a4 61eda0bf62 f09f98'
	local h i=0
	printf 'secret' > p.bin
	for h in $cases; do
		printf "$(sed 's/../\\x&/g' <<< "$h")\n" > pw$i
		printf 'encode\t-v\t1\t-p\tpw%s\tp.bin\tu%s.aes\n' $i $i >> jobs
		i=$((i + 1))
	done
	"$PY" "$GEN" batch < jobs > jobs.st
	[ "$(grep -cx 0 jobs.st)" -eq "$i" ]
	for i in $(seq 0 $((i - 1))); do
		"$AESCRYPT" -d -q --passphrase-file pw$i -o u$i.out u$i.aes ||
		    { echo "case $i ($(od -An -tx1 pw$i)) differs" >&2; return 1; }
		[ "$(cat u$i.out)" = secret ]
	done
}

@test "a wrong passphrase is exit 3 and writes nothing, in every version" {
	printf 'right\n' > pw
	printf 'wrong\n' > bad
	printf 'data' > p
	local v
	for v in 0 1 2 3; do
		"$PY" "$GEN" encode -v $v -p pw --iterations 1000 p c$v.aes
		run_aescrypt 3 -d --passphrase-file bad -o out c$v.aes
		assert_no_output "$T" out
	done
	run_aescrypt 3 -d --passphrase-file bad -o out c3.aes
	assert_match 'c3.aes: wrong passphrase \(AES Crypt file, stream format version 3\)'
	run_aescrypt 3 -d --passphrase-file bad -o out c0.aes
	assert_match 'version 0 files cannot tell which'
}

@test "to standard output, an AES Crypt file is checked before any byte is written" {
	cp "$LEGACY/bad-v3-ciphertext.aes" bad.aes
	"$AESCRYPT" -d --passphrase-file "$SAMPLES/sample.pass" bad.aes > out && return 1
	[ ! -s out ]
	"$AESCRYPT" -d --passphrase-file "$SAMPLES/sample.pass" "$LEGACY/v2.aes" > out
	[ "$(sha256sum < out | cut -d' ' -f1)" = \
	    bdc2458a0c103e8d1fb7bcd0546807d91b7589b0f44e43c70df8558909f6225e ]
	# from a pipe, to a file: kept only once verified
	cat "$LEGACY/v1.aes" | "$AESCRYPT" -d --passphrase-file "$SAMPLES/sample.pass" -o f.out
	cmp out f.out
	# from a pipe to standard output: the input is read once, so what
	# is decrypted is what was verified (a copy of the ciphertext in a
	# nameless file in $TMPDIR, gone after)
	mkdir tmp
	cat "$LEGACY/v1.aes" | TMPDIR=$T/tmp "$AESCRYPT" -d --passphrase-file "$SAMPLES/sample.pass" > o2
	cmp out o2
	[ -z "$(ls -A tmp)" ]
	# damaged, from a pipe: nothing reaches standard output
	run bash -c "cat bad.aes | TMPDIR='$T/tmp' '$AESCRYPT' -d --passphrase-file '$SAMPLES/sample.pass' > o3"
	[ "$status" -eq 4 ]
	[ ! -s o3 ]
	[ -z "$(ls -A tmp)" ]
	# no place for the copy: said, and nothing written
	run bash -c "TMPDIR='$T/none' '$AESCRYPT' -d --passphrase-file '$SAMPLES/sample.pass' '$LEGACY/v1.aes' > o4"
	[ "$status" -eq 6 ]
	[ ! -s o4 ]
	assert_match "error: .*cannot make a scratch file to hold the ciphertext while its MAC is checked"
	# the copy is bounded: over the limit (4G by default; --max-size),
	# exit 5 and nothing written (issue 50)
	run bash -c "cat '$LEGACY/v1.aes' | TMPDIR='$T/tmp' '$AESCRYPT' -d --max-size 4K --passphrase-file '$SAMPLES/sample.pass' > o5"
	[ "$status" -eq 5 ]
	[ ! -s o5 ]
	[ -z "$(ls -A tmp)" ]
	assert_match "error: standard input: an AES Crypt file is copied to .*/tmp while its MAC is checked, before standard output gets a byte, and this one is over the copy's limit of 4096 bytes"
	assert_match "hint: -o FILE needs no copy; or raise the limit with --max-size"
	# a copy that cannot be written (here a file size limit, as a full
	# TMPDIR would): its own words, not "reading input"
	run bash -c "trap '' XFSZ; ulimit -f 4; cat '$LEGACY/v1.aes' | TMPDIR='$T/tmp' '$AESCRYPT' -d --passphrase-file '$SAMPLES/sample.pass' > o6"
	[ "$status" -eq 6 ]
	[ ! -s o6 ]
	assert_match "error: standard input: writing the scratch copy of the ciphertext in .*/tmp: File too large"
	refute_match "reading input"
}

@test "the passphrase may come on descriptor 0 before the AES Crypt file" {
	{ printf 'correct horse battery staple\n'; cat "$LEGACY/v3-block.aes"; } |
	    "$AESCRYPT" -d --passphrase-fd 0 -o out
	[ "$(cat out)" = 0123456789abcdef ]
}

@test "a 1,023-character passphrase (3,092 bytes of UTF-8), as AES Crypt allows, opens every version from every source; 4,097 bytes are refused" {
	# 1,000 euro signs (3 bytes each) and 23 emoji (4 bytes, a UTF-16
	# surrogate pair for versions 0-2): AES Crypt's limit is characters
	"$PY" -c 'import sys; sys.stdout.write("\u20ac" * 1000 + "\U0001F600" * 23 + "\n")' > long
	[ "$("$PY" -c 'import sys; print(len(open("long", encoding="utf-8").read().rstrip()))')" -eq 1023 ]
	[ "$(head -1 long | tr -d '\n' | wc -c)" -eq 3092 ]
	echo "some plaintext" > p.bin
	local v
	for v in 0 2 3; do
		"$PY" "$GEN" encode -v $v -p long --iterations 1000 p.bin l$v.aes
		run_aescrypt 0 -d --passphrase-file long -o o$v.bin l$v.aes
		cmp p.bin o$v.bin
		run bash -c "'$AESCRYPT' -d --passphrase-fd 3 3< long l$v.aes"
		[ "$status" -eq 0 ]
		[ "$output" = "some plaintext" ]
		AESCRYPT_PASSPHRASE=$(head -1 long) run "$AESCRYPT" -d l$v.aes
		[ "$status" -eq 0 ]
		[ "$output" = "some plaintext" ]
		# one character fewer is another passphrase
		head -1 long | "$PY" -c 'import sys; sys.stdout.write(sys.stdin.read().rstrip("\n")[:-1])' > short
		run_aescrypt 3 -d --passphrase-file short -o x.bin l$v.aes
	done
	# this tool's own files take the same length
	run_aescrypt 0 -e "${FAST_KDF[@]}" --passphrase-file long -o own.aes p.bin
	run_aescrypt 0 -d --passphrase-file long -o own.bin own.aes
	cmp p.bin own.bin
	# 4,096 bytes are taken, 4,097 refused with the bound in words
	head -c 4096 /dev/zero | tr '\0' a > max
	run_aescrypt 0 -e "${FAST_KDF[@]}" --passphrase-file max -o m.aes p.bin
	head -c 4097 /dev/zero | tr '\0' a > over
	run_aescrypt 2 -e "${FAST_KDF[@]}" --passphrase-file over -o o.aes p.bin
	assert_match "passphrase is longer than 4096 bytes \(1,024 characters of up to 4 bytes\)"
	[ ! -e o.aes ]
}

@test "AES Crypt's own syntax, -p PASS, gets a hint with what to type here" {
	run_aescrypt 2 -d -p secret "$LEGACY/v3.aes"
	assert_match "error: -p \(or --no-same-permissions\) does not apply to -d"
	assert_match "hint: AES Crypt's -p PASS puts the passphrase on the command line"
	assert_match "aescrypt -d --passphrase-file pass.txt FILE"
}

@test "a key file alone cannot open an AES Crypt file, and says why" {
	run_aescrypt 3 -d -k "$SAMPLES/sample.key" -o out "$LEGACY/v3.aes"
	assert_match 'v3.aes is an AES Crypt file \(stream format version 3\): it opens with a passphrase'
	assert_no_output "$T" out
}

@test "--test checks an AES Crypt file; -v gives a verdict" {
	# (a copy only this user reads: a committed file is 0644, which is
	# warned about)
	cp "$SAMPLES/sample.pass" pw && chmod 600 pw
	run_aescrypt 0 --test -v --passphrase-file pw -f "$LEGACY/v3.aes"
	assert_match 'v3.aes: OK, AES Crypt stream format version 3, 8896 bytes of ciphertext, MAC verified'
	run_aescrypt 0 --test --passphrase-file pw -f "$LEGACY/v0.aes"
	[ -z "$output" ]
	run_aescrypt 4 --test --passphrase-file "$SAMPLES/sample.pass" -f "$LEGACY/bad-v3-mac.aes"
	run_aescrypt 4 --test --passphrase-file "$SAMPLES/sample.pass" -f "$LEGACY/bad-v3-padding.aes"
}

@test "versions 0-2: the last block's length is outside the MAC, and -v, --test -v and --info say so" {
	cp "$SAMPLES/sample.pass" pw && chmod 600 pw
	# the format's flaw, shown: v1 keeps the length mod 16 in the byte
	# before the MAC; another value there still verifies
	cp "$LEGACY/v1.aes" cut.aes
	local at=$(( $(stat -c %s cut.aes) - 33 )) n
	n=$(od -An -tu1 -j "$at" -N1 cut.aes | tr -d ' ')
	printf "$(printf '\\%03o' $(( (n + 15) % 16 )))" |
	    dd of=cut.aes bs=1 seek="$at" conv=notrunc status=none
	"$AESCRYPT" -d -q --passphrase-file pw -o whole.out "$LEGACY/v1.aes"
	run_aescrypt 0 -d -v --passphrase-file pw -o cut.out cut.aes
	[ "$(stat -c %s cut.out)" -ne "$(stat -c %s whole.out)" ]
	assert_match "note: cut.aes: in stream format version 1 the last block's length is not authenticated"
	local v
	for v in 0 1 2; do
		run_aescrypt 0 --test -v --passphrase-file pw -f "$LEGACY/v$v.aes"
		assert_match "v$v.aes: in stream format version $v the last block's length is not authenticated"
		run_aescrypt 0 --info "$LEGACY/v$v.aes"
		assert_match "last block's length is not authenticated"
	done
	run_aescrypt 0 --info=json "$LEGACY/v2.aes"
	"$PY" -c 'import json,sys; assert json.loads(sys.argv[1])["length_authenticated"] is False' "$output"
	# v3's padding is inside the MAC: no note
	run_aescrypt 0 --test -v --passphrase-file pw -f "$LEGACY/v3.aes"
	refute grep -q "not authenticated" <<< "$output"
	run_aescrypt 0 -d -v --passphrase-file pw -o v3.out "$LEGACY/v3.aes"
	refute grep -q "not authenticated" <<< "$output"
	run_aescrypt 0 --info=json "$LEGACY/v3.aes"
	"$PY" -c 'import json,sys; assert json.loads(sys.argv[1])["length_authenticated"] is True' "$output"
}

@test "-t and -x name an AES Crypt file and say to use -d" {
	run_aescrypt 4 -tf "$LEGACY/v3.aes"
	assert_match 'v3.aes is an AES Crypt file: it holds one file.s bytes, not an aescrypt archive'
	assert_match 'decrypt it with: aescrypt -d .*v3.aes -o FILE'
	mkdir x
	run_aescrypt 4 -xf "$LEGACY/v3.aes" -C x
	[ -z "$(ls x)" ]
}

@test "--info shows an AES Crypt header without a key, in text and JSON" {
	run_aescrypt 0 --info "$LEGACY/v3.aes"
	assert_match 'format: +AES Crypt, stream format version 3'
	assert_match 'PBKDF2-HMAC-SHA512, 300000 iterations'
	assert_match 'created by aescrypt tests'
	run_aescrypt 0 --info=json "$LEGACY/v1.aes"
	echo "$output" | "$PY" -c 'import json,sys; d=json.load(sys.stdin); assert d["format"]=="aes-crypt" and d["version"]==1, d'
}

@test "an AES Crypt header whose extensions never end is refused" {
	python3 -c 'import sys; sys.stdout.buffer.write(b"AES\x02\x00" + b"\x00\x01x" * 1100 + bytes(200))' > many.aes
	run_aescrypt 4 -d --passphrase-file "$SAMPLES/sample.pass" -o out many.aes
	assert_match "many.aes: the AES Crypt header.s extensions do not end"
	[ ! -e out ]
	run_aescrypt 4 --info many.aes
	assert_match "extensions do not end"
}
