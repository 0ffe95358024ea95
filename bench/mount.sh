#!/bin/bash
# mount.sh [--quick] -- aescrypt --mount against the FUSE peers a user
# has in Debian, on the same trees, in one run:
#   aescrypt --mount            the archive, from its index
#   archivemount                the same tree as a .tar and as a .tar.gz
#   squashfuse                  the same tree as a squashfs image
#                               (mksquashfs -comp zstd): the speed
#                               reference, though it encrypts nothing
# The trees (list.sh's): mixed, 12,800 files (~300 MB of media and
# documents); many, 200,000 small files; and big, one 1 GiB member (half
# text, half random bytes, in 40 MB runs).
# Measured, each the median of ROUNDS (default 3) interleaved rounds with
# the min-max range, the ratios taken within the run (this machine is
# shared and noisy), inputs in the page cache (all on tmpfs when there
# is one):
#   ready:   from the mount command's start until the mount answers
#            (aescrypt and archivemount return once it is there;
#            squashfuse is asked until it answers); aescrypt's RSS then
#   walk:    find DIR | wc -l, and du -s DIR, on a fresh mount
#   cat:     cat of the 1 GiB member to /dev/null, against
#            aescrypt -x -O of it to /dev/null, and squashfuse's cat
#   random:  4 KiB reads at random places of the 1 GiB member from 4
#            threads (IOPS), fresh mounts
#   equal:   treecmp.py (types, modes, mtimes, owners, symlink targets,
#            bytes, hard links) of the mount against its source, and of
#            a 4-level -g chain's mount against -x -g /dev/null of it
# Not a test: it asserts nothing but prints what differs.  --quick: 1/20
# of each tree and a 64 MiB member, one round.
set -euo pipefail
cd "$(dirname "$0")/.."
A=${AESCRYPT:-$PWD/aescrypt}
ROUNDS=${ROUNDS:-3}
MEDIA=300 DOCS=12500 MANY=200000 BIGMB=1024 NRAND=3000
if [ "${1:-}" = --quick ]; then
	MEDIA=15 DOCS=625 MANY=10000 BIGMB=64 NRAND=500 ROUNDS=1
fi
for t in archivemount squashfuse mksquashfs fusermount3 bc pigz; do
	command -v "$t" > /dev/null || { echo "mount.sh: needs $t (apt-get install archivemount squashfuse squashfs-tools fuse3 bc pigz)" >&2; exit 1; }
done
[ -e /dev/fuse ] || { echo "mount.sh: no /dev/fuse here" >&2; exit 1; }
BASE=/dev/shm
[ -d "$BASE" ] && [ -w "$BASE" ] || BASE=${TMPDIR:-/tmp}
W=$(mktemp -d "$BASE/aescrypt-mount.XXXXXX")
cleanup() {
	local m
	for m in "$W"/mnt-*; do
		mountpoint -q "$m" 2> /dev/null && fusermount3 -u "$m"
	done
	rm -rf "$W"
}
trap cleanup EXIT INT TERM

