#!/usr/bin/env bats
# Every committed sample container (tests/samples/MANIFEST) does what its
# line says: good ones decrypt to the recorded SHA-256, bad ones fail
# with the recorded exit status and message, and leave no output file.

load test_helper

@test "every sample in MANIFEST behaves as recorded" {
	local n=0 file key rc sum msg args
	while IFS=$'\t' read -r file key rc sum msg; do
		sample_args "$key" || { [ $? -eq 2 ] && continue; return 1; }
		run "$AESCRYPT" -d "${args[@]}" -o "$T/out" "$SAMPLES/$file"
		if [ "$status" -ne "$rc" ]; then
			echo "$file: exit $status, expected $rc: $output" >&2
			return 1
		fi
		if [ "$sum" != - ]; then
			got=$(sha256sum < "$T/out" | cut -d' ' -f1)
			if [ "$got" != "$sum" ]; then
				echo "$file: plaintext sha256 $got, expected $sum" >&2
				return 1
			fi
			rm -f "$T/out"
		else
			assert_no_output "$T" out
		fi
		if [ "$rc" -ne 0 ] && ! [[ $output =~ aescrypt:\ error:\ .*$msg ]]; then
			echo "$file: message '$output' does not match /$msg/" >&2
			return 1
		fi
		n=$((n + 1))
	done < <(manifest_rows)
	echo "# $n sample cases" >&3
	[ "$n" -ge 25 ]
}

@test "every committed .aes sample is listed in MANIFEST" {
	local f
	for f in "$SAMPLES"/*.aes; do
		grep -q "^${f##*/}	" "$SAMPLES/MANIFEST" || {
			echo "${f##*/} is not in MANIFEST" >&2
			return 1
		}
	done
}

@test "a sample that fails to stdout says the output is incomplete" {
	run_aescrypt 4 -d -k "$SAMPLES/sample.key" "$SAMPLES/bad-tag-chunk1.aes"
	assert_match 'chunk 1 at offset 3196 failed authentication'
	assert_match 'the output is incomplete: only the first 65536 bytes'
}

@test "a KDF cost over the cap is refused with a hint naming the flag" {
	run_aescrypt 5 -d --passphrase-file "$SAMPLES/sample.pass" "$SAMPLES/bad-kdf-cost.aes"
	assert_match 'key slot 0 asks for Argon2id memory 4 GiB'
	assert_match 'hint: if you trust this file, raise the limit with --max-kdf-memory'
}
