#!/bin/sh
# chunk_size.sh [AESCRYPT] -- how the chunk size affects speed and size.
#
# For each chunk size from 64 KiB to 4 MiB, encrypt and decrypt the same
# inputs with a key file (no KDF in the timing), in interleaved rounds,
# and report the median MB/s and each size's ratio to 256 KiB (the
# default), measured in the same run.  Inputs: text (C headers from
# /usr/include, repeated) at -6, and random bytes (stored chunks).
# Not a test: it prints numbers, it asserts nothing.
set -eu
A=${1:-./aescrypt}
ROUNDS=${ROUNDS:-5}
MB=${MB:-64}
W=$(mktemp -d "${TMPDIR:-/tmp}/aescrypt-chunk.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM

"$A" --gen-key "$W/k" 2>/dev/null
find /usr/include -name '*.h' -type f -exec cat {} + > "$W/seed" 2>/dev/null
: > "$W/text"
while [ "$(stat -c %s "$W/text")" -lt $((MB * 1000000)) ]; do
	cat "$W/seed" >> "$W/text"
done
head -c $((MB * 1000000)) "$W/text" > "$W/t" && mv "$W/t" "$W/text"
head -c $((MB * 1000000)) /dev/urandom > "$W/rand"

SIZES="64K 128K 256K 512K 1M 4M"
now() { date +%s.%N; }
for r in $(seq 1 "$ROUNDS"); do
	for cs in $SIZES; do
		for d in text rand; do
			t0=$(now)
			"$A" -e -6 -k "$W/k" --chunk-size "$cs" -o "$W/$d.$cs.aes" "$W/$d"
			t1=$(now)
			"$A" -d -k "$W/k" -o /dev/null "$W/$d.$cs.aes"
			t2=$(now)
			echo "$d $cs $t0 $t1 $t2 $(stat -c %s "$W/$d.$cs.aes")" |
			    awk '{printf "%s %s %.6f %.6f %s\n", $1, $2, $4 - $3, $5 - $4, $6}'
		done
	done
done > "$W/raw"

printf '%-5s %-5s %10s %10s %12s %9s %9s\n' data chunk "enc MB/s" "dec MB/s" "out bytes" "enc/256K" "dec/256K"
for d in text rand; do
	base_e=$(awk -v d=$d '$1==d && $2=="256K"{print $3}' "$W/raw" | sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}')
	base_d=$(awk -v d=$d '$1==d && $2=="256K"{print $4}' "$W/raw" | sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}')
	for cs in $SIZES; do
		e=$(awk -v d=$d -v c=$cs '$1==d && $2==c{print $3}' "$W/raw" | sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}')
		dd=$(awk -v d=$d -v c=$cs '$1==d && $2==c{print $4}' "$W/raw" | sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}')
		sz=$(awk -v d=$d -v c=$cs '$1==d && $2==c{print $5; exit}' "$W/raw")
		awk -v d=$d -v c=$cs -v e=$e -v dd=$dd -v sz=$sz -v be=$base_e -v bd=$base_d -v mb=$MB \
		    'BEGIN{printf "%-5s %-5s %10.0f %10.0f %12d %9.2f %9.2f\n", d, c, mb/e, mb/dd, sz, be/e, bd/dd}'
	done
done
