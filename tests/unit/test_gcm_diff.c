/*
 * test_gcm_diff.c -- every tier must agree with tier 0, byte for byte.
 *
 * usage: test_gcm_diff [TESTS-DIR]     (AE_SEED=N replays a run)
 *
 * Random keys, IVs (mostly 96-bit, some other lengths), AAD and
 * plaintext lengths from 0 to 70,000 bytes.  For each case and tier:
 * out-of-place and in-place seal give the reference ciphertext and tag,
 * a canary after each output buffer survives, open restores the
 * plaintext, and open with a flipped bit anywhere is rejected without
 * writing a byte.
 */
#include "check.h"

#include "common/error.h"
#include "crypto/gcm.h"

#include <time.h>

#define CANARY 16
#define CASES 400

static size_t
pick_len(uint64_t *s)
{
	switch (t_rand(s) % 4) {
	case 0: return t_rand(s) % 64;                 /* tails */
	case 1: return t_rand(s) % 1024;               /* a few batches */
	case 2: return 16 * (t_rand(s) % 300) + (t_rand(s) % 2 ? 0 : 1);
	default: return t_rand(s) % 70001;             /* bulk */
	}
}

static int
canary_ok(const uint8_t *p)
{
	int i;

	for (i = 0; i < CANARY; i++)
		if (p[i] != 0xC3)
			return 0;
	return 1;
}

int
main(void)
{
	const char *env = getenv("AE_SEED");
	uint64_t seed = env ? strtoull(env, NULL, 0) : (uint64_t)time(NULL);
	uint64_t s = seed;
	int c, t;

	printf("test_gcm_diff: seed %llu (replay with AE_SEED=%llu)\n",
	    (unsigned long long)seed, (unsigned long long)seed);
	for (t = 1; t < AE_GCM_TIER_COUNT; t++)
		if (!ae_gcm_tier_available((enum ae_gcm_tier)t))
			t_skip(ae_gcm_tier_name((enum ae_gcm_tier)t));

	for (c = 0; c < CASES; c++) {
		uint8_t key[32], iv[64], aad[600], reftag[16], tag[16];
		size_t ivlen = t_rand(&s) % 8 ? 12 : 1 + t_rand(&s) % 64;
		size_t aadlen = t_rand(&s) % 3 ? t_rand(&s) % 600 : 0;
		size_t len = pick_len(&s);
		uint8_t *pt = malloc(len + 1), *ref = malloc(len + CANARY);
		uint8_t *out = malloc(len + CANARY), *io = malloc(len + CANARY);
		ae_gcm_ctx ctx;

		t_fill(&s, key, sizeof key);
		t_fill(&s, iv, ivlen);
		t_fill(&s, aad, aadlen);
		t_fill(&s, pt, len);

		ae_gcm_init_tier(&ctx, key, AE_GCM_TIER_SOFT);
		memset(ref, 0xC3, len + CANARY);
		CHECK(ae_gcm_seal(&ctx, iv, ivlen, aad, aadlen, pt, len, ref, reftag)
		    == 0, "case %d: reference seal failed", c);
		CHECK(canary_ok(ref + len), "case %d: soft seal overran", c);
		ae_gcm_wipe(&ctx);

		for (t = 0; t < AE_GCM_TIER_COUNT; t++) {
			const char *name = ae_gcm_tier_name((enum ae_gcm_tier)t);
			size_t flip;
			int err;

			if (ae_gcm_init_tier(&ctx, key, (enum ae_gcm_tier)t) != 0)
				continue;
			/* out of place */
			memset(out, 0xC3, len + CANARY);
			ae_gcm_seal(&ctx, iv, ivlen, aad, aadlen, pt, len, out, tag);
			CHECK_MEM(out, ref, len, "case %d len %zu [%s]: ciphertext differs",
			    c, len, name);
			CHECK_MEM(tag, reftag, 16, "case %d len %zu [%s]: tag differs",
			    c, len, name);
			CHECK(canary_ok(out + len), "case %d [%s]: seal overran", c, name);
			/* in place */
			memcpy(io, pt, len);
			memset(io + len, 0xC3, CANARY);
			ae_gcm_seal(&ctx, iv, ivlen, aad, aadlen, io, len, io, tag);
			CHECK_MEM(io, ref, len, "case %d [%s]: in-place seal differs",
			    c, name);
			CHECK_MEM(tag, reftag, 16, "case %d [%s]: in-place tag differs",
			    c, name);
			err = ae_gcm_open(&ctx, iv, ivlen, aad, aadlen, io, len, tag, 16, io);
			CHECK(err == 0 && memcmp(io, pt, len) == 0,
			    "case %d [%s]: in-place open failed", c, name);
			CHECK(canary_ok(io + len), "case %d [%s]: open overran", c, name);
			/* any single-bit change is rejected, and nothing written */
			memset(out, 0x5A, len + CANARY);
			flip = t_rand(&s) % (len + aadlen + 16);
			memcpy(io, ref, len);
			memcpy(tag, reftag, 16);
			if (flip < len)
				io[flip] ^= (uint8_t)(1u << (t_rand(&s) % 8));
			else if (flip < len + aadlen)
				aad[flip - len] ^= 1;
			else
				tag[flip - len - aadlen] ^= 0x80;
			err = ae_gcm_open(&ctx, iv, ivlen, aad, aadlen, io, len, tag, 16, out);
			CHECK(err == AE_EAUTH, "case %d [%s]: tampered input accepted",
			    c, name);
			{
				size_t i;
				int untouched = 1, zeroed = 1, canary = 1;

				/* no plaintext left: untouched, or wiped
				 * by a one-pass tier; never past the end */
				for (i = 0; i < len; i++) {
					untouched &= out[i] == 0x5A;
					zeroed &= out[i] == 0;
				}
				for (i = len; i < len + CANARY; i++)
					canary &= out[i] == 0x5A;
				CHECK((untouched || zeroed) && canary,
				    "case %d [%s]: rejected open left "
				    "plaintext or wrote past the end", c, name);
			}
			if (flip >= len && flip < len + aadlen)
				aad[flip - len] ^= 1;
			ae_gcm_wipe(&ctx);
		}
		free(pt); free(ref); free(out); free(io);
	}
	return t_finish("gcm_diff");
}
