/*
 * xwing.h -- X-Wing (draft-connolly-cfrg-xwing-kem): the hybrid KEM of
 * ML-KEM-768 (crypto/mlkem.h) and X25519 (crypto/x25519.h, libsodium),
 * joined by a SHA3-256 combiner.  A shared secret stays secret while
 * either half holds.
 *
 * age 1.3's "mlkem768x25519" recipients use the same KEM, key seed and
 * key expansion, so the same 32-byte seed makes the same keys in both.
 *
 * The decapsulation key is a 32-byte seed.  ae_xwing_expand turns it
 * into the expanded key once, so a reader trying many slots does not
 * run ML-KEM's key generation for each.
 */
#ifndef AE_XWING_H
#define AE_XWING_H

#include <stdint.h>

#include "mlkem.h"

#define AE_XWING_SEED_LEN 32
#define AE_XWING_PK_LEN (AE_MLKEM768_EK_LEN + 32)     /* 1216 */
#define AE_XWING_CT_LEN (AE_MLKEM768_CT_LEN + 32)     /* 1120 */
#define AE_XWING_SS_LEN 32
#define AE_XWING_ESEED_LEN 64

/* The seed expanded: ML-KEM's dk, the X25519 scalar and public key. */
struct ae_xwing_key {
	uint8_t dk_m[AE_MLKEM768_DK_LEN];
	uint8_t sk_x[32];
	uint8_t pk_x[32];
};

/*
 * Expand seed: SHAKE256(seed, 96) gives ML-KEM's d || z and the X25519
 * scalar.  pk, if not NULL, receives the public key (ek || pk_x).
 * Returns 0 or AE_ENOTSUP (libsodium cannot start).  The caller wipes
 * k after use.
 */
int ae_xwing_expand(struct ae_xwing_key *k, uint8_t *pk,
    const uint8_t seed[AE_XWING_SEED_LEN]);

/*
 * Encapsulate to pk with the 64 bytes of randomness eseed (ML-KEM's m,
 * then the ephemeral X25519 scalar).  Returns 0; AE_EINVAL if pk's
 * ML-KEM half fails the modulus check or its X25519 half is of low
 * order (the X25519 secret would be all zeros); AE_ENOTSUP.
 */
int ae_xwing_encaps(uint8_t ct[AE_XWING_CT_LEN], uint8_t ss[AE_XWING_SS_LEN],
    const uint8_t pk[AE_XWING_PK_LEN], const uint8_t eseed[AE_XWING_ESEED_LEN]);

/*
 * Decapsulate ct with k.  A ciphertext not made for k yields an
 * unrelated secret (ML-KEM's implicit rejection), not an error.
 * Returns 0; AE_EINVAL if ct's X25519 half is of low order (callers
 * refuse such a ciphertext before, as it needs no key to see);
 * AE_ENOTSUP.
 */
int ae_xwing_decaps(uint8_t ss[AE_XWING_SS_LEN],
    const uint8_t ct[AE_XWING_CT_LEN], const struct ae_xwing_key *k);

#endif
