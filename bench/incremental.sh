#!/bin/bash
# incremental.sh [--quick] -- what -c -g costs at level 1 as the tree
# grows, against GNU tar -g on the same tree in the same run (issue 38).
#
# For each size N (default 10,000, 30,000 and 100,000 directories, each
# with one small file), the tree gets a level-0 dump from each tool, a
# few files change, and then the level-1 dump is timed: aescrypt -c -g
# (its snapshot index: one lookup a directory) against GNU tar -g | the
# null device (GNU tar's own snapshot code; no compression or crypto,
# so the peer's figure is its walk alone).  The old aescrypt scanned
# the snapshot for every directory, which grew as N squared.
#
# Reported: the median of ROUNDS (default 3) interleaved rounds each,
# the ratio to GNU tar, and the growth per unit of input from one size to
# the next (time ratio / size ratio: 1.0 is linear).  The tree lives on
# tmpfs (/dev/shm) when there is one.  Not a test: it asserts nothing.
# --quick: 1/10 of each size, one round.  SIZES="N ..." to choose.
set -euo pipefail
cd "$(dirname "$0")/.."
A=${AESCRYPT:-$PWD/aescrypt}
ROUNDS=${ROUNDS:-3}
SIZES=${SIZES:-"10000 30000 100000"}
if [ "${1:-}" = --quick ]; then
	SIZES="1000 3000 10000" ROUNDS=1
fi
BASE=/dev/shm
[ -d "$BASE" ] && [ -w "$BASE" ] || BASE=${TMPDIR:-/tmp}
W=$(mktemp -d "$BASE/aescrypt-incr.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
"$A" --gen-key "$W/key" > /dev/null

# secs CMD...: wall seconds of CMD
secs() {
	local t0 t1
	t0=$(date +%s.%N)
	"$@" > /dev/null 2>&1
	t1=$(date +%s.%N)
	echo "$t1 - $t0" | bc -l
}
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

printf '%-12s %12s %12s %10s %14s\n' directories "aescrypt s" "GNU tar s" ratio "growth/unit"
prev_n= prev_t=
for n in $SIZES; do
	rm -rf "$W/t" "$W"/*.snap "$W"/*.aes
	python3 - "$W/t" "$n" <<'PY'
import os, sys
root, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    d = os.path.join(root, "%03d" % (i // 1000), "d%06d" % i)
    os.makedirs(d)
    with open(os.path.join(d, "f"), "w") as f:
        f.write("%d\n" % i)
PY
	"$A" -c -k "$W/key" -g "$W/a0.snap" -f "$W/l0.aes" -C "$W" t
	tar -c -g "$W/g0.snap" -f /dev/null -C "$W" t
	sleep 1
	for i in $(seq 0 97 $((n - 1))); do
		echo more >> "$W/t/$(printf '%03d/d%06d' $((i / 1000)) "$i")/f"
	done
	ours=() theirs=()
	for r in $(seq 1 "$ROUNDS"); do
		cp "$W/a0.snap" "$W/a1.snap"
		cp "$W/g0.snap" "$W/g1.snap"
		ours+=("$(secs "$A" -c -k "$W/key" -g "$W/a1.snap" -f "$W/l1.aes" -C "$W" t)")
		theirs+=("$(secs tar -c -g "$W/g1.snap" -f /dev/null -C "$W" t)")
	done
	o=$(printf '%s\n' "${ours[@]}" | median)
	g=$(printf '%s\n' "${theirs[@]}" | median)
	growth=-
	if [ -n "$prev_n" ]; then
		growth=$(echo "($o / $prev_t) / ($n / $prev_n)" | bc -l)
		growth=$(printf '%.2f' "$growth")
	fi
	printf '%-12s %12.2f %12.2f %9.2fx %14s\n' "$n" "$o" "$g" \
	    "$(echo "$o / $g" | bc -l)" "$growth"
	prev_n=$n prev_t=$o
done
echo "(ratio: aescrypt's time / GNU tar's, lower is faster; growth: 1.00 is linear)"
