#!/usr/bin/python3
"""mkvectors.py OUTDIR -- the negative test vectors of the container format.

Like age's CCTV (community cryptography test vectors): small named files,
each built to break exactly one rule of format/aescrypt-v1.md (or to sit
exactly on a limit and be valid), with the class a decoder must report.
MANIFEST lists them: name, expected exit status (aescrypt's mapping of
the spec's classes: 0 ok, 3 wrong key, 4 corrupt/truncated/unsupported,
5 over a limit), the secret to use (key: tests/samples/sample.key, pass:
tests/samples/sample.pass), the spec section, and a regular expression
aescrypt's message must match.

Every file is deterministic (its random bytes come from SHA-256 of its
name), so running this again rewrites the committed files byte for byte;
tests/cli/145-cctv.bats checks that, and replays every vector through
aescrypt -d and through the independent implementation in tests/interop.

The builders reuse the interop implementation's primitives (HKDF, HMAC,
slot wrapping), which were written from the spec alone.
"""
import hashlib
import os
import struct
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "interop"))
import aescrypt_v1 as v1  # noqa: E402
from cryptography.hazmat.primitives.ciphers.aead import AESGCM  # noqa: E402

SAMPLES = os.path.join(HERE, "..", "samples")
KEY = v1.read_keyfile(os.path.join(SAMPLES, "sample.key"))
PASS = v1.read_passfile(os.path.join(SAMPLES, "sample.pass"))
KDF = (8, 1, 1)     # the smallest valid Argon2id costs: m = 8p KiB
# the post-quantum sample identity (4.8): (6, seed, pk, None, tag)
PQ = v1.read_identities(os.path.join(SAMPLES, "sample-pq-identity.txt"))[0]


class Rand:
    """Deterministic bytes for one vector."""

    def __init__(self, name):
        self.state = hashlib.sha256(b"aescrypt cctv " + name.encode()).digest()

    def bytes(self, n):
        out = b""
        while len(out) < n:
            self.state = hashlib.sha256(self.state).digest()
            out += self.state
        return out[:n]


def key_slot(r, fk):
    s = r.bytes(16)
    return v1.make_slot(2, s, v1.hkdf(KEY, s, b"aescrypt-v1 key-file", 32), fk)


def pass_slot(r, fk, kdf=KDF, S=None):
    m, t, p = kdf
    s = r.bytes(16)
    if S is None:
        S = v1.argon2id(PASS, s, m, t, p)
    return v1.make_slot(1, struct.pack(">III", m, t, p) + s, S, fk)


def bad_pass_slot(r, fk, kdf):
    """A passphrase slot with parameters Argon2 rejects: wrapped under a
    random secret (no Argon2id could have made it)."""
    return pass_slot(r, fk, kdf, S=r.bytes(32))


def pq_slot(r, fk, change=None, tag=None, blen=None):
    """An mlkem768x25519 slot to the sample PQ identity (4.8); change
    (offset, xor) alters a ciphertext byte after the wrap is made, tag
    replaces the tag, blen cuts or pads the body (framing only)."""
    _, _, pk, _, t = PQ
    ct, ss = v1.xwing.encaps(pk, r.bytes(64))
    S = v1.hkdf(ss, hashlib.sha256(pk).digest(),
                b"aescrypt-v1 mlkem768x25519", 32)
    slot = bytearray(v1.make_slot(6, (tag or t) + ct, S, fk))
    if change is not None:
        slot[7 + change[0]] ^= change[1]
    if blen is not None:
        body = bytes(slot[3:3 + blen]) + b"\x00" * max(0, blen - 1188)
        slot = bytearray([6]) + struct.pack(">H", blen) + body[:blen]
    return bytes(slot)


def pq_low_order(r, fk, point):
    slot = bytearray(pq_slot(r, fk))
    slot[7 + 1088:7 + 1120] = point
    return bytes(slot)


def unknown_slot(typ, body):
    return bytes([typ]) + struct.pack(">H", len(body)) + body


