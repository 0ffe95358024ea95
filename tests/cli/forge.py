#!/usr/bin/env python3
"""forge.py -- what a second recipient can do to a signed file (format
format/aescrypt-v1.md 6.10): it holds the file key, so it can re-seal
any record, the header MAC and every tag.  Each forgery below keeps
every tag and the header MAC valid, so only the signatures can catch
it.  Written from 6.10 alone, so its chain and SSHSIG data are a
second reading of the spec: "sign" makes a file signed by another key
that aescrypt must accept as that key's.

    forge.py KEYFILE IN OUT what [args]

what:
  record I        record I's plaintext changed by one byte, re-sealed
  reseal          every record's plaintext changed, each re-sealed
  rewrap KEYFILE2 the file key wrapped to KEYFILE2 instead (header MAC
                  redone): forwarding the file to another recipient
  strip           the signatures removed: bit 3, the signer slot and
                  every signature record gone, CRC and MAC redone
  sign SEEDHEX    the signer slot's key replaced by SEEDHEX's, MAC
                  redone, and every signature made again by that key
  drop J          signature record J left out
  swap I          records I and I+1 swapped with their nonces redone
                  (each re-sealed at its new place)
  index I         (an archive with an index) index record I's plaintext
                  changed by one byte, re-sealed with the index key
  footer N        (the same) the footer sealed anew, saying N payload
                  records
  header          a MAC-covered header field changed: a new
                  payload_salt, so new payload and index keys, every
                  record, index record and the footer sealed again
                  under them byte for byte, and the MAC redone
"""
import hashlib
import os
import struct
import sys
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "interop"))
import aescrypt_v1 as v1  # noqa: E402
from cryptography.hazmat.primitives.asymmetric import ed25519  # noqa: E402
from cryptography.hazmat.primitives.ciphers.aead import AESGCM  # noqa: E402
from cryptography.hazmat.primitives import serialization  # noqa: E402

SIG_FLAG = 0x04


def sshstr(b):
    return struct.pack(">I", len(b)) + b


def parse(data):
    """The header, the records (frame+ct+tag), the signature records
    and the tail (the header's copy), by 6.10's positions."""
    L = struct.unpack(">H", data[9:11])[0]
    raw = data[:L]
    ptype = raw[11]
    assert ptype & 0x08, "not a signed file"
    log2 = raw[12]
    off, slots = 30, []
    for _ in range(raw[13]):
        typ, blen = raw[off], struct.unpack(">H", raw[off + 1:off + 3])[0]
        slots.append((typ, off, raw[off:off + 3 + blen]))
        off += 3 + blen
    signer = [s for s in slots if s[0] == 7][0]
    k = signer[2][4]
    N = 1 << k
    indexed = (ptype & 0x07) == 2

    def records(at, sigs_too):
        out, i = [], 0
        while True:
            n = struct.unpack(">I", data[at + 1:at + 5])[0]
            rec = data[at:at + 5 + n + 16]
            out.append(rec)
            at += len(rec)
            final = rec[0] & 1
            if sigs_too and (final and not indexed or not final and (i + 1) % N == 0):
                sigs.append((i, data[at:at + 69]))
                at += 69
            i += 1
            if final:
                return out, at
    sigs = []
    recs, at = records(L, True)
    irecs, footer, last = [], None, None
    if indexed:
        irecs, at = records(at, False)
        footer = data[at:at + 32]
        last = data[at + 32:at + 101]
        at += 101
    return dict(raw=raw, L=L, log2=log2, k=k, slots=slots, signer=signer,
                recs=recs, sigs=sigs, irecs=irecs, footer=footer, last=last,
                indexed=indexed, tail=data[at:])


def keys(f, keyfile):
    """The file key from the key-file slot (the interop implementation's
    unlock; its header parser rightly refuses type 8 and up)."""
    raw = f["raw"]
    slots = [(typ, slot) for typ, _, slot in f["slots"]]
    fk = v1.unlock(raw, slots, v1.read_keyfile(keyfile), None, 1 << 30)
    return (fk, AESGCM(v1.hkdf(fk, raw[14:30], b"aescrypt-v1 payload", 32)),
            AESGCM(v1.hkdf(fk, raw[14:30], b"aescrypt-v1 index", 32)))


