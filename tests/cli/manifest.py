#!/usr/bin/python3
"""manifest.py DIR [--no-link-times]

Print one line per entry under DIR, sorted by path: its type, mode,
mtime in nanoseconds, and for files the size and a BLAKE2 digest of the
contents; symlinks with their target; a hard link as a pointer to the
first path (in sorted order) of its inode.  Two trees are the same, for
aescrypt's round-trip tests, when their manifests are equal.  Paths are
printed as Python bytes literals, so any byte in a name is exact.
--no-link-times leaves out symlink mtimes (some extractors do not set
them).
"""
import hashlib
import os
import stat
import sys


def main():
    root = os.fsencode(sys.argv[1])
    link_times = "--no-link-times" not in sys.argv[2:]
    paths = []
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            full = os.path.join(dirpath, name)
            paths.append((os.path.relpath(full, root), full))
    paths.sort()
    first = {}
    for rel, full in paths:
        st = os.lstat(full)
        mode = "%o" % stat.S_IMODE(st.st_mode)
        if stat.S_ISREG(st.st_mode):
            key = (st.st_dev, st.st_ino)
            if st.st_nlink > 1 and key in first:
                print("hardlink %r -> %r" % (rel, first[key]))
                continue
            first[key] = rel
            h = hashlib.blake2b()
            with open(full, "rb") as f:
                for block in iter(lambda: f.read(1 << 20), b""):
                    h.update(block)
            print("file %r %s %d %d %s" % (rel, mode, st.st_mtime_ns,
                                          st.st_size, h.hexdigest()))
        elif stat.S_ISDIR(st.st_mode):
            print("dir %r %s %d" % (rel, mode, st.st_mtime_ns))
        elif stat.S_ISLNK(st.st_mode):
            print("symlink %r -> %r %s" % (rel, os.readlink(full),
                                           st.st_mtime_ns if link_times
                                           else ""))
        else:
            print("other %r %o" % (rel, st.st_mode))


if __name__ == "__main__":
    main()
