#!/usr/bin/env python3
"""Write cbc256.rsp: AES-256-CBC decryption cases for test_cbc.

Where the cases come from (this machine has no copy of the CAVP CBC
files, and no network):
  * SP 800-38A appendix F.2.5/F.2.6 (CBC-AES256) and AESAVS GFSbox256
    count 0: NIST's published values, typed in and checked against
    OpenSSL below;
  * VarKey (256 cases) and VarTxt (128 cases): the inputs AESAVS defines
    for its known-answer tests (a key, or a plaintext, of i leading one
    bits), with the ciphertext computed by OpenSSL 3 through
    python3-cryptography, an implementation independent of ours;
  * MMT-style: 1 to 10 blocks under keys and IVs from a fixed seed, the
    same way.
Run: python3 tests/vectors/gen_cbc256.py > tests/vectors/cbc256.rsp
"""
import random
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes


def enc(key, iv, pt):
    e = Cipher(algorithms.AES(key), modes.CBC(iv)).encryptor()
    return e.update(pt) + e.finalize()


def ones(nbits, total):
    v = ((1 << nbits) - 1) << (total - nbits)
    return v.to_bytes(total // 8, 'big')


cases = []
key = bytes.fromhex('603deb1015ca71be2b73aef0857d7781'
                    '1f352c073b6108d72d9810a30914dff4')
iv = bytes(range(16))
pt = bytes.fromhex('6bc1bee22e409f96e93d7e117393172a'
                   'ae2d8a571e03ac9c9eb76fac45af8e51'
                   '30c81c46a35ce411e5fbc1191a0a52ef'
                   'f69f2445df4f9b17ad2b417be66c3710')
ct = bytes.fromhex('f58c4c04d6e5f1ba779eabfb5f7bfbd6'
                   '9cfc4e967edb808d679f777bc6702c7d'
                   '39f23369a9d9bacfa530e26304231461'
                   'b2eb05e2c39be9fcda6c19078c6a9d1b')
assert enc(key, iv, pt) == ct
cases.append(('SP 800-38A F.2.6', key, iv, pt, ct))
g_pt = bytes.fromhex('014730f80ac625fe84f026c60bfd547d')
g_ct = bytes.fromhex('5c9d844ed46f9885085e5d6a4f94c7d7')
assert enc(bytes(32), bytes(16), g_pt) == g_ct
cases.append(('GFSbox256 count 0', bytes(32), bytes(16), g_pt, g_ct))
for i in range(1, 257):
    k = ones(i, 256)
    cases.append(('VarKey256 %d' % (i - 1), k, bytes(16), bytes(16),
                  enc(k, bytes(16), bytes(16))))
for i in range(1, 129):
    p = ones(i, 128)
    cases.append(('VarTxt256 %d' % (i - 1), bytes(32), bytes(16), p,
                  enc(bytes(32), bytes(16), p)))
rng = random.Random(20261202)
for i in range(40):
    k = bytes(rng.getrandbits(8) for _ in range(32))
    v = bytes(rng.getrandbits(8) for _ in range(16))
    p = bytes(rng.getrandbits(8) for _ in range(16 * (1 + i % 10)))
    cases.append(('MMT-style %d' % i, k, v, p, enc(k, v, p)))

print('# AES-256-CBC decryption cases; see gen_cbc256.py for sources.')
for name, k, v, p, c in cases:
    print('\n# %s' % name)
    print('KEY = %s\nIV = %s\nCIPHERTEXT = %s\nPLAINTEXT = %s'
          % (k.hex(), v.hex(), c.hex(), p.hex()))
