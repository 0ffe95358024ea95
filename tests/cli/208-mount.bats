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
	[ -f mnt/src/empty ]
	[ ! -s mnt/src/empty ]
	# read-only
	run sh -c 'echo x > mnt/src/new'
	[ "$status" -ne 0 ]
	grep -q "mnt fuse.aescrypt ro,nosuid,nodev" /proc/mounts
	fusermount3 -u mnt
	! mountpoint -q mnt || false
	# a later member of a name replaces the earlier one: a hard link
	# named twice is still one link
	"$AESCRYPT" -c -q -k k -f twice.aes -C src/a hi.txt hard.txt hard.txt
	mount_as 0 mnt -f "$T/twice.aes" -k k
	[ "$(stat -c %h mnt/hi.txt)" = 2 ]
	[ "$(stat -c %h mnt/hard.txt)" = 2 ]
	# read in order (the read-ahead's threads start after the mount went
	# to the background), then unmounted: the process in the background
	# ends too (it is found by the archive's path, which is this test's)
	cat mnt/hi.txt > /dev/null
	local pid
	pid=$(pgrep -f "aescrypt --mount mnt -f $T/twice.aes")
	fusermount3 -u mnt
	# its end waited on as such (it is no child of ours)
	wait_gone "$pid"
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
	[ "$ok" = 1 ]
	[ "$bad" = 1 ]
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
	! mountpoint -q mnt || false
	# a chain whose second level the key does not open: nothing mounted
	"$AESCRYPT" -c -q -k k2 -f other.aes src
	mount_as 3 mnt -f t.aes -f other.aes -k k
	[[ "$output" == *"other.aes"* ]]
	! mountpoint -q mnt || false
	# a chain with a pipe in it
	mount_as 2 mnt -f t.aes -f - -k k < t.aes
	[[ "$output" == *"pipe"* ]]
	! mountpoint -q mnt || false
	mount_as 6 nodir -f t.aes -k k
	! mountpoint -q mnt || false
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
	! mountpoint -q mnt || false
}

# tree_same [--ignore NAME] A B: treecmp.py's compare (types, modes,
# mtimes, owners, symlink targets, bytes, device numbers, hard-link
# structure).
tree_same() {
	/usr/bin/python3 "$BATS_TEST_DIRNAME/treecmp.py" "$@"
}

@test "--mount of a 4-level chain shows what -x -g /dev/null restores (deletions, renames, a directory become a file); --levels shows each level alone" {
	mkdir -p d/s d/keep d/gone/sub d/swap
	echo a > d/a && echo b > d/b && echo c > d/s/c && echo k > d/keep/k
	echo g1 > d/gone/g1 && echo g2 > d/gone/sub/g2 && echo w > d/swap/w
	ln -s b d/link && ln d/b d/b-hard
	"$AESCRYPT" -c -q -g snap -k k -f l0.aes d
	after_snapshot snap
	echo new > d/new && echo b2 >> d/b && rm d/a
	"$AESCRYPT" -c -q -g snap -k k -f l1.aes d
	after_snapshot snap
	mv d/s d/s2 && mv d/keep/k d/keep/k2
	"$AESCRYPT" -c -q -g snap -k k -f l2.aes d
	after_snapshot snap
	rm -r d/swap && echo now-a-file > d/swap && rm -r d/gone
	"$AESCRYPT" -c -q -g snap -k k -f l3.aes d
	mkdir want
	local i
	for i in 0 1 2 3; do
		"$AESCRYPT" -x -q -g /dev/null -k k -f l$i.aes -C want
	done
	mount_as 0 mnt -v -k k -f l0.aes -f l1.aes -f l2.aes -f l3.aes
	[[ "$output" == *"the chain of 4 levels: "*" names removed"* ]]
	run tree_same want mnt
	echo "$output"
	[ "$status" -eq 0 ]
	# the deletions and the renames are there
	[ ! -e mnt/d/a ]
	[ ! -e mnt/d/gone ]
	[ ! -e mnt/d/s ]
	[ "$(cat mnt/d/s2/c)" = c ]
	[ "$(cat mnt/d/keep/k2)" = k ]
	[ -f mnt/d/swap ]
	[ "$(cat mnt/d/swap)" = now-a-file ]
	# and the source itself (the chain's last state)
	run tree_same d mnt/d
	echo "$output"
	[ "$status" -eq 0 ]
	[ ! -e mnt/.aescrypt-levels ]
	fusermount3 -u mnt
	# --levels: each archive alone, as -x of it alone makes it, beside
	# the merged tree, under a name no member can take
	mount_as 0 mnt --levels -k k -f l0.aes -f l1.aes -f l2.aes -f l3.aes
	run tree_same --ignore .aescrypt-levels want mnt
	echo "$output"
	[ "$status" -eq 0 ]
	for i in 0 1 2 3; do
		mkdir alone$i
		"$AESCRYPT" -x -q -k k -f l$i.aes -C alone$i
		run tree_same alone$i mnt/.aescrypt-levels/$i
		echo "$output"
		[ "$status" -eq 0 ]
	done
	[ "$(ls mnt/.aescrypt-levels)" = "$(printf '0\n1\n2\n3')" ]
	run sh -c 'echo x > mnt/.aescrypt-levels/0/d/new'
	[ "$status" -ne 0 ]
	fusermount3 -u mnt
}

