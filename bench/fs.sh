#!/bin/bash
# fs.sh [--quick] -- the file system side against plain tar, in one run
# (issue 49): -x of the standard corpus (corpus.sh's mixed tree, 12,800
# files, ~300 MB) against tar xf of the same tree as a plain,
# uncompressed tar, into tmpfs and into the disk ($TMPDIR); and -c of a
# tree of 50,200 small files (1 to 8 KiB, ~200 MB) against
# tar cf - | cat > /dev/null.  ROUNDS (default 7) interleaved rounds,
# medians with their ranges, the ratios taken within the run, and the
# machine's load average before and after (this machine is shared:
# a ratio taken under load says less).  --quick: 1/20 of each tree, one
# round.  Not a test: it asserts nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
A=${AESCRYPT:-$PWD/aescrypt}
ROUNDS=${ROUNDS:-7}
MEDIA=300 DOCS=12500 SMALL=50200
if [ "${1:-}" = --quick ]; then
	MEDIA=15 DOCS=625 SMALL=2510 ROUNDS=1
fi
BASE=/dev/shm
[ -d "$BASE" ] && [ -w "$BASE" ] || BASE=${TMPDIR:-/tmp}
W=$(mktemp -d "$BASE/aescrypt-fs.XXXXXX")
D=$(mktemp -d "${TMPDIR:-/tmp}/aescrypt-fs-disk.XXXXXX")
trap 'rm -rf "$W" "$D"' EXIT INT TERM
. bench/corpus.sh
corpus_mixed "$W/mixed" "$MEDIA" "$DOCS"
python3 - "$W/small" "$SMALL" <<'PY'
import os, sys
d, n = sys.argv[1], int(sys.argv[2])
text = b"".join(b"line %d of a small file\n" % i for i in range(400))
for i in range(n):
    sub = os.path.join(d, "%03d" % (i // 1000))
    if i % 1000 == 0:
        os.makedirs(sub)
    size = 1024 + (i * 7919) % (7 * 1024)
    with open(os.path.join(sub, "f%05d" % i), "wb") as f:
        f.write((text * 2)[(i * 131) % 4096:][:size])
PY
"$A" --gen-key "$W/k" 2> /dev/null
tar cf "$W/mixed.tar" -C "$W" mixed
"$A" -c -q -k "$W/k" -f "$W/mixed.aes" -C "$W" mixed
: > "$W/times"
load0=$(cut -d' ' -f1-3 /proc/loadavg)
xt() {  # xt NAME DIR CMD...: into a fresh DIR/out, timed
	local n=$1 dir=$2
	shift 2
	rm -rf "$dir/out" && mkdir "$dir/out"
	time1 "$n" "$@"
}
for r in $(seq 1 "$ROUNDS"); do
	xt "x tar tmpfs" "$W" tar xf "$W/mixed.tar" -C "$W/out"
	xt "x aescrypt tmpfs" "$W" "$A" -x -q -k "$W/k" -f "$W/mixed.aes" -C "$W/out"
	xt "x tar disk" "$D" tar xf "$W/mixed.tar" -C "$D/out"
	xt "x aescrypt disk" "$D" "$A" -x -q -k "$W/k" -f "$W/mixed.aes" -C "$D/out"
	time1 "c tar" sh -c "tar cf - -C '$W' small | cat > /dev/null"
	time1 "c aescrypt" "$A" -c -q -k "$W/k" -f - -C "$W" small
done
load1=$(cut -d' ' -f1-3 /proc/loadavg)
m1() { med "$1" | cut -d' ' -f1; }
ratio() { printf '%.2f' "$(echo "scale=4; $(m1 "$1") / $(m1 "$2")" | bc)"; }
echo "fs.sh: $ROUNDS round(s), $(nproc) CPUs, load average $load0 before, $load1 after; medians (min-max) in seconds"
echo "-x of the standard corpus ($(du -sb "$W/mixed" | cut -f1) bytes, $(find "$W/mixed" -type f | wc -l) files):"
printf '  %-34s %s\n' "tar xf mixed.tar (tmpfs)" "$(med "x tar tmpfs")"
printf '  %-34s %s\n' "aescrypt -x (tmpfs)" "$(med "x aescrypt tmpfs")"
printf '  %-34s %s\n' "tar xf mixed.tar (disk)" "$(med "x tar disk")"
printf '  %-34s %s\n' "aescrypt -x (disk)" "$(med "x aescrypt disk")"
echo "  aescrypt -x takes $(ratio "x aescrypt tmpfs" "x tar tmpfs")x tar's time on tmpfs (issue 49: at most 0.8x), $(ratio "x aescrypt disk" "x tar disk")x on disk"
echo "-c of $(find "$W/small" -type f | wc -l) small files ($(du -sb "$W/small" | cut -f1) bytes):"
printf '  %-34s %s\n' "tar cf - | cat > /dev/null" "$(med "c tar")"
printf '  %-34s %s\n' "aescrypt -c -f - > /dev/null" "$(med "c aescrypt")"
echo "  aescrypt -c takes $(ratio "c aescrypt" "c tar")x tar's time (issue 49: at most 0.75x)"
