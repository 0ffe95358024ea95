#!/bin/bash
# sign.sh [--quick] -- what signing costs (format 6.10), against the same
# work unsigned, in one run: the standard corpus (corpus.sh's mixed
# tree, ~300 MB) as one tar stream, encrypted with -e and decrypted with
# -d, each with and without --sign / --signer, ROUNDS (default 5)
# interleaved rounds, medians with their ranges, the ratios taken within
# the run (this machine is shared and noisy).  Inputs and outputs on
# tmpfs when there is one.  Signing hashes every record in the workers
# and signs every 16 MiB; checking does the same and holds back the
# plaintext of an interval.  --quick: 1/20 of the corpus, one round.
# Not a test: it asserts nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
A=${AESCRYPT:-$PWD/aescrypt}
ROUNDS=${ROUNDS:-5}
MEDIA=300 DOCS=12500
if [ "${1:-}" = --quick ]; then
	MEDIA=15 DOCS=625 ROUNDS=1
fi
command -v ssh-keygen > /dev/null || { echo "sign.sh: needs ssh-keygen (apt-get install openssh-client)" >&2; exit 1; }
BASE=/dev/shm
[ -d "$BASE" ] && [ -w "$BASE" ] || BASE=${TMPDIR:-/tmp}
W=$(mktemp -d "$BASE/aescrypt-sign.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
. bench/corpus.sh
corpus_mixed "$W/mixed" "$MEDIA" "$DOCS"
tar -C "$W" -cf "$W/mixed.tar" mixed
rm -rf "$W/mixed"
"$A" --gen-key "$W/k" 2> /dev/null
ssh-keygen -q -t ed25519 -N '' -C bench -f "$W/ed"
echo "bench $(cat "$W/ed.pub")" > "$W/allowed"
: > "$W/times"
for r in $(seq 1 "$ROUNDS"); do
	time1 "e plain" "$A" -e -q -k "$W/k" -o "$W/p.aes" "$W/mixed.tar"
	time1 "e signed" "$A" -e -q -k "$W/k" --sign "$W/ed" -o "$W/s.aes" "$W/mixed.tar"
	time1 "d plain" "$A" -d -q -k "$W/k" -o "$W/p.out" "$W/p.aes"
	time1 "d signed" "$A" -d -q -k "$W/k" --signer "$W/allowed" -o "$W/s.out" "$W/s.aes"
	rm -f "$W/p.out" "$W/s.out"
done
m1() { med "$1" | cut -d' ' -f1; }
ratio() { echo "scale=3; $(m1 "$1") / $(m1 "$2")" | bc; }
size=$(stat -c %s "$W/mixed.tar")
echo "sign.sh: $ROUNDS round(s), a tar stream of $size bytes, on $BASE; medians (min-max) in seconds"
printf '  %-34s %s\n' "aescrypt -e" "$(med "e plain")"
printf '  %-34s %s\n' "aescrypt -e --sign" "$(med "e signed")"
printf '  %-34s %s\n' "aescrypt -d" "$(med "d plain")"
printf '  %-34s %s\n' "aescrypt -d --signer" "$(med "d signed")"
echo "  signing costs $(ratio "e signed" "e plain")x -e's time, checking $(ratio "d signed" "d plain")x -d's"
echo "  the files: $(stat -c %s "$W/p.aes") bytes unsigned, $(stat -c %s "$W/s.aes") signed"
