#!/usr/bin/env python3
"""tree_tool.py -- trees past PATH_MAX, made and compared one directory
at a time (dir_fd), for tests/cli/175-deep.bats.

  tree_tool.py deep ROOT DEPTH   make ROOT/d/d/.../d, DEPTH directories
                                 deep, with a file f every 1000 levels
                                 and at the bottom, and a symlink l -> f
                                 there
  tree_tool.py same A B          exit 0 if the trees at A and B hold the
                                 same names, types, file contents, link
                                 targets and permission bits; else say
                                 where they differ, exit 1
"""
import os
import stat
import sys


def deep(root, depth):
    os.mkdir(root)
    fd = os.open(root, os.O_RDONLY)
    for i in range(1, depth + 1):
        if i % 1000 == 0 or i == depth:
            f = os.open("f", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
            os.write(f, ("level %d\n" % i).encode())
            os.close(f)
        if i == depth:
            os.symlink("f", "l", dir_fd=fd)
            break
        os.mkdir("d", 0o755, dir_fd=fd)
        nfd = os.open("d", os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = nfd
    os.close(fd)


def entries(root):
    """Every entry under root as (path, type, mode, content), iteratively."""
    out = []
    stack = [(os.open(root, os.O_RDONLY), "")]
    while stack:
        fd, rel = stack.pop()
        for name in sorted(os.listdir(fd)):
            st = os.stat(name, dir_fd=fd, follow_symlinks=False)
            p = rel + "/" + name
            mode = stat.S_IMODE(st.st_mode)
            if stat.S_ISDIR(st.st_mode):
                out.append((p, "d", mode, b""))
                stack.append((os.open(name, os.O_RDONLY, dir_fd=fd), p))
            elif stat.S_ISLNK(st.st_mode):
                out.append((p, "l", 0, os.readlink(name, dir_fd=fd).encode()))
            else:
                f = os.open(name, os.O_RDONLY, dir_fd=fd)
                data = b""
                while True:
                    b = os.read(f, 1 << 20)
                    if not b:
                        break
                    data += b
                os.close(f)
                out.append((p, "f", mode, data))
        os.close(fd)
    return sorted(out)


def same(a, b):
    ea, eb = entries(a), entries(b)
    if ea == eb:
        print("%d entries, the same" % len(ea))
        return 0
    da, db = set(ea) - set(eb), set(eb) - set(ea)
    for e in sorted(da)[:3]:
        print("only in %s: %s (%s) ...%d bytes of path" % (a, e[0][-60:], e[1], len(e[0])))
    for e in sorted(db)[:3]:
        print("only in %s: %s (%s) ...%d bytes of path" % (b, e[0][-60:], e[1], len(e[0])))
    return 1


if __name__ == "__main__":
    if sys.argv[1] == "deep":
        deep(sys.argv[2], int(sys.argv[3]))
    elif sys.argv[1] == "same":
        sys.exit(same(sys.argv[2], sys.argv[3]))
    else:
        sys.exit("usage: tree_tool.py deep ROOT DEPTH | same A B")
