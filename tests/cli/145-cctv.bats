#!/usr/bin/env bats
# The negative test vectors (tests/cctv/, in the manner of age's CCTV):
# named files that each break one rule of format/aescrypt-v1.md, or sit
# exactly on a limit, with the exit status a decoder must give.  Each is
# replayed through aescrypt -d and through the independent implementation
# in tests/interop, and both must give the MANIFEST's status; aescrypt's
# message must also name the problem.

load test_helper

CCTV=$BATS_TEST_DIRNAME/../cctv
PY=/usr/bin/python3

setup() {
	test_dir || return 1
	# the committed key file is 0644 in git; a private copy keeps the
	# permission warning out of the messages compared here
	cp "$SAMPLES/sample.key" key && chmod 600 key
	cp "$SAMPLES/sample.pass" pass
	cp "$SAMPLES/sample-pq-identity.txt" pq && chmod 600 pq
}

# secret_args WHO SECRET: the options for aescrypt (WHO=c) or the
# interop implementation (WHO=py).
secret_args() {
	case $1$2 in
	ckey) echo "-k key" ;;
	cpass) echo "--passphrase-file pass" ;;
	pykey) echo "-k key" ;;
	pypass) echo "-p pass" ;;
	cpq|pypq) echo "-i pq" ;;
	esac
}

@test "the vectors are what mkvectors.py makes, byte for byte" {
	"$PY" -c 'import cryptography, argon2' || skip "needs python3-cryptography and python3-argon2"
	"$PY" "$CCTV/mkvectors.py" fresh
	diff -r "$CCTV/vectors" fresh
	[ "$(grep -vc '^#' fresh/MANIFEST)" -ge 40 ]
}

@test "aescrypt -d gives every vector its status and names the problem; a failure leaves no output file" {
	local n=0 bad=0
	while IFS=$'\t' read -r name want secret section rx; do
		[[ $name == \#* ]] && continue
		# shellcheck disable=SC2046
		run "$AESCRYPT" -d $(secret_args c "$secret") -o out -- "$CCTV/vectors/$name.aes"
		if [ "$status" -ne "$want" ] || ! [[ $output =~ $rx ]]; then
			echo "$name (spec $section): exit $status, want $want /$rx/: $output" >&2
			bad=$((bad + 1))
		fi
		if [ "$want" -ne 0 ] && { [ -e out ] || compgen -G '.out.aescrypt-*' > /dev/null; }; then
			echo "$name: output left behind" >&2
			bad=$((bad + 1))
		fi
		rm -f out
		n=$((n + 1))
	done < "$CCTV/vectors/MANIFEST"
	echo "# $n vectors, $bad wrong" >&3
	[ "$n" -ge 40 ]
	[ "$bad" -eq 0 ]
}

@test "the interop implementation agrees on every vector" {
	"$PY" -c 'import cryptography, argon2' || skip "needs python3-cryptography and python3-argon2"
	local n=0 bad=0 st
	# one run of the implementation for every vector (batch: a job a
	# line, its status a line), then the statuses against the MANIFEST
	grep -v '^#' "$CCTV/vectors/MANIFEST" | while IFS=$'\t' read -r name want secret section rx; do
		# shellcheck disable=SC2046
		printf '%s\t' decode $(secret_args py "$secret") "$CCTV/vectors/$name.aes"
		printf '%s\n' out
	done > jobs
	"$PY" "$BATS_TEST_DIRNAME/../interop/aescrypt_v1.py" batch < jobs > statuses 2> messages
	exec 4< statuses
	while IFS=$'\t' read -r name want secret section rx; do
		[[ $name == \#* ]] && continue
		read -r st <&4 || st=missing
		if [ "$st" != "$want" ]; then
			echo "$name (spec $section): interop exit $st, want $want" >&2
			bad=$((bad + 1))
		fi
		n=$((n + 1))
	done < "$CCTV/vectors/MANIFEST"
	exec 4<&-
	echo "# $n vectors, $bad wrong" >&3
	[ "$bad" -eq 0 ] || cat messages >&2
	[ "$n" -ge 40 ]
	[ "$bad" -eq 0 ]
}
