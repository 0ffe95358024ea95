/*
 * cbc.c -- AES-256-CBC decryption, dispatched by tier (contract in
 * cbc.h).
 *
 * The AES-NI path uses the "equivalent inverse cipher" (FIPS 197
 * section 5.3.5): AESDEC wants the middle round keys passed through
 * InvMixColumns (AESIMC).  The encryption schedule is taken from the
 * GCM tier's key setup rather than written a second time.  Eight blocks
 * are decrypted at once, as CBC decryption has no chain between blocks
 * until the final XOR.
 */
#include "config.h"
#include "cbc.h"
#include "common/error.h"
#include "gcm_ni.h"
#include "common/wipe.h"

#include <string.h>

#ifdef HAVE_TARGET_AESNI
#include "gcm_x86.h"

static NI void
ni_schedule(struct ae_cbc_key *k, const uint8_t key[32])
{
	struct ae_gcm_ni_key ekey, *ek = &ekey;
	int r;

	ae_gcm_ni_init(ek, key);
	memcpy(k->dk[0], ek->rk[14], 16);
	for (r = 1; r < 14; r++)
		_mm_store_si128((__m128i *)k->dk[r], _mm_aesimc_si128(
		    _mm_load_si128((const __m128i *)ek->rk[14 - r])));
	memcpy(k->dk[14], ek->rk[0], 16);
	ae_wipe(ek, sizeof *ek);
}

#define DK(r) _mm_load_si128((const __m128i *)k->dk[r])

static NI void
ni_decrypt(const struct ae_cbc_key *k, uint8_t iv[16], const uint8_t *in,
    uint8_t *out, size_t nblocks)
{
	__m128i prev = _mm_loadu_si128((const __m128i *)iv);
	__m128i b[8], c[8];
	int i, r;

	while (nblocks >= 8) {
		UNROLL for (i = 0; i < 8; i++) {
			c[i] = _mm_loadu_si128((const __m128i *)in + i);
			b[i] = _mm_xor_si128(c[i], DK(0));
		}
		UNROLL for (r = 1; r < 14; r++) {
			__m128i rk = DK(r);

			UNROLL for (i = 0; i < 8; i++)
				b[i] = _mm_aesdec_si128(b[i], rk);
		}
		UNROLL for (i = 0; i < 8; i++) {
			b[i] = _mm_aesdeclast_si128(b[i], DK(14));
			b[i] = _mm_xor_si128(b[i], i == 0 ? prev : c[i - 1]);
			_mm_storeu_si128((__m128i *)out + i, b[i]);
		}
		prev = c[7];
		in += 128;
		out += 128;
		nblocks -= 8;
	}
	for (; nblocks > 0; nblocks--) {
		__m128i x = _mm_loadu_si128((const __m128i *)in);

		b[0] = _mm_xor_si128(x, DK(0));
		UNROLL for (r = 1; r < 14; r++)
			b[0] = _mm_aesdec_si128(b[0], DK(r));
		b[0] = _mm_xor_si128(_mm_aesdeclast_si128(b[0], DK(14)), prev);
		_mm_storeu_si128((__m128i *)out, b[0]);
		prev = x;
		in += 16;
		out += 16;
	}
	_mm_storeu_si128((__m128i *)iv, prev);
}
#endif

int
ae_cbc_init_tier(struct ae_cbc_key *k, const uint8_t key[32],
    enum ae_gcm_tier t)
{
	memset(k, 0, sizeof *k);
	switch (t) {
	case AE_GCM_TIER_SOFT:
		k->tier = AE_GCM_TIER_SOFT;
		ae_aes_ct_init(&k->ct, key);
		return 0;
	case AE_GCM_TIER_NI:
	case AE_GCM_TIER_VAES:
	case AE_GCM_TIER_VAES512:   /* (whose CPUs have AES-NI: it was
	                             * left out, and such a CPU fell back to
	                             * the software tier) */
#ifdef HAVE_TARGET_AESNI
		if (!ae_gcm_ni_available())
			return AE_ENOTSUP;
		k->tier = AE_GCM_TIER_NI;
		ni_schedule(k, key);
		return 0;
#else
		return AE_ENOTSUP;
#endif
	default:
		return AE_ENOTSUP;
	}
}

void
ae_cbc_init(struct ae_cbc_key *k, const uint8_t key[32])
{
	if (ae_cbc_init_tier(k, key, ae_gcm_default_tier()) != 0)
		(void)ae_cbc_init_tier(k, key, AE_GCM_TIER_SOFT);
}

void
ae_cbc_decrypt(const struct ae_cbc_key *k, uint8_t iv[16],
    const uint8_t *in, uint8_t *out, size_t nblocks)
{
#ifdef HAVE_TARGET_AESNI
	if (k->tier == AE_GCM_TIER_NI) {
		ni_decrypt(k, iv, in, out, nblocks);
		return;
	}
#endif
	ae_aes_ct_cbc_decrypt(&k->ct, iv, in, out, nblocks);
}

void
ae_cbc_wipe(struct ae_cbc_key *k)
{
	ae_wipe(k, sizeof *k);
}
