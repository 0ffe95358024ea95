#!/usr/bin/python3
"""treecmp.py [--ignore NAME] A B -- whether two trees hold the same: every path's type,
permission bits, mtime (to the second), owner and group, a symlink's
target, a file's bytes and a device's numbers, and the same hard-link
structure (the paths that share an inode on one side share one on the
other).  Prints each difference and exits 1 if there is one, else 0.

--ignore NAME leaves out NAME at the top of both (the mount's levels
view).  Used by 208-mount.bats and bench/mount.sh: a mount against its source
tree, or against what -x restored.  A symlink's mtime is left out
(-x, as tar, sets it where the system lets it; the target is what
matters).
"""
import os
import stat
import sys


def walk(root, ignore):
    out, inodes = {}, {}
    for d, dirs, files in os.walk(root):
        if d == root and ignore:
            dirs[:] = [x for x in dirs if x != ignore]
            files = [x for x in files if x != ignore]
        for name in dirs + files:
            p = os.path.join(d, name)
            rel = os.path.relpath(p, root)
            st = os.lstat(p)
            e = [stat.S_IFMT(st.st_mode), stat.S_IMODE(st.st_mode),
                 st.st_uid, st.st_gid]
            if stat.S_ISLNK(st.st_mode):
                e.append(os.readlink(p))
            else:
                e.append(int(st.st_mtime))
            if stat.S_ISREG(st.st_mode):
                e.append(st.st_size)
                inodes.setdefault(st.st_ino, []).append(rel)
            elif stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode):
                e.append(st.st_rdev)
            out[rel] = e
        dirs[:] = [x for x in dirs if not os.path.islink(os.path.join(d, x))]
    links = {}
    for paths in inodes.values():
        for p in paths:
            links[p] = sorted(paths)
    return out, links


def same_bytes(a, b):
    with open(a, "rb") as f, open(b, "rb") as g:
        while True:
            x, y = f.read(1 << 20), g.read(1 << 20)
            if x != y:
                return False
            if not x:
                return True


def main():
    args = sys.argv[1:]
    ignore = None
    if args[:1] == ["--ignore"]:
        ignore, args = args[1], args[2:]
    a, b = args
    ta, la = walk(a, ignore)
    tb, lb = walk(b, ignore)
    bad = 0
    for p in sorted(set(ta) | set(tb)):
        if p not in ta or p not in tb:
            print("only in %s: %s" % (a if p in ta else b, p))
            bad += 1
        elif ta[p] != tb[p]:
            print("%s: %r != %r" % (p, ta[p], tb[p]))
            bad += 1
        elif stat.S_ISREG(ta[p][0]):
            if not same_bytes(os.path.join(a, p), os.path.join(b, p)):
                print("%s: bytes differ" % p)
                bad += 1
            elif la.get(p) != lb.get(p):
                print("%s: hard links %r != %r" % (p, la.get(p), lb.get(p)))
                bad += 1
    print("%d paths compared, %d differ" % (len(ta), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
