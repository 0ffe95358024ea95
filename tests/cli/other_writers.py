#!/usr/bin/python3
"""other_writers.py CASE > archive.tar

Write one tar archive, by hand, of a kind that older or other tar
writers made and GNU tar 1.34 no longer writes: a pre-POSIX directory, a
Solaris 'X' extended header and 'A' ACL header, an archive without its
end blocks, a pax time with a stray character, and sparse maps that are
malformed on purpose.  The kinds GNU tar still writes (old GNU sparse,
pax sparse 0.0/0.1/1.0, V7, labels, dumpdirs) are made with GNU tar by
155-other-writers.bats itself.

Every case holds an ordinary member "ok" after the one under test, so a
test can tell "refused, archive given up" from "skipped, rest read".

  python3 other_writers.py --list      the case names
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import crafted_tar                      # noqa: E402
from crafted_tar import data            # noqa: E402


def header(name, typ, size=0, link=b"", mode=0o644, magic=b"ustar\x0000",
           mtime=1700000000):
    b = bytearray(512)
    b[0:len(name[:100])] = name[:100]
    b[100:108] = b"%07o\0" % mode
    b[108:116] = b"0001750\0"
    b[116:124] = b"0001750\0"
    b[124:136] = b"%011o\0" % size
    b[136:148] = b"%011o\0" % mtime
    b[148:156] = b" " * 8
    b[156:157] = typ
    b[157:157 + len(link[:100])] = link[:100]
    b[257:257 + len(magic)] = magic
    if magic.startswith(b"ustar"):
        b[265:269] = b"user"
        b[297:302] = b"group"
    b[148:156] = b"%06o\0 " % sum(b)
    return bytes(b)


ext = crafted_tar.pax


def ok():
    return header(b"ok", b"0", 3) + data(b"ok\n")


END = b"\0" * 1024


def sparse01(mapstr, realsize, stored):
    """A pax 0.1 sparse member "s" with the given map, and stored bytes."""
    return (ext([(b"GNU.sparse.size", b"%d" % realsize),
                 (b"GNU.sparse.numblocks", b"1"),
                 (b"GNU.sparse.name", b"s"),
                 (b"GNU.sparse.map", mapstr)])
            + header(b"GNUSparseFile.1/s", b"0", len(stored)) + data(stored))


def sparse10(maptext, realsize, stored):
    body = data(maptext) + stored
    return (ext([(b"GNU.sparse.major", b"1"), (b"GNU.sparse.minor", b"0"),
                 (b"GNU.sparse.name", b"s"),
                 (b"GNU.sparse.realsize", b"%d" % realsize)])
            + header(b"GNUSparseFile.1/s", b"0", len(body)) + data(body))


def cases():
    c = {}
    # Before POSIX: a directory is a regular member named "dir/".  The
    # size field says 1 and no data follows (GNU tar and bsdtar read no
    # data for a directory).
    c["prepos-dir"] = header(b"olddir/", b"0", 1, mode=0o755) + ok() + END
    c["prepos-dir-nul"] = header(b"olddir/", b"\0", 0, mode=0o755) + ok() + END
    # Solaris: 'X' was its extended header before POSIX named it 'x';
    # 'A' carries a file's ACL before the file.
    c["solaris-X"] = ext([(b"path", b"long/name/from/solaris")], b"X") + \
        header(b"short", b"0", 3) + data(b"xx\n") + ok() + END
    acl = b"user::rw-,group::r--,mask:r--,other:r--\0"
    c["solaris-A"] = header(b"acl", b"A", len(acl)) + data(acl) + \
        header(b"withacl", b"0", 3) + data(b"aa\n") + ok() + END
    # No end blocks (older tars), and a single one.
    c["no-end"] = header(b"first", b"0", 3) + data(b"1a\n") + ok()
    c["one-zero-block"] = header(b"first", b"0", 3) + data(b"1a\n") + ok() + \
        b"\0" * 512
    # A stray character after a pax time: GNU tar and bsdtar warn and
    # read on.
    c["pax-mtime-stray"] = ext([(b"mtime", b"1700000000.5x")]) + \
        header(b"stray", b"0", 3) + data(b"st\n") + ok() + END
    c["pax-mtime-junk"] = ext([(b"mtime", b"x")]) + \
        header(b"junk", b"0", 3) + data(b"jk\n") + ok() + END
    c["pax-uid-junk"] = ext([(b"uid", b"12a")]) + \
        header(b"uid", b"0", 3) + data(b"ui\n") + ok() + END
    # Sparse maps that do not hold together: each member is skipped
    # with a warning, and "ok" after it is still read.
    c["sparse-overlap"] = sparse01(b"0,4,2,4", 10, b"abcdefgh") + ok() + END
    c["sparse-past-end"] = sparse01(b"0,4,8,4", 10, b"abcdefgh") + ok() + END
    c["sparse-sum"] = sparse01(b"0,4,6,2", 10, b"abcdefgh") + ok() + END
    c["sparse-odd"] = sparse01(b"0,4,6", 10, b"abcd") + ok() + END
    c["sparse-10-bad"] = sparse10(b"1\n0\nx\n", 4, b"abcd") + ok() + END
    c["sparse-10-huge"] = sparse10(b"99999999999\n", 4, b"abcd") + ok() + END
    c["sparse-major-2"] = (ext([(b"GNU.sparse.major", b"2"),
                                (b"GNU.sparse.minor", b"0"),
                                (b"GNU.sparse.realsize", b"4")])
                           + header(b"s2", b"0", 4) + data(b"abcd") + ok() + END)
    # A well-formed map whose real size no file system holds (2^62), and
    # one that no off_t holds (2^63 + 4): issue 22, 8.
    c["sparse-10-vast"] = sparse10(b"1\n0\n4\n", 2**62, b"abcd") + ok() + END
    c["sparse-10-past-off_t"] = sparse10(b"1\n0\n4\n", 2**63 + 4, b"abcd") + ok() + END
    # A good one made by hand: holes around "abcd" and at the end.
    c["sparse-10-good"] = sparse10(b"2\n3\n4\n9\n0\n", 9, b"abcd") + ok() + END
    return c


if __name__ == "__main__":
    crafted_tar.cli(cases())