# ---- the trees ----
. bench/corpus.sh
mkdir -p "$W/big"
corpus_mixed "$W/mixed" "$MEDIA" "$DOCS"
# (a symlink and a hard link, so that the compare sees both)
ln -s docs/doc-00001.txt "$W/mixed/link"
ln "$W/mixed/docs/doc-00002.txt" "$W/mixed/hard"
corpus_many "$W/many" "$MANY"
python3 - "$W/big/member" "$BIGMB" "$W/text" <<'PY'
import os, sys
out, mb, text = sys.argv[1], int(sys.argv[2]), open(sys.argv[3], "rb").read()
run = 40 << 20 if mb >= 256 else 4 << 20
with open(out, "wb") as f:
    left, k = mb << 20, 0
    while left > 0:
        n = min(run, left)
        if k % 2 == 0:
            f.write((text * (n // len(text) + 1))[:n])
        else:
            f.write(os.urandom(n))
        left -= n
        k += 1
PY
"$A" --gen-key "$W/k" 2> /dev/null
for t in mixed many big; do
	"$A" -c -q -k "$W/k" -f "$W/$t.aes" -C "$W" "$t"
	tar -C "$W" -cf "$W/$t.tar" "$t"
	pigz -c "$W/$t.tar" > "$W/$t.tar.gz"
	mksquashfs "$W/$t" "$W/$t.sqfs" -comp zstd -keep-as-directory \
	    -quiet -no-progress > /dev/null
done
mkdir "$W/mnt-a" "$W/mnt-b"

# mnt KIND TREE DIR: mount TREE as KIND (aes, tar, tgz, sqfs) on DIR and
# return once it answers (squashfuse returns before that).
mnt() {
	case $1 in
	aes) "$A" --mount "$3" -q -k "$W/k" -f "$W/$2.aes" ;;
	tar) archivemount -o ro,readonly "$W/$2.tar" "$3" ;;
	tgz) archivemount -o ro,readonly "$W/$2.tar.gz" "$3" ;;
	sqfs) squashfuse "$W/$2.sqfs" "$3"
	      until [ -e "$3/$2" ]; do :; done ;;
	esac
}
# umnt DIR: unmount, and wait until the file system's process has ended
# (a daemon that frees its tree while the next step is timed would be
# timed with it)
umnt() {
	fusermount3 -u "$1"
	while pgrep -f -- " $1( |\$)" > /dev/null; do sleep 0.05; done
}

# cat_walk KIND TREE: time a fresh mount's find | wc -l and du -s
cat_walk() {
	mnt "$1" "$2" "$W/mnt-a"
	time1 "$2 find $1" sh -c 'find "$1" | wc -l' sh "$W/mnt-a"
	umnt "$W/mnt-a"
	mnt "$1" "$2" "$W/mnt-a"
	time1 "$2 du $1" du -s "$W/mnt-a"
	umnt "$W/mnt-a"
}

# rand KIND: 4 threads of 4 KiB reads at random places of the big
# member on a fresh mount: IOPS into $W/times
rand() {
	mnt "$1" big "$W/mnt-a"
	python3 - "$W/mnt-a/big/member" "$NRAND" "$1" >> "$W/times" <<'PY'
import os, random, sys, threading, time
path, n, kind = sys.argv[1], int(sys.argv[2]), sys.argv[3]
size = os.path.getsize(path)
def reader(seed):
    r = random.Random(seed)
    fd = os.open(path, os.O_RDONLY)
    for _ in range(n):
        os.pread(fd, 4096, r.randrange(size // 4096) * 4096)
    os.close(fd)
ts = [threading.Thread(target=reader, args=(s,)) for s in range(4)]
t0 = time.monotonic()
for t in ts: t.start()
for t in ts: t.join()
print("big iops %s %.1f" % (kind, 4 * n / (time.monotonic() - t0)))
PY
	umnt "$W/mnt-a"
}

: > "$W/times"
for r in $(seq 1 "$ROUNDS"); do
	for t in mixed many; do
		for k in aes sqfs tar tgz; do
			time1 "$t ready $k" mnt "$k" "$t" "$W/mnt-b"
			if [ "$k" = aes ]; then
				pid=$(pgrep -nf "aescrypt --mount $W/mnt-b")
				echo "$t rss-kib aes $(awk '/VmRSS/ {print $2}' /proc/"$pid"/status)" >> "$W/times"
			fi
			umnt "$W/mnt-b"
			cat_walk "$k" "$t"
		done
	done
	time1 "big x-O aes" "$A" -x -O -q -k "$W/k" -f "$W/big.aes" big/member
	for k in aes sqfs; do
		mnt "$k" big "$W/mnt-a"
		time1 "big cat $k" cat "$W/mnt-a/big/member"
		umnt "$W/mnt-a"
		rand "$k"
	done
done

m1() { med "$1" | cut -d' ' -f1; }
ratio() { echo "scale=2; $(m1 "$1") / $(m1 "$2")" | bc; }

echo "mount.sh: $ROUNDS round(s), on $BASE; medians (min-max) in seconds"
for t in mixed many; do
	n=$(find "$W/$t" | wc -l)
	echo
	echo "$t: $n paths"
	printf '  %-26s %-24s %-24s %-24s\n' "" ready find du
	for k in aes sqfs tar tgz; do
		case $k in aes) l="aescrypt --mount";; sqfs) l="squashfuse (zstd)";;
		tar) l="archivemount .tar";; tgz) l="archivemount .tar.gz";; esac
		printf '  %-26s %-24s %-24s %-24s\n' "$l" "$(med "$t ready $k")" \
		    "$(med "$t find $k")" "$(med "$t du $k")"
	done
	echo "  aescrypt's RSS once ready: $(med "$t rss-kib aes" | cut -d' ' -f1) KiB"
	echo "  walk, aescrypt / squashfuse: find $(ratio "$t find aes" "$t find sqfs"), du $(ratio "$t du aes" "$t du sqfs")"
