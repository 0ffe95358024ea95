#!/usr/bin/env bats
# POSIX ACLs both ways with GNU tar and bsdtar (issue 25): -c --acls
# writes SCHILY.acl.access and SCHILY.acl.default as GNU tar does, -x
# --acls reads them from either writer (bsdtar adds numeric ids), and
# still reads the system.posix_acl_* attributes this tool stored before;
# ACLs no Linux file takes (NFSv4's SCHILY.acl.ace, Solaris's 'A'
# header) are said once, never dropped in silence.  getfacl's output is
# the measure.

load test_helper

setup() {
	test_dir
	make_key key
	build_has xattrs || skip "this build has no xattrs (nor ACLs)"
	mkdir -p d/sub && echo 1 > d/a && echo 2 > d/sub/b
	setfacl -m u:nobody:r,g:adm:rw d/a 2> /dev/null || skip "this file system has no POSIX ACLs"
	setfacl -d -m u:nobody:rx,g:adm:r d
	setfacl -m u:65533:rwx d/sub/b
	getfacl -cR d > orig.facl 2> /dev/null
}

# facl_of DIR: getfacl of DIR/d, named as d.
facl_of() {
	(cd "$1" && getfacl -cR d 2> /dev/null)
}

@test "-c --acls: GNU tar and bsdtar restore the ACLs from the payload, as getfacl shows them" {
	run_aescrypt 0 -c --acls -k key -f a.aes d
	"$AESCRYPT" -d -k key a.aes > a.tar
	# GNU tar's own text: named entries by name
	tar --acls -tvvf a.tar | grep -q 'user:nobody:r--'
	mkdir gnu bsd
	tar --acls -xf a.tar -C gnu
	bsdtar --acls -xf a.tar -C bsd
	facl_of gnu | diff -u orig.facl -
	facl_of bsd | diff -u orig.facl -
}

@test "-x --acls restores the ACLs of GNU tar's and bsdtar's archives, and of this tool's older ones" {
	tar --acls -cf g.tar d
	bsdtar --acls -cf b.tar d
	for t in g b; do
		"$AESCRYPT" -e -q -k key -o "$t.aes" "$t.tar"
		mkdir "x$t"
		run_aescrypt 0 -x --acls -k key -f "$t.aes" -C "x$t"
		facl_of "x$t" | diff -u orig.facl -
	done
	# without --acls, none: the default, as in GNU tar
	mkdir plain
	run_aescrypt 0 -x -k key -f g.aes -C plain
	refute grep -q nobody <<< "$(facl_of plain)"
	# an archive from before, with the ACL as its system.posix_acl_access
	# attribute, in the kernel's form
	/usr/bin/python3 - <<'PY'
import struct, tarfile, io
acl = struct.pack("<I", 2) + b"".join(struct.pack("<HHI", t, p, i) for t, p, i in
    [(1, 6, 0xffffffff), (2, 4, 65534), (4, 4, 0xffffffff), (0x10, 4, 0xffffffff), (0x20, 4, 0xffffffff)])
with tarfile.open("old.tar", "w", format=tarfile.PAX_FORMAT, encoding="utf-8", errors="surrogateescape") as tf:
    ti = tarfile.TarInfo("old")
    ti.size = 4
    ti.mode = 0o644
    ti.pax_headers = {"SCHILY.xattr.system.posix_acl_access": acl.decode("utf-8", "surrogateescape")}
    tf.addfile(ti, io.BytesIO(b"old\n"))
PY
	"$AESCRYPT" -e -q -k key -o old.aes old.tar
	mkdir xo
	run_aescrypt 0 -x --acls -k key -f old.aes -C xo
	getfacl -c xo/old | grep -qx 'user:nobody:r--'
}

@test "an NFSv4 ACL and a Solaris ACL header are said once with --acls (exit 1), the files extracted; an ACL naming nobody this system knows, without a number, is said" {
	/usr/bin/python3 - <<'PY'
import tarfile, io
def add(tf, name, pax=None, data=b"x\n"):
    ti = tarfile.TarInfo(name)
    ti.size = len(data)
    ti.mode = 0o644
    if pax:
        ti.pax_headers = pax
    tf.addfile(ti, io.BytesIO(data))
with tarfile.open("n.tar", "w", format=tarfile.PAX_FORMAT) as tf:
    add(tf, "nfs1", {"SCHILY.acl.ace": "owner@:rwxp--aARWcCos:-------:allow"})
    add(tf, "nfs2", {"SCHILY.acl.ace": "everyone@:r-----a-R-c--s:-------:allow"})
    add(tf, "who", {"SCHILY.acl.access": "user::rw-,user:no-such-user-here:r--,group::r--,other::r--"})
    add(tf, "ok", {"SCHILY.acl.access": "user::rw-,user:nobody:r--:65534,group::r--,mask::r--,other::r--"})
PY
	"$AESCRYPT" -e -q -k key -o n.aes n.tar
	mkdir x
	run_aescrypt 1 -x --acls -k key -f n.aes -C x
	assert_match "nfs1: it has an ACL of a kind this system cannot apply \(NFSv4 or Solaris\); left out \(said once\)"
	refute_match "nfs2:"
	assert_match "who: its ACL is not one this system takes; left out"
	[ "$(cat x/nfs1)" = x ]
	[ "$(cat x/nfs2)" = x ]
	[ "$(cat x/who)" = x ]
	getfacl -c x/ok | grep -qx 'user:nobody:r--'
	# a Solaris 'A' header before a file
	/usr/bin/python3 - <<'PY'
import tarfile, io
with tarfile.open("s.tar", "w", format=tarfile.USTAR_FORMAT) as tf:
    a = tarfile.TarInfo("sol")
    a.type = b"A"
    a.size = 0
    tf.addfile(a)
    ti = tarfile.TarInfo("sol")
    ti.size = 2
    tf.addfile(ti, io.BytesIO(b"s\n"))
PY
	"$AESCRYPT" -e -q -k key -o s.aes s.tar
	mkdir xs
	run_aescrypt 1 -x --acls -k key -f s.aes -C xs
	assert_match "sol: it has an ACL of a kind this system cannot apply"
	[ "$(cat xs/sol)" = s ]
	# without --acls nothing is said, as for any ACL
	mkdir xq
	run_aescrypt 0 -x -k key -f n.aes -C xq
	refute_match "ACL"
}

@test "Solaris's own 'A' headers (libarchive's test file): the POSIX ACLs, default ACLs too, applied as bsdtar applies them; NFSv4 ones said (issue 50)" {
	local sol=$BATS_TEST_DIRNAME/../vectors/libarchive/corpus/test_compat_solaris_tar_acl.tar
	"$AESCRYPT" -e -q -k key -o sol.aes "$sol"
	mkdir x b
	run_aescrypt 1 -x --acls -k key -f sol.aes -C x
	assert_match "file-with-nfsv4-acls: it has an ACL of a kind this system cannot apply"
	refute_match "posix-acls"
	bsdtar -xpf "$sol" -C b 2> /dev/null || true
	local f
	for f in file-with-posix-acls dir-with-posix-acls; do
		(cd x && getfacl -n "$f") > ours
		(cd b && getfacl -n "$f") > theirs
		diff ours theirs
		# (named users and groups, and the mask, came through)
		grep -q '^mask::' ours
		grep -q '^user:[0-9]*:' ours
	done
	getfacl -n x/dir-with-posix-acls | grep -q '^default:group:3:r-x$'
	# -t lists them as before
	run_aescrypt 0 -t -k key -f sol.aes
	[ "$(wc -l <<< "$output")" -eq 4 ]
}