@test "--mount: hostile names are treated as -x treats them and said, and nothing resolves outside the mount" {
	mkdir src && echo x > src/x
	"$AESCRYPT" -c -q -k k -f base.aes src
	/usr/bin/python3 - <<'PY'
import io, tarfile
t = tarfile.open("h.tar", "w", format=tarfile.PAX_FORMAT)
def add(name, data=b"", typ=tarfile.REGTYPE, link=""):
    i = tarfile.TarInfo(name)
    i.type, i.linkname, i.size, i.mode, i.mtime = typ, link, len(data), 0o644, 1000000000
    t.addfile(i, io.BytesIO(data) if data else None)
add("../evil", b"evil")
add("a/../../evil2", b"evil")
add("/abs/file", b"abs")
add("dup", b"one")
add("dup", b"two")
add("dir", typ=tarfile.DIRTYPE)
add("dir/in", b"in")
add("dir", b"a file now")
add("esc", typ=tarfile.SYMTYPE, link="/etc")
add("esc/passwd", b"through a symlink")
add("hl", typ=tarfile.LNKTYPE, link="/etc/passwd")
add(".aescrypt-levels/0/x", b"shadow")
add("ok", b"ok")
t.close()
PY
	/usr/bin/python3 "$BATS_TEST_DIRNAME/index_tool.py" retar k base.aes h.aes 0 h.tar
	mkdir x
	"$AESCRYPT" -x -k k -f h.aes -C x > x.out 2>&1 || true
	# directories no member names: -x makes them now, the mount shows
	# them with the archive's time (no clock may decide the compare)
	touch -r h.aes x/abs x/.aescrypt-levels x/.aescrypt-levels/0
	mount_as 0 mnt --levels -k k -f h.aes
	# each reason counted once (the levels view shows the same members
	# again, and is not counted again)
	[[ "$output" == *"h.aes: 2 members left out of the mount, as -x leaves them out: with '..' in its name"* ]]
	[[ "$output" == *"h.aes: 1 member left out of the mount, as -x leaves it out: under a symlink or a file"* ]]
	[[ "$output" == *"h.aes: 1 member left out of the mount, as -x leaves it out: over a directory that is not empty"* ]]
	[[ "$output" == *"h.aes: 1 member left out of the mount, as -x leaves it out: a hard link to nothing before it"* ]]
	[[ "$output" == *"h.aes: 1 member named '.aescrypt-levels' at the top left out"* ]]
	# what -x restored: the levels view holds the archive alone, as -x
	# made it; the merged tree too, but for the member the view shadows
	run tree_same x mnt/.aescrypt-levels/0
	echo "$output"
	[ "$status" -eq 0 ] || { cat x.out; ls -laR mnt; false; }
	run tree_same --ignore .aescrypt-levels x mnt
	echo "$output"
	[ "$status" -eq 0 ]
	[ ! -e mnt/.aescrypt-levels/0/x ]
	[ "$(cat mnt/dup)" = two ]
	[ "$(cat mnt/abs/file)" = abs ]
	[ "$(readlink mnt/esc)" = /etc ]
	# (esc is shown as the symlink it is; the member through it is not
	# there: find does not follow the link to the host's /etc)
	[ ! -e mnt/evil ]
	[ ! -e mnt/evil2 ]
	[ -z "$(find mnt -name passwd -o -name evil -o -name evil2)" ]
	# every path under the mount stays under it
	run sh -c 'cd mnt && find . -print0 | xargs -0 -n1 realpath -s --relative-to=. | grep "^\.\./"'
	[ "$status" -ne 0 ]
	fusermount3 -u mnt
}

