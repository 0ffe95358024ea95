/*
 * sha3.h -- SHA3-256, SHA3-512, SHAKE128 and SHAKE256 (FIPS 202), for
 * ML-KEM (crypto/mlkem.h) and the X-Wing combiner (crypto/xwing.h).
 *
 * Written here rather than taken from libcrypto: ML-KEM squeezes SHAKE
 * a few bytes at a time (rejection sampling), which OpenSSL 3.0's EVP
 * interface cannot do (EVP_DigestFinalXOF squeezes once), and the build
 * without libcrypto (--without-openssl) must still open PQ slots.  The
 * permutation is data-independent: no branch or address depends on the
 * bytes hashed, so it is constant-time for secret inputs.
 */
#ifndef AE_SHA3_H
#define AE_SHA3_H

#include <stddef.h>
#include <stdint.h>

#define AE_SHA3_256_LEN 32
#define AE_SHA3_512_LEN 64
#define AE_SHAKE128_RATE 168
#define AE_SHAKE256_RATE 136

/* A Keccak sponge: absorb, then (for SHAKE) squeeze any number of
 * times.  Wipe it (ae_wipe) when it held a secret. */
struct ae_keccak {
	uint64_t a[25];
	size_t rate;         /* bytes per block */
	size_t pos;          /* bytes absorbed into, or squeezed from, the
	                      * current block */
	uint8_t pad;         /* 0x06 for SHA3, 0x1f for SHAKE */
	int squeezing;
};

/* Start a sponge: ae_shake128_init, ae_shake256_init. */
void ae_shake128_init(struct ae_keccak *k);
void ae_shake256_init(struct ae_keccak *k);
/* Absorb n more bytes (p may be NULL when n is 0).  Only before the
 * first squeeze. */
void ae_keccak_absorb(struct ae_keccak *k, const void *p, size_t n);
/* Squeeze n bytes; the first call pads and ends absorbing. */
void ae_keccak_squeeze(struct ae_keccak *k, uint8_t *out, size_t n);

/* One-shot functions over the concatenation of a (na bytes) and b (nb
 * bytes; b may be NULL when nb is 0), the shape every ML-KEM hash call
 * has. */
void ae_sha3_256(uint8_t out[AE_SHA3_256_LEN], const void *a, size_t na,
    const void *b, size_t nb);
void ae_sha3_512(uint8_t out[AE_SHA3_512_LEN], const void *a, size_t na,
    const void *b, size_t nb);
void ae_shake256(uint8_t *out, size_t nout, const void *a, size_t na,
    const void *b, size_t nb);

#endif
