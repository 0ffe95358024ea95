/*
 * gcm.c -- the mode around the tiers: J0, AAD, tails, lengths, tag
 * (contract in gcm.h).
 *
 * Each tier supplies only full-block bulk operations; everything that is
 * the same for all tiers (partial blocks, the length block, the tag
 * check) lives here once, so the tiers cannot drift apart on it.
 *
 * ae_gcm_open() makes two passes on most tiers: GHASH over the
 * ciphertext first, then, only if the tag matches, CTR decryption into
 * out.  The VAES tiers fuse them into one pass (ghash_ctr32: GHASH of a
 * step's ciphertext rides in the AES rounds that decrypt it), which
 * writes the decryption into out before the tag is known; so a failed
 * open wipes out before it returns, and no unauthenticated plaintext
 * outlives the call.  Every caller's out is the library's own buffer,
 * never the data's destination (gcm.h).
 */
#include "config.h"
#include "gcm.h"
#include "common/bytes.h"
#include "common/error.h"
#include "cpu.h"
#include "common/wipe.h"

#include <string.h>

/* What a tier provides: full blocks only. */
struct ae_gcm_impl {
	enum ae_gcm_tier tier;
	const char *name;
	int (*available)(void);
	void (*init)(ae_gcm_ctx *c, const uint8_t key[32]);
	void (*block)(const ae_gcm_ctx *c, const uint8_t in[16], uint8_t out[16]);
	void (*ghash)(const ae_gcm_ctx *c, uint8_t y[16], const uint8_t *in,
	    size_t n);
	void (*ctr32)(const ae_gcm_ctx *c, uint8_t ctr[16], const uint8_t *in,
	    uint8_t *out, size_t n);
	void (*ctr32_ghash)(const ae_gcm_ctx *c, uint8_t ctr[16], uint8_t y[16],
	    const uint8_t *in, uint8_t *out, size_t n);
	/* optional: opening in one pass, GHASH of in while in is
	 * decrypted to out (NULL: two passes) */
	void (*ghash_ctr32)(const ae_gcm_ctx *c, uint8_t ctr[16], uint8_t y[16],
	    const uint8_t *in, uint8_t *out, size_t n);
};

/* ---- tier 0 ---- */

static int
soft_available(void)
{
	return 1;
}

static void
soft_init(ae_gcm_ctx *c, const uint8_t key[32])
{
	uint8_t h[16] = { 0 };

	ae_aes_ct_init(&c->u.soft.aes, key);
	ae_aes_ct_encrypt_block(&c->u.soft.aes, h, h);
	ae_ghash_ct_init(&c->u.soft.gh, h);
	ae_wipe(h, sizeof h);
}

static void
soft_block(const ae_gcm_ctx *c, const uint8_t in[16], uint8_t out[16])
{
	ae_aes_ct_encrypt_block(&c->u.soft.aes, in, out);
}

static void
soft_ghash(const ae_gcm_ctx *c, uint8_t y[16], const uint8_t *in, size_t n)
{
	ae_ghash_ct_update(&c->u.soft.gh, y, in, n);
}

static void
soft_ctr32(const ae_gcm_ctx *c, uint8_t ctr[16], const uint8_t *in,
    uint8_t *out, size_t n)
{
	ae_aes_ct_ctr32(&c->u.soft.aes, ctr, in, out, n);
}

/* Bounded slices keep the ciphertext in L1 between the two passes. */
static void
soft_ctr32_ghash(const ae_gcm_ctx *c, uint8_t ctr[16], uint8_t y[16],
    const uint8_t *in, uint8_t *out, size_t n)
{
	while (n > 0) {
		size_t m = n < 256 ? n : 256;

		ae_aes_ct_ctr32(&c->u.soft.aes, ctr, in, out, m);
		ae_ghash_ct_update(&c->u.soft.gh, y, out, m);
		in += 16 * m;
		out += 16 * m;
		n -= m;
	}
}

/* ---- tier 1 ---- */

#ifdef HAVE_TARGET_AESNI
static void
ni_init(ae_gcm_ctx *c, const uint8_t key[32])
{
	ae_gcm_ni_init(&c->u.ni, key);
}

