/*
 * gcm.h -- AES-256-GCM (NIST SP 800-38D) with run-time tier dispatch.
 *
 * Tiers:
 *   AE_GCM_TIER_SOFT  0  portable constant-time C (bitsliced AES, ctmul GHASH)
 *   AE_GCM_TIER_NI    1  AES-NI + PCLMULQDQ, 8 blocks per step
 *   AE_GCM_TIER_VAES  2  VAES + VPCLMULQDQ on 256-bit vectors, 16 per step
 *   AE_GCM_TIER_ARMV8 3  ARMv8 AESE/AESMC + PMULL, 8 blocks per step
 *   AE_GCM_TIER_VAES512 4  VAES + VPCLMULQDQ on 512-bit vectors (AVX-512),
 *                        32 per step
 *
 * Tiers 1, 2 and 4 exist only on x86-64 and tier 3 only on aarch64, so
 * "the best" is the highest-numbered tier this CPU can run, with one
 * exception: on Intel CPUs whose clock drops while 512-bit vectors run
 * (ae_cpu_features()->zmm_slow), tier 4 is left to be asked for and the
 * 256-bit tier 2 is the default, as Linux chooses there.
 * ae_gcm_init() picks the best tier the CPU offers, unless
 * ae_gcm_force_software() was called first.  The context is allocated by the
 * caller, holds the expanded key, and is read-only after init, so one
 * context may be shared by many threads sealing or opening at once.
 */
#ifndef AE_GCM_H
#define AE_GCM_H

#include <stddef.h>
#include <stdint.h>

#include "aes_ct.h"
#include "ghash_ct.h"
#include "gcm_ni.h"
#include "gcm_vaes.h"
#include "gcm_vaes512.h"
#include "gcm_arm.h"

enum ae_gcm_tier {
	AE_GCM_TIER_SOFT = 0,
	AE_GCM_TIER_NI = 1,
	AE_GCM_TIER_VAES = 2,
	AE_GCM_TIER_ARMV8 = 3,
	AE_GCM_TIER_VAES512 = 4,
	AE_GCM_TIER_COUNT
};

#define AE_GCM_KEY_LEN 32
#define AE_GCM_TAG_LEN 16
#define AE_GCM_IV_LEN 12      /* the recommended IV length */
/* SP 800-38D: plaintext at most 2^39 - 256 bits. */
#define AE_GCM_MAX_LEN ((((uint64_t)1) << 36) - 32)

struct ae_gcm_impl;

typedef struct ae_gcm_ctx {
	const struct ae_gcm_impl *impl;
	union {
		struct {
			struct ae_aes_ct_key aes;
			struct ae_ghash_ct_key gh;
		} soft;
		struct ae_gcm_ni_key ni;
		struct ae_gcm_vaes_key vaes;
		struct ae_gcm_arm_key arm;
		struct ae_gcm_vaes512_key vaes512;
	} u;
} ae_gcm_ctx;

/*
 * Make every later ae_gcm_init() use the software tier.  Call it before any
 * thread uses this module (the CLI does it while parsing --no-hw); it
 * cannot be undone.
 */
void ae_gcm_force_software(void);

/* The tier ae_gcm_init() will use now. */
enum ae_gcm_tier ae_gcm_default_tier(void);

/* 1 if tier t can run on this CPU and build, else 0. */
int ae_gcm_tier_available(enum ae_gcm_tier t);

/* Short name of a tier: "soft-ct", "aesni-pclmul", "vaes-avx2",
 * "aes-pmull". */
const char *ae_gcm_tier_name(enum ae_gcm_tier t);

/*
 * Set up ctx for key with the default tier.  Returns 0.
 * The caller MUST call ae_gcm_wipe() when done: ctx holds round keys and H.
 */
int ae_gcm_init(ae_gcm_ctx *ctx, const uint8_t key[AE_GCM_KEY_LEN]);

/*
 * Test hook: as ae_gcm_init() but with tier t.  Returns AE_ENOTSUP if the
 * tier is not available here, AE_EINVAL for an unknown tier.
 */
int ae_gcm_init_tier(ae_gcm_ctx *ctx, const uint8_t key[AE_GCM_KEY_LEN], enum ae_gcm_tier t);

/* The tier a context was set up with. */
enum ae_gcm_tier ae_gcm_ctx_tier(const ae_gcm_ctx *ctx);

/* Erase every secret in ctx. */
void ae_gcm_wipe(ae_gcm_ctx *ctx);

/*
 * y <- (y xor X1)*H ... over nblocks full 16-byte blocks of in: the
 * GHASH update (SP 800-38D 6.4) under ctx's hash key, on ctx's tier.
 * For code that puts a GHASH together from pieces itself (the salvage
 * search's running sums, container/recscan.c).  Constant time.
 */
void ae_gcm_ghash(const ae_gcm_ctx *ctx, uint8_t y[16], const uint8_t *in,
    size_t nblocks);

/*
 * Encrypt len bytes of in to out and write the 16-byte tag.
 *   iv, ivlen: ivlen MUST be >= 1; 12 is the fast, recommended length,
 *              others go through GHASH as SP 800-38D says.  Each
 *              (key, IV) pair MUST be used only once.
 *   aad:       authenticated, not encrypted; may be NULL if aadlen is 0.
 *   in, out:   equal, or not overlapping at all.
 * Returns 0, AE_EINVAL for ivlen 0, AE_ETOOBIG if len > AE_GCM_MAX_LEN.
 */
int ae_gcm_seal(const ae_gcm_ctx *ctx, const uint8_t *iv, size_t ivlen,
    const uint8_t *aad, size_t aadlen, const uint8_t *in, size_t len,
    uint8_t *out, uint8_t tag[AE_GCM_TAG_LEN]);

/*
 * Check tag over (aad, in) and decrypt in to out (equal, or apart).
 *   taglen: 4, 8, or 12..16 bytes (SP 800-38D); the tag is compared in
 *           constant time over taglen bytes.
 * Returns 0 on success; AE_EAUTH if the tag does not verify, in which
 * case out holds no plaintext: most tiers check first and leave it
 * untouched; the VAES tiers decrypt as they hash (one pass, gcm.c) and
 * wipe out to zeros before returning (and, with in == out, the
 * ciphertext with it).  So out must be the caller's own buffer, never
 * the data's destination.  AE_EINVAL or AE_ETOOBIG for bad lengths as
 * ae_gcm_seal().
 */
int ae_gcm_open(const ae_gcm_ctx *ctx, const uint8_t *iv, size_t ivlen,
    const uint8_t *aad, size_t aadlen, const uint8_t *in, size_t len,
    const uint8_t *tag, size_t taglen, uint8_t *out);

#endif
