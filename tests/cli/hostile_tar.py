#!/usr/bin/python3
"""hostile_tar.py CASE OUTSIDE > archive.tar

Write one hostile tar archive, built with Python's tarfile, to standard
output.  OUTSIDE is a directory outside the extraction target: each
archive tries to write a file named "pwned" (or to replace one) there,
or to reach /etc/passwd.  The bats suite (090-hostile.bats) encrypts
each with aescrypt -e, extracts it with aescrypt -x -C DEST, and checks
that nothing changed outside DEST.

The cases follow the known attacks: GNU tar CVE-2016-6321 (..), Python
tarfile CVE-2007-4559 and the PEP 706 filter bypass CVE-2025-4330
(hard link to a symlink), and libarchive's SECURE_* checks.
"""
import io
import os
import sys
import tarfile


def reg(name, data=b"pwned\n", mode=0o644):
    ti = tarfile.TarInfo(name)
    ti.size = len(data)
    ti.mode = mode
    ti.mtime = 1700000000
    return ti, io.BytesIO(data)


def link(name, target, kind=tarfile.SYMTYPE):
    ti = tarfile.TarInfo(name)
    ti.type = kind
    ti.linkname = target
    ti.mtime = 1700000000
    return ti, None


def directory(name):
    ti = tarfile.TarInfo(name)
    ti.type = tarfile.DIRTYPE
    ti.mode = 0o755
    ti.mtime = 1700000000
    return ti, None


def device(name):
    ti = tarfile.TarInfo(name)
    ti.type = tarfile.CHRTYPE
    ti.devmajor, ti.devminor = 1, 3     # /dev/null's numbers
    ti.mode = 0o666
    return ti, None


def special(name, kind):
    ti = tarfile.TarInfo(name)
    ti.type = kind
    ti.mode = 0o644
    return ti, None


def cases(out):
    return {
        # names that climb out
        "dotdot": [reg("../pwned")],
        # device nodes and a FIFO by the paths files are refused on
        "device-paths": [device("../pwned"), link("l", out), device("l/pwned"),
                         special("l/pwned-fifo", tarfile.FIFOTYPE),
                         device("/abs-dev")],
        "dotdot-deep": [reg("a/../../pwned")],
        "absolute": [reg(os.path.join(out, "pwned"))],
        # a symlink out, then a file written through it
        "symlink-write": [link("l", out), reg("l/pwned")],
        # a chain of links that ends outside
        "symlink-chain": [link("l1", "l2"), link("l2", "l3"),
                          link("l3", out), reg("l1/pwned")],
        # hard links to a file outside
        "hardlink-abs": [link("h", "/etc/passwd", tarfile.LNKTYPE),
                         reg("h", b"overwritten\n")],
        "hardlink-dotdot": [link("h", "../outside-file", tarfile.LNKTYPE),
                            reg("h", b"overwritten\n")],
        # CVE-2025-4330: a hard link to a symlink that points outside,
        # then data written to the hard link's name
        "hardlink-to-symlink": [link("s", os.path.join(out, "target")),
                                link("h", "s", tarfile.LNKTYPE),
                                reg("h", b"overwritten\n")],
        # a directory replaced by a symlink, then a file under it
        "dir-then-symlink": [directory("d/"), reg("d/ok"),
                             link("d", out), reg("d/pwned")],
        "emptydir-then-symlink": [directory("d/"), link("d", out),
                                  reg("d/pwned")],
        # a hard link through a symlink
        "hardlink-through-symlink": [link("l", out),
                                     link("h", "l/target", tarfile.LNKTYPE)],
        "device": [device("null")],
        # a FIFO, and a type no extractor knows, between two files
        "fifo-and-unknown": [reg("before"), special("fifo", tarfile.FIFOTYPE),
                             special("odd", b"Z"), reg("after")],
        "setuid": [reg("suid", b"#!/bin/sh\n", 0o4755),
                   reg("sgid", b"#!/bin/sh\n", 0o2755)],
    }


def main():
    case, out = sys.argv[1], sys.argv[2]
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as t:
        for ti, data in cases(out)[case]:
            t.addfile(ti, data)
    sys.stdout.buffer.write(buf.getvalue())


if __name__ == "__main__":
    main()