static void
ni_block(const ae_gcm_ctx *c, const uint8_t in[16], uint8_t out[16])
{
	ae_gcm_ni_encrypt_block(&c->u.ni, in, out);
}

static void
ni_ghash(const ae_gcm_ctx *c, uint8_t y[16], const uint8_t *in, size_t n)
{
	ae_gcm_ni_ghash(&c->u.ni, y, in, n);
}

static void
ni_ctr32(const ae_gcm_ctx *c, uint8_t ctr[16], const uint8_t *in, uint8_t *out,
    size_t n)
{
	ae_gcm_ni_ctr32(&c->u.ni, ctr, in, out, n);
}

static void
ni_ctr32_ghash(const ae_gcm_ctx *c, uint8_t ctr[16], uint8_t y[16],
    const uint8_t *in, uint8_t *out, size_t n)
{
	ae_gcm_ni_ctr32_ghash(&c->u.ni, ctr, y, in, out, n);
}
#endif

/* ---- tier 2 ---- */

#if defined(HAVE_TARGET_AESNI) && defined(HAVE_TARGET_VAES_AVX2)
static void
vaes_init(ae_gcm_ctx *c, const uint8_t key[32])
{
	ae_gcm_vaes_init(&c->u.vaes, key);
}

static void
vaes_block(const ae_gcm_ctx *c, const uint8_t in[16], uint8_t out[16])
{
	ae_gcm_ni_encrypt_block(&c->u.vaes.ni, in, out);
}

static void
vaes_ghash(const ae_gcm_ctx *c, uint8_t y[16], const uint8_t *in, size_t n)
{
	ae_gcm_vaes_ghash(&c->u.vaes, y, in, n);
}

static void
vaes_ctr32(const ae_gcm_ctx *c, uint8_t ctr[16], const uint8_t *in,
    uint8_t *out, size_t n)
{
	ae_gcm_vaes_ctr32(&c->u.vaes, ctr, in, out, n);
}

static void
vaes_ghash_ctr32(const ae_gcm_ctx *c, uint8_t ctr[16], uint8_t y[16],
    const uint8_t *in, uint8_t *out, size_t n)
{
	ae_gcm_vaes_ghash_ctr32(&c->u.vaes, ctr, y, in, out, n);
}

static void
vaes_ctr32_ghash(const ae_gcm_ctx *c, uint8_t ctr[16], uint8_t y[16],
    const uint8_t *in, uint8_t *out, size_t n)
{
	ae_gcm_vaes_ctr32_ghash(&c->u.vaes, ctr, y, in, out, n);
}
#endif

/* ---- tier 3 ---- */

#ifdef HAVE_TARGET_ARMV8_CRYPTO
static void
arm_init(ae_gcm_ctx *c, const uint8_t key[32])
{
	ae_gcm_arm_init(&c->u.arm, key);
}

static void
arm_block(const ae_gcm_ctx *c, const uint8_t in[16], uint8_t out[16])
{
	ae_gcm_arm_encrypt_block(&c->u.arm, in, out);
}

static void
arm_ghash(const ae_gcm_ctx *c, uint8_t y[16], const uint8_t *in, size_t n)
{
	ae_gcm_arm_ghash(&c->u.arm, y, in, n);
}

static void
arm_ctr32(const ae_gcm_ctx *c, uint8_t ctr[16], const uint8_t *in,
    uint8_t *out, size_t n)
{
	ae_gcm_arm_ctr32(&c->u.arm, ctr, in, out, n);
}

static void
arm_ctr32_ghash(const ae_gcm_ctx *c, uint8_t ctr[16], uint8_t y[16],
    const uint8_t *in, uint8_t *out, size_t n)
{
	ae_gcm_arm_ctr32_ghash(&c->u.arm, ctr, y, in, out, n);
}
#endif

/* ---- tier 4 ---- */

#if defined(HAVE_TARGET_AESNI) && defined(HAVE_TARGET_AVX512)
static void
vaes512_init(ae_gcm_ctx *c, const uint8_t key[32])
{
	ae_gcm_vaes512_init(&c->u.vaes512, key);
}

