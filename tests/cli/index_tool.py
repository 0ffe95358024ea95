#!/usr/bin/python3
"""index_tool.py -- archives with a hostile index, for 170-index.bats.

  index_tool.py hostile KEYFILE ARCHIVE OUTDIR
  index_tool.py lies KEYFILE ARCHIVE OUTDIR INNER EVIL HIDE
  index_tool.py retar KEYFILE ARCHIVE OUT RAW TAR...

Reads ARCHIVE's index (spec 6.8) with KEYFILE through the interop
implementation, then writes OUTDIR/NAME.aes for each way of breaking it
that only a holder of the key could seal: every field out of range,
offsets that point back at the header or past the payload, members out
of order or overlapping, names with a NUL or too long, bytes left over.
Each is sealed properly (index records and footer under the index key,
then the copy of the header if the archive has one, 6.9), so what is
tested is the reader's checks, not the tags.  Prints one line
per file: NAME<TAB>the words the warning must contain.

"lies" writes indexes that pass every check of 6.8 but do not say what
the payload holds, as anyone who can make the archive (with -r, anyone
who has the public key) can seal them: smuggle.aes lists one more
member, EVIL, whose first is the tar header at the start of member
INNER's data (a .tar stored in the archive, holding EVIL), so that
reading at that offset finds a real header; lie.aes renames the member
after INNER to EVIL and makes it 0755; hide.aes leaves the member HIDE
out, the member before it stretching over it; longer.aes says the
member before HIDE is 600 bytes longer than it is.
"""
import io
import os
import struct
import sys
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "interop"))
import aescrypt_v1 as A  # noqa: E402
from cryptography.hazmat.primitives.ciphers.aead import AESGCM  # noqa: E402


def open_index(path, keyfile, plain=None):
    key = A.read_keyfile(keyfile)
    with open(path, "rb") as f:
        raw, h, slots = A.parse_header(f)
        fk = A.unlock(raw, slots, key, None, 1 << 21)
        C = 1 << h["log2"]
        aead = AESGCM(A.hkdf(fk, h["salt"], b"aescrypt-v1 payload", 32))
        R, off, lens = A.read_records(f, aead, C, h["L"],
                                      plain if plain is not None else io.BytesIO(),
                                      codec=h["codec"])
        iaead = AESGCM(A.hkdf(fk, h["salt"], b"aescrypt-v1 index", 32))
        ib = io.BytesIO()
        A.read_records(f, iaead, C, off, ib, "index record", h["codec"])
    data = open(path, "rb").read()
    return data[:off], ib.getvalue(), iaead, C, off, R


def copy_tail(payload):
    """The copy of the header that ends the file, if the header's
    payload_type has bit 7 (6.9); else nothing."""
    L = struct.unpack(">H", payload[9:11])[0]
    return payload[:L] + payload[9:11] if payload[11] & 0x80 else b""


def build_index(R, tar_end, lens, members):
    """The index's bytes (6.8) for these record lengths and members."""
    out = [struct.pack(">BQQQ", 1, R, tar_end, len(members))]
    out += [struct.pack(">I", n) for n in lens]
    for m in members:
        out.append(struct.pack(">QBIQQQqI", m["first"], ord(m["type"]),
                               m["mode"], m["uid"], m["gid"], m["size"],
                               m["mtime"], m["nsec"]))
        for width, key in ((2, "name"), (2, "link"), (1, "uname"), (1, "gname")):
            b = m[key].encode("utf-8", "surrogateescape")
            out.append(len(b).to_bytes(width, "big") + b)
    return b"".join(out)


def lies(keyfile, archive, outdir, inner, evil, hide):
    plain = io.BytesIO()
    payload, ix, iaead, C, off, R = open_index(archive, keyfile, plain)
    L = struct.unpack(">H", payload[9:11])[0]
    lens, tar_end, members = A.parse_index(ix, L, C, off, R)
    stream = plain.getvalue()

    def put(name, ms):
        with open(os.path.join(outdir, name + ".aes"), "wb") as f:
            f.write(payload + seal(build_index(R, tar_end, lens, ms), iaead,
                                   C, off, R, payload[11] >> 4 & 7)
                    + copy_tail(payload))

    def data_start(m):
        """Where member m's data starts: after its x header, if any."""
        pos = m["first"]
        while True:
            blk = stream[pos:pos + 512]
            size = int(blk[124:136].rstrip(b"\0 ") or b"0", 8)
            typ = blk[156:157]
            pos += 512
            if typ not in (b"x", b"g", b"L", b"K"):
                return pos
            pos += (size + 511) // 512 * 512

    k = [i for i, m in enumerate(members) if m["name"] == inner][0]
    at = data_start(members[k])
    hdr = stream[at:at + 512]
    assert hdr[:len(evil)] == evil.encode(), "INNER must start with EVIL"
    size = int(hdr[124:136].rstrip(b"\0 "), 8)
    smuggled = dict(members[k], first=at, type="0", mode=0o755,
                    size=size, name=evil, link="")
    put("smuggle", members[:k + 1] + [smuggled] + members[k + 1:])
    lied = dict(members[k + 1], name=evil, mode=0o755)
    put("lie", members[:k + 1] + [lied] + members[k + 2:])
    h = [i for i, m in enumerate(members) if m["name"] == hide][0]
    put("hide", members[:h] + members[h + 1:])
    # longer.aes: the member before HIDE said to be 600 bytes longer, so
    # that reading it by the index's size would run into HIDE
    put("longer", [dict(m, size=m["size"] + 600) if i == h - 1 else m
                   for i, m in enumerate(members)])


