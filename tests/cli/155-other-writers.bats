#!/usr/bin/env bats
# Archives from other tar writers (issue 16): GNU sparse members in all
# four forms, V7, labels, dumpdirs, pre-POSIX directories, Solaris
# headers, no end blocks, lenient pax numbers; and what -c writes for
# files with holes and extended attributes, read back by GNU tar and
# bsdtar.  GNU tar makes the kinds it still writes; other_writers.py
# the rest.

load test_helper

setup() {
	test_dir
	export AESCRYPT_PASSPHRASE=writers
	OW=$BATS_TEST_DIRNAME/other_writers.py
}

# seal TAR: TAR encrypted as a stream (-t and -x take those), TAR.aes
seal() {
	"$AESCRYPT" -e -q "${FAST_KDF[@]}" -o "$1.aes" "$1"
}

# holey FILE: 30 runs of data with holes between, and a hole at the end
holey() {
	local i
	truncate -s 64M "$1"
	for i in $(seq 0 29); do
		printf 'run %02d' "$i" | dd of="$1" bs=1 seek=$((i * 2000000 + 12345)) conv=notrunc 2> /dev/null
	done
}

@test "GNU sparse members in every form GNU tar writes: listed as GNU tar lists them, extracted byte-exact with their holes" {
	holey f
	printf 'small' > g
	local v
	for v in 0.0 0.1 1.0; do
		tar --sparse --sparse-version=$v --format=pax -cf s$v.tar f g
	done
	# GNU's old header, whose map of 30 runs needs extension blocks
	tar --sparse --format=oldgnu -cf old.tar f g
	tar --sparse --format=gnu -cf gnu.tar f g
	for t in s0.0 s0.1 s1.0 old gnu; do
		seal $t.tar
		run_aescrypt 0 -t -v -q -f $t.tar.aes
		[ "$output" = "$(tar -tvf $t.tar)" ] || { echo "$t: -tv differs" >&2; diff <(echo "$output") <(tar -tvf $t.tar) >&2; return 1; }
		rm -rf out && mkdir out
		run_aescrypt 0 -x -q -f $t.tar.aes -C out
		cmp f out/f
		cmp g out/g
		# the holes came back as holes (64 MiB of file, a few KiB used)
		[ "$(stat -c %b out/f)" -lt 2048 ]
		# -O gives the bytes, holes as zeros
		"$AESCRYPT" -x -q -O -f $t.tar.aes f | cmp - f
	done
}

@test "V7 headers, volume labels and dumpdirs from GNU tar list as GNU tar lists them; plain -t leaves the label out, as bsdtar does (issue 50)" {
	mkdir -p d/sub && echo x > d/a && echo y > d/sub/b
	tar --format=v7 -cf v7.tar d
	tar --label=MY-LABEL -cf label.tar d
	tar --listed-incremental=snap -cf dump.tar d
	for t in v7 label dump; do
		seal $t.tar
		run_aescrypt 0 -t -q -f $t.tar.aes
		local want
		want=$(tar -tf $t.tar)
		[ $t = label ] && want=$(bsdtar -tf $t.tar)
		[ "$output" = "$want" ] || { echo "$t: -t differs: $output" >&2; return 1; }
		run_aescrypt 0 -t -v -q -f $t.tar.aes
		[ "$output" = "$(tar -tvf $t.tar)" ] || { echo "$t: -tv differs: $output" >&2; return 1; }
		rm -rf out && mkdir out
		run_aescrypt 0 -x -q -f $t.tar.aes -C out
		cmp d/a out/d/a
		cmp d/sub/b out/d/sub/b
	done
	# the label is shown, never made; a V7 header has no owner names
	[ ! -e out/MY-LABEL ]
	run_aescrypt 0 -t -v -q -f label.tar.aes
	assert_match "^V--------- .* MY-LABEL--Volume Header--"
	# a label names no file: -t lists files only (GNU tar's -t does
	# list it; bsdtar's does not, and is followed)
	tar -tf label.tar | grep -qx MY-LABEL
	run_aescrypt 0 -t -q -f label.tar.aes
	refute_match "MY-LABEL"
	grep -qx d/a <<< "$output"
	run_aescrypt 0 -t -v -q -f v7.tar.aes
	assert_match "1750/1750|0/0"
}

