#!/usr/bin/env bats
# --mount: an archive mounted read-only through FUSE, from its index.
# Each test mounts under its own temp dir and its teardown always
# unmounts; where /dev/fuse or fusermount3 is missing, or the build has
# no FUSE, every test says SKIPPED and why.

load test_helper

# Once for the file: whether a mount can be made here at all (a
# container may have /dev/fuse and still not let root mount); the
# reason goes to every test, which says SKIPPED with it.
setup_file() {
	local d
	if [ ! -e /dev/fuse ] || ! command -v fusermount3 > /dev/null; then
		export MOUNT_SKIP="no /dev/fuse or no fusermount3 here"
		return 0
	fi
	d=$(mktemp -d "${BATS_TMPDIR:-/tmp}/aescrypt-mount-probe.XXXXXX")
	mkdir "$d/src" "$d/mnt" && echo x > "$d/src/x"
	"$AESCRYPT" --gen-key "$d/k" > /dev/null 2>&1
	"$AESCRYPT" -c -q -k "$d/k" -f "$d/p.aes" -C "$d" src
	if "$AESCRYPT" --mount "$d/mnt" -f "$d/p.aes" -k "$d/k" > "$d/out" 2>&1 3>&-; then
		fusermount3 -u "$d/mnt" 2> /dev/null || umount -l "$d/mnt"
	elif grep -q 'no FUSE' "$d/out"; then
		export MOUNT_SKIP="this build has no FUSE (./configure found no libfuse3-dev)"
	else
		export MOUNT_SKIP="a FUSE mount cannot be made here: $(head -1 "$d/out")"
	fi
	rm -rf "$d"
}

setup() {
	test_dir
	[ -z "${MOUNT_SKIP:-}" ] || skip "SKIPPED: $MOUNT_SKIP"
	"$AESCRYPT" --gen-key k > /dev/null 2>&1
	mkdir mnt
}

teardown() {
	# always unmount, whatever the test did; only our own mount point
	if mountpoint -q "$T/mnt" 2> /dev/null; then
		fusermount3 -u "$T/mnt" 2> /dev/null || umount -l "$T/mnt"
	fi
	kill_feeder
	cd / && rm -rf "$T"
}

# mount_as RC ARGS...: aescrypt --mount ARGS, expecting exit RC (output
# in $output).  Without bats' fd 3: the mount that stays in the
# background would hold it, and bats would wait for it to end.
mount_as() {
	local want=$1
	shift
	run "$AESCRYPT" --mount "$@" 3>&-
	if [ "$status" -ne "$want" ]; then
		echo "aescrypt --mount $*: exit $status, expected $want"
		echo "output: $output"
		return 1
	fi
}

@test "--mount shows every member type as stored: files, directories (implied ones too), symlinks, hard links, FIFOs" {
	mkdir -p src/a/b
	echo hello > src/a/hi.txt
	head -c 700000 /dev/urandom > src/a/b/big.bin
	: > src/empty
	ln -s ../hi.txt src/a/b/link
	ln src/a/hi.txt src/a/hard.txt
	mkfifo src/fifo
	chmod 640 src/a/hi.txt
	chmod 4755 src/a/b/big.bin
	touch -d '2001-02-03 04:05:06' src/a/hi.txt
	"$AESCRYPT" -c -q -k k -f t.aes src
	mount_as 0 mnt -f t.aes -k k
	mountpoint -q mnt
	diff -r -x fifo src mnt/src
	cmp src/a/b/big.bin mnt/src/a/b/big.bin
	[ "$(readlink mnt/src/a/b/link)" = ../hi.txt ]
	[ "$(stat -c %i mnt/src/a/hi.txt)" = "$(stat -c %i mnt/src/a/hard.txt)" ]
	[ "$(stat -c %h mnt/src/a/hi.txt)" = 2 ]
	[ "$(stat -c %a mnt/src/a/hi.txt)" = 640 ]
	[ "$(stat -c %Y mnt/src/a/hi.txt)" = "$(stat -c %Y src/a/hi.txt)" ]
	[ "$(stat -c %u:%g mnt/src/a/hi.txt)" = "$(stat -c %u:%g src/a/hi.txt)" ]
	# setuid shown masked: the mount is nosuid
	[ "$(stat -c %a mnt/src/a/b/big.bin)" = 755 ]
	[ -p mnt/src/fifo ]
	[ -f mnt/src/empty ] && [ ! -s mnt/src/empty ]
	# read-only
	run sh -c 'echo x > mnt/src/new'
	[ "$status" -ne 0 ]
	grep -q "mnt fuse.aescrypt ro,nosuid,nodev" /proc/mounts
	fusermount3 -u mnt
	! mountpoint -q mnt
	# a later member of a name replaces the earlier one: a hard link
	# named twice is still one link
	"$AESCRYPT" -c -q -k k -f twice.aes -C src/a hi.txt hard.txt hard.txt
	mount_as 0 mnt -f twice.aes -k k
	[ "$(stat -c %h mnt/hi.txt)" = 2 ] && [ "$(stat -c %h mnt/hard.txt)" = 2 ]
	fusermount3 -u mnt
}