def seal(index, iaead, C, index_offset, records, codec=0):
    """The index's records and the footer, as an encoder writes them
    (compressed with DEFLATE in a DEFLATE archive; stored, which any
    reader takes, in a zstd one)."""
    out, i = [], 0
    chunks = [index[k:k + C] for k in range(0, len(index), C)] or [b""]
    for i, cur in enumerate(chunks):
        final = 1 if i == len(chunks) - 1 else 0
        c = zlib.compressobj(6, zlib.DEFLATED, -15)
        z = c.compress(cur) + c.flush()
        body, flags = (z, final | 2) if len(z) < len(cur) and codec == 0 \
            else (cur, final)
        frame = bytes([flags]) + struct.pack(">I", len(body))
        nonce = i.to_bytes(11, "big") + bytes([final])
        out.append(frame + iaead.encrypt(nonce, body, frame))
    head = struct.pack(">QQ", index_offset, records)
    return b"".join(out) + head + iaead.encrypt(A.FOOTER_NONCE, b"", head)


def kind(t):
    """A member's type as 6.8 has it (the tar reader's): NUL and old GNU
    sparse 'S' are '0', a dumpdir 'D' is '5', and a '0', '7' or NUL
    member whose name ends in '/' is '5' (Python's tarfile has made a
    NUL one with a '/' a directory already)."""
    c = {b"\0": "0", b"S": "0", b"D": "5"}.get(t.type, t.type.decode("latin-1"))
    if c in "07" and t.name.endswith("/"):
        c = "5"
    return c


def retar(keyfile, archive, out, raw, tars):
    """OUT: ARCHIVE's header and key with a new payload, the members of
    the TARs one after the other (each without its end blocks), and an
    index of them as 6.8 says (RAW 1: with each typeflag as its header
    has it instead)."""
    import tarfile
    key = A.read_keyfile(keyfile)
    with open(archive, "rb") as f:
        hraw, h, slots = A.parse_header(f)
        fk = A.unlock(hraw, slots, key, None, 1 << 21)
    data = open(archive, "rb").read()
    L, C = h["L"], 1 << h["log2"]
    aead = AESGCM(A.hkdf(fk, h["salt"], b"aescrypt-v1 payload", 32))
    iaead = AESGCM(A.hkdf(fk, h["salt"], b"aescrypt-v1 index", 32))
    stream = b""
    for path in tars:
        t = open(path, "rb").read()
        end = max(m.offset_data + (m.size + 511) // 512 * 512
                  if m.type not in (b"S",) else
                  m.offset_data + (sum(n for _, n in m.sparse) + 511) // 512 * 512
                  for m in tarfile.open(fileobj=io.BytesIO(t)).getmembers())
        stream += t[:end]
    tar_end = len(stream)
    stream += bytes(1024)
    members = []
    for t in tarfile.open(fileobj=io.BytesIO(stream)).getmembers():
        typ = kind(t)
        if raw == "1":
            typ = stream[t.offset + 156:t.offset + 157].decode("latin-1")
        members.append(dict(first=t.offset, type=typ, mode=t.mode,
                            uid=t.uid, gid=t.gid, size=t.size,
                            mtime=int(t.mtime), nsec=0,
                            name=t.name.rstrip("/") + ("/" if kind(t) == "5" else ""),
                            link=t.linkname, uname=t.uname, gname=t.gname))
    chunks = [stream[k:k + C] for k in range(0, len(stream), C)]
    recs, lens = [], []
    for i, cur in enumerate(chunks):
        final = 1 if i == len(chunks) - 1 else 0
        frame = bytes([final]) + struct.pack(">I", len(cur))
        recs.append(frame + aead.encrypt(i.to_bytes(11, "big") + bytes([final]),
                                         cur, frame))
        lens.append(len(recs[-1]))
    payload = data[:L] + b"".join(recs)
    index = build_index(len(recs), tar_end, lens, members)
    with open(out, "wb") as f:
        f.write(payload + seal(index, iaead, C, len(payload), len(recs),
                               h["codec"]) + copy_tail(data))


