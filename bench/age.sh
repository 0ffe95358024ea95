#!/bin/bash
# age.sh [--quick] -- aescrypt -d against age -d on the same age file,
# in one run (issue 48: the target is at least 1.8x age's speed): a
# 256 MiB file (half random bytes, half text, as a backup holds) made by
# the installed age for an X25519 recipient, decrypted to /dev/null by
# each, and by aescrypt -j1 (one worker: what the parallel chunks buy);
# then tar|zstd|age of the standard corpus (corpus.sh's mixed tree)
# extracted by aescrypt -x against age -d | zstd -d | tar x, on tmpfs
# and on disk ($TMPDIR).  ROUNDS (default 5) interleaved rounds,
# medians with their ranges, ratios taken within the run (this machine
# is shared and noisy).  --quick: 16 MiB and 1/20 of the corpus, one
# round.  Not a test: it asserts nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
A=${AESCRYPT:-$PWD/aescrypt}
ROUNDS=${ROUNDS:-5}
MIB=256 MEDIA=300 DOCS=12500
if [ "${1:-}" = --quick ]; then
	MIB=16 MEDIA=15 DOCS=625 ROUNDS=1
fi
for t in age age-keygen zstd tar; do
	command -v "$t" > /dev/null || { echo "age.sh: needs $t (apt-get install age zstd tar)" >&2; exit 1; }
done
BASE=/dev/shm
[ -d "$BASE" ] && [ -w "$BASE" ] || BASE=${TMPDIR:-/tmp}
W=$(mktemp -d "$BASE/aescrypt-age.XXXXXX")
D=$(mktemp -d "${TMPDIR:-/tmp}/aescrypt-age-disk.XXXXXX")
trap 'rm -rf "$W" "$D"' EXIT INT TERM
. bench/corpus.sh
age-keygen -o "$W/id" 2> /dev/null
R=$(age-keygen -y "$W/id")
head -c $((MIB * 512 * 1024)) /dev/urandom > "$W/plain"
{ seq 1 $((MIB * 80000)) || true; } | head -c $((MIB * 512 * 1024)) >> "$W/plain"
age -r "$R" -o "$W/f.age" "$W/plain"
rm "$W/plain"
corpus_mixed "$W/mixed" "$MEDIA" "$DOCS"
tar cf - -C "$W" mixed | zstd -q -3 | age -r "$R" > "$W/t.age"
: > "$W/times"
xt() {  # xt NAME DIR CMD...: extract into a fresh DIR/out, timed
	local n=$1 dir=$2
	shift 2
	rm -rf "$dir/out" && mkdir "$dir/out"
	time1 "$n" "$@"
}
for r in $(seq 1 "$ROUNDS"); do
	time1 "d age" age -d -i "$W/id" -o /dev/null "$W/f.age"
	time1 "d aescrypt" "$A" -d -i "$W/id" -o /dev/null "$W/f.age"
	time1 "d aescrypt -j1" "$A" -d -j 1 -i "$W/id" -o /dev/null "$W/f.age"
	xt "x age tmpfs" "$W" sh -c "age -d -i '$W/id' '$W/t.age' | zstd -dq | tar xf - -C '$W/out'"
	xt "x aescrypt tmpfs" "$W" "$A" -x -q -i "$W/id" -f "$W/t.age" -C "$W/out"
	xt "x age disk" "$D" sh -c "age -d -i '$W/id' '$W/t.age' | zstd -dq | tar xf - -C '$D/out'"
	xt "x aescrypt disk" "$D" "$A" -x -q -i "$W/id" -f "$W/t.age" -C "$D/out"
done
# (what the last -x made, against the tree: a benchmark of a wrong
# answer would be worth nothing)
if /usr/bin/python3 tests/cli/treecmp.py "$W/mixed" "$D/out/mixed" > "$W/cmp" 2>&1; then
	same="equal to the tree (treecmp.py)"
else
	same="NOT equal to the tree: $(head -3 "$W/cmp")"
fi
m1() { med "$1" | cut -d' ' -f1; }
ratio() { printf '%.2f' "$(echo "scale=4; $(m1 "$1") / $(m1 "$2")" | bc)"; }
echo "age.sh: $ROUNDS round(s), $(nproc) CPUs, files on $BASE; medians (min-max) in seconds"
echo "a ${MIB} MiB age file ($(stat -c %s "$W/f.age") bytes), decrypted to /dev/null:"
printf '  %-36s %s\n' "age -d" "$(med "d age")"
printf '  %-36s %s\n' "aescrypt -d" "$(med "d aescrypt")"
printf '  %-36s %s\n' "aescrypt -d -j1" "$(med "d aescrypt -j1")"
echo "  aescrypt -d is $(ratio "d age" "d aescrypt")x age -d's speed (target >= 1.8x); -j1 $(ratio "d age" "d aescrypt -j1")x"
echo "tar|zstd|age of the standard corpus ($(du -sb "$W/mixed" | cut -f1) bytes), extracted:"
printf '  %-36s %s\n' "age -d | zstd -d | tar x (tmpfs)" "$(med "x age tmpfs")"
printf '  %-36s %s\n' "aescrypt -x (tmpfs)" "$(med "x aescrypt tmpfs")"
printf '  %-36s %s\n' "age -d | zstd -d | tar x (disk)" "$(med "x age disk")"
printf '  %-36s %s\n' "aescrypt -x (disk)" "$(med "x aescrypt disk")"
echo "  aescrypt -x is $(ratio "x age tmpfs" "x aescrypt tmpfs")x the pipeline's speed on tmpfs, $(ratio "x age disk" "x aescrypt disk")x on disk"
echo "  what aescrypt -x made is $same"
