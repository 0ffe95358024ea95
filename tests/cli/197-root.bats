#!/usr/bin/env bats
# Restoring a system as root, as tar does (issue 25): owners and exact
# modes by default as root (--no-same-owner, --no-same-permissions turn
# them off), devices and FIFOs stored and made; as a user, what tar
# leaves as a user.  Each compared with GNU tar on the same payload.

load test_helper

setup() {
	test_dir
	make_key key
	[ "$(id -u)" -eq 0 ] || skip "needs root (CI runs as root)"
	mkdir -p src/dev src/etc
	mknod src/dev/null c 1 3 && mknod src/dev/loop7 b 7 7 && mkfifo src/dev/fifo
	chmod 660 src/dev/loop7
	chown 0:6 src/dev/loop7
	echo suid > src/etc/prog
	chmod 4755 src/etc/prog
	echo mine > src/etc/owned && chown 1234:5678 src/etc/owned && chmod 640 src/etc/owned
}

# tree_of DIR: type, mode, owner, device numbers and contents of what
# is under DIR, one line each (mtimes of directories left out: they
# move as members are made).
tree_of() {
	(cd "$1" && find . -mindepth 1 -printf '%p %y %m %U:%G\n' | LC_ALL=C sort
	 find . -type b -o -type c | LC_ALL=C sort | while read -r d; do
		echo "$d $(stat -c %t,%T "$d")"; done
	 find . -type f | LC_ALL=C sort | xargs -r md5sum)
}

@test "as root: devices and FIFOs are stored and made, owners and modes restored, as GNU tar does, both ways" {
	run_aescrypt 0 -c -k key -f a.aes -C src .
	# the listing is GNU tar's, from the index and from a full read
	tar -cf g.tar -C src .
	tar -tvf g.tar | LC_ALL=C sort > tar.list
	"$AESCRYPT" -t -v -k key -f a.aes | LC_ALL=C sort > ours.list
	"$AESCRYPT" -t -v --no-index -k key -f a.aes | LC_ALL=C sort > full.list
	diff -u tar.list ours.list
	diff -u ours.list full.list
	grep -q '^crw-r--r-- root/root *1,3 .* ./dev/null$' ours.list
	grep -q '^brw-rw---- root/[a-z0-9]* *7,7 .* ./dev/loop7$' ours.list
	# -x as root, by default: the tree as it was
	mkdir ours gnu ours-from-gnu
	run_aescrypt 0 -x -k key -f a.aes -C ours
	"$AESCRYPT" -d -k key a.aes | tar -x -C gnu
	"$AESCRYPT" -e -q -k key -o g.aes g.tar
	run_aescrypt 0 -x -k key -f g.aes -C ours-from-gnu
	tree_of src > want
	tree_of ours > got
	diff -u want got
	tree_of gnu > got-gnu
	diff -u want got-gnu
	tree_of ours-from-gnu > got-from-gnu
	diff -u want got-from-gnu
	[ -p ours/dev/fifo ]
	[ "$(stat -c %a ours/etc/prog)" = 4755 ]
	[ "$(stat -c %u:%g ours/etc/owned)" = 1234:5678 ]
}

@test "as root: --no-same-owner and --no-same-permissions give what GNU tar gives with them, but no device node" {
	run_aescrypt 0 -c -k key -f a.aes -C src .
	"$AESCRYPT" -d -k key a.aes > a.tar
	local opt
	for opt in --no-same-owner --no-same-permissions; do
		rm -rf ours gnu && mkdir ours gnu
		run_aescrypt 1 -x $opt -k key -f a.aes -C ours
		# each device skipped with one warning; the FIFO made
		[ "$(grep -c 'a device node, not made in this run' <<< "$output")" -eq 2 ]
		assert_match "dev/loop7: a device node, not made in this run \(--no-devices, --no-same-owner or --no-same-permissions\); not extracted"
		[ ! -e ours/dev/null ]
		[ ! -e ours/dev/loop7 ]
		[ -p ours/dev/fifo ]
		# the rest as GNU tar makes it (it makes the devices too)
		tar -x $opt -f a.tar -C gnu
		tree_of gnu | grep -v '^./dev/\(null\|loop7\) ' > want
		tree_of ours > got
		diff -u want got
		# --no-same-owner keeps the modes, --no-same-permissions the owners
		case $opt in
		--no-same-owner)
			[ "$(stat -c %u ours/etc/owned)" = 0 ]
			[ "$(stat -c %a ours/etc/prog)" = 4755 ] ;;
		*)
			[ "$(stat -c %u ours/etc/owned)" = 1234 ]
			[ "$(stat -c %a ours/etc/prog)" = 755 ] ;;
		esac
	done
}

@test "as root: --no-devices keeps owners and modes and makes no device node" {
	run_aescrypt 0 -c -k key -f a.aes -C src .
	mkdir ours
	run_aescrypt 1 -x --no-devices -k key -f a.aes -C ours
	[ "$(grep -c 'a device node, not made in this run' <<< "$output")" -eq 2 ]
	[ ! -e ours/dev/null ]
	[ ! -e ours/dev/loop7 ]
	[ -p ours/dev/fifo ]
	[ "$(stat -c %u:%g ours/etc/owned)" = 1234:5678 ]
	[ "$(stat -c %a ours/etc/prog)" = 4755 ]
	run_aescrypt 2 -c --no-devices -k key -f c.aes src
	assert_match "error: --no-devices does not apply to -c"
}

