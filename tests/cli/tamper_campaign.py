#!/usr/bin/python3
"""tamper_campaign.py CLASS AESCRYPT KEY ARCHIVE WORKDIR [SEED [SCALE]]

KEY is a key file, or identity:FILE for an identity (recipient files).

One class of the tamper campaign (120-tamper-campaign.bats) against a
multi-chunk archive: each case writes a damaged copy, runs
`aescrypt -d -k KEYFILE -o out.tar` on it, and checks the exit status
(4), the error class in the message, and that neither out.tar nor a temp
file beside it was left.  CLASS is header, payload, truncate, reorder or
trailing.  Prints "<class>: N cases, M wrong" and each wrong case;
exits 1 if any was wrong.  The random choices come from SEED.  SCALE
(default 1) multiplies the number of random cases (2,000 byte flips,
200 cuts): the sanitizer builds run a tenth.
"""
import glob
import os
import random
import re
import struct
import subprocess
import sys


def layout(data):
    hlen = struct.unpack(">H", data[9:11])[0]
    recs, off = [], hlen
    while off + 5 <= len(data):
        n = struct.unpack(">I", data[off + 1:off + 5])[0]
        recs.append((off, 5 + n + 16))
        off += 5 + n + 16
    return hlen, recs


class Campaign:
    def __init__(self, aescrypt, key, workdir):
        self.aescrypt, self.key, self.workdir = aescrypt, key, workdir
        self.cases, self.wrong = 0, []

    def run(self, data, want, name):
        path = os.path.join(self.workdir, "t.aes")
        out = os.path.join(self.workdir, "out.tar")
        with open(path, "wb") as f:
            f.write(data)
        if os.path.exists(out):
            os.unlink(out)
        # "identity:FILE" opens with -i FILE (a recipient file), else
        # KEYFILE is a key file
        keyarg = ["-i", self.key[9:]] if self.key.startswith("identity:") \
            else ["-k", self.key]
        p = subprocess.run([self.aescrypt, "-d", "-q"] + keyarg +
                           ["-o", out, path],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        msg = p.stdout.decode("utf-8", "replace")
        left = os.path.exists(out) or glob.glob(
            os.path.join(self.workdir, ".out.tar.aescrypt-*"))
        self.cases += 1
        if p.returncode != 4 or not re.search(want, msg) or left:
            self.wrong.append("%s: exit %d, wanted 4 and /%s/%s: %s" % (
                name, p.returncode, want,
                " (output left behind)" if left else "", msg.strip()))


def record_of(recs, pos):
    for i in range(len(recs) - 1, -1, -1):
        if pos >= recs[i][0]:
            return i
    return None


def main():
    cls, aescrypt, key, archive, workdir = sys.argv[1:6]
    rng = random.Random(int(sys.argv[6]) if len(sys.argv) > 6 else 20261130)
    scale = float(sys.argv[7]) if len(sys.argv) > 7 else 1.0
    data = open(archive, "rb").read()
    hlen, recs = layout(data)
    c = Campaign(aescrypt, key, workdir)
    header_class = "header|not an aescrypt container|version"

    def flipped(pos):
        b = bytearray(data)
        b[pos] ^= 0xFF
        return bytes(b)

    def piece(i):
        off, n = recs[i]
        return data[off:off + n]

    if cls == "header":
        for pos in range(hlen):
            c.run(flipped(pos), header_class, "header byte %d" % pos)
    elif cls == "payload":
        for _ in range(int(2000 * scale)):
            pos = rng.randrange(hlen, len(data))
            r = record_of(recs, pos)
            if pos >= recs[r][0] + 5:
                want = "chunk %d at offset %d failed authentication" % (
                    r, recs[r][0])
            else:
                want = "chunk %d|truncated|ends" % r
            c.run(flipped(pos), want, "payload byte %d (record %d)" % (pos, r))
    elif cls == "truncate":
        for i, (off, _) in enumerate(recs):
            c.run(data[:off], "truncated|no final", "cut before record %d" % i)
        for _ in range(int(200 * scale)):
            cut = rng.randrange(0, len(data))
            want = header_class + "|truncated" if cut < hlen else \
                "truncated|ends|no final"
            c.run(data[:cut], want, "cut at %d" % cut)
    elif cls == "reorder":
        n = len(recs)
        head = data[:hlen]
        for i in range(n):
            body = b"".join(piece(j) for j in range(n) if j != i)
            want = "truncated|no final" if i == n - 1 else \
                "chunk %d at offset %d failed authentication" % (i, recs[i][0])
            c.run(head + body, want, "drop %d" % i)
            body = b"".join(piece(j) * (2 if j == i else 1) for j in range(n))
            want = "after the final|trailing" if i == n - 1 else \
                "chunk %d at offset %d failed authentication" % (
                    i + 1, recs[i + 1][0])
            c.run(head + body, want, "duplicate %d" % i)
        for i in range(n - 1):
            order = list(range(n))
            order[i], order[i + 1] = order[i + 1], order[i]
            body = b"".join(piece(j) for j in order)
            c.run(head + body, "chunk %d at offset %d failed authentication"
                  % (i, recs[i][0]), "swap %d" % i)
    elif cls == "trailing":
        for g in (1, 17, 4096):
            c.run(data + bytes(rng.randrange(256) for _ in range(g)),
                  "after the final|trailing", "%d bytes of garbage" % g)
        c.run(data + piece(0), "after the final|trailing", "record 0 appended")
    else:
        sys.exit("unknown class " + cls)
    print("%s: %d cases, %d wrong (%d records of 64 KiB chunks, header %d)"
          % (cls, c.cases, len(c.wrong), len(recs), hlen))
    for w in c.wrong[:20]:
        print("  " + w)
    sys.exit(1 if c.wrong else 0)


if __name__ == "__main__":
    main()
