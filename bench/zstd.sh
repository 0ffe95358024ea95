#!/bin/bash
# zstd.sh [--quick] -- aescrypt --zstd against tar | zstd -3 -TN | age,
# in one run (issue 49: create at least 1.5x the pipeline's speed at at
# most 0.85x its size, and -x at least 1.5x, on both trees): -c of each
# tree, its output's size, and -x of what each made into a fresh
# directory, all on tmpfs.  The trees: the standard corpus (corpus.sh's
# mixed tree: half random "media", half text) and the locale+doc tree
# (/usr/share/locale and /usr/share/doc, copied in: what a system
# backup holds; a slim machine may have little of either, and the
# sizes printed say how much).  N is the number of CPUs, as aescrypt's
# default -j.  ROUNDS (default 7) interleaved rounds, medians with
# their ranges, ratios taken within the run, and the load average
# before and after (this machine is shared).  --quick: 1/20 of the
# corpus and part of the locale+doc tree, one round.  Not a test: it
# asserts nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
A=${AESCRYPT:-$PWD/aescrypt}
ROUNDS=${ROUNDS:-7}
MEDIA=300 DOCS=12500 PICK='*'
if [ "${1:-}" = --quick ]; then
	MEDIA=15 DOCS=625 PICK='[a-c]*' ROUNDS=1
fi
for t in age age-keygen zstd tar; do
	command -v "$t" > /dev/null || { echo "zstd.sh: needs $t (apt-get install age zstd tar)" >&2; exit 1; }
done
"$A" --version | grep -q '^libzstd' || { echo "zstd.sh: aescrypt was built without libzstd" >&2; exit 1; }
N=$(nproc)
BASE=/dev/shm
[ -d "$BASE" ] && [ -w "$BASE" ] || BASE=${TMPDIR:-/tmp}
W=$(mktemp -d "$BASE/aescrypt-zstd.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
. bench/corpus.sh
corpus_mixed "$W/standard" "$MEDIA" "$DOCS"
mkdir -p "$W/locale+doc/locale" "$W/locale+doc/doc"
for d in locale doc; do
	# (a glob that matches nothing is left alone: cp then fails, quietly)
	# shellcheck disable=SC2086
	cp -a /usr/share/$d/$PICK "$W/locale+doc/$d/" 2> /dev/null || true
done
age-keygen -o "$W/id" 2> /dev/null
R=$(age-keygen -y "$W/id")
"$A" --gen-key "$W/k" 2> /dev/null
: > "$W/times"
load0=$(cut -d' ' -f1-3 /proc/loadavg)
xt() {  # xt NAME CMD...: into a fresh $W/out, timed
	local n=$1
	shift
	rm -rf "$W/out" && mkdir "$W/out"
	time1 "$n" "$@"
}
for r in $(seq 1 "$ROUNDS"); do
	for t in standard locale+doc; do
		time1 "c aescrypt $t" "$A" -c --zstd -q -k "$W/k" -f "$W/$t.aes" -C "$W" "$t"
		time1 "c pipeline $t" sh -c "tar cf - -C '$W' '$t' | zstd -3 -T$N -q | age -r '$R' > '$W/$t.age'"
		xt "x aescrypt $t" "$A" -x -q -k "$W/k" -f "$W/$t.aes" -C "$W/out"
		xt "x pipeline $t" sh -c "age -d -i '$W/id' '$W/$t.age' | zstd -d -q | tar xf - -C '$W/out'"
	done
done
load1=$(cut -d' ' -f1-3 /proc/loadavg)
m1() { med "$1" | cut -d' ' -f1; }
# how many times faster aescrypt is than the pipeline
speed() { printf '%.2f' "$(echo "scale=4; $(m1 "$1 pipeline $2") / $(m1 "$1 aescrypt $2")" | bc)"; }
echo "zstd.sh: $ROUNDS round(s), $N CPUs, load average $load0 before, $load1 after; medians (min-max) in seconds, tmpfs"
for t in standard locale+doc; do
	sa=$(stat -c %s "$W/$t.aes") sp=$(stat -c %s "$W/$t.age")
	echo "$t tree ($(du -sb "$W/$t" | cut -f1) bytes, $(find "$W/$t" -type f | wc -l) files):"
	printf '  %-44s %s\n' "aescrypt -c --zstd" "$(med "c aescrypt $t")"
	printf '  %-44s %s\n' "tar c | zstd -3 -T$N | age" "$(med "c pipeline $t")"
	printf '  %-44s %s\n' "aescrypt -x" "$(med "x aescrypt $t")"
	printf '  %-44s %s\n' "age -d | zstd -d | tar x" "$(med "x pipeline $t")"
	echo "  create: $(speed c "$t")x the pipeline's speed (issue 49: at least 1.5x), at $(printf '%.3f' "$(echo "scale=5; $sa / $sp" | bc)")x its size ($sa against $sp bytes; at most 0.85x)"
	echo "  -x: $(speed x "$t")x the pipeline's speed (at least 1.5x)"
done
