#!/usr/bin/env python3
"""age_hybrid.py DRIVER FILE... -- age 1.3's hybrid (mlkem768x25519)
test files from C2SP CCTV, opened with this tree's X-Wing.

Each file names an identity (AGE-SECRET-KEY-PQ-1...), holds one
mlkem768x25519 stanza (the X-Wing ciphertext, then the file key sealed
by HPKE, RFC 9180: base mode, HKDF-SHA256, ChaCha20-Poly1305, info
"age-encryption.org/mlkem768x25519") and says what a reader must find.
The shared secret comes from pq_driver (this tree's C code) and from
xwing.py (the interop implementation's); HPKE is done here.  So age's
identity strings, key expansion and KEM are this tree's: an age-keygen
-pq key is a key here.  Exit 0 if every file gives what it expects.
"""
import base64
import os
import subprocess
import sys

from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import aescrypt_v1 as v1  # noqa: E402
import xwing  # noqa: E402

SUITE = b"HPKE" + (0x647a).to_bytes(2, "big") + (1).to_bytes(2, "big") \
    + (3).to_bytes(2, "big")
INFO = b"age-encryption.org/mlkem768x25519"


def labeled_extract(salt, label, ikm):
    return v1.hkdf_extract(salt, b"HPKE-v1" + SUITE + label + ikm)


def labeled_expand(prk, label, info, n):
    return v1.hkdf_expand(prk, n.to_bytes(2, "big") + b"HPKE-v1" + SUITE
                          + label + info, n)


def hpke_open(ss, sealed):
    ctx = bytes([0]) + labeled_extract(b"", b"psk_id_hash", b"") \
        + labeled_extract(b"", b"info_hash", INFO)
    secret = labeled_extract(ss, b"secret", b"")
    key = labeled_expand(secret, b"key", ctx, 32)
    nonce = labeled_expand(secret, b"base_nonce", ctx, 12)
    try:
        return ChaCha20Poly1305(key).decrypt(nonce, sealed, b"")
    except Exception:
        return None


def b64(s):
    return base64.b64decode(s + "=" * (-len(s) % 4))


def main():
    driver, files = sys.argv[1], sys.argv[2:]
    proc = subprocess.Popen([driver], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    bad = 0
    for path in files:
        text = open(path, "rb").read().decode("latin-1")
        meta, _, body = text.partition("\n\n")
        fields = dict(line.split(": ", 1) for line in meta.splitlines())
        lines = body.splitlines()
        i = next(n for n, l in enumerate(lines) if l.startswith("-> mlkem768x25519 "))
        enc = b64(lines[i].split()[2])
        sealed = b64(lines[i + 1])
        seed = v1.bech32_decode(fields["identity"], "age-secret-key-pq-")
        # this tree's C code: "x SEED E E2 CT" prints the decapsulation
        # of CT last (or "error" for a low-order X25519 half)
        proc.stdin.write("x %s %s %s %s\n" % (seed.hex(), "00" * 64,
                                              "11" * 64, enc.hex()))
        proc.stdin.flush()
        out = proc.stdout.readline().split()
        ours = None if out == ["error"] else bytes.fromhex(out[-1])
        try:
            theirs = xwing.decaps(seed, enc)
        except ValueError:      # python3-cryptography refuses low order
            theirs = None
        key = hpke_open(ours, sealed) if ours else None
        want = fields["expect"]
        if want == "success":
            ok = key is not None and key.hex() == fields["file key"] \
                and ours == theirs
        elif want == "header failure":     # low order: refused
            ok = ours is None and theirs is None
        else:                               # no match
            ok = ours is not None and key is None and ours == theirs
        print("age %s: expect %s: %s" % (os.path.basename(path), want,
                                          "ok" if ok else "WRONG"))
        bad += not ok
    proc.stdin.close()
    proc.wait()
    return 1 if bad or not files else 0


if __name__ == "__main__":
    sys.exit(main())
