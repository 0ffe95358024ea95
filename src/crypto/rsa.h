/*
 * rsa.h -- RSAES-OAEP with SHA-256 (RFC 8017 section 7.1), for ssh-rsa
 * recipients (format/aescrypt-v1.md 4.7).
 *
 * A thin layer over OpenSSL's libcrypto: no RSA arithmetic is written
 * here.  A build without libcrypto (./configure --without-rsa, or none
 * found) keeps the interface and every call returns AE_ENOTSUP, so the
 * layers above can say what is missing.
 *
 * Numbers are big-endian unsigned byte strings, as an SSH mpint holds
 * them without its sign byte.
 */
#ifndef AE_RSA_H
#define AE_RSA_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

/* Modulus sizes taken, in bytes: 2048 to 8192 bits.  Below 2048 bits a
 * key is too weak (age refuses them too); the cap bounds a slot. */
#define AE_RSA_MIN_BYTES 256
#define AE_RSA_MAX_BYTES 1024
/* A public exponent is at most this long (ssh-keygen writes 65537). */
#define AE_RSA_MAX_E_BYTES 8

struct ae_rsa_public {
	const uint8_t *n, *e;
	size_t nlen, elen;
};

/* The private half as an OpenSSH key holds it; the CRT exponents are
 * derived. */
struct ae_rsa_private {
	struct ae_rsa_public pub;
	const uint8_t *d, *p, *q, *iqmp;
	size_t dlen, plen, qlen, iqmplen;
};

/* An RSA private key's numbers, as PKCS#1 holds them (iqmp = q^-1 mod
 * p, what OpenSSH calls iqmp too), big-endian without leading zeros.
 * Secret: allocate it with ae_secret_alloc and wipe it. */
struct ae_rsa_numbers {
	uint8_t n[AE_RSA_MAX_BYTES], e[AE_RSA_MAX_E_BYTES];
	uint8_t d[AE_RSA_MAX_BYTES], p[AE_RSA_MAX_BYTES];
	uint8_t q[AE_RSA_MAX_BYTES], iqmp[AE_RSA_MAX_BYTES];
	size_t nlen, elen, dlen, plen, qlen, iqmplen;
};

/*
 * The numbers of an unencrypted PEM RSA private key, PKCS#1 ("BEGIN RSA
 * PRIVATE KEY") or PKCS#8 ("BEGIN PRIVATE KEY"), as libcrypto reads it
 * (no passphrase is ever asked for).  0; AE_ENOTSUP without libcrypto,
 * for a key that is not RSA, or an encrypted one; AE_EINVAL for a
 * modulus outside 2048 to 8192 bits or an exponent over 8 bytes;
 * AE_EFORMAT if libcrypto cannot read it.
 */
int ae_rsa_from_pem(const char *text, size_t len, struct ae_rsa_numbers *k);

/* Whether this build has RSA (libcrypto).  1 or 0. */
int ae_rsa_available(void);

/* libcrypto's version text ("OpenSSL 3.0.x ..."), or NULL without it. */
const char *ae_rsa_version(void);

/*
 * out[0..k) = RSAES-OAEP-ENCRYPT(k, m) with SHA-256 for the hash and
 * MGF1, and label; k is the key's modulus length (k->nlen, no leading
 * zero byte).  The OAEP seed is random.  Returns 0; AE_ENOTSUP without
 * libcrypto; AE_EINVAL if the key is unusable or m too long; AE_ENOMEM.
 */
int ae_rsa_oaep_encrypt(const struct ae_rsa_public *k, const uint8_t *label,
    size_t labellen, const uint8_t *m, size_t mlen, uint8_t *out);

/* The same with the 32-byte OAEP seed given (the encoding written out
 * here, the RSA operation libcrypto's): for the committed samples only,
 * never for real files, whose seed MUST be fresh and random. */
int ae_rsa_oaep_encrypt_with(const struct ae_rsa_public *k,
    const uint8_t *label, size_t labellen, const uint8_t *m, size_t mlen,
    const uint8_t seed[32], uint8_t *out);

/*
 * m[0..*mlen) = RSAES-OAEP-DECRYPT(k, c[0..clen)) (OpenSSL's decoding,
 * which does not show by its timing where it failed).  Returns 0;
 * AE_EKEY if it does not decrypt (another key, or damage: OAEP cannot
 * tell which) or the message is longer than mcap; AE_ENOTSUP without
 * libcrypto; AE_EINVAL if the key is unusable; AE_ENOMEM.  The caller
 * wipes m.
 */
int ae_rsa_oaep_decrypt(const struct ae_rsa_private *k, const uint8_t *label,
    size_t labellen, const uint8_t *c, size_t clen, uint8_t *m, size_t mcap,
    size_t *mlen);

#endif
