/*
 * test_gcm_api.c -- the GCM API's documented refusals, on every tier.
 *
 * gcm.h promises AE_EINVAL for an empty IV, a NULL IV or AAD pointer
 * with a length, a tag length outside 4, 8, 12..16, and an unknown tier;
 * AE_ETOOBIG for more than 2^36 - 32 bytes; AE_ENOTSUP for a tier the
 * CPU lacks.  Each refusal must leave the output buffer untouched.
 */
#include "check.h"

#include "common/error.h"
#include "crypto/gcm.h"

static int
untouched(const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != 0x5A)
			return 0;
	return 1;
}

static void
test_tier(enum ae_gcm_tier t)
{
	const char *name = ae_gcm_tier_name(t);
	uint8_t key[32] = { 1 }, iv[12] = { 2 }, aad[4] = { 3 };
	uint8_t in[64] = { 4 }, out[64], tag[16], ct[64];
	size_t bad_taglens[] = { 0, 1, 3, 5, 7, 9, 10, 11, 17, 32 };
	size_t i;
	ae_gcm_ctx ctx;

	if (ae_gcm_init_tier(&ctx, key, t) != 0)
		return;
	CHECK(ae_gcm_ctx_tier(&ctx) == t, "[%s] context reports another tier", name);

	memset(out, 0x5A, sizeof out);
	CHECK(ae_gcm_seal(&ctx, iv, 0, aad, 4, in, 64, out, tag) == AE_EINVAL,
	    "[%s] seal with an empty IV", name);
	CHECK(ae_gcm_seal(&ctx, NULL, 12, aad, 4, in, 64, out, tag) == AE_EINVAL,
	    "[%s] seal with a NULL IV", name);
	CHECK(ae_gcm_seal(&ctx, iv, 12, NULL, 4, in, 64, out, tag) == AE_EINVAL,
	    "[%s] seal with NULL AAD of length 4", name);
	/* The length check comes before any data is read, so a huge length
	 * with a small buffer is safe to pass here. */
	CHECK(ae_gcm_seal(&ctx, iv, 12, NULL, 0, in, (size_t)AE_GCM_MAX_LEN + 1, out,
	    tag) == AE_ETOOBIG, "[%s] seal over the GCM length limit", name);
	CHECK(untouched(out, sizeof out), "[%s] a refused seal wrote", name);

	CHECK(ae_gcm_seal(&ctx, iv, 12, NULL, 0, in, 0, out, tag) == 0,
	    "[%s] empty plaintext with no AAD", name);
	CHECK(ae_gcm_seal(&ctx, iv, 12, aad, 4, in, 64, ct, tag) == 0,
	    "[%s] seal", name);

	memset(out, 0x5A, sizeof out);
	for (i = 0; i < sizeof bad_taglens / sizeof bad_taglens[0]; i++)
		CHECK(ae_gcm_open(&ctx, iv, 12, aad, 4, ct, 64, tag, bad_taglens[i],
		    out) == AE_EINVAL, "[%s] open with a %zu-byte tag", name,
		    bad_taglens[i]);
	CHECK(ae_gcm_open(&ctx, iv, 0, aad, 4, ct, 64, tag, 16, out) == AE_EINVAL,
	    "[%s] open with an empty IV", name);
	CHECK(ae_gcm_open(&ctx, iv, 12, NULL, 4, ct, 64, tag, 16, out) == AE_EINVAL,
	    "[%s] open with NULL AAD of length 4", name);
	CHECK(ae_gcm_open(&ctx, iv, 12, NULL, 0, ct, (size_t)AE_GCM_MAX_LEN + 1, tag,
	    16, out) == AE_ETOOBIG, "[%s] open over the GCM length limit", name);
	CHECK(untouched(out, sizeof out), "[%s] a refused open wrote", name);

	/* Truncated tags that are allowed still authenticate... */
	CHECK(ae_gcm_open(&ctx, iv, 12, aad, 4, ct, 64, tag, 12, out) == 0
	    && memcmp(out, in, 64) == 0, "[%s] open with a 12-byte tag", name);
	/* ...and only the bytes given are compared, all of them. */
	tag[11] ^= 1;
	CHECK(ae_gcm_open(&ctx, iv, 12, aad, 4, ct, 64, tag, 12, out) == AE_EAUTH,
	    "[%s] last byte of a 12-byte tag not checked", name);
	CHECK(ae_gcm_open(&ctx, iv, 12, aad, 4, ct, 64, tag, 8, out) == 0,
	    "[%s] an 8-byte tag must ignore byte 11", name);
	ae_gcm_wipe(&ctx);
}

int
main(void)
{
	uint8_t key[32] = { 0 };
	ae_gcm_ctx ctx;
	int t;

	CHECK(ae_gcm_init_tier(&ctx, key, (enum ae_gcm_tier)AE_GCM_TIER_COUNT) == AE_EINVAL,
	    "an unknown tier must be refused");
	CHECK(ae_gcm_init_tier(&ctx, key, (enum ae_gcm_tier)-1) == AE_EINVAL,
	    "a negative tier must be refused");
	CHECK(!ae_gcm_tier_available((enum ae_gcm_tier)AE_GCM_TIER_COUNT),
	    "an unknown tier is not available");
	CHECK(strcmp(ae_gcm_tier_name((enum ae_gcm_tier)AE_GCM_TIER_COUNT), "unknown") == 0,
	    "an unknown tier's name");
	CHECK(ae_gcm_tier_available(AE_GCM_TIER_SOFT), "tier 0 is always available");
	CHECK(ae_gcm_tier_available(ae_gcm_default_tier()), "the default tier runs here");
	for (t = 0; t < AE_GCM_TIER_COUNT; t++) {
		if (ae_gcm_tier_available((enum ae_gcm_tier)t)) {
			test_tier((enum ae_gcm_tier)t);
			continue;
		}
		CHECK(ae_gcm_init_tier(&ctx, key, (enum ae_gcm_tier)t) == AE_ENOTSUP,
		    "tier %d is unavailable but init did not say AE_ENOTSUP", t);
		t_skip(ae_gcm_tier_name((enum ae_gcm_tier)t));
	}
	CHECK(strcmp(ae_strerror(AE_EAUTH), "authentication failed") == 0,
	    "ae_strerror(AE_EAUTH)");
	CHECK(strcmp(ae_strerror(12345), "unknown error") == 0,
	    "ae_strerror of an unknown code");
	return t_finish("gcm_api");
}