done
echo
echo "big: one member of $BIGMB MiB"
echo "  aescrypt -x -O              $(med "big x-O aes")"
echo "  cat, aescrypt --mount       $(med "big cat aes")"
echo "  cat, squashfuse             $(med "big cat sqfs")"
echo "  the mount's cat reaches $(echo "scale=2; $(m1 "big x-O aes") / $(m1 "big cat aes")" | bc) of -x -O's speed, and takes $(ratio "big cat aes" "big cat sqfs")x squashfuse's time"
echo "  4 KiB random reads, 4 threads (IOPS, higher is better):"
echo "    aescrypt --mount          $(med "big iops aes")"
echo "    squashfuse                $(med "big iops sqfs")"

# ---- equality ----
echo
mnt aes mixed "$W/mnt-a"
echo "equal: the mount of mixed against its source: $(python3 tests/cli/treecmp.py "$W/mixed" "$W/mnt-a/mixed" | tail -1)"
umnt "$W/mnt-a"
# a 4-level chain with deletions and renames, against -x -g /dev/null
C=$W/chain
mkdir -p "$C/d/s" "$C/d/keep" "$C/d/gone/sub" "$C/d/swap" "$C/out"
cp -r "$W/mixed/docs" "$C/d/docs"
echo a > "$C/d/a" && echo c > "$C/d/s/c" && echo k > "$C/d/keep/k"
echo g > "$C/d/gone/sub/g" && echo w > "$C/d/swap/w" && ln -s a "$C/d/link"
level=0
snap() {
	"$A" -c -q -g "$C/snap" -k "$W/k" -f "$C/l$level.aes" -C "$C" d
	level=$((level + 1))
	# (the next level's changes come after the snapshot's time)
	local t
	t=$(sed -n '2p' "$C/snap" | tr '\0' ' ' | awk '{print $1}')
	while [ "$(date +%s)" -le "$t" ]; do sleep 0.2; done
}
snap
rm "$C/d/a" "$C/d/docs/doc-0000"[0-4]*.txt && echo new > "$C/d/new" && snap
mv "$C/d/s" "$C/d/s2" && mv "$C/d/keep/k" "$C/d/keep/k2" && snap
rm -r "$C/d/swap" "$C/d/gone" && echo file > "$C/d/swap" && echo more >> "$C/d/new" && snap
for i in 0 1 2 3; do
	"$A" -x -q -g /dev/null -k "$W/k" -f "$C/l$i.aes" -C "$C/out"
done
"$A" --mount "$W/mnt-a" -q -k "$W/k" -f "$C/l0.aes" -f "$C/l1.aes" \
    -f "$C/l2.aes" -f "$C/l3.aes"
echo "equal: a 4-level chain's mount against -x -g /dev/null of it: $(python3 tests/cli/treecmp.py "$C/out" "$W/mnt-a" | tail -1)"
echo "equal: ... and against the tree it was made from: $(python3 tests/cli/treecmp.py "$C/d" "$W/mnt-a/d" | tail -1)"
umnt "$W/mnt-a"