@test "--mount shows device nodes with their numbers, a sparse file's holes as zeros with fewer blocks, xattrs and ACLs with --xattrs --acls" {
	mkdir src
	mknod src/null c 1 3
	mknod src/blk b 7 200
	truncate -s 50M src/sparse
	printf 'middle' | dd of=src/sparse bs=1 seek=30000000 conv=notrunc 2> /dev/null
	echo x > src/attr
	local xa=0
	if setfattr -n user.colour -v blue src/attr 2> /dev/null \
	    && setfacl -m u:1234:r src/attr 2> /dev/null; then
		xa=1
	fi
	"$AESCRYPT" -c -q --xattrs --acls -k k -f t.aes src
	mount_as 0 mnt -k k --xattrs --acls -f t.aes
	[ -c mnt/src/null ]
	[ "$(stat -c %t:%T mnt/src/null)" = 1:3 ]
	[ -b mnt/src/blk ]
	[ "$(stat -c %t:%T mnt/src/blk)" = 7:c8 ]
	# (nodev: a device is shown, never opened)
	run cat mnt/src/null
	[ "$status" -ne 0 ]
	# reads that start in a hole, in the data, across both (before
	# anything else reads it: the kernel would then answer from its cache)
	/usr/bin/python3 - <<'PY'
import os, random
r = random.Random(7)
a, b = os.open("src/sparse", os.O_RDONLY), os.open("mnt/src/sparse", os.O_RDONLY)
for off in [0, 4096, 29999990, 30000000, 30000003, 30000006, 52428700] + \
        [r.randrange(52428800) for _ in range(40)]:
    n = r.choice([1, 10, 4096, 100000])
    assert os.pread(a, n, off) == os.pread(b, n, off), (off, n)
PY
	cmp src/sparse mnt/src/sparse
	[ "$(stat -c %s mnt/src/sparse)" = 52428800 ]
	[ "$(stat -c %b mnt/src/sparse)" -lt 1000 ]
	if [ "$xa" = 1 ]; then
		[ "$(getfattr --only-values -n user.colour mnt/src/attr)" = blue ]
		getfacl -n mnt/src/attr | grep -qx 'user:1234:r--'
	else
		echo "# this file system takes no user xattrs or ACLs: that part was not tried" >&3
	fi
	fusermount3 -u mnt
	# without --xattrs, none are served (none read from the headers);
	# --allow-other is passed on, always with default_permissions
	mount_as 0 mnt -k k --allow-other -f t.aes
	grep " $T/mnt fuse.aescrypt " /proc/mounts | grep -q "allow_other"
	grep " $T/mnt fuse.aescrypt " /proc/mounts | grep -q "default_permissions"
	run getfattr -n user.colour mnt/src/attr
	[ "$status" -ne 0 ]
	fusermount3 -u mnt
}

@test "--mount: 8 concurrent readers of random ranges get the source's bytes, through the default cache, one of two records, and none; --mount-cache takes sizes" {
	mkdir src
	head -c 3000000 /dev/urandom > src/r
	(for i in $(seq 1 400); do echo "line $i of some text that compresses"; done; head -c 200000 /dev/urandom) > src/t
	"$AESCRYPT" -c -q -k k --chunk-size 64K -f t.aes src
	local c
	for c in 64M 128K 0; do
		mount_as 0 mnt -k k --mount-cache $c -f t.aes
		/usr/bin/python3 - <<'PY'
import os, random, threading
bad = []
def reader(seed):
    r = random.Random(seed)
    for _ in range(150):
        n = r.choice("rt")
        a, b = "src/" + n, "mnt/src/" + n
        size = os.path.getsize(a)
        off = r.randrange(size)
        ln = r.randint(1, 300000)
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
		cmp src/r mnt/src/r
		fusermount3 -u mnt
	done
	mount_as 2 mnt -k k --mount-cache lots -f t.aes
	[[ "$output" == *"--mount-cache"* ]]
	! mountpoint -q mnt || false
}

