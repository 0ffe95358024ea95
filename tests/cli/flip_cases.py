#!/usr/bin/python3
"""flip_cases.py AESCRYPT ARCHIVE WORKDIR < CASES

Byte flips of one archive, each decrypted and checked (030-tamper.bats):
each line of CASES is

    OFFSET <TAB> MASK <TAB> EXIT <TAB> REGEX <TAB> ARG...

and the case writes ARCHIVE with the byte at OFFSET xored with MASK to
WORKDIR/t.aes, runs `aescrypt -d ARG... -o WORKDIR/out.bin t.aes` (in
process where the build has aescrypt_inproc: inproc.py), and checks the
exit status, that the messages match REGEX, and that neither out.bin
nor a temp file beside it is left.  Prints "N cases, M wrong" and each
wrong case; exits 1 if any was wrong or there was no case.
"""
import glob
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import inproc  # noqa: E402


def main():
    aescrypt, archive, work = sys.argv[1:4]
    data = open(archive, "rb").read()
    runner = inproc.Runner(aescrypt)
    t, out = os.path.join(work, "t.aes"), os.path.join(work, "out.bin")
    n, wrong = 0, []
    for line in sys.stdin:
        line = line.rstrip("\n")
        if not line:
            continue
        off, mask, want, rx, *args = line.split("\t")
        b = bytearray(data)
        b[int(off)] ^= int(mask)
        with open(t, "wb") as f:
            f.write(b)
        st, msg = runner.run(["-d"] + args + ["-o", out, t])
        left = os.path.exists(out) or glob.glob(
            os.path.join(work, ".out.bin.aescrypt-*"))
        n += 1
        if st != int(want) or not re.search(rx, msg) or left:
            wrong.append("offset %s: exit %d (want %s)%s: %s (want /%s/)" % (
                off, st, want, ", output left" if left else "",
                msg.strip(), rx))
        if left and os.path.exists(out):
            os.unlink(out)
    runner.close()
    print("%d cases, %d wrong" % (n, len(wrong)))
    for w in wrong[:20]:
        print("  " + w)
    sys.exit(1 if wrong or n == 0 else 0)


if __name__ == "__main__":
    main()
