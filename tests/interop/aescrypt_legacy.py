#!/usr/bin/env python3
"""aescrypt_legacy.py -- files in the AES Crypt stream format (versions 0
to 3), written from the published format (AES Crypt's "AES Crypt Stream
Format"; summarised in format/README.md, appendix B) and nothing of
aescrypt's code.

AES-256-CBC comes from OpenSSL through python3-cryptography; SHA-256,
HMAC and PBKDF2-HMAC-SHA512 from Python's hashlib.  The tests
(tests/cli/205-legacy.bats) decrypt its files with aescrypt -d, and
decode them back with this script, so the spec, this script and the C
reader have to agree.  Randomness comes from --seed, so the committed
samples (tests/samples/legacy-v*.aes) can be made again byte for byte.

usage:
  aescrypt_legacy.py encode -v VERSION -p PASSFILE [--iterations N]
                     [--seed S] [--creator TEXT] [--bad-padding] IN OUT
  aescrypt_legacy.py decode -p PASSFILE IN OUT
decode exits 3 on a wrong passphrase, 4 on a damaged file.
"""
import argparse
import codecs
import hashlib
import hmac
import random
import struct
import sys

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes


def cbc(key, iv, data, encrypt):
    c = Cipher(algorithms.AES(key), modes.CBC(iv))
    op = c.encryptor() if encrypt else c.decryptor()
    return op.update(data) + op.finalize()


def utf16le(password):
    """The passphrase's bytes as versions 0-2 hash them (aes-crypt.md):
    UTF-8 as RFC 3629 defines it, Python's strict decoder; a byte that
    starts no valid sequence stands for the code point of that byte."""
    def bytewise(e):
        return ''.join(chr(b) for b in e.object[e.start:e.end]), e.end
    codecs.register_error('aescrypt-bytewise', bytewise)
    text = password.decode('utf-8', errors='aescrypt-bytewise')
    return text.encode('utf-16-le', errors='surrogatepass')


def kdf(version, password, iv, iterations):
    """password: the passphrase's bytes."""
    if version == 3:
        return hashlib.pbkdf2_hmac('sha512', password, iv, iterations, 32)
    pw = utf16le(password)
    digest = iv + bytes(16)
    for _ in range(8192):
        digest = hashlib.sha256(digest + pw).digest()
    return digest


def extensions(creator):
    out = b''
    if creator is not None:
        body = b'CREATED_BY\0' + creator.encode('utf-8')
        out += struct.pack('>H', len(body)) + body
    # the 128-octet container extension the format recommends
    out += struct.pack('>H', 128) + bytes(128)
    return out + b'\0\0'


def encode(version, password, plain, iterations, rnd, creator,
           bad_padding=False):
    iv = rnd(16)
    key = kdf(version, password, iv, iterations)
    head = b'AES' + bytes([version])
    if version == 0:
        head += bytes([len(plain) % 16]) + iv
        sess_iv, sess_key = iv, key
    else:
        head += b'\0'
        if version >= 2:
            head += extensions(creator)
        if version == 3:
            head += struct.pack('>I', iterations)
        sess_iv, sess_key = rnd(16), rnd(32)
        block = cbc(key, iv, sess_iv + sess_key, True)
        mac = hmac.new(key, block + (b'\x03' if version == 3 else b''),
                       hashlib.sha256).digest()
        head += iv + block + mac
    if version == 3:
        pad = 16 - len(plain) % 16
        padded = plain + bytes([pad]) * pad
        if bad_padding:   # a test case: a MAC that verifies, bad padding
            padded = padded[:-1] + bytes([pad + 16])
    else:
        padded = plain + rnd((16 - len(plain) % 16) % 16)
    ct = cbc(sess_key, sess_iv, padded, True)
    tail = b''
    if version in (1, 2):
        tail = bytes([len(plain) % 16])
    tail += hmac.new(sess_key, ct, hashlib.sha256).digest()
    return head + ct + tail