@test "hand-made kinds from older writers: -t lists what bsdtar lists, -x makes the right things" {
	local c
	for c in prepos-dir prepos-dir-nul solaris-X solaris-A no-end one-zero-block pax-mtime-stray pax-mtime-junk pax-uid-junk sparse-10-good; do
		python3 "$OW" $c > $c.tar
		seal $c.tar
		run "$AESCRYPT" -t -q -f $c.tar.aes
		[ "$status" -eq 0 ] || { echo "$c: exit $status: $output" >&2; return 1; }
		[ "$(grep -v '^aescrypt: ' <<< "$output")" = "$(bsdtar -tf $c.tar)" ] || { echo "$c: $output" >&2; return 1; }
		rm -rf out && mkdir out
		run_aescrypt 0 -x -q -f $c.tar.aes -C out
		[ "$(cat out/ok)" = ok ]
	done
}

@test "a pre-POSIX directory is a directory, and its size field reads no data" {
	python3 "$OW" prepos-dir > p.tar
	seal p.tar
	mkdir out
	run_aescrypt 0 -x -q -f p.tar.aes -C out
	[ -d out/olddir ]
	[ "$(cat out/ok)" = ok ]
	run_aescrypt 0 -t -v -q -f p.tar.aes
	assert_match "^drwxr-xr-x user/group +0 .* olddir/"
}

@test "Solaris headers: 'X' names the member, 'A' is passed over quietly" {
	python3 "$OW" solaris-X > x.tar
	seal x.tar
	python3 "$OW" solaris-A > a.tar
	seal a.tar
	mkdir out
	run_aescrypt 0 -x -q -f x.tar.aes -C out
	[ -z "$output" ]
	[ "$(cat out/long/name/from/solaris)" = xx ]
	run_aescrypt 0 -x -q -f a.tar.aes -C out
	[ -z "$output" ]
	[ "$(cat out/withacl)" = aa ]
	[ ! -e out/acl ]
}

@test "no end blocks: a warning and exit 0, as GNU tar and bsdtar; a cut inside a member is still an error" {
	python3 "$OW" no-end > n.tar
	seal n.tar
	run_aescrypt 0 -t -q -f n.tar.aes
	assert_match "warning: n.tar.aes: the tar stream has no end-of-archive blocks"
	assert_match "ok"
	tar -tf n.tar > /dev/null
	# one zero block is an end too (GNU tar's lone zero block)
	python3 "$OW" one-zero-block > z.tar
	seal z.tar
	run_aescrypt 0 -t -q -f z.tar.aes
	refute_match warning
	# cut in the middle of the last member's data
	head -c 2000 n.tar > cut.tar
	seal cut.tar
	run_aescrypt 4 -t -q -f cut.tar.aes
	assert_match "ends before its end marker"
}

@test "lenient pax numbers: a stray character after a time is read up to it, with a warning; a bad size is not" {
	python3 "$OW" pax-mtime-stray > s.tar
	seal s.tar
	run_aescrypt 0 -t -v -q -f s.tar.aes
	assert_match "warning: stray: a malformed pax mtime was read up to its first stray character"
	# 1700000000 is 2023-11-14 22:13 UTC
	TZ=UTC run "$AESCRYPT" -t -v -q -f s.tar.aes
	assert_match "2023-11-14 22:13 stray"
	python3 "$OW" pax-mtime-junk > j.tar
	seal j.tar
	mkdir out
	run_aescrypt 0 -x -q -f j.tar.aes -C out
	assert_match "warning: junk: a malformed pax mtime was ignored"
	[ "$(stat -c %Y out/junk)" = 1700000000 ]
	python3 "$OW" pax-uid-junk > u.tar
	seal u.tar
	run_aescrypt 0 -t -q -f u.tar.aes
	assert_match "a malformed pax uid or gid was ignored"
}

