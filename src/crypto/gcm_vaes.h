/*
 * gcm_vaes.h -- AES-256-GCM bulk functions with VAES and VPCLMULQDQ on
 * 256-bit vectors (AVX2).
 *
 * This is tier 2.  It handles 16 blocks per step, two per vector, and
 * hands anything shorter to the tier-1 functions, whose key it embeds.
 * Callers MUST check ae_gcm_vaes_available() first.
 */
#ifndef AE_GCM_VAES_H
#define AE_GCM_VAES_H

#include <stddef.h>
#include <stdint.h>

#include "gcm_ni.h"

/* The tier-1 key plus round keys broadcast to both lanes and H^16..H^1
 * paired for two blocks per vector.  Secret. */
struct ae_gcm_vaes_key {
	struct ae_gcm_ni_key ni;
	_Alignas(32) uint8_t rk[15][32];
	_Alignas(32) uint8_t hp[8][32];   /* hp[j] = (H^(16-2j), H^(15-2j)) */
	_Alignas(32) uint8_t hk[8][32];   /* Karatsuba halves of hp[j] */
};

/* 1 if built and the CPU has VAES, VPCLMULQDQ, AVX2 and tier 1. */
int ae_gcm_vaes_available(void);

void ae_gcm_vaes_init(struct ae_gcm_vaes_key *k, const uint8_t key[32]);

/* As ae_gcm_ni_ghash(), ae_gcm_ni_ctr32() and ae_gcm_ni_ctr32_ghash(). */
void ae_gcm_vaes_ghash(const struct ae_gcm_vaes_key *k, uint8_t y[16],
    const uint8_t *in, size_t nblocks);
void ae_gcm_vaes_ctr32(const struct ae_gcm_vaes_key *k, uint8_t ctr[16],
    const uint8_t *in, uint8_t *out, size_t nblocks);
void ae_gcm_vaes_ctr32_ghash(const struct ae_gcm_vaes_key *k, uint8_t ctr[16],
    uint8_t y[16], const uint8_t *in, uint8_t *out, size_t nblocks);
/* Opening in one pass: GHASH of in (the ciphertext) into y, 16 blocks at
 * a time, each then decrypted to out (in and out equal, or apart).  The
 * caller wipes out if the tag then fails (gcm.c). */
void ae_gcm_vaes_ghash_ctr32(const struct ae_gcm_vaes_key *k, uint8_t ctr[16],
    uint8_t y[16], const uint8_t *in, uint8_t *out, size_t nblocks);

#endif
