#!/usr/bin/python3
"""tamper_campaign.py CLASS AESCRYPT KEY ARCHIVE WORKDIR [SEED [SCALE]]

KEY is a key file, or identity:FILE for an identity (recipient files).

One class of the tamper campaign (120-tamper-campaign.bats) against a
multi-chunk archive: each case writes a damaged copy, runs
`aescrypt -d -k KEYFILE -o out.tar` on it (in process where the build
has aescrypt_inproc: inproc.py), and checks the exit status
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
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import damage as D  # noqa: E402
import inproc  # noqa: E402


def layout(data):
    """Header length, payload records, for an archive with an index
    (payload_type 2, spec 6.8) its records and the footer's offset, and
    where the copy of the header starts (bit 7 of payload_type, 6.9; the
    end of the file without one)."""
    lay = D.layout(data)
    irecs, footer = [], None
    if lay["index"] is not None:
        footer = lay["index"][1] - 32
        irecs = D.records(data, lay["index"][0], footer)
    return lay["L"], lay["recs"], irecs, footer, lay["copy_at"]


class Campaign:
    def __init__(self, aescrypt, key, workdir):
        self.runner = inproc.Runner(aescrypt)
        self.key, self.workdir = key, workdir
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
        st, msg = self.runner.run(["-d", "-q"] + keyarg + ["-o", out, path])
        left = os.path.exists(out) or glob.glob(
            os.path.join(self.workdir, ".out.tar.aescrypt-*"))
        self.cases += 1
        if st != 4 or not re.search(want, msg) or left:
            self.wrong.append("%s: exit %d, wanted 4 and /%s/%s: %s" % (
                name, st, want,
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
    hlen, recs, irecs, footer, copy_at = layout(data)
    c = Campaign(aescrypt, key, workdir)
    header_class = "header|not an aescrypt container|version"
    index_class = "index|footer"
    # where the payload ends: the index (6.8) or the end of the file
    pay_end = sum(recs[-1])
    tail = data[pay_end:]
    after = "after the copy of the header" if copy_at < len(data) else \
        "after the footer" if footer is not None else \
        "after the final|trailing"
    copy_class = "the copy of the header at the end of the file"

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
            if pos >= copy_at:
                want = copy_class + " differs"
            elif pos >= pay_end:
                want = "footer failed authentication" \
                    if pos >= footer else index_class
            elif pos >= recs[r][0] + 5:
                want = "chunk %d at offset %d failed authentication" % (
                    r, recs[r][0])
            else:
                want = "chunk %d|truncated|ends" % r
            c.run(flipped(pos), want, "payload byte %d (record %d)" % (pos, r))
    elif cls == "truncate":
        for i, (off, _) in enumerate(recs):
            c.run(data[:off], "truncated|no final", "cut before record %d" % i)
        for i, (off, _) in enumerate(irecs):
            c.run(data[:off], "index .*(missing|cut)",
                  "cut before index record %d" % i)
        if footer is not None:
            c.run(data[:footer], "footer is missing", "cut before the footer")
        if copy_at < len(data):
            c.run(data[:copy_at], copy_class + " is missing or cut short",
                  "cut before the copy of the header")
            c.run(data[:-1], copy_class + " is missing or cut short",
                  "the copy of the header cut by a byte")
        for _ in range(int(200 * scale)):
            cut = rng.randrange(0, len(data))
            want = header_class + "|truncated" if cut < hlen else \
                "truncated|ends|no final" if cut < pay_end else \
                index_class if cut < copy_at else copy_class
            c.run(data[:cut], want, "cut at %d" % cut)
    elif cls == "reorder":
        n = len(recs)
        head = data[:hlen]
        for i in range(n):
            body = b"".join(piece(j) for j in range(n) if j != i)
            # without the final record, an index record comes where it
            # was, and fails under the payload key
            want = ("chunk %d at offset %d failed authentication"
                    % (i, recs[i][0]) if footer is not None else
                    "truncated|no final") if i == n - 1 else \
                "chunk %d at offset %d failed authentication" % (i, recs[i][0])
            c.run(head + body + tail, want, "drop %d" % i)
            body = b"".join(piece(j) * (2 if j == i else 1) for j in range(n))
            want = (index_class if footer is not None else
                    "after the final|trailing") if i == n - 1 else \
                "chunk %d at offset %d failed authentication" % (
                    i + 1, recs[i + 1][0])
            c.run(head + body + tail, want, "duplicate %d" % i)
        for i in range(n - 1):
            order = list(range(n))
            order[i], order[i + 1] = order[i + 1], order[i]
            body = b"".join(piece(j) for j in order)
            c.run(head + body + tail,
                  "chunk %d at offset %d failed authentication"
                  % (i, recs[i][0]), "swap %d" % i)
        # the index's records: dropped, duplicated, swapped, and a
        # payload record in their place
        ihead, foot = data[:pay_end], data[footer:] if irecs else b""
        ipiece = [data[o:o + m] for o, m in irecs]
        for i in range(len(irecs)):
            c.run(ihead + b"".join(p for j, p in enumerate(ipiece) if j != i)
                  + foot, index_class, "drop index record %d" % i)
            c.run(ihead + b"".join(p * (2 if j == i else 1)
                                   for j, p in enumerate(ipiece)) + foot,
                  index_class, "duplicate index record %d" % i)
        for i in range(len(irecs) - 1):
            order = list(range(len(irecs)))
            order[i], order[i + 1] = order[i + 1], order[i]
            c.run(ihead + b"".join(ipiece[j] for j in order) + foot,
                  index_class, "swap index records %d" % i)
        if irecs:
            c.run(ihead + piece(n - 1) + foot, index_class,
                  "the final payload record as the index")
    elif cls == "trailing":
        for g in (1, 17, 4096):
            c.run(data + bytes(rng.randrange(256) for _ in range(g)),
                  after, "%d bytes of garbage" % g)
        c.run(data + piece(0), after, "record 0 appended")
        if footer is not None:
            c.run(data + data[footer:], after, "a second footer")
    else:
        sys.exit("unknown class " + cls)
    c.runner.close()
    print("%s: %d cases, %d wrong (%d records of 64 KiB chunks, %d of "
          "index, header %d)"
          % (cls, c.cases, len(c.wrong), len(recs), len(irecs), hlen))
    for w in c.wrong[:20]:
        print("  " + w)
    sys.exit(1 if c.wrong else 0)


if __name__ == "__main__":
    main()