@test "a sparse member larger than the file system holds is skipped with its reason, the rest extracted; -O stops at a limit" {
	local c
	for c in sparse-10-vast sparse-10-past-off_t; do
		python3 "$OW" $c > $c.tar
		seal $c.tar
		rm -rf out && mkdir out
		run_aescrypt 1 -x -q -f $c.tar.aes -C out
		assert_match "warning: s: its size is more than (this|any) file system holds"
		[ "$(cat out/ok)" = ok ]
		[ ! -e out/s ]
		assert_no_temps out
		# -O would write 2^62 zeros: it stops, and says why
		run timeout 20 "$AESCRYPT" -x -O -q -f $c.tar.aes
		[ "$status" -eq 5 ] || { echo "$c -O: exit $status" >&2; return 1; }
		assert_match "s: [0-9]+ bytes \(4 of them in the archive\) are over the limit of 1073741824 bytes that -O writes of one member"
	done
	# --max-size: -x passes over a member larger, -O stops at it
	python3 "$OW" sparse-10-good > g.tar
	seal g.tar
	rm -rf out && mkdir out
	run_aescrypt 1 -x -q --max-size 8 -f g.tar.aes -C out
	assert_match "s: 9 bytes, over --max-size; not extracted"
	[ "$(cat out/ok)" = ok ]
	[ ! -e out/s ]
	run_aescrypt 5 -x -O -q --max-size 8 -f g.tar.aes
	assert_match "are over the limit of 8 bytes"
	run_aescrypt 0 -x -O -q --max-size 9 -f g.tar.aes
}

@test "a malformed sparse map skips that member with a warning, reads on, and exits 1" {
	local c
	for c in sparse-overlap sparse-past-end sparse-sum sparse-odd sparse-10-bad sparse-10-huge sparse-major-2; do
		python3 "$OW" $c > $c.tar
		seal $c.tar
		rm -rf out && mkdir out
		run "$AESCRYPT" -x -q -f $c.tar.aes -C out
		[ "$status" -eq 1 ] || { echo "$c: exit $status: $output" >&2; return 1; }
		assert_match "GNU sparse map is malformed"
		assert_match "not extracted"
		[ "$(cat out/ok)" = ok ]
		[ ! -e out/s ]
		[ ! -e out/s2 ]
		[ -z "$(ls -A out | grep -v '^ok$')" ]
		run "$AESCRYPT" -t -q -f $c.tar.aes
		[ "$status" -eq 1 ]
		assert_match "it cannot be extracted"
	done
}

@test "-c stores holes as pax sparse 1.0: small archive, GNU tar and bsdtar restore the holes" {
	holey f
	# a file that is all hole: 128 MiB at the quick scale, 1 GiB at
	# the full one (each directory below compares it byte for byte)
	local hole
	hole=$(scaled $((128 << 20)) $((1 << 30)))
	truncate -s "$hole" allhole
	echo plain > p
	run_aescrypt 0 -c -q "${FAST_KDF[@]}" -f s.aes f allhole p
	# almost all hole
	[ "$(stat -c %s s.aes)" -lt 100000 ]
	run_aescrypt 0 -t -v -q -f s.aes
	assert_match " 67108864 .* f"
	assert_match " $hole .* allhole"
	"$AESCRYPT" -d -q -o s.tar s.aes
	# the ustar name is GNU's stand-in, the real one is in the records
	tar -tf s.tar | grep -qx f
	mkdir gnu bsd ours
	tar -xf s.tar -C gnu
	bsdtar -xf s.tar -C bsd
	run_aescrypt 0 -x -q -f s.aes -C ours
	local d
	for d in gnu bsd ours; do
		cmp f $d/f
		cmp allhole $d/allhole
		cmp p $d/p
		[ "$(stat -c %b $d/f)" -lt 2048 ]
		[ "$(stat -c %b $d/allhole)" -lt 64 ]
	done
}

# xattrs_ok: whether the build has xattrs and this file system takes
# user.* attributes
xattrs_ok() {
	build_has xattrs || return 1
	touch probe && setfattr -n user.probe -v 1 probe 2> /dev/null
}