class Bad(Exception):
    def __init__(self, code, what):
        super().__init__(what)
        self.code = code


def decode(data, password):
    if len(data) < 5 or data[:3] != b'AES' or data[3] > 3:
        raise Bad(4, 'not an AES Crypt file')
    version, pos = data[3], 5
    if version >= 2:
        while True:
            n = struct.unpack('>H', data[pos:pos + 2])[0]
            pos += 2 + n
            if n == 0:
                break
    iterations = 0
    if version == 3:
        iterations = struct.unpack('>I', data[pos:pos + 4])[0]
        pos += 4
    iv = data[pos:pos + 16]
    pos += 16
    key = kdf(version, password, iv, iterations)
    if version == 0:
        sess_iv, sess_key = iv, key
    else:
        block, mac = data[pos:pos + 48], data[pos + 48:pos + 80]
        pos += 80
        want = hmac.new(key, block + (b'\x03' if version == 3 else b''),
                        hashlib.sha256).digest()
        if not hmac.compare_digest(want, mac):
            raise Bad(3, 'wrong passphrase')
        plainblock = cbc(key, iv, block, False)
        sess_iv, sess_key = plainblock[:16], plainblock[16:]
    tail = 33 if version in (1, 2) else 32
    ct = data[pos:len(data) - tail]
    if len(ct) % 16 or len(data) - tail < pos:
        raise Bad(4, 'cut short')
    if not hmac.compare_digest(
            hmac.new(sess_key, ct, hashlib.sha256).digest(), data[-32:]):
        raise Bad(3 if version == 0 else 4, 'failed authentication')
    pt = cbc(sess_key, sess_iv, ct, False)
    if version == 3:
        pad = pt[-1]
        if pad < 1 or pad > 16 or pt[-pad:] != bytes([pad]) * pad:
            raise Bad(4, 'bad padding')
        return pt[:-pad]
    mod = (data[4] if version == 0 else data[-33]) & 15
    if pt and mod:
        pt = pt[:len(pt) - 16 + mod]
    return pt


def batch():
    """Many jobs in one process (a start costs more than most jobs):
    each line of standard input is a command line, its arguments
    separated by tabs; each job's exit status is printed on a line of
    its own once it is done."""
    for line in sys.stdin:
        line = line.rstrip('\n')
        if not line:
            continue
        try:
            main(line.split('\t'))
            st = 0
        except SystemExit as e:
            st = e.code if isinstance(e.code, int) else 2
        print(st, flush=True)


def main(argv=None):
    if argv is None and sys.argv[1:2] == ['batch']:
        return batch()
    ap = argparse.ArgumentParser()
    ap.add_argument('cmd', choices=['encode', 'decode'])
    ap.add_argument('-v', '--version', type=int, default=3)
    ap.add_argument('-p', '--passphrase-file', required=True)
    ap.add_argument('--iterations', type=int, default=300000)
    ap.add_argument('--seed', type=int)
    ap.add_argument('--creator')
    ap.add_argument('--bad-padding', action='store_true')
    ap.add_argument('input')
    ap.add_argument('output')
    a = ap.parse_args(argv)
    with open(a.passphrase_file, 'rb') as f:
        password = f.readline().rstrip(b'\n')
    with open(a.input, 'rb') as f:
        data = f.read()
    if a.cmd == 'encode':
        if a.seed is not None:
            r = random.Random(a.seed)
            rnd = lambda n: bytes(r.getrandbits(8) for _ in range(n))
        else:
            import os
            rnd = os.urandom
        out = encode(a.version, password, data, a.iterations, rnd, a.creator,
                     a.bad_padding)
    else:
        try:
            out = decode(data, password)
        except Bad as e:
            print('aescrypt_legacy: %s' % e, file=sys.stderr)
            sys.exit(e.code)
    with open(a.output, 'wb') as f:
        f.write(out)


if __name__ == '__main__':
    main()
