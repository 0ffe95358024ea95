#!/usr/bin/env bats
# What -c leaves out, as GNU tar does (issue 25): -X/--exclude-from,
# --exclude-vcs, --exclude-caches{,-under,-all}, --exclude-tag{,-under,
# -all} and --one-file-system.  Each listing is compared with GNU tar's
# for the same options on the same tree (sorted: GNU tar walks in
# directory order, aescrypt in name order).

load test_helper

setup() {
	test_dir
	make_key key
}

teardown() {
	teardown_mount m/sub
}

# same_as_tar OPTIONS... -- PATHS...: aescrypt -c and tar -c with the
# options list the same members.
same_as_tar() {
	local opts=() paths
	while [ "$1" != -- ]; do opts+=("$1"); shift; done
	shift
	"$AESCRYPT" -c -q -k key -f s.aes "${opts[@]}" "$@" 2> ours.err
	tar -cf s.tar "${opts[@]}" "$@" 2> tar.err
	"$AESCRYPT" -t -k key -f s.aes | sort > ours.list
	tar -tf s.tar | sort > tar.list
	diff -u tar.list ours.list
}

# A tree with a cache (a real tag), a fake cache (no signature), tags,
# and version-control leftovers.
mk_tree() {
	mkdir -p d/c/sub d/fake d/t/sub d/u d/a d/src/.git/objects d/src/CVS
	printf 'Signature: 8a477f597d28d172789f06886806bc55\n# a cache\n' > d/c/CACHEDIR.TAG
	echo x > d/c/f
	echo y > d/c/sub/g
	echo 'Signature: not the right one' > d/fake/CACHEDIR.TAG
	echo z > d/fake/f
	touch d/t/.nobackup d/t/f d/t/sub/g d/u/.nobackup d/u/h d/a/.skip d/a/i
	echo code > d/src/main.c
	echo ref > d/src/.git/HEAD
	echo o > d/src/.git/objects/1
	echo '*.o' > d/src/.gitignore
	echo r > d/src/CVS/Root
	touch d/src/.hgtags d/src/keep.o
}

@test "--exclude-caches, -under and -all: the same members as GNU tar, a tag without the signature does not count" {
	mk_tree
	same_as_tar --exclude-caches -- d
	grep -qx 'd/c/CACHEDIR.TAG' ours.list
	refute grep -q 'd/c/f' ours.list
	grep -qx 'd/fake/f' ours.list
	same_as_tar --exclude-caches-under -- d
	grep -qx 'd/c/' ours.list
	refute grep -q 'd/c/CACHEDIR.TAG' ours.list
	same_as_tar --exclude-caches-all -- d
	refute grep -q '^d/c/' ours.list
	grep -qx 'd/fake/f' ours.list
	# what is said, in GNU tar's words, and the exit status is 0
	run_aescrypt 0 -c -k key -f w.aes --exclude-caches-all d
	assert_match "warning: d/c/: contains a cache directory tag CACHEDIR.TAG; directory not dumped"
	run_aescrypt 0 -c -k key -f w.aes --exclude-caches d
	assert_match "warning: d/c/: contains a cache directory tag CACHEDIR.TAG; contents not dumped"
}

@test "--exclude-tag, -under and -all, alone and together: the same members as GNU tar; the strongest tag wins" {
	mk_tree
	same_as_tar --exclude-tag=.nobackup -- d
	grep -qx 'd/t/.nobackup' ours.list
	refute grep -q 'd/t/f' ours.list
	same_as_tar --exclude-tag-under=.nobackup -- d
	grep -qx 'd/t/' ours.list
	refute grep -q 'd/t/.nobackup' ours.list
	same_as_tar --exclude-tag-all=.nobackup -- d
	refute grep -q '^d/t/' ours.list
	same_as_tar --exclude-tag=.skip --exclude-tag-all=.nobackup --exclude-caches-under -- d
	grep -qx 'd/a/.skip' ours.list
	refute grep -q 'd/a/i' ours.list
	# one directory with two tags: the stronger decides
	touch d/a/.nobackup
	"$AESCRYPT" -c -q -k key -f two.aes --exclude-tag=.skip --exclude-tag-all=.nobackup d
	refute grep -q '^d/a/' <<< "$("$AESCRYPT" -t -k key -f two.aes)"
	# a tag name is a file name
	run_aescrypt 2 -c -k key -f bad.aes --exclude-tag=a/b d
	assert_match "error: --exclude-tag: invalid value 'a/b'"
	[ ! -e bad.aes ]
}