@test "a build without xattrs (--portable) refuses --xattrs and --acls, and -x still works" {
	build_has xattrs && skip "this build has xattrs"
	mkdir d && echo 1 > d/a
	run_aescrypt 2 -c -q --xattrs "${FAST_KDF[@]}" -f x.aes d
	assert_match "error: --xattrs: this build has no extended attributes" "$output"
	[ ! -e x.aes ]
	run_aescrypt 2 -x -q --acls -f x.aes
	assert_match "error: --acls: this build has no extended attributes" "$output"
	# an archive with attributes, made by GNU tar, still extracts
	touch probe && setfattr -n user.probe -v 1 d/a 2> /dev/null || skip "no user xattrs here"
	tar --xattrs -cf gt.tar d
	"$AESCRYPT" -e -q "${FAST_KDF[@]}" -o gt.aes gt.tar
	mkdir o
	run_aescrypt 0 -x -q -f gt.aes -C o
	[ "$(cat o/d/a)" = 1 ]
}

@test "--xattrs keeps user attributes both ways with GNU tar; off by default, and -v says so once" {
	xattrs_ok || skip "no user xattrs in this build or file system"
	mkdir d && echo 1 > d/a && echo 2 > d/b
	setfattr -n user.color -v blue d/a
	setfattr -n user.bin -v 0x00ff00 d/b
	setfattr -n user.dir -v yes d
	# ours -> ours, and the default keeps none
	run_aescrypt 0 -c -q --xattrs "${FAST_KDF[@]}" -f x.aes d
	mkdir o1 o2
	run_aescrypt 0 -x -q --xattrs -f x.aes -C o1
	[ "$(getfattr --only-values -n user.color o1/d/a)" = blue ]
	getfattr -e hex -n user.bin o1/d/b | grep -qx 'user.bin=0x00ff00'
	[ "$(getfattr --only-values -n user.dir o1/d)" = yes ]
	run_aescrypt 0 -x -q -f x.aes -C o2
	run getfattr -d o2/d/a
	[ -z "$output" ]
	run_aescrypt 0 -x -q -v -f x.aes -C o2
	[ "$(grep -c 'note: the archive has extended attributes' <<< "$output")" -eq 1 ]
	# -c without --xattrs: none stored, and -v says so once
	run_aescrypt 0 -c -q -v "${FAST_KDF[@]}" -f plain.aes d
	[ "$(grep -c 'note: some files have extended attributes' <<< "$output")" -eq 1 ]
	refute grep -q 'x: ' <<< "$("$AESCRYPT" -d -q plain.aes | tar --xattrs -tvvf -)"
	# ours -> GNU tar
	"$AESCRYPT" -d -q -o x.tar x.aes
	mkdir g
	tar --xattrs --xattrs-include='user.*' -xf x.tar -C g
	[ "$(getfattr --only-values -n user.color g/d/a)" = blue ]
	getfattr -e hex -n user.bin g/d/b | grep -qx 'user.bin=0x00ff00'
	# GNU tar -> ours
	tar --xattrs -cf gt.tar d
	seal gt.tar
	mkdir o3
	run_aescrypt 0 -x -q --xattrs -f gt.tar.aes -C o3
	[ "$(getfattr --only-values -n user.color o3/d/a)" = blue ]
	getfattr -e hex -n user.bin o3/d/b | grep -qx 'user.bin=0x00ff00'
}

@test "--acls keeps POSIX ACLs (as their system.posix_acl_* attributes)" {
	build_has xattrs || skip "this build has no xattrs (nor ACLs)"
	touch probe && setfacl -m u:nobody:r probe 2> /dev/null || skip "this file system has no POSIX ACLs"
	mkdir d && echo 1 > d/a && setfacl -m u:nobody:r d/a && setfacl -d -m u:nobody:rx d
	run_aescrypt 0 -c -q --acls "${FAST_KDF[@]}" -f a.aes d
	mkdir o1 o2
	run_aescrypt 0 -x -q --acls -f a.aes -C o1
	getfacl -c o1/d/a | grep -qx 'user:nobody:r--'
	getfacl -c o1/d | grep -qx 'default:user:nobody:r-x'
	# --xattrs alone does not carry ACLs
	run_aescrypt 0 -x -q --xattrs -f a.aes -C o2
	refute grep -q nobody <<< "$(getfacl -c o2/d/a)"
	# bsdtar reads the archive too (it does not apply the attributes)
	"$AESCRYPT" -d -q a.aes | bsdtar -tf - | grep -qx d/a
}

