#!/usr/bin/python3
"""crafted_tar.py CASE > archive.tar

Write one hand-built tar archive to standard output: headers whose
lengths sit at the reader's limits, which Python's tarfile will not
write (a GNU 'L' long name with no NUL, a pax path one byte over the
cap).  Used by 090-hostile.bats for the long-name cases of issue 13 and
to seed the fuzz corpus (tests/fuzz/mkcorpus.py).

Every case ends with an ordinary member "ok" after the crafted one, so a
test can tell "the crafted member was refused and the archive was given
up" from "it was skipped and the rest extracted".

  python3 crafted_tar.py --list      the case names
"""
import sys

CAP = 65535         # AE_TAR_NAME_MAX in src/archive/tar.h


def header(name, typ, size=0, link=b"", mode=0o644):
    b = bytearray(512)
    b[0:len(name[:100])] = name[:100]
    b[100:108] = b"%07o\0" % mode
    b[108:116] = b"0000000\0"
    b[116:124] = b"0000000\0"
    b[124:136] = b"%011o\0" % size
    b[136:148] = b"%011o\0" % 1700000000
    b[148:156] = b" " * 8
    b[156:157] = typ
    b[157:157 + len(link[:100])] = link[:100]
    b[257:263] = b"ustar\0"
    b[263:265] = b"00"
    b[148:156] = b"%06o\0 " % sum(b)
    return bytes(b)


def data(d):
    return d + b"\0" * (-len(d) % 512)


def gnu_long(typ, payload):
    return header(b"././@LongLink", typ, len(payload)) + data(payload)


def pax(records, typ=b"x"):
    """An extended header of typ ('x', or Solaris's older 'X') holding the
    records, each as "LEN key=value\\n"."""
    body = b""
    for k, v in records:
        rec = b" " + k + b"=" + v + b"\n"
        n = len(rec) + 1
        while len(b"%d" % n) + len(rec) != n:
            n += 1
        body += b"%d" % n + rec
    return header(b"PaxHeaders/x", typ, len(body)) + data(body)


def member(typ, name=b"m"):
    if typ == b"0":
        return header(name, typ, 3) + data(b"hi\n")
    if typ in (b"1", b"2"):
        return header(name, typ, 0, link=b"ok")
    if typ == b"5":
        return header(name + b"/", typ, 0, mode=0o755)
    return header(name, typ, 0)


def ok():
    return header(b"ok", b"0", 3) + data(b"ok\n")


END = b"\0" * 1024


def cases():
    c = {}
    # The review's archive: 'L' and 'K' of CAP + 1 bytes with no NUL,
    # then an ordinary member of each type that reached the overflow.
    for t in b"01235":
        t = bytes([t])
        c["lk-over-type" + t.decode()] = (
            gnu_long(b"L", b"A" * (CAP + 1)) + gnu_long(b"K", b"B" * (CAP + 1))
            + member(t) + ok() + END)
    # One side only, and the NUL-terminated form GNU tar writes.
    c["l-over-nonul"] = gnu_long(b"L", b"A" * (CAP + 1)) + member(b"0") + ok() + END
    c["k-over-nonul"] = gnu_long(b"K", b"B" * (CAP + 1)) + member(b"2") + ok() + END
    c["l-over-nul"] = gnu_long(b"L", b"A" * (CAP + 1) + b"\0") + member(b"0") + ok() + END
    # At the cap: a name of CAP bytes is allowed (the file system then
    # refuses so long a component, which is a warning, not a crash); so
    # is the 4097-byte name that overflowed issue 13's buffer, under the
    # old cap of 4096.
    c["l-cap-nul"] = gnu_long(b"L", b"A" * CAP + b"\0") + member(b"0") + ok() + END
    c["l-cap-nonul"] = gnu_long(b"L", b"A" * CAP) + member(b"0") + ok() + END
    c["l-4097-nonul"] = gnu_long(b"L", b"A" * 4097) + member(b"0") + ok() + END
    # 5,000 directories deep: 9,999 bytes, past PATH_MAX.
    c["l-deep"] = gnu_long(b"L", (b"d/" * 4999) + b"f\0") + member(b"0") + ok() + END
    # pax records one over and at the cap.
    c["pax-path-over"] = pax([(b"path", b"P" * (CAP + 1))]) + member(b"0") + ok() + END
    c["pax-link-over"] = pax([(b"linkpath", b"Q" * (CAP + 1))]) + member(b"2") + ok() + END
    c["pax-path-cap"] = pax([(b"path", b"P" * CAP)]) + member(b"0") + ok() + END
    # a NUL inside a pax name: C would read "ok" where tar means more
    c["pax-path-nul"] = pax([(b"path", b"ok\0../../x")]) + member(b"0") + ok() + END
    # An 'L' block that claims a huge size: refused before it is read.
    c["l-huge"] = header(b"././@LongLink", b"L", 1 << 20) + b"\0" * 512 + END
    # 'L' immediately followed by a second 'L' (the later one wins, as
    # in GNU tar), and by the end of the archive.
    c["l-twice"] = (gnu_long(b"L", b"first\0") + gnu_long(b"L", b"second\0")
                    + member(b"0") + ok() + END)
    c["l-then-end"] = gnu_long(b"L", b"A" * 100 + b"\0") + END
    return c


def cli(c):
    """The command line of this script and of other_writers.py: write
    the case named by the argument, or list the names with --list."""
    if sys.argv[1:] == ["--list"]:
        print("\n".join(sorted(c)))
        return
    sys.stdout.buffer.write(c[sys.argv[1]])


if __name__ == "__main__":
    cli(cases())