def open_rec(aead, i, rec):
    final = rec[0] & 1
    nonce = i.to_bytes(11, "big") + bytes([final])
    body = aead.decrypt(nonce, rec[5:], rec[:5])
    if rec[0] & 2:
        d = zlib.decompressobj(-15)
        body = d.decompress(body)
    return body


def seal_rec(aead, i, final, plain):
    frame = bytes([1 if final else 0]) + struct.pack(">I", len(plain))
    nonce = i.to_bytes(11, "big") + bytes([final])
    return frame + aead.encrypt(nonce, plain, frame)


def reseal_raw(old, new, nonce, rec, head):
    """rec (head || ciphertext || tag) sealed again under new: the same
    plaintext bytes, compressed or not, so every length and offset in
    the file stays as it was."""
    return rec[:head] + new.encrypt(nonce, old.decrypt(nonce, rec[head:],
                                                       rec[:head]), rec[:head])


def rec_nonce(i, rec):
    return i.to_bytes(11, "big") + bytes([rec[0] & 1])


def redo_mac(raw, fk):
    raw = bytearray(raw)
    L = len(raw)
    raw[L - 36:L - 32] = struct.pack(">I", zlib.crc32(bytes(raw[:L - 36])))
    hk = v1.hkdf(fk, b"", b"aescrypt-v1 header", 32)
    raw[L - 32:] = v1.mac(hk, bytes(raw[:L - 32]))
    return bytes(raw)


def sign_all(f, seed):
    """Every signature made again, as 6.10 says, by seed's key."""
    key = ed25519.Ed25519PrivateKey.from_private_bytes(seed)
    T = hashlib.sha256(f["raw"])
    out, j = [], 0
    last_i = len(f["recs"]) - 1
    N = 1 << f["k"]

    def signature(last):
        M = (b"aescrypt-v1 signature" + b"\0" + struct.pack(">Q", j)
             + bytes([1 if last else 0]) + T.copy().digest())
        tbs = (b"SSHSIG" + sshstr(b"aescrypt") + sshstr(b"")
               + sshstr(b"sha512") + sshstr(hashlib.sha512(M).digest()))
        return (bytes([SIG_FLAG | (1 if last else 0)])
                + struct.pack(">I", 64) + key.sign(tbs))
    for i, rec in enumerate(f["recs"]):
        out.append(rec)
        T.update(hashlib.sha256(rec).digest())
        final = i == last_i
        if (final and not f["indexed"]) or (not final and (i + 1) % N == 0):
            out.append(signature(final))
            j += 1
    if f["indexed"]:
        for rec in f["irecs"]:
            out.append(rec)
            T.update(hashlib.sha256(rec).digest())
        out.append(f["footer"])
        T.update(hashlib.sha256(f["footer"]).digest())
        out.append(signature(True))
    return b"".join(out)


def assemble(f, recs=None, sigs=None, raw=None, irecs=None, footer=None,
             last=True):
    raw = raw or f["raw"]
    recs = recs if recs is not None else f["recs"]
    sigs = dict(sigs if sigs is not None else f["sigs"])
    out = [raw]
    for i, rec in enumerate(recs):
        out.append(rec)
        if i in sigs:
            out.append(sigs[i])
    if f["indexed"]:
        out.extend(irecs if irecs is not None else f["irecs"])
        out.append(footer or f["footer"])
        if last:
            out.append(f["last"])
    # the copy of the header: the header as it now starts the file
    tail = raw + struct.pack(">H", len(raw)) if f["tail"] else b""
    return b"".join(out) + tail


