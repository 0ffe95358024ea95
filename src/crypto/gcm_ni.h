/*
 * gcm_ni.h -- AES-256-GCM bulk functions with AES-NI and PCLMULQDQ.
 *
 * This is tier 1.  Every function here is compiled with a target
 * attribute, so the rest of the binary still runs on CPUs without these
 * instructions; callers MUST check ae_cpu_features() before calling them.
 * All are absent (and ae_gcm_ni_available() returns 0) when the compiler
 * could not build them.
 */
#ifndef AE_GCM_NI_H
#define AE_GCM_NI_H

#include <stddef.h>
#include <stdint.h>

/* Round keys and H^1..H^8 in the byte-reflected form GHASH uses, plus
 * (hi xor lo) of each power for Karatsuba.  Secret. */
struct ae_gcm_ni_key {
	_Alignas(16) uint8_t rk[15][16];
	_Alignas(16) uint8_t hp[8][16];    /* hp[i] = H^(i+1) */
	_Alignas(16) uint8_t hk[8][16];    /* low half: hi ^ lo of hp[i] */
};

/* 1 if this build has the tier and the CPU has AES-NI, PCLMULQDQ,
 * SSSE3 and SSE4.1; 0 otherwise. */
int ae_gcm_ni_available(void);

/* Expand key and derive H and its powers. */
void ae_gcm_ni_init(struct ae_gcm_ni_key *k, const uint8_t key[32]);

/* One block, for E(K, J0). */
void ae_gcm_ni_encrypt_block(const struct ae_gcm_ni_key *k, const uint8_t in[16],
    uint8_t out[16]);

/* GHASH update over nblocks full blocks; y in GCM byte order. */
void ae_gcm_ni_ghash(const struct ae_gcm_ni_key *k, uint8_t y[16],
    const uint8_t *in, size_t nblocks);

/* CTR with inc32 over nblocks, as ae_aes_ct_ctr32(); advances ctr. */
void ae_gcm_ni_ctr32(const struct ae_gcm_ni_key *k, uint8_t ctr[16],
    const uint8_t *in, uint8_t *out, size_t nblocks);

/* Encrypt nblocks with CTR and fold the ciphertext into y: the seal
 * inner loop, 8 blocks in flight, one reduction per 8 blocks. */
void ae_gcm_ni_ctr32_ghash(const struct ae_gcm_ni_key *k, uint8_t ctr[16],
    uint8_t y[16], const uint8_t *in, uint8_t *out, size_t nblocks);

#endif
