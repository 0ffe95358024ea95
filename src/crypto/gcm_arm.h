/*
 * gcm_arm.h -- AES-256-GCM bulk functions with the ARMv8 Crypto
 * Extensions (AESE/AESMC for the rounds, PMULL/PMULL2 for GHASH).
 *
 * This is tier 3, the ARM counterpart of tier 1.  Every function is
 * compiled with a target attribute, so the rest of the binary still runs
 * on ARMv8 CPUs without the extensions (a Raspberry Pi 4); callers MUST
 * check ae_gcm_arm_available() first.  The functions are absent (and
 * ae_gcm_arm_available() returns 0) when the compiler could not build
 * them: on every target but little-endian aarch64.
 */
#ifndef AE_GCM_ARM_H
#define AE_GCM_ARM_H

#include <stddef.h>
#include <stdint.h>

/* Round keys, and H^1..H^8 as polynomials in their natural bit order
 * (the bits of each GCM byte reversed), plus lo ^ hi of each power for
 * Karatsuba.  Secret. */
struct ae_gcm_arm_key {
	_Alignas(16) uint8_t rk[15][16];
	_Alignas(16) uint64_t hp[8][2];    /* hp[i] = H^(i+1) */
	_Alignas(16) uint64_t hk[8][2];    /* hk[i][0] = hp[i][0] ^ hp[i][1] */
};

/* 1 if this build has the tier and the CPU reports AES and PMULL
 * (getauxval(AT_HWCAP)); 0 otherwise. */
int ae_gcm_arm_available(void);

/* Expand key and derive H and its powers. */
void ae_gcm_arm_init(struct ae_gcm_arm_key *k, const uint8_t key[32]);

/* One block, for E(K, J0). */
void ae_gcm_arm_encrypt_block(const struct ae_gcm_arm_key *k,
    const uint8_t in[16], uint8_t out[16]);

/* GHASH update over nblocks full blocks; y in GCM byte order. */
void ae_gcm_arm_ghash(const struct ae_gcm_arm_key *k, uint8_t y[16],
    const uint8_t *in, size_t nblocks);

/* CTR with inc32 over nblocks, as ae_aes_ct_ctr32(); advances ctr. */
void ae_gcm_arm_ctr32(const struct ae_gcm_arm_key *k, uint8_t ctr[16],
    const uint8_t *in, uint8_t *out, size_t nblocks);

/* Encrypt nblocks with CTR and fold the ciphertext into y, 8 blocks in
 * flight and one reduction per 8 blocks. */
void ae_gcm_arm_ctr32_ghash(const struct ae_gcm_arm_key *k, uint8_t ctr[16],
    uint8_t y[16], const uint8_t *in, uint8_t *out, size_t nblocks);

#endif