@test "-X and --exclude-vcs: the same members as GNU tar on -c, and they leave out on -t and -x too" {
	mk_tree
	printf '*.o\n\nmain.c\n' > ex1
	printf 'd/t\n' > ex2
	same_as_tar -X ex1 --exclude-from=ex2 -- d
	refute grep -q 'keep.o\|main.c\|^d/t/' ours.list
	grep -qx 'd/src/.gitignore' ours.list
	same_as_tar --exclude-vcs -- d
	refute grep -q '\.git\|CVS\|\.hgtags' ours.list
	grep -qx 'd/src/main.c' ours.list
	# on -t and -x of a full archive: -X as GNU tar; --exclude-vcs
	# leaves out what is under .git/ and CVS/ too (GNU tar 1.34's -t
	# leaves out the directory members and lists what is in them)
	"$AESCRYPT" -c -q -k key -f full.aes d
	"$AESCRYPT" -t -k key -f full.aes -X ex1 | sort > t.list
	tar -cf full.tar d
	tar -tf full.tar -X ex1 | sort > tt.list
	diff -u tt.list t.list
	run_aescrypt 0 -t -k key -f full.aes --exclude-vcs
	refute_match '\.git|CVS|\.hgtags'
	assert_match 'd/src/main\.c' 
	mkdir o
	run_aescrypt 0 -x -k key -f full.aes --exclude-vcs -C o
	[ -f o/d/src/main.c ]
	[ ! -e o/d/src/.git ]
	[ ! -e o/d/src/CVS ]
	# a missing -X file is a usage error, and nothing is written
	run_aescrypt 2 -c -k key -f m.aes -X nosuch d
	assert_match "nosuch"
	[ ! -e m.aes ]
}

@test "--one-file-system stores a mount point but not what is in it, as GNU tar; -v says so" {
	mkdir -p m/in m/sub && echo a > m/a && echo b > m/in/b
	mount -t tmpfs -o size=1m aescrypt-test m/sub 2> /dev/null ||
	    skip "cannot mount a tmpfs here (not root, or no CAP_SYS_ADMIN)"
	echo c > m/sub/c && mkdir m/sub/deep && echo e > m/sub/deep/e
	same_as_tar --one-file-system -- m
	grep -qx 'm/sub/' ours.list
	refute grep -q 'm/sub/c' ours.list
	grep -qx 'm/in/b' ours.list
	run_aescrypt 0 -c -v -k key -f v.aes --one-file-system m
	assert_match "warning: m/sub/: file is on a different filesystem; not dumped"
	run_aescrypt 0 -c -k key -f q.aes --one-file-system m
	refute_match "different filesystem"
	# an operand that is the mount point itself is archived whole
	same_as_tar --one-file-system -- m/sub
	grep -qx 'm/sub/deep/e' ours.list
	# it is for -c only
	mkdir o
	run_aescrypt 2 -x -k key -f v.aes --one-file-system -C o
	assert_match "one-file-system does not apply to -x"
}

@test "-cvv lists each member as tar -cvv does (tar -tv's long lines); -cv the names" {
	mk_tree
	ln -s main.c d/src/link
	ln d/a/i d/a/hard
	"$AESCRYPT" -c -vv -k key -f v.aes d > ours.vv
	# (which of two hard links is stored whole follows the walk's
	# order, name order here, directory order in GNU tar: left out)
	tar -cvvf v.tar d | grep -v ' d/a/\(i\|hard\)' | LC_ALL=C sort > tar.vv
	grep -v ' d/a/\(i\|hard\)' ours.vv | LC_ALL=C sort | diff -u tar.vv -
	grep -q '^lrwxrwxrwx .* d/src/link -> main.c$' ours.vv
	grep -q '^hrw-r--r-- .* d/a/i link to d/a/hard$\|^hrw-r--r-- .* d/a/hard link to d/a/i$' ours.vv
	"$AESCRYPT" -c -v -k key -f v1.aes d > ours.v
	tar -cvf v1.tar d | LC_ALL=C sort > tar.v
	LC_ALL=C sort ours.v | diff -u tar.v -
}

@test "-N/--newer and --newer-mtime keep what changed after a date or a file's mtime, as GNU tar; directories always" {
	mkdir -p d/s && echo a > d/old && echo b > d/new && echo c > d/s/mid
	touch -d '2020-01-01 00:00:00' d/old
	touch -d '2023-06-01 00:00:00' d/s/mid
	touch -d '2025-01-01 00:00:00' d/new
	touch -d '2024-01-01 00:00:00' ref
	same_as_tar --newer-mtime=2022-01-01 -- d
	same_as_tar --newer-mtime=@1735000000 -- d
	same_as_tar '--newer-mtime=2023-06-01 00:00:01' -- d
	same_as_tar --newer-mtime=./ref -- d
	grep -qx d/new ours.list
	grep -qx d/s/ ours.list
	refute grep -q 'd/old\|d/s/mid' ours.list
	# (-N also takes the ctime, which is now for every file here)
	same_as_tar -N 2099-01-01 -- d
	refute grep -q 'd/new' ours.list
	same_as_tar --newer=2000-01-01 -- d
	same_as_tar --after-date=./ref -- d
	run_aescrypt 0 -c -v -k key -f v.aes --newer-mtime=./ref d
	assert_match "warning: d/old: file is unchanged; not dumped"
	refute_match "d/new: file is unchanged"
	run_aescrypt 2 -c -k key -f bad.aes -N yesterday-ish d
	assert_match "error: -N: invalid value 'yesterday-ish'"
	run_aescrypt 2 -c -k key -f bad.aes -N ./no-such-ref d
	assert_match "no-such-ref: No such file or directory"
	[ ! -e bad.aes ]
}
