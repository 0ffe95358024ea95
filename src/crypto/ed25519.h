/*
 * ed25519.h -- Ed25519 signatures and SHA-512, over libsodium (no curve
 * arithmetic is written here), for signing with OpenSSH ed25519 keys.
 */
#ifndef AE_ED25519_H
#define AE_ED25519_H

#include <stddef.h>
#include <stdint.h>

#include <sodium.h>

#define AE_ED25519_PK_LEN 32
#define AE_ED25519_SEED_LEN 32
#define AE_ED25519_SIG_LEN 64
#define AE_SHA512_LEN 64

/* The public key of the 32-byte seed (the private key as OpenSSH and
 * RFC 8032 keep it).  0, or AE_ENOTSUP if libsodium cannot start. */
int ae_ed25519_public(uint8_t pk[AE_ED25519_PK_LEN],
    const uint8_t seed[AE_ED25519_SEED_LEN]);

/* Sign m[0, n) with the seed's key (RFC 8032, pure Ed25519).  0, or
 * AE_ENOTSUP. */
int ae_ed25519_sign(uint8_t sig[AE_ED25519_SIG_LEN], const uint8_t *m,
    size_t n, const uint8_t seed[AE_ED25519_SEED_LEN]);

/* Whether sig is pk's signature of m[0, n): 0, or AE_EAUTH (also for a
 * key that is not a point of the main subgroup, or a signature that is
 * not canonical: libsodium's strict rules). */
int ae_ed25519_verify(const uint8_t sig[AE_ED25519_SIG_LEN],
    const uint8_t *m, size_t n, const uint8_t pk[AE_ED25519_PK_LEN]);

/* SHA-512 (FIPS 180-4), incremental. */
struct ae_sha512 {
	crypto_hash_sha512_state s;
};
void ae_sha512_init(struct ae_sha512 *h);
void ae_sha512_update(struct ae_sha512 *h, const void *p, size_t n);
void ae_sha512_final(struct ae_sha512 *h, uint8_t out[AE_SHA512_LEN]);

#endif