@test "--mount of a hostile index (sealed with the right key) refuses it; of one that lies, the members it lies about give EIO and nothing of them is served" {
	# (170-index's archive and cases: every field out of range, members
	# out of order or overlapping, bad names, bytes left over)
	mkdir -p src/a src/many
	for i in $(seq -w 1 40); do head -c 30000 /dev/urandom > "src/a/f$i"; done
	(cd src/many && seq -f 'empty-file-with-a-longish-name-%04g' 1 1200 | xargs touch)
	"$AESCRYPT" -c -q -k k --chunk-size 64K -f a.aes src
	mkdir h
	/usr/bin/python3 "$BATS_TEST_DIRNAME/index_tool.py" hostile k a.aes "$T/h" > cases
	[ "$(wc -l < cases)" -ge 20 ]
	local name want refused=0 served=0 f
	while IFS=$'\t' read -r name want; do
		run "$AESCRYPT" --mount mnt -k k -f "h/$name.aes" 3>&-
		if [ "$status" -eq 4 ] && ! mountpoint -q mnt; then
			grep -Eq "error: .*(index|footer)" <<< "$output" || {
				echo "$name: $output" >&2
				return 1
			}
			refused=$((refused + 1))
			continue
		fi
		[ "$status" -eq 0 ] || { echo "$name: exit $status: $output" >&2; return 1; }
		# served (every rule the reader checks at mount time holds):
		# each file reads its true bytes or fails with EIO
		run /usr/bin/python3 - <<'PY'
import errno, os, sys
bad = []
for d, _, files in os.walk("mnt"):
    for f in files:
        p = os.path.join(d, f)
        try:
            got = open(p, "rb").read()
        except OSError as e:
            if e.errno != errno.EIO:
                bad.append("%s: %s" % (p, e))
            continue
        if got != open(os.path.relpath(p, "mnt"), "rb").read():
            bad.append("%s reads bytes that are not its own" % p)
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
		fusermount3 -u mnt
		[ "$status" -eq 0 ] || { echo "$name: $output" >&2; return 1; }
		served=$((served + 1))
	done < cases
	echo "# $refused hostile indexes refused, $served served with only true bytes or EIO" >&3
	[ "$refused" -ge 10 ]
	# indexes that pass every rule but lie (index_tool.py lies): a
	# member smuggled from inside a stored .tar, a member renamed, one
	# hidden under the one before it
	mkdir -p l/src l/in
	printf '#!/bin/sh\necho pwned\n' > l/in/evil.sh && chmod 755 l/in/evil.sh
	tar -cf l/src/inner.tar -C l/in evil.sh
	echo a > l/src/a.txt && echo b > l/src/b.txt && echo h > l/src/hideme
	"$AESCRYPT" -c -q -k k -f l/t.aes -C l/src a.txt inner.tar b.txt hideme
	/usr/bin/python3 "$BATS_TEST_DIRNAME/index_tool.py" lies k l/t.aes l \
	    inner.tar evil.sh hideme
	mount_as 0 mnt -k k -f l/smuggle.aes
	run cat mnt/evil.sh
	[ "$status" -ne 0 ]
	[[ "$output" == *"Input/output error"* ]]
	[ "$(cat mnt/a.txt)" = a ]
	fusermount3 -u mnt
	mount_as 0 mnt -k k -f l/lie.aes
	run cat mnt/evil.sh
	[ "$status" -ne 0 ]
	[[ "$output" == *"Input/output error"* ]]
	[ ! -e mnt/b.txt ]
	fusermount3 -u mnt
	mount_as 0 mnt -k k -f l/hide.aes
	[ ! -e mnt/hideme ]
	run cat mnt/b.txt
	[ "$status" -ne 0 ]
	[[ "$output" == *"Input/output error"* ]]
	fusermount3 -u mnt
}

@test "--mount serves a signed archive from its index: the signature records between its records are stepped over" {
	command -v ssh-keygen > /dev/null || skip "openssh-client is not installed"
	ssh-keygen -q -t ed25519 -N '' -f ed
	mkdir -p src
	/usr/bin/python3 -c 'out = bytearray()
i = 0
while len(out) < 40 << 20:
    out += b"a line of a file that crosses two signatures, %08d\n" % i
    i += 1
open("src/big", "wb").write(out[:40 << 20])'
	echo small > src/small
	"$AESCRYPT" -c -q -k k --sign ed -f s.aes src
	mount_as 0 mnt -f s.aes -k k
	cmp src/big mnt/src/big
	cmp src/small mnt/src/small
	# reads that straddle each 16 MiB boundary, where a signature sits
	/usr/bin/python3 - src/big mnt/src/big <<'PY'
import os, sys
a, b = (os.open(p, os.O_RDONLY) for p in sys.argv[1:3])
for at in (16 << 20, 32 << 20):
    for d in (-300000, -5, 0, 7, 262144):
        assert os.pread(a, 4096, at + d) == os.pread(b, 4096, at + d), at + d
PY
}
