"""xwing.py -- ML-KEM-768 (FIPS 203) and X-Wing, for the interop
implementation (aescrypt_v1.py), written from the standards alone.

Plain Python integers, a line of code per line of the standard where it
can be: slow and not constant-time, which a test does not need.  SHA-3
and SHAKE are hashlib's; X25519 is python3-cryptography's.
"""
import hashlib

from cryptography.hazmat.primitives.asymmetric import x25519

Q, N, K, ETA, DU, DV = 3329, 256, 3, 2, 10, 4


def bitrev7(i):
    return int("{:07b}".format(i)[::-1], 2)


ZETA = [pow(17, bitrev7(i), Q) for i in range(128)]
GAMMA = [pow(17, 2 * bitrev7(i) + 1, Q) for i in range(128)]


def ntt(f):
    f, i, n = list(f), 1, 128
    while n >= 2:
        for start in range(0, N, 2 * n):
            z = ZETA[i]
            i += 1
            for j in range(start, start + n):
                t = z * f[j + n] % Q
                f[j + n] = (f[j] - t) % Q
                f[j] = (f[j] + t) % Q
        n //= 2
    return f


def intt(f):
    f, i, n = list(f), 127, 2
    while n <= 128:
        for start in range(0, N, 2 * n):
            z = ZETA[i]
            i -= 1
            for j in range(start, start + n):
                t = f[j]
                f[j] = (t + f[j + n]) % Q
                f[j + n] = z * (f[j + n] - t) % Q
        n *= 2
    return [x * 3303 % Q for x in f]


def mul(f, g):
    h = [0] * N
    for i in range(128):
        a0, a1, b0, b1 = f[2 * i], f[2 * i + 1], g[2 * i], g[2 * i + 1]
        h[2 * i] = (a0 * b0 + a1 * b1 * GAMMA[i]) % Q
        h[2 * i + 1] = (a0 * b1 + a1 * b0) % Q
    return h


def add(f, g):
    return [(a + b) % Q for a, b in zip(f, g)]


def encode(f, d):
    acc = 0
    for i, c in enumerate(f):
        acc |= c << (i * d)
    return acc.to_bytes(32 * d, "little")


def decode(b, d):
    acc = int.from_bytes(b, "little")
    m = Q if d == 12 else 1 << d
    return [(acc >> (i * d) & ((1 << d) - 1)) % m for i in range(N)]


