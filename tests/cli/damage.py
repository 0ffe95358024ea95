#!/usr/bin/python3
"""damage.py -- the damage models of the salvage campaign, shared by
tests/cli/salvage_campaign.py (which checks what aescrypt says and
writes) and bench/salvage.py (which measures what it and its peers get
back from the same damage).

Each model takes the file's bytes and a random.Random and returns the
damaged bytes and the damaged range [start, end) of the file:

  block    one 4 KiB-aligned block of 4 KiB zeroed (a bad sector)
  range    512 KiB from a 4 KiB-aligned offset zeroed (a bad stretch)
  bit      one bit flipped (a memory or transfer error)
  truncate the file cut at a random offset (an interrupted copy)

Also: the tree every campaign uses, made from a seed (make_tree), and
the layout of an aescrypt file (records, index, copy of the header).
"""
import io
import os
import random
import struct
import tarfile

BLOCK = 4096
RANGE = 512 * 1024
MODELS = ("block", "range", "bit", "truncate")


def damage(model, data, rng, where=None):
    """Damaged bytes and the range of the file they touch.  where (0 to
    1), if given, puts the damage at that share of the file instead of
    a random place, so that files of other sizes (bench/salvage.py's
    peers) can be damaged at the same relative place."""
    n = len(data)

    def place(lo, hi):
        return lo + int(where * (hi - lo)) if where is not None else \
            rng.randrange(lo, hi)
    if model in ("block", "range"):
        at = place(0, (n + BLOCK - 1) // BLOCK) * BLOCK
        end = min(at + (BLOCK if model == "block" else RANGE), n)
        return data[:at] + bytes(end - at) + data[end:], (at, end)
    if model == "bit":
        at = place(0, n)
        b = bytearray(data)
        b[at] ^= 1 << rng.randrange(8)
        return bytes(b), (at, at + 1)
    if model == "truncate":
        at = place(1, n)
        return data[:at], (at, n)
    raise ValueError(model)


def make_tree(root, seed, files=400):
    """A tree of about 6 MB: files of many sizes (text that compresses and
    random bytes that do not) in nested directories, a few symlinks, and
    Downloads/bundle.tar, a stored .tar whose members include names that
    are also outer members (with other contents) and names that are not.
    Returns the outer member names, in no order."""
    rng = random.Random(seed)
    names = []
    for i in range(files):
        d = "d%02d/e%d" % (i % 23, i % 3)
        os.makedirs(os.path.join(root, d), exist_ok=True)
        size = int(2 ** rng.uniform(0, 17.5))
        if rng.random() < 0.5:
            body = rng.randbytes(size)
        else:
            words = [b"salvage", b"chunk", b"member", b"archive", b"%d" % i]
            body = b" ".join(rng.choice(words) for _ in range(size // 6 + 1))
            body = body[:size]
        p = os.path.join(d, "f%04d" % i)
        with open(os.path.join(root, p), "wb") as f:
            f.write(body)
        names.append(p)
    for i in range(0, files, 50):
        p = "d%02d/link%04d" % (i % 23, i)
        os.symlink("e%d/f%04d" % (i % 3, i), os.path.join(root, p))
        names.append(p)
    # the stored .tar: a large first member (so that its inner headers
    # sit chunks away from its own), then inner files, some of them
    # named as outer members are
    os.makedirs(os.path.join(root, "Downloads"), exist_ok=True)
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as t:
        def add(name, body):
            ti = tarfile.TarInfo(name)
            ti.size = len(body)
            ti.mtime = 1764547200
            t.addfile(ti, io.BytesIO(body))
        add("pad.bin", rng.randbytes(300000))
        for k in range(0, files, 37):
            add(names[k], b"inner copy of %s\n" % names[k].encode())
        for k in range(20):
            add("inner-only/x%02d" % k, rng.randbytes(rng.randrange(1, 30000)))
    with open(os.path.join(root, "Downloads", "bundle.tar"), "wb") as f:
        f.write(buf.getvalue())
    names.append("Downloads/bundle.tar")
    return names


def records(data, off, end):
    """[(offset, length)] of the records from off to the first final one
    (or to end)."""
    recs = []
    while off + 5 <= end:
        n = struct.unpack(">I", data[off + 1:off + 5])[0]
        recs.append((off, 5 + n + 16))
        off += 5 + n + 16
        if data[recs[-1][0]] & 1:
            break
    return recs


def layout(data):
    """An aescrypt file's parts: the header's length, the payload records,
    where the index and footer lie (or None), and where the copy of the
    header starts (len(data) without one)."""
    L = struct.unpack(">H", data[9:11])[0]
    copy_at = len(data) - (L + 2 if data[11] & 0x80 else 0)
    recs = records(data, L, copy_at)
    index = None
    if data[11] & 0x0F == 2:
        index = (recs[-1][0] + recs[-1][1], copy_at)
    return dict(L=L, recs=recs, index=index, copy_at=copy_at)


def tar_members(tar):
    """{name: (first, end)} of a tar stream's members, where first is
    where its headers start and end where the next member's do."""
    out, order = {}, []
    with tarfile.open(fileobj=io.BytesIO(tar), mode="r:") as t:
        for m in t.getmembers():
            order.append((m.name + ("/" if m.isdir() else ""), m.offset))
    for i, (name, first) in enumerate(order):
        end = order[i + 1][1] if i + 1 < len(order) else None
        out[name] = (first, end)
    return out