static void
vaes512_block(const ae_gcm_ctx *c, const uint8_t in[16], uint8_t out[16])
{
	ae_gcm_ni_encrypt_block(&c->u.vaes512.ni, in, out);
}

static void
vaes512_ghash(const ae_gcm_ctx *c, uint8_t y[16], const uint8_t *in,
    size_t n)
{
	ae_gcm_vaes512_ghash(&c->u.vaes512, y, in, n);
}

static void
vaes512_ctr32(const ae_gcm_ctx *c, uint8_t ctr[16], const uint8_t *in,
    uint8_t *out, size_t n)
{
	ae_gcm_vaes512_ctr32(&c->u.vaes512, ctr, in, out, n);
}

static void
vaes512_ghash_ctr32(const ae_gcm_ctx *c, uint8_t ctr[16], uint8_t y[16],
    const uint8_t *in, uint8_t *out, size_t n)
{
	ae_gcm_vaes512_ghash_ctr32(&c->u.vaes512, ctr, y, in, out, n);
}

static void
vaes512_ctr32_ghash(const ae_gcm_ctx *c, uint8_t ctr[16], uint8_t y[16],
    const uint8_t *in, uint8_t *out, size_t n)
{
	ae_gcm_vaes512_ctr32_ghash(&c->u.vaes512, ctr, y, in, out, n);
}
#endif

static const struct ae_gcm_impl impls[AE_GCM_TIER_COUNT] = {
	{ AE_GCM_TIER_SOFT, "soft-ct", soft_available, soft_init, soft_block,
	  soft_ghash, soft_ctr32, soft_ctr32_ghash, NULL },
#ifdef HAVE_TARGET_AESNI
	{ AE_GCM_TIER_NI, "aesni-pclmul", ae_gcm_ni_available, ni_init, ni_block,
	  ni_ghash, ni_ctr32, ni_ctr32_ghash, NULL },
#else
	{ AE_GCM_TIER_NI, "aesni-pclmul", ae_gcm_ni_available, NULL, NULL, NULL,
	  NULL, NULL, NULL },
#endif
#if defined(HAVE_TARGET_AESNI) && defined(HAVE_TARGET_VAES_AVX2)
	{ AE_GCM_TIER_VAES, "vaes-avx2", ae_gcm_vaes_available, vaes_init, vaes_block,
	  vaes_ghash, vaes_ctr32, vaes_ctr32_ghash, vaes_ghash_ctr32 },
#else
	{ AE_GCM_TIER_VAES, "vaes-avx2", ae_gcm_vaes_available, NULL, NULL, NULL,
	  NULL, NULL, NULL },
#endif
#ifdef HAVE_TARGET_ARMV8_CRYPTO
	{ AE_GCM_TIER_ARMV8, "aes-pmull", ae_gcm_arm_available, arm_init, arm_block,
	  arm_ghash, arm_ctr32, arm_ctr32_ghash, NULL },
#else
	{ AE_GCM_TIER_ARMV8, "aes-pmull", ae_gcm_arm_available, NULL, NULL, NULL,
	  NULL, NULL, NULL },
#endif
#if defined(HAVE_TARGET_AESNI) && defined(HAVE_TARGET_AVX512)
	{ AE_GCM_TIER_VAES512, "vaes-avx512", ae_gcm_vaes512_available,
	  vaes512_init, vaes512_block, vaes512_ghash, vaes512_ctr32,
	  vaes512_ctr32_ghash, vaes512_ghash_ctr32 },
#else
	{ AE_GCM_TIER_VAES512, "vaes-avx512", ae_gcm_vaes512_available, NULL,
	  NULL, NULL, NULL, NULL, NULL },
#endif
};

/* Written only by ae_gcm_force_software(), before threads start. */
static int g_force_soft;

void
ae_gcm_force_software(void)
{
	g_force_soft = 1;
}

int
ae_gcm_tier_available(enum ae_gcm_tier t)
{
	if ((unsigned)t >= AE_GCM_TIER_COUNT)
		return 0;
	return impls[t].available();
}

