#!/usr/bin/env python3
"""aescrypt_v1.py -- a second, independent implementation of the aescrypt
container format v1, written from format/aescrypt-v1.md alone.

It shares no code with aescrypt: AES-256-GCM comes from OpenSSL (through
python3-cryptography), Argon2id from python3-argon2, and HKDF, HMAC,
CRC-32 and DEFLATE from Python's standard library; ML-KEM-768 and X-Wing
(4.8) from xwing.py beside it, written from FIPS 203 and the draft.  The interop tests
(tests/cli/040-interop.bats) decode aescrypt's files with it, and decode
its files with aescrypt; if the spec and the C code ever disagree, they
fail.

usage:
  aescrypt_v1.py decode [-k KEYFILE] [-p PASSFILE] [-i IDENTITY]...
                        [--max-kdf-kib N] [--salvage] IN OUT
  aescrypt_v1.py encode [-k KEYFILE] [-p PASSFILE] [-r RECIPIENT]...
                        [--chunk-log2 N] [--level N] [--kdf M,T,P]
                        [--no-copy] [--zstd] IN OUT
  aescrypt_v1.py trace -k KEYFILE IN      (the worked example's values)
  aescrypt_v1.py trace -i IDENTITY IN     (the recipient example's, 11.2)
  aescrypt_v1.py batch     (a command line a line, arguments separated
                            by tabs, on standard input; each one's
                            exit status a line on standard output)

Exit status follows the spec's error classes as aescrypt maps them:
0 ok, 3 wrong key, 4 corrupt/truncated/unsupported, 5 over a limit.
"""
import argparse
import base64
import hashlib
import hmac
import io
import os
import struct
import tarfile
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xwing  # noqa: E402

from cryptography.exceptions import InvalidSignature, InvalidTag
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ed25519, padding, rsa, x25519
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from argon2.low_level import Type, hash_secret_raw

MAGIC = b"\x89aesc\r\n\x1a"
# 4.5: the X25519 shares of low order (bit 7 of the last byte cleared)
LOW_ORDER = {bytes.fromhex(h) for h in (
    "00" * 32, "01" + "00" * 31,
    "e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800",
    "5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157",
    "ec" + "ff" * 30 + "7f", "ed" + "ff" * 30 + "7f", "ee" + "ff" * 30 + "7f")}
MAX_HEADER = 4096
MIN_HEADER = 69


class Fail(Exception):
    def __init__(self, status, msg):
        super().__init__(msg)
        self.status = status


class HeaderDamage(Fail):
    """A header that fails steps 1 to 4 (6.9: the copy may stand in for
    it; a bad magic only when the file ends with a copy)."""
    def __init__(self, msg):
        super().__init__(4, msg)


class HeaderUnauthentic(Fail):
    """A header whose slot opened but whose MAC failed (6.9: with
    salvage, the copy is tried with the same keys)."""
    def __init__(self, msg):
        super().__init__(4, msg)


def hkdf_extract(salt, ikm):
    """RFC 5869's extract with SHA-256; an empty salt is 32 zero bytes."""
    return hmac.new(salt or b"\0" * 32, ikm, hashlib.sha256).digest()


def hkdf_expand(prk, info, length):
    """RFC 5869's expand with SHA-256."""
    out, t, i = b"", b"", 1
    while len(out) < length:
        t = hmac.new(prk, t + info + bytes([i]), hashlib.sha256).digest()
        out += t
        i += 1
    return out[:length]


def hkdf(ikm, salt, info, length):
    """RFC 5869 with SHA-256."""
    return hkdf_expand(hkdf_extract(salt, ikm), info, length)


def mac(key, msg):
    return hmac.new(key, msg, hashlib.sha256).digest()


# ------------------------------------------------- recipients (4.5, 4.6)

B32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


def bech32_polymod(values):
    gen = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3]
    chk = 1
    for v in values:
        top = chk >> 25
        chk = (chk & 0x1ffffff) << 5 ^ v
        for i in range(5):
            chk ^= gen[i] if (top >> i) & 1 else 0
    return chk


def bech32_decode(s, want_hrp):
    """BIP-173, as age uses it (no length limit); returns the bytes."""
    if s.lower() != s and s.upper() != s:
        raise Fail(2, "mixed case in %r" % s)
    s = s.lower()
    sep = s.rfind("1")
    hrp, data = s[:sep], s[sep + 1:]
    if hrp != want_hrp or len(data) < 6:
        raise Fail(2, "not a %s key: %r" % (want_hrp, s))
    vals = [B32.index(c) for c in data]
    hx = [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp]
    if bech32_polymod(hx + vals) != 1:
        raise Fail(2, "bad Bech32 checksum in %r" % s)
    acc, bits, out = 0, 0, bytearray()
    for v in vals[:-6]:
        acc, bits = acc << 5 | v, bits + 5
        if bits >= 8:
            bits -= 8
            out.append((acc >> bits) & 255)
    return bytes(out)


def bech32_encode(hrp, data):
    vals, acc, bits = [], 0, 0
    for b in data:
        acc, bits = acc << 8 | b, bits + 8
        while bits >= 5:
            bits -= 5
            vals.append((acc >> bits) & 31)
    if bits:
        vals.append((acc << (5 - bits)) & 31)
    hx = [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp]
    chk = bech32_polymod(hx + vals + [0] * 6) ^ 1
    vals += [(chk >> 5 * (5 - i)) & 31 for i in range(6)]
    return hrp + "1" + "".join(B32[v] for v in vals)


P25519 = 2**255 - 19