def compress(f, d):
    return [((x << d) + Q // 2) // Q % (1 << d) for x in f]


def decompress(f, d):
    return [(Q * y + (1 << (d - 1))) >> d for y in f]


def sample_ntt(seed):
    xof = hashlib.shake_128(seed).digest(1344)  # grown if not enough
    out, i = [], 0
    while len(out) < N:
        if i + 3 > len(xof):
            xof = hashlib.shake_128(seed).digest(2 * len(xof))
        d1 = xof[i] | (xof[i + 1] & 15) << 8
        d2 = xof[i + 1] >> 4 | xof[i + 2] << 4
        i += 3
        if d1 < Q:
            out.append(d1)
        if d2 < Q and len(out) < N:
            out.append(d2)
    return out


def cbd(s, b):
    buf = hashlib.shake_256(s + bytes([b])).digest(64 * ETA)
    bits = int.from_bytes(buf, "little")
    f = []
    for i in range(N):
        x = sum(bits >> (2 * i * ETA + j) & 1 for j in range(ETA))
        y = sum(bits >> (2 * i * ETA + ETA + j) & 1 for j in range(ETA))
        f.append((x - y) % Q)
    return f


def matrix(rho, transpose):
    return [[sample_ntt(rho + (bytes([i, j]) if transpose else bytes([j, i])))
             for j in range(K)] for i in range(K)]


def pke_keygen(d):
    g = hashlib.sha3_512(d + bytes([K])).digest()
    rho, sigma = g[:32], g[32:]
    A = matrix(rho, False)
    s = [ntt(cbd(sigma, i)) for i in range(K)]
    e = [ntt(cbd(sigma, K + i)) for i in range(K)]
    t = [e[i] for i in range(K)]
    for i in range(K):
        for j in range(K):
            t[i] = add(t[i], mul(A[i][j], s[j]))
    ek = b"".join(encode(x, 12) for x in t) + rho
    return ek, b"".join(encode(x, 12) for x in s)


def pke_encrypt(ek, m, r):
    t = [decode(ek[384 * i:384 * (i + 1)], 12) for i in range(K)]
    AT = matrix(ek[384 * K:], True)
    y = [ntt(cbd(r, i)) for i in range(K)]
    e1 = [cbd(r, K + i) for i in range(K)]
    e2 = cbd(r, 2 * K)
    u = []
    for i in range(K):
        acc = [0] * N
        for j in range(K):
            acc = add(acc, mul(AT[i][j], y[j]))
        u.append(add(intt(acc), e1[i]))
    acc = [0] * N
    for j in range(K):
        acc = add(acc, mul(t[j], y[j]))
    v = add(add(intt(acc), e2), decompress(decode(m, 1), 1))
    return (b"".join(encode(compress(x, DU), DU) for x in u)
            + encode(compress(v, DV), DV))


def pke_decrypt(dk, c):
    u = [ntt(decompress(decode(c[320 * i:320 * (i + 1)], DU), DU))
         for i in range(K)]
    v = decompress(decode(c[320 * K:], DV), DV)
    s = [decode(dk[384 * i:384 * (i + 1)], 12) for i in range(K)]
    acc = [0] * N
    for i in range(K):
        acc = add(acc, mul(s[i], u[i]))
    w = [(a - b) % Q for a, b in zip(v, intt(acc))]
    return encode(compress(w, 1), 1)


def H(b):
    return hashlib.sha3_256(b).digest()


def mlkem_keygen(d, z):
    ek, dkp = pke_keygen(d)
    return ek, dkp + ek + H(ek) + z


def mlkem_encaps(ek, m):
    if any(x >= Q for i in range(K)
           for x in decode_raw(ek[384 * i:384 * (i + 1)])):
        raise ValueError("encapsulation key fails the modulus check")
    g = hashlib.sha3_512(m + H(ek)).digest()
    return pke_encrypt(ek, m, g[32:]), g[:32]


def decode_raw(b):
    acc = int.from_bytes(b, "little")
    return [acc >> (12 * i) & 4095 for i in range(N)]


def mlkem_decaps(dk, c):
    dkp, ek, h, z = dk[:1152], dk[1152:2336], dk[2336:2368], dk[2368:]
    m = pke_decrypt(dkp, c)
    g = hashlib.sha3_512(m + h).digest()
    reject = hashlib.shake_256(z + c).digest(32)
    return g[:32] if pke_encrypt(ek, m, g[32:]) == c else reject


LABEL = b"\\.//^\\"


def _x(scalar, point):
    return x25519.X25519PrivateKey.from_private_bytes(scalar).exchange(
        x25519.X25519PublicKey.from_public_bytes(point))


def _xpub(scalar):
    from cryptography.hazmat.primitives import serialization
    return x25519.X25519PrivateKey.from_private_bytes(scalar).public_key() \
        .public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def expand(seed):
    """(ML-KEM dk, X25519 scalar, public key) of a 32-byte seed."""
    x = hashlib.shake_256(seed).digest(96)
    ek, dk = mlkem_keygen(x[:32], x[32:64])
    return dk, x[64:], ek + _xpub(x[64:])


def encaps(pk, eseed):
    """(ciphertext, shared secret) for pk with 64 bytes of randomness."""
    ct_x = _xpub(eseed[32:])
    ss_x = _x(eseed[32:], pk[1184:])
    ct_m, ss_m = mlkem_encaps(pk[:1184], eseed[:32])
    return ct_m + ct_x, H(ss_m + ss_x + ct_x + pk[1184:] + LABEL)


def decaps(seed, ct):
    dk, sk_x, pk = expand(seed)
    ss_m = mlkem_decaps(dk, ct[:1088])
    ss_x = _x(sk_x, ct[1088:])
    return H(ss_m + ss_x + ct[1088:] + pk[1184:] + LABEL)