def main():
    keyfile, src, dst, what = sys.argv[1:5]
    args = sys.argv[5:]
    data = open(src, "rb").read()
    f = parse(data)
    fk, aead, iaead = keys(f, keyfile)
    last = len(f["recs"]) - 1
    if what == "record":
        i = int(args[0])
        plain = bytearray(open_rec(aead, i, f["recs"][i]))
        plain[len(plain) // 2] ^= 0x01
        recs = list(f["recs"])
        recs[i] = seal_rec(aead, i, i == last, bytes(plain))
        out = assemble(f, recs)
    elif what == "index":
        i = int(args[0])
        irecs = list(f["irecs"])
        plain = bytearray(open_rec(iaead, i, irecs[i]))
        plain[-1] ^= 0x01
        irecs[i] = seal_rec(iaead, i, i == len(irecs) - 1, bytes(plain))
        out = assemble(f, irecs=irecs)
    elif what == "footer":
        said = struct.unpack(">Q", f["footer"][:8])[0]
        head = struct.pack(">QQ", said, int(args[0]))
        footer = head + iaead.encrypt(bytes(11) + b"\x02", b"", head)
        out = assemble(f, footer=footer)
    elif what == "reseal":
        recs = []
        for i, rec in enumerate(f["recs"]):
            plain = bytearray(open_rec(aead, i, rec))
            if plain:
                plain[0] ^= 0x01
            recs.append(seal_rec(aead, i, i == last, bytes(plain)))
        out = assemble(f, recs)
    elif what == "swap":
        i = int(args[0])
        a, b = open_rec(aead, i, f["recs"][i]), open_rec(aead, i + 1, f["recs"][i + 1])
        recs = list(f["recs"])
        recs[i] = seal_rec(aead, i, i == last, b)
        recs[i + 1] = seal_rec(aead, i + 1, i + 1 == last, a)
        out = assemble(f, recs)
    elif what == "drop":
        j = int(args[0])
        sigs = [s for n, s in enumerate(f["sigs"]) if n != j]
        out = assemble(f, sigs=sigs)
    elif what == "rewrap":
        # the key-file slot's wrap made for another key file (4.2, 4.3)
        key2 = v1.read_keyfile(args[0])
        raw = bytearray(f["raw"])
        for typ, off, slot in f["slots"]:
            if typ == 2:
                salt = os.urandom(16)
                S = v1.hkdf(key2, salt, b"aescrypt-v1 key-file", 32)
                pad_key, mac_key = v1.wrap_keys(S)
                enc = v1.xor(fk, pad_key)
                raw[off + 3:off + 19] = salt
                raw[off + 19:off + 51] = enc
                raw[off + 51:off + 83] = v1.mac(mac_key, bytes(raw[off:off + 51]))
        out = assemble(f, raw=redo_mac(bytes(raw), fk))
    elif what == "strip":
        raw = bytearray(f["raw"])
        _, off, slot = f["signer"]
        del raw[off:off + len(slot)]
        raw[9:11] = struct.pack(">H", len(raw))
        raw[11] &= ~0x08 & 0xFF
        raw[13] -= 1
        raw = redo_mac(bytes(raw), fk)
        g = dict(f, raw=raw)
        footer = None
        if f["indexed"]:
            # the index starts where it did, less the signatures gone
            said, R = struct.unpack(">QQ", f["footer"][:16])
            head = struct.pack(">QQ", said - 69 * len(f["sigs"])
                               - (len(f["raw"]) - len(raw)), R)
            footer = head + iaead.encrypt(bytes(11) + b"\x02", b"", head)
        out = assemble(g, sigs=[], footer=footer, last=False)
    elif what == "sign":
        seed = bytes.fromhex(args[0])
        pk = ed25519.Ed25519PrivateKey.from_private_bytes(seed).public_key()
        pub = pk.public_bytes(serialization.Encoding.Raw,
                              serialization.PublicFormat.Raw)
        raw = bytearray(f["raw"])
        _, off, slot = f["signer"]
        raw[off + 5:off + 37] = pub
        raw = redo_mac(bytes(raw), fk)
        g = dict(f, raw=raw)
        body = sign_all(g, seed)
        tail = raw + struct.pack(">H", len(raw)) if f["tail"] else b""
        out = raw + body + tail
    elif what == "header":
        raw = bytearray(f["raw"])
        raw[14:30] = os.urandom(16)
        raw = redo_mac(bytes(raw), fk)
        g = dict(f, raw=raw)
        _, aead2, iaead2 = keys(g, keyfile)
        recs = [reseal_raw(aead, aead2, rec_nonce(i, r), r, 5)
                for i, r in enumerate(f["recs"])]
        irecs = [reseal_raw(iaead, iaead2, rec_nonce(i, r), r, 5)
                 for i, r in enumerate(f["irecs"])]
        footer = None
        if f["indexed"]:
            footer = reseal_raw(iaead, iaead2, bytes(11) + b"\x02",
                                f["footer"], 16)
        out = assemble(g, recs, raw=raw, irecs=irecs, footer=footer)
    else:
        sys.exit("forge.py: what: record, reseal, rewrap, strip, sign, drop, swap, index, footer, header")
    open(dst, "wb").write(out)


if __name__ == "__main__":
    main()