# capability VALUE: a security.capability value (VFS_CAP_REVISION_2,
# effective) giving the one capability bit VALUE, as setfattr -v takes it.
cap_value() {
	printf '0x01000002%02x000000000000000000000000000000' "$1"
}

@test "--xattrs restores user.* alone, as GNU tar; others only when named; a file capability only with -p too" {
	xattrs_ok || skip "no user xattrs in this build or file system"
	[ "$(id -u)" -eq 0 ] || skip "needs root to make trusted.* and security.* attributes"
	mkdir d && echo 1 > d/prog && echo 2 > d/note
	setfattr -n user.u -v u d/prog
	setfattr -n user.secret -v s d/prog
	setfattr -n trusted.t -v t d/prog
	# cap_setuid (bit 7), effective: what setuid root gives
	setfattr -n security.capability -v "$(cap_value 128)" d/prog
	getfattr -n security.capability d/prog > /dev/null 2>&1 || skip "this file system takes no file capabilities"
	run_aescrypt 0 -c -q --xattrs "${FAST_KDF[@]}" -f x.aes d
	# -c --xattrs stored them all, as GNU tar does (whose listing, too,
	# shows user.* alone unless told otherwise)
	"$AESCRYPT" -d -q x.aes | tar --xattrs --xattrs-include='*' -tvvf - > list
	grep -q 'x: .*security.capability' list
	grep -q 'x: .*trusted.t' list
	# -x --xattrs: user.* alone
	mkdir o1
	run_aescrypt 0 -x -q --xattrs -f x.aes -C o1
	[ "$(getfattr --only-values -n user.u o1/d/prog)" = u ]
	refute getfattr -n trusted.t o1/d/prog
	refute getfattr -n security.capability o1/d/prog
	# -v says what was left, once
	mkdir o2
	run_aescrypt 0 -x -v --xattrs -f x.aes -C o2
	[ "$(grep -c 'note: some extended attributes were not restored' <<< "$output")" -eq 1 ]
	# an include replaces the default; an exclude takes away
	mkdir o3
	run_aescrypt 0 -x -q --xattrs-include='trusted.*' --xattrs-include='user.*' \
	    --xattrs-exclude='user.secret' -f x.aes -C o3
	[ "$(getfattr --only-values -n trusted.t o3/d/prog)" = t ]
	[ "$(getfattr --only-values -n user.u o3/d/prog)" = u ]
	refute getfattr -n user.secret o3/d/prog
	refute getfattr -n security.capability o3/d/prog
	# the capability: named and -p, or not at all
	mkdir o4 o5
	run_aescrypt 0 -x -q --xattrs-include='security.*' -f x.aes -C o4
	refute getfattr -n security.capability o4/d/prog
	run_aescrypt 0 -x -q -p --xattrs-include='security.*' -f x.aes -C o5
	getfattr -n security.capability o5/d/prog
	# -c takes the patterns too
	run_aescrypt 0 -c -q --xattrs-exclude='trusted.*' "${FAST_KDF[@]}" -f y.aes d
	refute grep -q trusted.t <<< "$("$AESCRYPT" -d -q y.aes | tar --xattrs -tvvf -)"
	# and they belong to -c and -x only
	run_aescrypt 2 -t --xattrs-include='user.*' -f x.aes
	assert_match "does not apply to -t"
}

@test "an attribute that cannot be set is a warning naming it, and exit 1" {
	xattrs_ok || skip "no user xattrs in this build or file system"
	[ "$(id -u)" -eq 0 ] || skip "needs root to make trusted.* attributes"
	mkdir d && echo 1 > d/a && setfattr -n trusted.t -v 1 d/a
	run_aescrypt 0 -c -q --xattrs "${FAST_KDF[@]}" -f t.aes d
	mkdir o && chown 65534 o t.aes && chmod 711 "$T"
	run setpriv --reuid=65534 --regid=65534 --clear-groups -- "$AESCRYPT" -x -q --xattrs-include='trusted.*' -f t.aes -C o
	[ "$status" -eq 1 ]
	assert_match "warning: d/a: cannot set extended attribute trusted.t: Operation not permitted"
	[ "$(cat o/d/a)" = 1 ]
}