def header(r, fk, slots, version=1, ptype=0, log2=16, count=None,
           length=None, gap=b""):
    salt = r.bytes(16)
    L = 30 + sum(len(s) for s in slots) + len(gap) + 36
    raw = (v1.MAGIC + bytes([version]) + struct.pack(">H", length or L)
           + bytes([ptype, log2, len(slots) if count is None else count])
           + salt + b"".join(slots) + gap)
    raw += struct.pack(">I", zlib.crc32(raw))
    raw += v1.mac(v1.hkdf(fk, b"", b"aescrypt-v1 header", 32), raw)
    return raw, salt


def records(fk, salt, chunks):
    """chunks: (flags, body) in order; body is the plaintext of the
    record (already deflated where flag 2 is set)."""
    aead = AESGCM(v1.hkdf(fk, salt, b"aescrypt-v1 payload", 32))
    out = b""
    for i, (flags, body) in enumerate(chunks):
        frame = bytes([flags]) + struct.pack(">I", len(body))
        nonce = i.to_bytes(11, "big") + bytes([flags & 1])
        out += frame + aead.encrypt(nonce, body, frame)
    return out


def deflate(data):
    c = zlib.compressobj(6, zlib.DEFLATED, -15)
    return c.compress(data) + c.flush()


def zstd_frame(data, level=3, checksum=False, content_size=True):
    """One zstd frame of data (python3-zstandard)."""
    import zstandard
    return zstandard.ZstdCompressor(
        level=level, write_checksum=checksum,
        write_content_size=content_size).compress(data)


def zstd_unsized(data):
    """A frame without a content size and not single-segment, with a
    64 KiB window (= C): its header is magic, descriptor 0x00, then the
    Window_Descriptor byte 0x30 (offset 5); checked, so the vectors that
    edit those bytes edit what they say."""
    import zstandard
    p = zstandard.ZstdCompressionParameters.from_level(
        3, window_log=16, write_content_size=0, write_checksum=0)
    o = zstandard.ZstdCompressor(compression_params=p).compressobj()
    f = o.compress(data) + o.flush()    # streaming: no size up front
    assert f[4:6] == b"\x00\x30", "frame header %s" % f[4:6].hex()
    return f


def container(name, slots_fn, chunks=None, **hdr):
    """A whole file: header from slots_fn(r, fk), then records."""
    r = Rand(name)
    fk = r.bytes(32)
    raw, salt = header(r, fk, slots_fn(r, fk), **hdr)
    if chunks is None:
        chunks = [(1, b"hello\n")]
    return raw + records(fk, salt, chunks)


def with_key(r, fk):
    return [key_slot(r, fk)]


C16 = 1 << 16
VECTORS = []


def vec(name, status, secret, section, regex, data):
    VECTORS.append((name, status, secret, section, regex, data))