# The hostile archive of the man page's recipe: a block device for a
# disk, a setuid-root program, and etc/ as 0777, owned by someone else.
hostile_tree() {
	mkdir -p h/etc h/dev
	mknod h/dev/sda b 8 0
	chmod 666 h/dev/sda
	echo 'evil' > h/etc/su
	chmod 4755 h/etc/su
	echo 'pwned' > h/etc/motd
	chmod 777 h/etc
	chown 1234:5678 h/etc
	touch -d 2001-01-01 h/etc
}

@test "the man page's recipe for an untrusted archive as root, run as written: no device, no setuid, existing etc/ keeps owner and mode" {
	hostile_tree
	run_aescrypt 0 -c -k key -f untrusted.aes -C h .
	mkdir -p restore/etc
	echo mine > restore/etc/motd
	chmod 755 restore/etc
	touch -d 2020-02-02 restore/etc
	local before recipe
	before=$(stat -c '%a %u:%g' restore/etc)
	# the command as the man page gives it, with this test's paths
	recipe=$(sed -n 's/^\.Dl # \(aescrypt -x .*untrusted\.aes.*\)$/\1/p' "$BATS_TEST_DIRNAME/../../man/aescrypt.1")
	[ -n "$recipe" ]
	recipe=${recipe#aescrypt }
	recipe=${recipe/\/srv\/restore/restore}
	run_aescrypt 1 $recipe -k key
	assert_match "dev/sda: a device node, not made in this run"
	assert_match "etc/motd: .*exists"
	[ ! -e restore/dev/sda ]
	[ "$(stat -c %a restore/etc/su)" = 755 ]
	[ "$(stat -c %u restore/etc/su)" = 0 ]
	[ "$(cat restore/etc/motd)" = mine ]
	# etc/ as it was: mode and owner, and not the archive's time (adding
	# su to it moved its mtime, as any new file in it would)
	[ "$(stat -c '%a %u:%g' restore/etc)" = "$before" ]
	[ "$(stat -c %Y restore/etc)" -gt "$(date -d 2001-01-02 +%s)" ]
}

@test "an existing directory keeps its owner and mode and gets no time from the archive under --keep-old-files, --skip-old-files, --keep-newer-files, --no-overwrite-dir" {
	hostile_tree
	rm h/dev/sda
	run_aescrypt 0 -c -k key -f a.aes -C h .
	local opt before
	for opt in --keep-old-files --skip-old-files --keep-newer-files --no-overwrite-dir; do
		rm -rf d && mkdir -p d/etc
		chmod 750 d/etc
		touch -d 2020-02-02 d/etc
		before=$(stat -c '%a %u:%g' d/etc)
		run_aescrypt 0 -x $opt -k key -f a.aes -C d
		[ "$(stat -c '%a %u:%g' d/etc)" = "$before" ] || { echo "$opt: $(stat -c '%a %u:%g' d/etc)" >&2; return 1; }
		[ "$(stat -c %Y d/etc)" -gt "$(date -d 2001-01-02 +%s)" ]
		[ -f d/etc/su ]
	done
	# without them, the archive's metadata, as GNU tar gives it
	rm -rf d && mkdir -p d/etc
	run_aescrypt 0 -x -k key -f a.aes -C d
	[ "$(stat -c '%a %u:%g' d/etc)" = "777 1234:5678" ]
	# --overwrite-dir, the default, after --no-overwrite-dir: the last wins
	rm -rf d && mkdir -p d/etc
	run_aescrypt 0 -x --no-overwrite-dir --overwrite-dir -k key -f a.aes -C d
	[ "$(stat -c '%a %u:%g' d/etc)" = "777 1234:5678" ]
}

@test "as a user: a FIFO is made, devices are skipped with a warning, owners and setuid are not kept, as GNU tar as a user" {
	run_aescrypt 0 -c -k key -f a.aes -C src .
	"$AESCRYPT" -d -k key a.aes > a.tar
	chmod 755 "$T" && chmod 644 a.tar key a.aes
	mkdir ours gnu && chmod 777 ours gnu
	as_unprivileged "$AESCRYPT" -x -k key -f a.aes -C ours
	[ "$status" -eq 1 ]
	assert_match "dev/null: a device node, which only root can make; not extracted"
	assert_match "dev/loop7: a device node, which only root can make; not extracted"
	as_unprivileged tar -xf a.tar -C gnu
	[ -p ours/dev/fifo ]
	[ ! -e ours/dev/null ]
	[ ! -e ours/dev/loop7 ]
	tree_of gnu | grep -v '^./dev/\(null\|loop7\) ' > want
	tree_of ours > got
	diff -u want got
	[ "$(stat -c %u ours/etc/owned)" = 65534 ]
	[ "$(stat -c %a ours/etc/prog)" = 755 ]
}

@test "-x --same-owner, -p and their --no- forms are -x options; -c refuses them" {
	run_aescrypt 2 -c --no-same-owner -k key -f c.aes src
	assert_match "does not apply to -c"
	run_aescrypt 2 -c --no-same-permissions -k key -f c.aes src
	assert_match "does not apply to -c"
	[ ! -e c.aes ]
}