@test "--mount: 8 concurrent readers of random ranges get the source's bytes" {
	mkdir src
	local i
	for i in 1 2 3 4; do head -c $((300000 * i)) /dev/urandom > src/f$i; done
	"$AESCRYPT" -c -q -k k --chunk-size 64K -f t.aes src
	mount_as 0 mnt -f t.aes -k k
	mountpoint -q mnt
	/usr/bin/python3 - <<'PY'
import os, random, threading
bad = []
def reader(seed):
    r = random.Random(seed)
    for _ in range(200):
        n = r.randint(1, 4)
        a, b = "src/f%d" % n, "mnt/src/f%d" % n
        size = os.path.getsize(a)
        off = r.randrange(size)
        ln = r.randint(1, 200000)
        with open(a, "rb") as f:
            f.seek(off); want = f.read(ln)
        fd = os.open(b, os.O_RDONLY)
        got = os.pread(fd, ln, off)
        os.close(fd)
        if got != want:
            bad.append((n, off, ln))
ts = [threading.Thread(target=reader, args=(s,)) for s in range(8)]
for t in ts: t.start()
for t in ts: t.join()
assert not bad, bad[:3]
PY
}

@test "--mount: a damaged chunk is EIO for the file that holds it, and every other file reads byte-exact" {
	mkdir src
	head -c 400000 /dev/urandom > src/a
	head -c 400000 /dev/urandom > src/b
	"$AESCRYPT" -c -q -k k --chunk-size 64K -f t.aes src
	# a byte in the middle of the payload: inside a's or b's records
	local n
	n=$(stat -c %s t.aes)
	/usr/bin/python3 -c 'import sys; p=sys.argv[1]; d=bytearray(open(p,"rb").read()); d[int(sys.argv[2])] ^= 1; open(p,"wb").write(d)' t.aes $((n / 4))
	# in the foreground, so that its one line about the damage is seen
	mkfifo said
	"$AESCRYPT" --mount mnt --foreground -v -f t.aes -k k 2> said 3>&- &
	local line
	exec 4< said
	read -r line <&4
	[[ "$line" == *"mounted on mnt"* ]]
	local ok=0 bad=0 f
	for f in a b; do
		if cmp -s "src/$f" "mnt/src/$f"; then ok=$((ok + 1))
		else
			run cat "mnt/src/$f"
			[[ "$output" == *"Input/output error"* ]]
			# (written before the read's EIO, so it is there)
			read -r line <&4
			[[ "$line" == "aescrypt: error: t.aes: src/$f: a read at byte "*" failed: "* ]]
			bad=$((bad + 1))
		fi
	done
	[ "$ok" = 1 ] && [ "$bad" = 1 ]
	fusermount3 -u mnt
	exec 4<&-
}

@test "--mount refuses what it cannot serve: a pipe, a stream, an archive without an index, a wrong key; nothing is left mounted" {
	mkdir src && echo x > src/x
	"$AESCRYPT" -c -q -k k -f t.aes src
	"$AESCRYPT" -c -q -k k --no-index -f n.aes src
	"$AESCRYPT" -e -q -k k -o s.aes src/x
	"$AESCRYPT" --gen-key k2 > /dev/null 2>&1
	mount_as 2 mnt -f - -k k < t.aes
	[[ "$output" == *"pipe"* ]]
	mount_as 2 mnt -f n.aes -k k
	[[ "$output" == *"without an index"* ]]
	mount_as 2 mnt -f s.aes -k k
	[[ "$output" == *"stream"* ]]
	mount_as 3 mnt -f t.aes -k k2
	! mountpoint -q mnt
	mount_as 6 nodir -f t.aes -k k
	! mountpoint -q mnt
}

@test "--mount --foreground: SIGTERM unmounts and ends it" {
	mkdir src && echo x > src/x
	"$AESCRYPT" -c -q -k k -f t.aes src
	# -v says "mounted on" once the mount is there: read through a FIFO,
	# that line is the condition to wait on (no clock); the FIFO stays
	# open until the end, so nothing it writes later meets a closed pipe
	mkfifo said
	"$AESCRYPT" --mount mnt --foreground -v -f t.aes -k k 2> said 3>&- &
	local pid=$! line
	exec 4< said
	read -r line <&4
	[[ "$line" == *"mounted on mnt"* ]]
	mountpoint -q mnt
	[ "$(cat mnt/src/x)" = x ]
	kill -TERM "$pid"
	local rc=0
	wait "$pid" || rc=$?
	exec 4<&-
	[ "$rc" = 0 ]
	! mountpoint -q mnt
}