def build():
    # -- DEFLATE inside records (6.4) ----------------------------------
    vec("deflate-one-over-chunk", 4, "key", "6.4",
        "chunk 0 .*(invalid|DEFLATE|over)",
        container("deflate-one-over-chunk", with_key,
                  [(3, deflate(b"a" * (C16 + 1)))]))
    vec("deflate-exactly-chunk", 0, "key", "6.4", "",
        container("deflate-exactly-chunk", with_key,
                  [(2, deflate(b"a" * C16)), (3, deflate(b"b"))]))
    vec("deflate-trailing-bytes", 4, "key", "6.4",
        "chunk 0 .*(invalid|DEFLATE)",
        container("deflate-trailing-bytes", with_key,
                  [(3, deflate(b"hello\n") + b"\x00junk")]))
    vec("deflate-incomplete", 4, "key", "6.4",
        "chunk 0 .*(invalid|DEFLATE)",
        container("deflate-incomplete", with_key,
                  [(3, deflate(b"hello world " * 100)[:-4])]))
    vec("deflate-stored-larger", 0, "key", "6.4", "",
        container("deflate-stored-larger", with_key,
                  [(3, deflate(bytes(range(256)) * 4))]))
    # -- the codec field (3.2) and zstd inside records (6.4) -----------
    # payload_type bits 4-6: 0 DEFLATE, 1 zstd, 2-7 unknown (refused as
    # unsupported, before any key is tried)
    for codec in (2, 7):
        vec("codec-%d" % codec, 4, "key", "3.2",
            "unknown compression codec %d" % codec,
            container("codec-%d" % codec, with_key, ptype=codec << 4))
    Z = 0x10
    for log2, st in ((23, 0), (24, 4)):
        vec("zstd-chunk-log2-%d" % log2, st, "key", "3.2",
            "chunk size out of range" if st else "",
            container("zstd-chunk-log2-%d" % log2, with_key, ptype=Z,
                      log2=log2))
    vec("zstd-exactly-chunk", 0, "key", "6.4", "",
        container("zstd-exactly-chunk", with_key,
                  [(2, zstd_frame(b"a" * C16)), (3, zstd_frame(b"b"))],
                  ptype=Z))
    vec("zstd-one-over-chunk", 4, "key", "6.4", "chunk 0 .*zstd data",
        container("zstd-one-over-chunk", with_key,
                  [(3, zstd_frame(b"a" * (C16 + 1)))], ptype=Z))
    vec("zstd-no-content-size", 0, "key", "6.4", "",
        container("zstd-no-content-size", with_key,
                  [(3, zstd_unsized(b"hello world\n" * 50))], ptype=Z))
    vec("zstd-checksum", 0, "key", "6.4", "",
        container("zstd-checksum", with_key,
                  [(3, zstd_frame(b"hello world\n" * 50, checksum=True))],
                  ptype=Z))
    bad = bytearray(zstd_frame(b"hello world\n" * 50, checksum=True))
    bad[-1] ^= 1
    vec("zstd-checksum-wrong", 4, "key", "6.4", "chunk 0 .*zstd data",
        container("zstd-checksum-wrong", with_key, [(3, bytes(bad))],
                  ptype=Z))
    vec("zstd-two-frames", 4, "key", "6.4", "chunk 0 .*zstd data",
        container("zstd-two-frames", with_key,
                  [(3, zstd_frame(b"one\n") + zstd_frame(b"two\n"))],
                  ptype=Z))
    skippable = struct.pack("<II", 0x184D2A50, 4) + b"skip"
    vec("zstd-skippable-frame", 4, "key", "6.4", "chunk 0 .*zstd data",
        container("zstd-skippable-frame", with_key,
                  [(3, skippable)], ptype=Z))
    vec("zstd-then-skippable", 4, "key", "6.4", "chunk 0 .*zstd data",
        container("zstd-then-skippable", with_key,
                  [(3, zstd_frame(b"one\n") + skippable)], ptype=Z))
    vec("zstd-trailing-byte", 4, "key", "6.4", "chunk 0 .*zstd data",
        container("zstd-trailing-byte", with_key,
                  [(3, zstd_frame(b"hello\n") + b"\x00")], ptype=Z))
    # Window_Descriptor exponent 7: a 128 KiB window, over C = 64 KiB,
    # for 600 bytes of content
    win = bytearray(zstd_unsized(b"hello world\n" * 50))
    win[5] = 7 << 3
    vec("zstd-window-over-chunk", 4, "key", "6.4", "chunk 0 .*zstd data",
        container("zstd-window-over-chunk", with_key, [(3, bytes(win))],
                  ptype=Z))
    # Dictionary_ID_flag 1 and a one-byte id: no dictionary is allowed
    dic = bytearray(zstd_unsized(b"hello world\n" * 50))
    dic[4] |= 0x01
    dic[6:6] = b"\x2a"
    vec("zstd-dictionary-id", 4, "key", "6.4", "chunk 0 .*zstd data",
        container("zstd-dictionary-id", with_key, [(3, bytes(dic))],
                  ptype=Z))
    # each codec's data under the other's name
    vec("zstd-holds-deflate", 4, "key", "6.4", "chunk 0 .*zstd data",
        container("zstd-holds-deflate", with_key,
                  [(3, deflate(b"hello world\n" * 50))], ptype=Z))
    vec("deflate-holds-zstd", 4, "key", "6.4",
        "chunk 0 .*(invalid|DEFLATE)",
        container("deflate-holds-zstd", with_key,
                  [(3, zstd_frame(b"hello world\n" * 50))]))
    # -- chunk boundaries (6.3) ----------------------------------------
    vec("short-nonfinal-chunk", 4, "key", "6.3",
        "chunk 0 .*(short|invalid)",
        container("short-nonfinal-chunk", with_key,
                  [(0, b"x" * (C16 - 1)), (1, b"y")]))
    vec("empty-final-at-index-1", 4, "key", "6.3",
        "chunk 1 .*(empty|invalid)",
        container("empty-final-at-index-1", with_key,
                  [(0, b"x" * C16), (1, b"")]))
    vec("empty-final-at-index-0", 0, "key", "6.3", "",
        container("empty-final-at-index-0", with_key, [(1, b"")]))
    # -- slot framing (3.2, 4) -----------------------------------------
    vec("slots-gap", 4, "key", "3.2", "key slots do not fill the header",
        container("slots-gap", with_key, gap=b"\x00"))
    vec("slots-16", 0, "key", "3.2", "",
        container("slots-16", lambda r, fk: [key_slot(r, fk)]
                  + [unknown_slot(0x70, b"")] * 15))
    vec("slots-17", 4, "key", "3.2", "key slot count out of range",
        container("slots-17", lambda r, fk: [key_slot(r, fk)]
                  + [unknown_slot(0x70, b"")] * 16))
    vec("slots-0", 4, "key", "3.2", "key slot count out of range",
        container("slots-0", lambda r, fk: [], length=69, gap=b"\x00" * 3))
    vec("slot-unknown-empty-body", 0, "key", "4", "",
        container("slot-unknown-empty-body",
                  lambda r, fk: [unknown_slot(0x70, b""), key_slot(r, fk)]))
    vec("slot-unknown-3000", 0, "key", "4", "",
        container("slot-unknown-3000",
                  lambda r, fk: [unknown_slot(0xbb, b"\x5a" * 3000),
                                 key_slot(r, fk)]))
    vec("slot-unknown-only", 4, "key", "4.4",
        "no key slot of a type this version knows",
        container("slot-unknown-only",
                  lambda r, fk: [unknown_slot(0x70, b"\x00" * 80)]))
    # -- the post-quantum recipient slot (4.8) ---------------------------
    vec("pq-good", 0, "pq", "4.8", "",
        container("pq-good", lambda r, fk: [pq_slot(r, fk)]))
    vec("pq-ciphertext-changed-mlkem", 3, "pq", "4.8",
        "no identity matched",
        container("pq-ciphertext-changed-mlkem",
                  lambda r, fk: [pq_slot(r, fk, change=(500, 0x01))]))
    vec("pq-ciphertext-changed-x25519", 3, "pq", "4.8",
        "no identity matched",
        container("pq-ciphertext-changed-x25519",
                  lambda r, fk: [pq_slot(r, fk, change=(1100, 0x80))]))
    vec("pq-tag-other", 3, "pq", "4.8", "no identity matched",
        container("pq-tag-other",
                  lambda r, fk: [pq_slot(r, fk, tag=b"\x00\x01\x02\x03")]))
    vec("pq-body-short", 4, "pq", "4.8", "wrong length for its type",
        container("pq-body-short", lambda r, fk: [pq_slot(r, fk, blen=1187)]))
    vec("pq-body-long", 4, "pq", "4.8", "wrong length for its type",
        container("pq-body-long", lambda r, fk: [pq_slot(r, fk, blen=1189)]))
    vec("pq-x25519-low-order-zero", 4, "pq", "4.8", "low order",
        container("pq-x25519-low-order-zero",
                  lambda r, fk: [pq_low_order(r, fk, bytes(32))]))
    vec("pq-x25519-low-order-p", 4, "pq", "4.8", "low order",
        container("pq-x25519-low-order-p",
                  lambda r, fk: [pq_low_order(
                      r, fk, b"\xed" + b"\xff" * 30 + b"\x7f")]))
    vec("slot-keyfile-short-body", 4, "key", "4",
        "wrong length for its type",
        container("slot-keyfile-short-body",
                  lambda r, fk: [unknown_slot(0x02, b"\x00" * 79)]))
    # the recipient slots of 4.5 and 4.6 have exact lengths too
    vec("slot-x25519-body-95", 4, "key", "4.5",
        "wrong length for its type",
        container("slot-x25519-body-95",
                  lambda r, fk: [unknown_slot(0x03, b"\x00" * 95),
                                 key_slot(r, fk)]))
    vec("slot-ssh-ed25519-body-101", 4, "key", "4.6",
        "wrong length for its type",
        container("slot-ssh-ed25519-body-101",
                  lambda r, fk: [key_slot(r, fk),
                                 unknown_slot(0x04, b"\x00" * 101)]))
    # 4.7: an ssh-rsa body is 68 + k for k of 256 to 1024 bytes
    vec("slot-ssh-rsa-body-323", 4, "key", "4.7",
        "wrong length for its type",
        container("slot-ssh-rsa-body-323",
                  lambda r, fk: [key_slot(r, fk),
                                 unknown_slot(0x05, b"\x00" * 323)]))
    vec("slot-ssh-rsa-body-1093", 4, "key", "4.7",
        "wrong length for its type",
        container("slot-ssh-rsa-body-1093",
                  lambda r, fk: [key_slot(r, fk),
                                 unknown_slot(0x05, b"\x00" * 1093)]))
    vec("slot-ssh-rsa-other-key", 0, "key", "4.7", "",
        container("slot-ssh-rsa-other-key",
                  lambda r, fk: [unknown_slot(0x05, b"\x00" * 324),
                                 key_slot(r, fk)]))
    vec("slot-overruns-header", 4, "key", "3.2", "overruns the header",
        container("slot-overruns-header",
                  lambda r, fk: [key_slot(r, fk)[:1] + b"\x0f\xff"
                                 + key_slot(r, fk)[3:]]))
    # -- header length (3.2) -------------------------------------------
    vec("header-length-68", 4, "key", "3.2", "header length out of range",
        container("header-length-68", with_key, length=68))
    vec("header-length-4097", 4, "key", "3.2", "header length out of range",
        container("header-length-4097", with_key, length=4097))
    vec("header-length-4096", 0, "key", "3.2", "",
        container("header-length-4096",
                  lambda r, fk: [key_slot(r, fk),
                                 unknown_slot(0x70, b"\x00" * (4096 - 30 - 83 - 36 - 3))]))
    # -- chunk_log2 (3.2) ----------------------------------------------
    for log2, st in ((15, 4), (16, 0), (22, 0), (23, 4)):
        vec("chunk-log2-%d" % log2, st, "key", "3.2",
            "chunk size out of range" if st else "",
            container("chunk-log2-%d" % log2, with_key, log2=log2))
    # -- passphrase slots (4.1, 4.4, 7) --------------------------------
    vec("pass-one", 0, "pass", "4.1", "",
        container("pass-one", lambda r, fk: [pass_slot(r, fk)]))
    vec("pass-two-slots", 4, "pass", "4.4", "second passphrase slot",
        container("pass-two-slots",
                  lambda r, fk: [pass_slot(r, fk), pass_slot(r, fk)]))
    vec("pass-two-slots-key", 4, "key", "4.4", "second passphrase slot",
        container("pass-two-slots-key",
                  lambda r, fk: [key_slot(r, fk), pass_slot(r, fk),
                                 pass_slot(r, fk)]))
    # two slots of 1 GiB each: refused before any Argon2id runs (the
    # review test runs it under a 256 MiB address-space limit)
    vec("pass-two-slots-1gib", 4, "pass", "4.4", "second passphrase slot",
        container("pass-two-slots-1gib",
                  lambda r, fk: [bad_pass_slot(r, fk, (1 << 20, 1, 1)),
                                 bad_pass_slot(r, fk, (1 << 20, 1, 1))]))
    for tag, kdf in (("t0", (8, 0, 1)), ("p0", (8, 1, 0)),
                     ("m-under-8p", (15, 1, 2))):
        vec("pass-invalid-%s-then-key" % tag, 4, "key", "4.1",
            "key slot 0: invalid Argon2id parameters",
            container("pass-invalid-%s-then-key" % tag,
                      lambda r, fk, k=kdf: [bad_pass_slot(r, fk, k),
                                            key_slot(r, fk)]))
    vec("key-then-pass-invalid", 4, "key", "4.1",
        "key slot 1: invalid Argon2id parameters",
        container("key-then-pass-invalid",
                  lambda r, fk: [key_slot(r, fk),
                                 bad_pass_slot(r, fk, (8, 0, 1))]))
    vec("pass-t-11", 5, "pass", "7", "asks for Argon2id passes 11, over the limit of 10",
        container("pass-t-11", lambda r, fk: [bad_pass_slot(r, fk, (8, 11, 1))]))
    vec("pass-t-10", 3, "pass", "7", "wrong passphrase",
        container("pass-t-10", lambda r, fk: [bad_pass_slot(r, fk, (8, 10, 1))]))
    vec("pass-p-17", 5, "pass", "7", "asks for Argon2id lanes 17, over the limit of 16",
        container("pass-p-17", lambda r, fk: [bad_pass_slot(r, fk, (136, 1, 17))]))
    # malformed (4) comes before over the limit (5): section 10
    vec("pass-invalid-and-over", 4, "pass", "10",
        "invalid Argon2id parameters",
        container("pass-invalid-and-over",
                  lambda r, fk: [bad_pass_slot(r, fk, (8, 11, 1)),
                                 bad_pass_slot(r, fk, (8, 0, 1))]))
    # -- the lead (3.2) ------------------------------------------------
    vec("lead-version-2-only", 4, "key", "3.2", "unsupported format version 2",
        v1.MAGIC + b"\x02")
    vec("lead-magic-prefix", 4, "key", "3.2", "header is truncated",
        v1.MAGIC[:5])
    vec("lead-magic-only", 4, "key", "3.2", "header is truncated",
        v1.MAGIC)
    vec("lead-aes-crypt-4", 4, "key", "3.2", "AES Crypt file", b"AES\x02")
    vec("lead-aes-crypt-7", 4, "key", "3.2", "AES Crypt file", b"AES\x00abc")
    vec("lead-empty", 4, "key", "3.2", "input is empty", b"")
    vec("lead-bad-magic-short", 4, "key", "3.2", "bad magic", b"PK\x03")
    # -- records (6.1, 6.5) --------------------------------------------
    vec("record-flags-unknown", 4, "key", "6.1", "chunk 0 .*flag",
        container("record-flags-unknown", with_key, [(5, b"hello\n")]))
    vec("record-after-final", 4, "key", "6.5", "after the final chunk",
        container("record-after-final", with_key,
                  [(1, b"a"), (1, b"b")]))


def main():
    outdir = sys.argv[1]
    build()
    os.makedirs(outdir, exist_ok=True)
    rows = ["# name\texit\tsecret\tsection\tmessage (regex)"]
    for name, status, secret, section, regex, data in VECTORS:
        with open(os.path.join(outdir, name + ".aes"), "wb") as f:
            f.write(data)
        rows.append("\t".join([name, str(status), secret, section, regex]))
    with open(os.path.join(outdir, "MANIFEST"), "w") as f:
        f.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
