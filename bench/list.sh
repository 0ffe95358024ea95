#!/bin/bash
# list.sh [--quick] -- what -t costs from the index (format 6.8), against
# a full read of the same file and against a named peer, in the same run.
#
# Two trees, each archived once with aescrypt -c and once as the peer's
# `tar c | pigz | age` (the encrypted tar.gz a user has without aescrypt):
#   mixed: 12,800 files, ~300 MB: 300 of 512 KiB random bytes (media)
#          and 12,500 text files of 1 to 24 KiB (documents)
#   many:  200,000 files of 20 to 80 bytes (a mail spool, a cache)
# and listed three ways:
#   aescrypt -t                (the index and the last chunk: issue 35)
#   aescrypt -t --no-index     (a full read: every chunk decrypted)
#   age -d | pigz -d | tar t   (the peer: a full read too)
# Each timing is the median of ROUNDS (default 3) interleaved rounds with
# the min-max range; the ratios are taken within the run (the machine is
# shared and noisy).  Archives live on tmpfs (/dev/shm) when there is
# one, so the disk's noise stays out; the index gains more on a disk.
#
# Not a test: it asserts nothing.  --quick: 1/20 of each tree, one round.
set -euo pipefail
cd "$(dirname "$0")/.."
A=${AESCRYPT:-$PWD/aescrypt}
ROUNDS=${ROUNDS:-3}
MEDIA=300 DOCS=12500 MANY=200000
if [ "${1:-}" = --quick ]; then
	MEDIA=15 DOCS=625 MANY=10000 ROUNDS=1
fi
for t in age age-keygen pigz bc; do
	command -v "$t" > /dev/null || { echo "list.sh: needs $t (apt-get install age pigz bc)" >&2; exit 1; }
done
BASE=/dev/shm
[ -d "$BASE" ] && [ -w "$BASE" ] || BASE=${TMPDIR:-/tmp}
W=$(mktemp -d "$BASE/aescrypt-list.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM

. bench/corpus.sh
corpus_mixed "$W/mixed" "$MEDIA" "$DOCS"
corpus_many "$W/many" "$MANY"
"$A" --gen-key "$W/k" 2> /dev/null
age-keygen -o "$W/age.key" 2> /dev/null
R=$(age-keygen -y "$W/age.key")
for t in mixed many; do
	"$A" -c -q -k "$W/k" -f "$W/$t.aes" -C "$W" "$t"
	tar -C "$W" -cf - "$t" | pigz | age -r "$R" > "$W/$t.tar.gz.age"
done

peer() { age -d -i "$W/age.key" "$1" | pigz -d | tar -tf -; }

: > "$W/times"
for r in $(seq 1 "$ROUNDS"); do
	for t in mixed many; do
		time1 "$t -t" "$A" -t -q -k "$W/k" -f "$W/$t.aes"
		time1 "$t -t --no-index" "$A" -t -q --no-index -k "$W/k" -f "$W/$t.aes"
		time1 "$t peer" peer "$W/$t.tar.gz.age"
	done
done

m() { med "$1" | cut -d' ' -f1; }
ratio() { echo "scale=1; $1 / $2" | bc; }

echo "aescrypt listing benchmark: $(date +%F), $(nproc) CPUs, archives on $BASE"
echo "($ROUNDS round(s); median (min-max) seconds)"
for t in mixed many; do
	n=$("$A" -t -q -k "$W/k" -f "$W/$t.aes" | wc -l)
	echo "$t: $n members, $(stat -c %s "$W/$t.aes") bytes"
	printf '  %-30s %s\n' "aescrypt -t (index)" "$(med "$t -t")"
	printf '  %-30s %s\n' "aescrypt -t --no-index" "$(med "$t -t --no-index")"
	printf '  %-30s %s\n' "age -d | pigz -d | tar t" "$(med "$t peer")"
	echo "  -t from the index: $(ratio "$(m "$t -t --no-index")" "$(m "$t -t")")x a full read, $(ratio "$(m "$t peer")" "$(m "$t -t")")x the peer"
done