def main():
    _, keyfile, archive, outdir = sys.argv[1:5]     # (argv[1]: "hostile")
    payload, ix, iaead, C, off, R = open_index(archive, keyfile)
    L = struct.unpack(">H", payload[9:11])[0]
    M = struct.unpack(">Q", ix[17:25])[0]
    m0 = 25 + 4 * R            # the first member entry

    def put(name, index, want, index_offset=off, records=R):
        with open(os.path.join(outdir, name + ".aes"), "wb") as f:
            f.write(payload + seal(index, iaead, C, index_offset, records,
                                   payload[11] >> 4 & 7)
                    + copy_tail(payload))
        print("%s\t%s" % (name, want))

    def field(pos, fmt, value):
        b = bytearray(ix)
        struct.pack_into(fmt, b, pos, value)
        return bytes(b)

    put("version", field(0, ">B", 2), "unknown version")
    put("records-other", field(1, ">Q", R + 1), "other records than the footer")
    put("records-huge", field(1, ">Q", 2**63), "other records than the footer")
    put("tar-end-past", field(9, ">Q", R * C + 1), "tar end past the payload")
    put("members-huge", field(17, ">Q", 2**40), "member count")
    put("record-short", field(25, ">I", 20), "length no record")
    put("record-long", field(25, ">I", C + 22), "length no record")
    put("records-sum", field(25, ">I", struct.unpack(">I", ix[25:29])[0] - 1),
        "do not end where the index starts")
    if M >= 2:
        second = m0 + 49 + 2 + struct.unpack(">H", ix[m0 + 49:m0 + 51])[0]
        second += 2 + struct.unpack(">H", ix[second:second + 2])[0]
        second += 1 + ix[second]
        second += 1 + ix[second]
        put("member-loop", field(second, ">Q", 0), "out of order")
        put("member-overlap", field(second, ">Q", 512 * 0 + 256),
            "out of order")
    put("member-past-end", field(m0, ">Q", 2**62), "outside the tar stream")
    put("member-unaligned", field(m0, ">Q", 1), "outside the tar stream")
    put("mode", field(m0 + 9, ">I", 0o10000), "bad time or mode")
    put("nsec", field(m0 + 45, ">I", 10**9), "bad time or mode")
    put("name-empty", field(m0 + 49, ">H", 0), "name of a bad length")
    # (the length field's largest value, 65535, is the cap: a name can
    # only be too long for the bytes left, so the last member's is made
    # to run past the end)
    last = m0
    for _ in range(M - 1):
        pos = last + 49
        pos += 2 + struct.unpack(">H", ix[pos:pos + 2])[0]
        pos += 2 + struct.unpack(">H", ix[pos:pos + 2])[0]
        pos += 1 + ix[pos]
        pos += 1 + ix[pos]
        last = pos
    put("name-long", field(last + 49, ">H", 65535), "name of a bad length")
    # incomplete indexes that are well-formed: the first member left out,
    # or the last one with tar_end moved back to where it starts (each
    # entry then still tiles the stream it covers: issue 34)
    def with_members(entries, tar_end):
        head = bytearray(ix[:m0])
        struct.pack_into(">Q", head, 9, tar_end)
        struct.pack_into(">Q", head, 17, len(entries))
        return bytes(head) + b"".join(entries)
    starts = [m0]
    for _ in range(M - 1):
        pos = starts[-1] + 49
        pos += 2 + struct.unpack(">H", ix[pos:pos + 2])[0]
        pos += 2 + struct.unpack(">H", ix[pos:pos + 2])[0]
        pos += 1 + ix[pos]
        pos += 1 + ix[pos]
        starts.append(pos)
    entries = [ix[a:b] for a, b in zip(starts, starts[1:] + [len(ix)])]
    tar_end = struct.unpack(">Q", ix[9:17])[0]
    put("drop-first", with_members(entries[1:], tar_end),
        "does not start at the tar stream's first member")
    put("drop-last", with_members(entries[:-1],
                                  struct.unpack(">Q", entries[-1][:8])[0]),
        "no end-of-archive block")
    put("drop-all", with_members([], tar_end),
        "does not start at the tar stream's first member")
    put("tar-end-unaligned", field(9, ">Q", tar_end + 1),
        "tar end inside a block")
    b = bytearray(ix)
    b[m0 + 51] = 0
    put("name-nul", bytes(b), "NUL in a name")
    put("trailing", ix + b"\0", "bytes after its last member")
    put("cut", ix[:-1], "ends inside|bad length")
    # the footer: pointing at the header, past the file, at no record
    put("footer-at-header", ix, "points outside", index_offset=10)
    put("footer-past-end", ix, "points outside", index_offset=2**62)
    put("footer-records-0", ix, "points outside", records=0)
    put("footer-records", ix, "other records than the footer", records=R + 1)


if __name__ == "__main__":
    if sys.argv[1] == "lies":
        lies(*sys.argv[2:8])
    elif sys.argv[1] == "retar":
        retar(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6:])
    else:
        main()
