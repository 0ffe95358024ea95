#!/bin/bash
# aes-crypt.sh [MIB] -- what reading an AES Crypt file costs, against a
# named peer in the same run.
#
# A version 3 file of MIB MiB (default 256) of random bytes, made by
# tests/interop/aescrypt_legacy.py at AES Crypt 4's 300,000 PBKDF2
# iterations, on tmpfs (/dev/shm) when there is one, decrypted by:
#   aescrypt -d -o FILE          (AES-NI when the CPU has it)
#   aescrypt -d --no-hw -o FILE  (the constant-time software tier)
#   the Python reader            (OpenSSL's AES-CBC and hashlib's HMAC,
#                                 reading the file into memory)
# Each is the median of ROUNDS (default 5) interleaved runs, with the
# range, and the ratios are taken within the run, as this machine is
# shared and noisy.  Both readers pay the same PBKDF2 (about 0.1-0.3 s).
# Not a test: it asserts nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
A=${AESCRYPT:-$PWD/aescrypt}
MIB=${1:-256}
ROUNDS=${ROUNDS:-5}
BASE=/dev/shm
[ -d "$BASE" ] && [ -w "$BASE" ] || BASE=${TMPDIR:-/tmp}
D=$(mktemp -d "$BASE/aes-crypt-bench.XXXXXX")
trap 'rm -rf "$D"' EXIT
printf 'bench passphrase\n' > "$D/pw"
head -c $((MIB << 20)) /dev/urandom > "$D/plain"
python3 tests/interop/aescrypt_legacy.py encode -v 3 -p "$D/pw" \
    "$D/plain" "$D/f.aes"
rm -f "$D/plain"

now() { date +%s.%N; }
declare -A t
run() {   # run NAME CMD...: one timed run, appended to t[NAME]
	local name=$1 s e
	shift
	s=$(now)
	"$@" > /dev/null
	e=$(now)
	t[$name]="${t[$name]:-} $(echo "$e - $s" | bc)"
	rm -f "$D/out"
}
for _ in $(seq 1 "$ROUNDS"); do
	run hw "$A" -d -q --passphrase-file "$D/pw" -o "$D/out" "$D/f.aes"
	run soft "$A" -d -q --no-hw --passphrase-file "$D/pw" -o "$D/out" "$D/f.aes"
	run python python3 tests/interop/aescrypt_legacy.py decode -p "$D/pw" \
	    "$D/f.aes" "$D/out"
done
median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
range() { tr ' ' '\n' | grep . | sort -g | awk 'NR==1{lo=$1} {hi=$1} END {printf "%.2f-%.2f", lo, hi}'; }
printf 'AES Crypt v3, %d MiB, %d rounds, on %s\n' "$MIB" "$ROUNDS" "$BASE"
for k in hw soft python; do
	m=$(echo "${t[$k]}" | median)
	printf '  %-7s %6.2f s (%s)  %7.1f MiB/s\n' "$k" "$m" \
	    "$(echo "${t[$k]}" | range)" "$(echo "$MIB / $m" | bc -l)"
done
mh=$(echo "${t[hw]}" | median); ms=$(echo "${t[soft]}" | median)
mp=$(echo "${t[python]}" | median)
printf 'python / aescrypt: %.2f x;  --no-hw / default: %.2f x\n' \
    "$(echo "$mp / $mh" | bc -l)" "$(echo "$ms / $mh" | bc -l)"
