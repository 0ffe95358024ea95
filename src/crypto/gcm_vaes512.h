/*
 * gcm_vaes512.h -- AES-256-GCM bulk functions with VAES and VPCLMULQDQ on
 * 512-bit vectors (AVX-512F/BW/VL).
 *
 * This is tier 4.  Four blocks per vector, 32 blocks per step; fewer than
 * 32 are done here too, with the mask registers (no hand-off to another
 * tier).  Callers MUST check ae_gcm_vaes512_available() first.
 */
#ifndef AE_GCM_VAES512_H
#define AE_GCM_VAES512_H

#include <stddef.h>
#include <stdint.h>

#include "gcm_ni.h"

/* Blocks per step of the main loops, and the powers of H kept. */
#define AE_GCM_VAES512_STEP 32

/* The tier-1 key (for single blocks and the powers of H), the round keys
 * broadcast to four lanes, and H^32 .. H^1 in tier 1's form, one per
 * block of a step, with the sums of their halves that Karatsuba
 * multiplication takes.  Secret. */
struct ae_gcm_vaes512_key {
	struct ae_gcm_ni_key ni;
	_Alignas(64) uint8_t rk[15][64];
	_Alignas(64) uint8_t hpow[AE_GCM_VAES512_STEP][16]; /* H^(32 - i) */
	_Alignas(64) uint8_t hk[AE_GCM_VAES512_STEP][16];   /* its halves
	                                                     * XORed */
};

/* 1 if built and the CPU has VAES, VPCLMULQDQ, AVX-512F/BW/VL (with the
 * OS saving ZMM state) and tier 1. */
int ae_gcm_vaes512_available(void);

void ae_gcm_vaes512_init(struct ae_gcm_vaes512_key *k, const uint8_t key[32]);

/* As ae_gcm_ni_ghash(), ae_gcm_ni_ctr32() and ae_gcm_ni_ctr32_ghash(). */
void ae_gcm_vaes512_ghash(const struct ae_gcm_vaes512_key *k, uint8_t y[16],
    const uint8_t *in, size_t nblocks);
void ae_gcm_vaes512_ctr32(const struct ae_gcm_vaes512_key *k,
    uint8_t ctr[16], const uint8_t *in, uint8_t *out, size_t nblocks);
void ae_gcm_vaes512_ctr32_ghash(const struct ae_gcm_vaes512_key *k,
    uint8_t ctr[16], uint8_t y[16], const uint8_t *in, uint8_t *out,
    size_t nblocks);
/* Opening in one pass: GHASH of in (the ciphertext) into y while in is
 * decrypted to out (in and out equal, or apart).  The caller wipes out
 * if the tag then fails (gcm.c). */
void ae_gcm_vaes512_ghash_ctr32(const struct ae_gcm_vaes512_key *k,
    uint8_t ctr[16], uint8_t y[16], const uint8_t *in, uint8_t *out,
    size_t nblocks);

#endif