enum ae_gcm_tier
ae_gcm_default_tier(void)
{
	int t;

	if (g_force_soft)
		return AE_GCM_TIER_SOFT;
	for (t = AE_GCM_TIER_COUNT - 1; t > AE_GCM_TIER_SOFT; t--) {
		/* where 512-bit vectors slow the clock, the whole core would
		 * pay for a faster cipher: the 256-bit tier instead */
		if (t == AE_GCM_TIER_VAES512 && ae_cpu_features()->zmm_slow)
			continue;
		if (impls[t].available())
			return (enum ae_gcm_tier)t;
	}
	return AE_GCM_TIER_SOFT;
}

const char *
ae_gcm_tier_name(enum ae_gcm_tier t)
{
	if ((unsigned)t >= AE_GCM_TIER_COUNT)
		return "unknown";
	return impls[t].name;
}

int
ae_gcm_init_tier(ae_gcm_ctx *ctx, const uint8_t key[AE_GCM_KEY_LEN], enum ae_gcm_tier t)
{
	if ((unsigned)t >= AE_GCM_TIER_COUNT)
		return AE_EINVAL;
	if (!impls[t].available())
		return AE_ENOTSUP;
	memset(ctx, 0, sizeof *ctx);
	ctx->impl = &impls[t];
	ctx->impl->init(ctx, key);
	return AE_OK;
}

int
ae_gcm_init(ae_gcm_ctx *ctx, const uint8_t key[AE_GCM_KEY_LEN])
{
	return ae_gcm_init_tier(ctx, key, ae_gcm_default_tier());
}

enum ae_gcm_tier
ae_gcm_ctx_tier(const ae_gcm_ctx *ctx)
{
	return ctx->impl->tier;
}

void
ae_gcm_wipe(ae_gcm_ctx *ctx)
{
	ae_wipe(ctx, sizeof *ctx);
}

void
ae_gcm_ghash(const ae_gcm_ctx *ctx, uint8_t y[16], const uint8_t *in,
    size_t nblocks)
{
	if (nblocks > 0)
		ctx->impl->ghash(ctx, y, in, nblocks);
}

/* GHASH over data of any length, zero-padding the last block. */
static void
ghash_padded(const ae_gcm_ctx *c, uint8_t y[16], const uint8_t *p, size_t len)
{
	uint8_t last[16];
	size_t full = len / 16;

	if (full > 0)
		c->impl->ghash(c, y, p, full);
	if (len % 16) {
		memset(last, 0, sizeof last);
		memcpy(last, p + 16 * full, len % 16);
		c->impl->ghash(c, y, last, 1);
		ae_wipe(last, sizeof last);
	}
}

/* J0: IV || 0^31 || 1 for 96-bit IVs, else GHASH(IV pad || 0^64 || [ivlen]64). */
static void
derive_j0(const ae_gcm_ctx *c, const uint8_t *iv, size_t ivlen, uint8_t j0[16])
{
	uint8_t lens[16];

	if (ivlen == AE_GCM_IV_LEN) {
		memcpy(j0, iv, 12);
		j0[12] = j0[13] = j0[14] = 0;
		j0[15] = 1;
		return;
	}
	memset(j0, 0, 16);
	ghash_padded(c, j0, iv, ivlen);
	memset(lens, 0, 8);
	store_be64(lens + 8, (uint64_t)ivlen * 8);
	c->impl->ghash(c, j0, lens, 1);
}

/* CTR over any length: full blocks in bulk, the tail through a buffer. */
static void
ctr_any(const ae_gcm_ctx *c, uint8_t ctr[16], const uint8_t *in, uint8_t *out,
    size_t len)
{
	uint8_t buf[16];
	size_t full = len / 16, rem = len % 16;

	if (full > 0)
		c->impl->ctr32(c, ctr, in, out, full);
	if (rem) {
		memset(buf, 0, sizeof buf);
		memcpy(buf, in + 16 * full, rem);
		c->impl->ctr32(c, ctr, buf, buf, 1);
		memcpy(out + 16 * full, buf, rem);
		ae_wipe(buf, sizeof buf);
	}
}