def ed_to_x(A):
    """The Edwards-to-Montgomery map u = (1 + y) / (1 - y) mod p."""
    y = int.from_bytes(A, "little") & ((1 << 255) - 1)
    u = (1 + y) * pow(1 - y, P25519 - 2, P25519) % P25519
    return u.to_bytes(32, "little")


def x25519_dh(scalar, point):
    try:
        z = x25519.X25519PrivateKey.from_private_bytes(scalar).exchange(
            x25519.X25519PublicKey.from_public_bytes(point))
    except ValueError:          # OpenSSL refuses an all-zero result
        raise Fail(4, "a low-order point (all-zero shared secret)")
    if z == b"\0" * 32:       # OpenSSL may also refuse it itself
        raise Fail(4, "a low-order point (all-zero shared secret)")
    return z


def x25519_pub(scalar):
    return x25519.X25519PrivateKey.from_private_bytes(scalar).public_key() \
        .public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def ssh_blob(A):
    t = b"ssh-ed25519"
    return struct.pack(">I", len(t)) + t + struct.pack(">I", 32) + A


def mpint(v):
    """RFC 4251 mpint of a non-negative integer."""
    b = v.to_bytes((v.bit_length() + 8) // 8, "big") if v else b""
    return struct.pack(">I", len(b)) + b


def rsa_blob(pub):
    n = pub.public_numbers()
    t = b"ssh-rsa"
    return struct.pack(">I", len(t)) + t + mpint(n.e) + mpint(n.n)


RSA_LABEL = b"aescrypt-v1 ssh-rsa"


def rsa_oaep():
    return padding.OAEP(mgf=padding.MGF1(algorithm=hashes.SHA256()),
                        algorithm=hashes.SHA256(), label=RSA_LABEL)


def read_recipient(text):
    """age1... or an ssh-ed25519 line: (type, R, A, tag); an ssh-rsa
    line: (5, public key, blob, tag)."""
    text = text.strip()
    if text.lower().startswith("age1pq1"):
        pk = bech32_decode(text, "age1pq")
        if len(pk) != 1216:
            raise Fail(2, "a post-quantum key of the wrong length")
        return (6, pk, None, hashlib.sha256(pk).digest()[:4])
    if text.lower().startswith("age1"):
        return (3, bech32_decode(text, "age"), None, None)
    k = serialization.load_ssh_public_key(text.encode())
    if isinstance(k, rsa.RSAPublicKey):
        if k.key_size < 2048 or k.key_size > 8192:
            raise Fail(2, "RSA keys of 2048 to 8192 bits only")
        blob = rsa_blob(k)
        return (5, k, blob, hashlib.sha256(blob).digest()[:4])
    if not isinstance(k, ed25519.Ed25519PublicKey):
        raise Fail(2, "only ssh-ed25519 and ssh-rsa SSH keys")
    A = k.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return (4, ed_to_x(A), A, hashlib.sha256(ssh_blob(A)).digest()[:4])


def read_identities(path):
    """An age identity file or an unencrypted OpenSSH ed25519 key:
    [(type, scalar, R, A, tag)]; an ssh-rsa key: [(5, private key, None,
    blob, tag)]."""
    data = open(path, "rb").read()
    if b"-----BEGIN OPENSSH PRIVATE KEY-----" in data:
        k = serialization.load_ssh_private_key(data, None)
        if isinstance(k, rsa.RSAPrivateKey):
            blob = rsa_blob(k.public_key())
            return [(5, k, None, blob, hashlib.sha256(blob).digest()[:4])]
        seed = k.private_bytes(serialization.Encoding.Raw,
                               serialization.PrivateFormat.Raw,
                               serialization.NoEncryption())
        A = k.public_key().public_bytes(serialization.Encoding.Raw,
                                        serialization.PublicFormat.Raw)
        scalar = hashlib.sha512(seed).digest()[:32]
        return [(4, scalar, ed_to_x(A), A,
                 hashlib.sha256(ssh_blob(A)).digest()[:4])]
    out = []
    for line in data.decode().splitlines():
        line = line.strip()
        if line.upper().startswith("AGE-SECRET-KEY-PQ-1"):
            seed = bech32_decode(line, "age-secret-key-pq-")
            pk = xwing.expand(seed)[2]
            out.append((6, seed, pk, None, hashlib.sha256(pk).digest()[:4]))
        elif line and not line.startswith("#"):
            sk = bech32_decode(line, "age-secret-key-")
            out.append((3, sk, x25519_pub(sk), None, None))
    return out


def recipient_secret(typ, E, R, A, Z):
    if typ == 3:
        return hkdf(Z, E + R, b"aescrypt-v1 x25519", 32)
    return hkdf(Z, E + R + A, b"aescrypt-v1 ssh-ed25519", 32)


def read_keyfile(path):
    """Section 9."""
    data = open(path, "rb").read()
    if len(data) > 4096:
        raise Fail(3, "not a key file")
    keys = []
    lines = data.split(b"\n")
    for n, line in enumerate(lines):
        # CR LF ends a line; a CR with no LF after it is part of the line
        if n < len(lines) - 1 and line.endswith(b"\r"):
            line = line[:-1]
        if not line or line.startswith(b"#"):
            continue
        p = b"AESCRYPT-KEY-V1-"
        digits = line[len(p):]
        if (not line.startswith(p) or len(digits) != 64 or
                any(c not in b"0123456789abcdefABCDEF" for c in digits)):
            raise Fail(3, "not a key file")
        keys.append(bytes.fromhex(digits.decode()))
    if len(keys) != 1:
        raise Fail(3, "not a key file")
    return keys[0]


def read_passfile(path):
    """The first line, without its LF or CR LF (aescrypt's rule)."""
    line = open(path, "rb").read().split(b"\n")[0]
    return line[:-1] if line.endswith(b"\r") else line


def argon2id(pw, salt, m, t, p):
    return hash_secret_raw(pw, salt, time_cost=t, memory_cost=m,
                           parallelism=p, hash_len=32, type=Type.ID,
                           version=0x13)


def wrap_keys(S):
    okm = hkdf(S, b"", b"aescrypt-v1 wrap", 64)
    return okm[:32], okm[32:]


def xor(a, b):
    return bytes(x ^ y for x, y in zip(a, b))


# ---------------------------------------------------------------- decode

def parse_header(f):
    """Steps 1-5 of section 11.  Returns (raw, fields, slots)."""
    lead = f.read(11)
    if len(lead) == 0:
        raise Fail(4, "input is empty")
    # what the bytes present show comes before "truncated" (3.2, 10)
    if len(lead) >= 4 and lead[:3] == b"AES" and lead[3] <= 3:
        raise Fail(4, "this is an AES Crypt file")
    if lead[:8] != MAGIC[:len(lead[:8])]:
        raise Fail(4, "not an aescrypt container (bad magic)")
    if len(lead) > 8 and lead[8] != 1:
        raise HeaderDamage("unsupported format version %d" % lead[8])
    if len(lead) < 11:
        raise HeaderDamage("header is truncated")
    L = struct.unpack(">H", lead[9:11])[0]
    if not MIN_HEADER <= L <= MAX_HEADER:
        raise HeaderDamage("header length out of range")
    rest = f.read(L - 11)
    if len(rest) < L - 11:
        raise HeaderDamage("header is truncated")
    raw = lead + rest
    if struct.unpack(">I", raw[L - 36:L - 32])[0] != zlib.crc32(raw[:L - 36]):
        raise HeaderDamage("header checksum mismatch")
    # 3.2: the low four bits are the type; bits 4-6 the codec (6.4);
    # bit 7, a copy at the end (6.9)
    ptype, codec, copy = raw[11] & 0x0F, (raw[11] >> 4) & 7, raw[11] >> 7
    # 6.10: bit 3 of the type, a signed file
    signed, ptype = ptype & 0x08, ptype & 0x07
    log2, count = raw[12], raw[13]
    if ptype > 2:
        raise Fail(4, "unknown payload type %d" % ptype)
    if codec > 1:
        raise Fail(4, "unknown compression codec %d" % codec)
    if not 16 <= log2 <= (23 if codec == 1 else 22):
        raise Fail(4, "chunk size out of range")
    if not 1 <= count <= 16:
        raise Fail(4, "slot count out of range")
    slots, off, end = [], 30, L - 36
    for _ in range(count):
        if off + 3 > end:
            raise Fail(4, "slot overruns the header")
        typ = raw[off]
        blen = struct.unpack(">H", raw[off + 1:off + 3])[0]
        if off + 3 + blen > end:
            raise Fail(4, "slot overruns the header")
        if {1: 92, 2: 80, 3: 96, 4: 100, 6: 1188, 7: 34}.get(typ, blen) != blen:
            raise Fail(4, "slot has the wrong length")
        if typ == 5 and not 68 + 256 <= blen <= 68 + 1024:
            raise Fail(4, "slot has the wrong length")
        slots.append((typ, raw[off:off + 3 + blen]))
        off += 3 + blen
    if off != end:
        raise Fail(4, "slots do not fill the header")
    # the slots as a set (4.4), before any key is tried
    npass = 0
    for typ, slot in slots:
        if typ == 1:
            m, t, p = struct.unpack(">III", slot[3:15])
            if t < 1 or p < 1 or p > 2**24 - 1 or m < 8 * p:
                raise Fail(4, "invalid Argon2id parameters")
            npass += 1
            if npass > 1:
                raise Fail(4, "a second passphrase slot")
    # 4.5: a recipient slot's share of low order, with no secret
    for i, (typ, slot) in enumerate(slots):
        if typ in (3, 4, 6):
            # 4.8: the X25519 half of the X-Wing ciphertext
            E = bytearray(slot[3:35] if typ == 3 else slot[1095:1127]
                          if typ == 6 else slot[7:39])
            E[31] &= 0x7F
            if bytes(E) in LOW_ORDER:
                raise Fail(4, "key slot %d: its ephemeral key is of low order" % i)
    # 6.10: one signer slot exactly when the file says it is signed
    signers = [slot for typ, slot in slots if typ == 7]
    if len(signers) > 1:
        raise Fail(4, "a second signer slot")
    if signers and not signed:
        raise Fail(4, "a signer slot in a header that does not say it is signed")
    if signed and not signers:
        raise Fail(4, "a signed header without its signer slot")
    sig = None
    if signed:
        if signers[0][3] != 1:
            raise Fail(4, "a signing key of an unknown type")
        if signers[0][4] > 16:
            raise Fail(4, "a signature interval out of range")
        sig = dict(k=signers[0][4], pk=signers[0][5:37])
    if not any(typ in (1, 2, 3, 4, 5, 6) for typ, _ in slots):
        raise Fail(4, "no key slot of a known type")
    return raw, dict(L=L, ptype=ptype, codec=codec, copy=copy, log2=log2,
                     salt=raw[14:30], sig=sig), slots


def header_from_copy(f, first):
    """6.9: the header from its copy at the end of the file, in place of
    one that failed steps 1 to 4 past the magic (first, that failure).
    Leaves f at offset L, where the records start."""
    f.seek(0, os.SEEK_END)
    size = f.tell()
    n = min(size, MAX_HEADER + 2)
    f.seek(size - n)
    end = f.read(n)
    L = struct.unpack(">H", end[-2:])[0] if n >= 2 else 0
    if not MIN_HEADER <= L <= n - 2:
        raise Fail(4, "%s, and no copy of the header at the end" % first)
    try:
        got = parse_header(io.BytesIO(end[n - 2 - L:n - 2]))
    except Fail as e:
        raise Fail(4, "%s, and the copy at the end is no good: %s" % (first, e))
    if not got[1]["copy"] or got[1]["L"] != L:
        raise Fail(4, "%s, and no copy of the header at the end" % first)
    f.seek(L)
    return got


def unwrap(slot, S):
    pad, mk = wrap_keys(S)
    if not hmac.compare_digest(mac(mk, slot[:-32]), slot[-32:]):
        return None
    return xor(slot[-64:-32], pad)


def unlock(raw, slots, key, pw, max_m, ids=()):
    """Steps 6-7 of section 11."""
    fk, over = None, None
    for typ, slot in slots:
        if typ == 2 and key is not None:
            S = hkdf(key, slot[3:19], b"aescrypt-v1 key-file", 32)
            fk = unwrap(slot, S)
        for ityp, scalar, R, A, tag in ids:
            if fk or typ != ityp or typ not in (3, 4, 5, 6):
                continue
            if typ == 6:
                # 4.8: tag, X-Wing ciphertext, wrap; scalar is the seed
                if slot[3:7] != tag:
                    continue
                ss = xwing.decaps(scalar, slot[7:1127])
                fk = unwrap(slot, hkdf(ss, hashlib.sha256(R).digest(),
                                       b"aescrypt-v1 mlkem768x25519", 32))
                continue
            if typ == 5:
                # 4.7: tag, then C of the modulus length, then the wrap
                k = len(slot) - 3 - 68
                if slot[3:7] != tag or k != (scalar.key_size + 7) // 8:
                    continue
                try:
                    Z = scalar.decrypt(slot[7:7 + k], rsa_oaep())
                except ValueError:
                    continue
                if len(Z) != 32:
                    continue
                fk = unwrap(slot, hkdf(Z, A, RSA_LABEL, 32))
                continue
            if typ == 4 and slot[3:7] != tag:
                continue
            E = slot[3:35] if typ == 3 else slot[7:39]
            fk = unwrap(slot, recipient_secret(typ, E, R, A,
                                               x25519_dh(scalar, E)))
        if fk:
            break
    for typ, slot in slots:
        if fk or typ != 1 or pw is None:
            continue
        m, t, p = struct.unpack(">III", slot[3:15])
        if m > max_m or t > 10 or p > 16:
            over = (m, t, p)
            continue
        fk = unwrap(slot, argon2id(pw, slot[15:31], m, t, p))
    if fk is None:
        if over:
            raise Fail(5, "Argon2id cost over the limit: m=%d t=%d p=%d" % over)
        raise Fail(3, "wrong passphrase or key")
    L = len(raw)
    hk = hkdf(fk, b"", b"aescrypt-v1 header", 32)
    if not hmac.compare_digest(mac(hk, raw[:L - 32]), raw[L - 32:]):
        raise HeaderUnauthentic("header failed authentication")
    return fk


ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"


def unzstd(body, C):
    """6.4: exactly one zstd frame, no skippable frame, nothing after it,
    a window of at most C, inflating to at most C bytes; or None."""
    import zstandard
    if body[:4] != ZSTD_MAGIC:
        return None
    try:
        fp = zstandard.get_frame_parameters(body)
        if fp.window_size > C:
            return None
        d = zstandard.ZstdDecompressor().decompressobj()
        plain = d.decompress(body)
        if not d.eof or d.unused_data or len(plain) > C:
            return None
        return plain
    except zstandard.ZstdError:
        return None


class Chain:
    """6.10: the running SHA-256 of the header and of each record, the
    signature records at their places, and the plaintext held until a
    signature covers it."""

    def __init__(self, raw, sig, out, last_after_final=True):
        # (an archive with an index signs last after its footer)
        self.last_after_final = last_after_final
        self.T = hashlib.sha256(raw)
        self.N = 1 << sig["k"]
        self.pk = ed25519.Ed25519PublicKey.from_public_bytes(sig["pk"])
        self.j = 0
        self.out = out
        self.held = []

    def record(self, f, i, rec, final, plain, off, index=False):
        self.T.update(hashlib.sha256(rec).digest())
        if index:
            return 0        # (hashed; the index is no output, and unsigned between)
        self.held.append(plain)
        if final and not self.last_after_final:
            return 0
        if not final and (i + 1) % self.N:
            return 0
        return self.check(f, i, final, off)

    def footer(self, f, foot, off):
        self.T.update(hashlib.sha256(foot).digest())
        return self.check(f, -1, True, off)

    def check(self, f, i, final, off):
        s = f.read(69)
        if len(s) < 69:
            raise Fail(4, "%s at offset %d is not followed by its "
                       "signature: not signed past it" % (
                           "the footer" if i < 0 else "chunk %d" % i, off))
        if s[0] != (4 | (1 if final else 0)) or s[1:5] != struct.pack(">I", 64):
            raise Fail(4, "chunk %d is not followed by its signature record" % i)
        M = (b"aescrypt-v1 signature\0" + struct.pack(">Q", self.j)
             + bytes([1 if final else 0]) + self.T.copy().digest())

        def sstr(b):
            return struct.pack(">I", len(b)) + b
        tbs = (b"SSHSIG" + sstr(b"aescrypt") + sstr(b"") + sstr(b"sha512")
               + sstr(hashlib.sha512(M).digest()))
        try:
            self.pk.verify(s[5:], tbs)
        except InvalidSignature:
            if i < 0:
                raise Fail(4, "the file's last signature, after the "
                           "footer, does not verify")
            raise Fail(4, "chunk %d is followed by a signature that does "
                       "not verify" % i)
        self.j += 1
        for p in self.held:
            self.out.write(p)
        self.held = []
        return 69


def read_records(f, aead, C, off, out, what="chunk", codec=0, chain=None):
    """Records from off to the final one (6.5 steps 1-6); their
    plaintext goes to out (with a chain, once a signature covers it).
    Returns (count, end offset, lengths)."""
    i, lens = 0, []
    while True:
        frame = f.read(5)
        if len(frame) == 0:
            raise Fail(4, "%s %d at offset %d is missing: no final chunk" % (what, i, off))
        if len(frame) < 5:
            raise Fail(4, "%s %d at offset %d is truncated" % (what, i, off))
        flags, n = frame[0], struct.unpack(">I", frame[1:])[0]
        if flags & 0xFC:
            raise Fail(4, "%s %d at offset %d has unknown flag bits" % (what, i, off))
        if n > C:
            raise Fail(4, "%s %d at offset %d has a length over the chunk size" % (what, i, off))
        body = f.read(n + 16)
        if len(body) < n + 16:
            raise Fail(4, "%s %d at offset %d is truncated" % (what, i, off))
        final = flags & 1
        nonce = i.to_bytes(11, "big") + bytes([final])
        try:
            pt = aead.decrypt(nonce, body, frame)
        except InvalidTag:
            raise Fail(4, "%s %d at offset %d failed authentication" % (what, i, off))
        if flags & 2 and codec == 1:
            plain = unzstd(pt, C)
            if plain is None:
                raise Fail(4, "%s %d: bad or oversized zstd data" % (what, i))
        elif flags & 2:
            d = zlib.decompressobj(-15)
            try:
                plain = d.decompress(pt, C)
            except zlib.error:
                raise Fail(4, "%s %d: bad DEFLATE data" % (what, i))
            if d.unconsumed_tail or not d.eof or d.unused_data:
                raise Fail(4, "%s %d: bad or oversized DEFLATE data" % (what, i))
        else:
            plain = pt
        if not final and len(plain) != C:
            raise Fail(4, "%s %d: short chunk before the final one" % (what, i))
        if final and len(plain) == 0 and i != 0:
            raise Fail(4, "%s %d: empty final chunk" % (what, i))
        index = what != "chunk"
        if chain is None or index:
            out.write(plain)
        lens.append(5 + n + 16)
        off += 5 + n + 16
        if chain is not None:
            off += chain.record(f, i, frame + body, final, plain, off, index)
        i += 1
        if final:
            return i, off, lens


FOOTER_NONCE = bytes(11) + b"\x02"


def parse_index(b, L, C, index_offset, records, gaps=0):
    """The index's bytes (6.8), with every check; returns (lengths,
    tar_end, members) where members are dicts."""
    def need(cond, what):
        if not cond:
            raise Fail(4, "the index " + what)
    need(len(b) >= 25 and b[0] == 1, "has a bad head or version")
    R, tar_end, M = struct.unpack(">QQQ", b[1:25])
    need(R == records, "counts other records than the footer")
    need(len(b) >= 25 + 4 * R, "is too short for its record lengths")
    lens = [struct.unpack(">I", b[25 + 4 * i:29 + 4 * i])[0] for i in range(R)]
    need(all(21 <= n <= C + 21 for n in lens), "has a bad record length")
    # (gaps: a signed file's signature records between them, 6.10)
    need(L + sum(lens) + gaps == index_offset, "has records that do not end at the index")
    need(tar_end <= R * C, "puts the tar end past the payload")
    need(tar_end % 512 == 0, "puts the tar end inside a block")
    need(M > 0 or tar_end == 0, "does not start at the tar stream's first member")
    pos, members = 25 + 4 * R, []
    for _ in range(M):
        need(len(b) - pos >= 49, "ends inside a member")
        first, typ, mode, uid, gid, size, mtime, nsec = struct.unpack(
            ">QBIQQQqI", b[pos:pos + 49])
        pos += 49
        need(nsec < 10**9 and mode <= 0o7777, "has a bad time or mode")
        need(first % 512 == 0 and first + 512 <= tar_end, "has a member outside the tar stream")
        need(not members or first >= members[-1]["first"] + 512, "has members out of order")
        need(members or first == 0, "does not start at the tar stream's first member")
        names = []
        for width, cap, least in ((2, 65535, 1), (2, 65535, 0), (1, 255, 0), (1, 255, 0)):
            need(len(b) - pos >= width, "ends inside a member")
            n = int.from_bytes(b[pos:pos + width], "big")
            pos += width
            need(least <= n <= cap and len(b) - pos >= n, "has a name of a bad length")
            need(b"\0" not in b[pos:pos + n], "has a NUL in a name")
            names.append(b[pos:pos + n].decode("utf-8", "surrogateescape"))
            pos += n
        members.append(dict(first=first, type=chr(typ), mode=mode, uid=uid,
                            gid=gid, size=size, mtime=mtime, nsec=nsec,
                            name=names[0], link=names[1], uname=names[2],
                            gname=names[3]))
    need(pos == len(b), "has bytes after its last member")
    return lens, tar_end, members


def decode(f, out, key, pw, max_m, ids=(), want_index=None, salvage=False,
           signer=None):
    """The whole file to out.  Returns whether the header came from its
    copy (with salvage): the file is then damaged, though out is whole."""
    try:
        raw, h, slots = parse_header(f)
        used_copy = False
    except HeaderDamage as e:
        if not salvage:
            raise
        raw, h, slots = header_from_copy(f, e)
        used_copy = True
    except Fail as e:
        # a bad magic: damage only if the file ends with a copy
        if not salvage or "bad magic" not in str(e):
            raise
        raw, h, slots = header_from_copy(f, e)
        used_copy = True
    if signer is not None:
        # who may sign, from the header, before any key is tried
        if h["sig"] is None:
            raise Fail(7, "the file is not signed")
        if h["sig"]["pk"] != signer:
            raise Fail(7, "signed by a key the signer file does not name")
    if h["sig"] is not None and salvage:
        raise Fail(4, "--salvage does not read signed files")
    try:
        fk = unlock(raw, slots, key, pw, max_m, ids)
    except HeaderUnauthentic as e:
        # the copy, with the same keys, used only if it authenticates
        if not salvage or used_copy:
            raise
        raw, h, slots = header_from_copy(f, e)
        used_copy = True
        fk = unlock(raw, slots, key, pw, max_m, ids)
    aead = AESGCM(hkdf(fk, h["salt"], b"aescrypt-v1 payload", 32))
    C = 1 << h["log2"]
    chain = (Chain(raw, h["sig"], out, h["ptype"] != 2)
             if h["sig"] is not None else None)
    R, off, lens = read_records(f, aead, C, h["L"], out, codec=h["codec"],
                                chain=chain)
    if h["ptype"] == 2:
        # 6.8: the index's records, then the footer, then the end
        iaead = AESGCM(hkdf(fk, h["salt"], b"aescrypt-v1 index", 32))
        ib = io.BytesIO()
        index_offset = off
        _, off, _ = read_records(f, iaead, C, off, ib, "index record",
                                 h["codec"], chain)
        foot = f.read(32)
        if len(foot) < 32:
            raise Fail(4, "the footer is missing or cut short (at offset %d)" % off)
        try:
            iaead.decrypt(FOOTER_NONCE, foot[16:], foot[:16])
        except InvalidTag:
            raise Fail(4, "the footer failed authentication")
        said_off, said_R = struct.unpack(">QQ", foot[:16])
        if said_off != index_offset or said_R != R:
            raise Fail(4, "the footer does not match the payload")
        off += 32
        gaps = 0
        if chain is not None:
            off += chain.footer(f, foot, off)
            gaps = (R - 1) // chain.N * 69
        ilens, tar_end, members = parse_index(ib.getvalue(), h["L"], C,
                                              index_offset, R, gaps)
        if ilens != lens:
            raise Fail(4, "the index's record lengths are not the records'")
        if want_index is not None:
            want_index.extend([tar_end, members])
    if h["copy"]:
        # 6.9: the header again and its length, then the end
        tail = f.read(h["L"] + 2)
        if len(tail) < h["L"] + 2:
            raise Fail(4, "the copy of the header at the end is truncated")
        if tail != raw + struct.pack(">H", h["L"]):
            raise Fail(4, "the copy of the header at the end of the file differs from the header")
        off += h["L"] + 2
        if f.read(1):
            raise Fail(4, "data after the copy of the header (at offset %d)" % off)
    elif f.read(1):
        raise Fail(4, "data after the %s (at offset %d)" % (
            "footer" if h["ptype"] == 2 else "final chunk", off))
    return used_copy


def check_index(path, key, pw, max_m, ids=()):
    """Decode an archive with an index, and check the index against the
    tar stream itself: the same members, in order, each starting where
    the index says, with its name, type, size, mode, owner and time."""
    got, plain = [], io.BytesIO()
    with open(path, "rb") as f:
        decode(f, plain, key, pw, max_m, ids, got)
    if not got:
        raise Fail(4, "no index (payload type 2 expected)")
    tar_end, members = got
    data = plain.getvalue()
    tf = tarfile.open(fileobj=io.BytesIO(data), mode="r:")
    seen = tf.getmembers()
    if len(seen) != len(members):
        raise Fail(4, "the index has %d members, the tar stream %d" % (len(members), len(seen)))
    def kind(t):
        """The type as 6.8 has it: the typeflag, NUL and old GNU sparse
        'S' as '0', a dumpdir 'D' as '5', and a '0', '7' or NUL member
        whose name ends in '/' as '5' (tarfile has made a NUL one with a
        '/' a directory already, and taken the '/' off its name)."""
        c = {b"\0": "0", b"S": "0", b"D": "5"}.get(t.type, t.type.decode("latin-1"))
        if c in "07" and t.name.endswith("/"):
            c = "5"
        return c

    for i, (m, t) in enumerate(zip(members, seen)):
        name = t.name + ("/" if t.isdir() and not t.name.endswith("/") else "")
        size = t.size if not t.issparse() else t.size
        # 6.8: the first member's headers start at 0, a global 'g'
        # header before it (6.7: the archive's own) included; tarfile
        # gives the offset after the 'g' header
        start = 0 if i == 0 else t.offset
        ok = (m["first"] == start and m["name"].rstrip("/") == t.name.rstrip("/")
              and m["type"] == kind(t)
              and m["mode"] == t.mode and m["uid"] == t.uid and m["gid"] == t.gid
              and m["uname"] == t.uname and m["gname"] == t.gname
              and m["link"] == t.linkname and int(m["mtime"]) == int(t.mtime)
              and (m["size"] == size or not t.isreg())
              and (m["size"] == (t.devmajor << 32 | t.devminor)
                   or not (t.ischr() or t.isblk())))
        if not ok:
            raise Fail(4, "index entry %r differs from the tar member %r at %d" % (m, name, t.offset))
    # the end of the last member: where the end-of-archive blocks start
    if data[tar_end:tar_end + 1024] != bytes(1024):
        raise Fail(4, "tar_end %d is not where the end blocks start" % tar_end)
    print("index: %d members, %d bytes of tar, all as the tar stream says" % (len(members), tar_end))


# ---------------------------------------------------------------- encode

def make_slot(typ, body_wo_wrap, S, fk):
    pad, mk = wrap_keys(S)
    blen = len(body_wo_wrap) + 64
    head = bytes([typ]) + struct.pack(">H", blen) + body_wo_wrap + xor(fk, pad)
    return head + mac(mk, head)


def encode(f, out, key, pw, log2, level, kdf, rcpts=(), copy=True,
           codec=0):
    fk, salt = os.urandom(32), os.urandom(16)
    slots = []
    for typ, R, A, tag in rcpts:
        if typ == 6:
            ct, ss = xwing.encaps(R, os.urandom(64))
            S = hkdf(ss, hashlib.sha256(R).digest(),
                     b"aescrypt-v1 mlkem768x25519", 32)
            slots.append(make_slot(6, tag + ct, S, fk))
            continue
        if typ == 5:
            Z = os.urandom(32)
            C = R.encrypt(Z, rsa_oaep())
            slots.append(make_slot(5, tag + C, hkdf(Z, A, RSA_LABEL, 32), fk))
            continue
        e = os.urandom(32)
        E = x25519_pub(e)
        S = recipient_secret(typ, E, R, A, x25519_dh(e, R))
        slots.append(make_slot(typ, E if typ == 3 else tag + E, S, fk))
    if key is not None:
        s = os.urandom(16)
        slots.append(make_slot(2, s, hkdf(key, s, b"aescrypt-v1 key-file", 32), fk))
    if pw is not None:
        m, t, p = kdf
        s = os.urandom(16)
        slots.append(make_slot(1, struct.pack(">III", m, t, p) + s,
                               argon2id(pw, s, m, t, p), fk))
    L = 30 + sum(len(s) for s in slots) + 36
    raw = (MAGIC + bytes([1]) + struct.pack(">H", L)
           + bytes([(0x80 if copy else 0) | codec << 4, log2, len(slots)])
           + salt + b"".join(slots))
    raw += struct.pack(">I", zlib.crc32(raw))
    raw += mac(hkdf(fk, b"", b"aescrypt-v1 header", 32), raw)
    out.write(raw)
    aead = AESGCM(hkdf(fk, salt, b"aescrypt-v1 payload", 32))
    C, i = 1 << log2, 0
    cur = f.read(C)
    while True:
        nxt = f.read(C) if len(cur) == C else b""
        final = 1 if not nxt else 0
        body, flags = cur, final
        if level > 0 and cur and codec == 1:
            import zstandard
            z = zstandard.ZstdCompressor(level=level).compress(cur)
            if len(z) < len(cur):
                body, flags = z, final | 2
        elif level > 0 and cur:
            c = zlib.compressobj(level, zlib.DEFLATED, -15)
            z = c.compress(cur) + c.flush()
            if len(z) < len(cur):
                body, flags = z, final | 2
        frame = bytes([flags]) + struct.pack(">I", len(body))
        nonce = i.to_bytes(11, "big") + bytes([final])
        out.write(frame + aead.encrypt(nonce, body, frame))
        if final:
            break
        cur, i = nxt, i + 1
    if copy:
        out.write(raw + struct.pack(">H", L))


def trace(path, keyfile):
    """Print the worked example's values (section 12.1)."""
    key = read_keyfile(keyfile)
    data = open(path, "rb").read()
    L = struct.unpack(">H", data[9:11])[0]
    slot = data[30:30 + 83]
    S = hkdf(key, slot[3:19], b"aescrypt-v1 key-file", 32)
    pad, mk = wrap_keys(S)
    fk = xor(slot[19:51], pad)
    vals = dict(K=key, prefix=data[:30], payload_salt=data[14:30],
                salt=slot[3:19], wrapped=slot[19:51], wrapmac=slot[51:83],
                crc=data[L - 36:L - 32], hmac=data[L - 32:L], S=S, pad=pad,
                mackey=mk, FK=fk, HK=hkdf(fk, b"", b"aescrypt-v1 header", 32),
                PK=hkdf(fk, data[14:30], b"aescrypt-v1 payload", 32),
                record=data[L:])
    for k, v in vals.items():
        print("%-12s %s" % (k, v.hex()))


def trace_recipient(path, idfile):
    """Print the recipient example's values (section 11.2): the file's
    first slot, type 3, opened with the identity file."""
    typ, scalar, R, _, _ = read_identities(idfile)[0]
    data = open(path, "rb").read()
    L = struct.unpack(">H", data[9:11])[0]
    slot = data[30:30 + 99]
    E = slot[3:35]
    Z = x25519_dh(scalar, E)
    S = recipient_secret(3, E, R, None, Z)
    pad, mk = wrap_keys(S)
    fk = xor(slot[35:67], pad)
    vals = dict(identity=scalar, R=R, prefix=data[:30], slot_head=slot[:3],
                E=E, wrapped=slot[35:67], wrapmac=slot[67:99],
                crc=data[L - 36:L - 32], hmac=data[L - 32:L], Z=Z, S=S,
                pad=pad, mackey=mk, FK=fk,
                PK=hkdf(fk, data[14:30], b"aescrypt-v1 payload", 32),
                record=data[L:])
    for k, v in vals.items():
        print("%-12s %s" % (k, v.hex()))


def trace_index(path, keyfile):
    """Print the index worked example's values (section 11.3)."""
    key = read_keyfile(keyfile)
    with open(path, "rb") as f:
        raw, h, slots = parse_header(f)
        fk = unlock(raw, slots, key, None, 1 << 21)
        C = 1 << h["log2"]
        aead = AESGCM(hkdf(fk, h["salt"], b"aescrypt-v1 payload", 32))
        R, off, lens = read_records(f, aead, C, h["L"], io.BytesIO())
        ikey = hkdf(fk, h["salt"], b"aescrypt-v1 index", 32)
        ib = io.BytesIO()
        _, end, ilens = read_records(f, AESGCM(ikey), C, off, ib, "index record")
        foot = f.read(32)
    b = ib.getvalue()
    print("index_key", ikey.hex())
    print("payload_records", R)
    for i, n in enumerate(lens):
        print("record_length_%d" % i, n)
    print("index_offset", off)
    print("index_record_0_length", ilens[0])
    print("index_bytes", len(b))
    print("index_head", b[:25].hex())
    pos = 25 + 4 * R
    _, tar_end, members = parse_index(b, h["L"], C, off, R)
    for i, m in enumerate(members):
        n = 49 + 2 + len(m["name"]) + 2 + len(m["link"]) + 1 + \
            len(m["uname"]) + 1 + len(m["gname"])
        print("member_%d_entry" % i, b[pos:pos + n].hex())
        pos += n
    print("footer_fields", foot[:16].hex())
    print("footer_tag", foot[16:].hex())


def batch():
    """One run of the implementation for many jobs (the tests start a
    process each no more: a start costs more than most jobs): each line
    of standard input is one command line, its arguments separated by
    tabs; each job's exit status is printed on a line of its own, in
    order, once the job is done."""
    for line in sys.stdin:
        line = line.rstrip("\n")
        if not line:
            continue
        try:
            st = main(line.split("\t"))
        except SystemExit as e:     # argparse's refusal of a job
            st = e.code if isinstance(e.code, int) else 2
        print(st, flush=True)
    return 0


def main(argv=None):
    if argv is None and sys.argv[1:2] == ["batch"]:
        return batch()
    ap = argparse.ArgumentParser()
    ap.add_argument("cmd", choices=["decode", "encode", "trace", "index",
                                    "trace-index"])
    ap.add_argument("-k", "--key-file")
    ap.add_argument("-p", "--passphrase-file")
    ap.add_argument("-i", "--identity", action="append", default=[])
    ap.add_argument("-r", "--recipient", action="append", default=[])
    ap.add_argument("--max-kdf-kib", type=int, default=2 * 1024 * 1024)
    ap.add_argument("--chunk-log2", type=int, default=18)
    ap.add_argument("--level", type=int, default=6)
    ap.add_argument("--kdf", default="8192,1,1")
    ap.add_argument("--no-copy", action="store_true",
                    help="encode: no copy of the header at the end (6.9)")
    ap.add_argument("--zstd", action="store_true",
                    help="encode: the zstd codec (6.4), at zstd's --level")
    ap.add_argument("--salvage", action="store_true",
                    help="decode: a damaged header's copy stands in (6.9)")
    ap.add_argument("--signer",
                    help="decode: fail (7) unless signed by this .pub's key (6.10)")
    ap.add_argument("input")
    ap.add_argument("output", nargs="?")
    a = ap.parse_args(argv)
    try:
        if a.cmd == "trace" and a.identity:
            trace_recipient(a.input, a.identity[0])
            return 0
        if a.cmd == "trace":
            trace(a.input, a.key_file)
            return 0
        if a.cmd == "trace-index":
            trace_index(a.input, a.key_file)
            return 0
        key = read_keyfile(a.key_file) if a.key_file else None
        pw = read_passfile(a.passphrase_file) if a.passphrase_file else None
        if a.cmd == "index":
            ids = [i for p in a.identity for i in read_identities(p)]
            check_index(a.input, key, pw, a.max_kdf_kib, ids)
            return 0
        with open(a.input, "rb") as f, open(a.output, "wb") as out:
            if a.cmd == "decode":
                ids = [i for p in a.identity for i in read_identities(p)]
                signer = None
                if a.signer:
                    blob = base64.b64decode(open(a.signer).read().split()[1])
                    signer = blob[-32:]
                if decode(f, out, key, pw, a.max_kdf_kib, ids,
                          salvage=a.salvage, signer=signer):
                    print("aescrypt_v1.py: error: the header at the start "
                          "of the file is damaged; its copy at the end "
                          "was used", file=sys.stderr)
                    return 4
            else:
                encode(f, out, key, pw, a.chunk_log2, a.level,
                       tuple(int(x) for x in a.kdf.split(",")),
                       [read_recipient(r) for r in a.recipient],
                       not a.no_copy, 1 if a.zstd else 0)
    except Fail as e:
        if a.output:
            os.unlink(a.output)
        print("aescrypt_v1.py: error: %s" % e, file=sys.stderr)
        return e.status
    return 0


if __name__ == "__main__":
    sys.exit(main())
