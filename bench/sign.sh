#!/bin/bash
# sign.sh [--quick] -- what signing costs (format 6.10), against the same
# work unsigned, in one run: the standard corpus (corpus.sh's mixed
# tree, 12,800 files, ~300 MB) archived with -c and extracted with -x
# (to tmpfs), each with and without --sign / --signer (and -x --no-index,
# which reads in order as --signer does); ROUNDS (default
# 5) interleaved rounds, medians with their ranges, the ratios taken
# within the run (this machine is shared and noisy).  Signing hashes
# every record whole in the pipeline's workers and signs every 16 MiB;
# checking does the same as it reads (no second pass) and holds back an
# interval's plaintext.  --quick: 1/20 of the corpus, one round.  Not a
# test: it asserts nothing.
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
"$A" --gen-key "$W/k" 2> /dev/null
ssh-keygen -q -t ed25519 -N '' -C bench -f "$W/ed"
echo "bench $(cat "$W/ed.pub")" > "$W/allowed"
: > "$W/times"
x() {   # x NAME ARGS...: -x into a fresh directory, timed
	local n=$1
	shift
	rm -rf "$W/out" && mkdir "$W/out"
	time1 "$n" "$A" -x -q -k "$W/k" -C "$W/out" "$@"
}
for r in $(seq 1 "$ROUNDS"); do
	time1 "c plain" "$A" -c -q -k "$W/k" -f "$W/p.aes" -C "$W" mixed
	time1 "c signed" "$A" -c -q -k "$W/k" --sign "$W/ed" -f "$W/s.aes" -C "$W" mixed
	x "x plain" -f "$W/p.aes"
	x "x inorder" --no-index -f "$W/p.aes"
	x "x signed" --signer "$W/allowed" -f "$W/s.aes"
done
rm -rf "$W/out"
m1() { med "$1" | cut -d' ' -f1; }
ratio() { echo "scale=3; $(m1 "$1") / $(m1 "$2")" | bc; }
echo "sign.sh: $ROUNDS round(s), the standard corpus ($(du -sb "$W/mixed" | cut -f1) bytes), on $BASE; medians (min-max) in seconds"
printf '  %-34s %s\n' "aescrypt -c" "$(med "c plain")"
printf '  %-34s %s\n' "aescrypt -c --sign" "$(med "c signed")"
printf '  %-34s %s\n' "aescrypt -x" "$(med "x plain")"
printf '  %-34s %s\n' "aescrypt -x --no-index" "$(med "x inorder")"
printf '  %-34s %s\n' "aescrypt -x --signer" "$(med "x signed")"
echo "  signing costs $(ratio "c signed" "c plain")x -c's time; checking $(ratio "x signed" "x plain")x -x's, $(ratio "x signed" "x inorder")x that of -x --no-index (the same read in order)"
echo "  the archives: $(stat -c %s "$W/p.aes") bytes unsigned, $(stat -c %s "$W/s.aes") signed"