/* Start the GHASH with the AAD and return the first data counter. */
static int
begin(const ae_gcm_ctx *c, const uint8_t *iv, size_t ivlen, const uint8_t *aad,
    size_t aadlen, size_t len, uint8_t j0[16], uint8_t ctr[16], uint8_t y[16])
{
	uint32_t n;

	if (ivlen == 0 || iv == NULL || (aadlen > 0 && aad == NULL))
		return AE_EINVAL;
	if ((uint64_t)len > AE_GCM_MAX_LEN)
		return AE_ETOOBIG;
	derive_j0(c, iv, ivlen, j0);
	memcpy(ctr, j0, 16);
	n = load_be32(ctr + 12) + 1;   /* inc32 */
	store_be32(ctr + 12, n);
	memset(y, 0, 16);
	ghash_padded(c, y, aad, aadlen);
	return AE_OK;
}

/* Fold in the length block and mask with E(K, J0). */
static void
finish(const ae_gcm_ctx *c, const uint8_t j0[16], size_t aadlen, size_t len,
    uint8_t y[16], uint8_t tag[16])
{
	uint8_t lens[16], ek[16];
	int i;

	store_be64(lens, (uint64_t)aadlen * 8);
	store_be64(lens + 8, (uint64_t)len * 8);
	c->impl->ghash(c, y, lens, 1);
	c->impl->block(c, j0, ek);
	for (i = 0; i < 16; i++)
		tag[i] = y[i] ^ ek[i];
	ae_wipe(ek, sizeof ek);
}

int
ae_gcm_seal(const ae_gcm_ctx *c, const uint8_t *iv, size_t ivlen,
    const uint8_t *aad, size_t aadlen, const uint8_t *in, size_t len,
    uint8_t *out, uint8_t tag[AE_GCM_TAG_LEN])
{
	uint8_t j0[16], ctr[16], y[16];
	size_t full = len / 16;
	int err;

	if ((err = begin(c, iv, ivlen, aad, aadlen, len, j0, ctr, y)) != 0)
		return err;
	if (full > 0)
		c->impl->ctr32_ghash(c, ctr, y, in, out, full);
	if (len % 16) {
		ctr_any(c, ctr, in + 16 * full, out + 16 * full, len % 16);
		ghash_padded(c, y, out + 16 * full, len % 16);
	}
	finish(c, j0, aadlen, len, y, tag);
	ae_wipe(j0, sizeof j0);
	ae_wipe(y, sizeof y);
	return AE_OK;
}

int
ae_gcm_open(const ae_gcm_ctx *c, const uint8_t *iv, size_t ivlen,
    const uint8_t *aad, size_t aadlen, const uint8_t *in, size_t len,
    const uint8_t *tag, size_t taglen, uint8_t *out)
{
	uint8_t j0[16], ctr[16], y[16], want[16];
	int err, ok, fused;

	if (taglen != 4 && taglen != 8 && (taglen < 12 || taglen > 16))
		return AE_EINVAL;
	if ((err = begin(c, iv, ivlen, aad, aadlen, len, j0, ctr, y)) != 0)
		return err;
	fused = c->impl->ghash_ctr32 != NULL && len >= 16;
	if (fused) {
		size_t full = len / 16;

		/* one pass over the full blocks; the tail hashed before
		 * it is decrypted (in may be out) */
		c->impl->ghash_ctr32(c, ctr, y, in, out, full);
		ghash_padded(c, y, in + 16 * full, len % 16);
		ctr_any(c, ctr, in + 16 * full, out + 16 * full, len % 16);
	} else
		ghash_padded(c, y, in, len);
	finish(c, j0, aadlen, len, y, want);
	ok = ae_ct_equal(want, tag, taglen);
	AE_DECLASSIFY(&ok, sizeof ok);   /* accept/reject is public */
	ae_wipe(want, sizeof want);
	ae_wipe(y, sizeof y);
	ae_wipe(j0, sizeof j0);
	if (!ok) {
		/* (the fused pass decrypted already: nothing of it stays) */
		if (fused)
			ae_wipe(out, len);
		return AE_EAUTH;
	}
	if (!fused)
		ctr_any(c, ctr, in, out, len);
	return AE_OK;
}
