/*
 * test_aes_ct.c -- the block cipher and counter of each tier, directly.
 *
 * FIPS-197 appendix C.3 for the single block, and inc32 across the 2^32
 * wrap (40 blocks, so the 8- and 16-block bulk paths cross it too): the counter must wrap to 0 and leave the first 12 bytes alone,
 * checked against single-block encryptions of the expected counters.
 */
#include "config.h"
#include "check.h"

#include "crypto/aes_ct.h"
#include "crypto/gcm_ni.h"
#include "crypto/gcm_vaes.h"
#include "crypto/gcm_vaes512.h"

static const char *fips_key =
    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
static const char *fips_pt = "00112233445566778899aabbccddeeff";
static const char *fips_ct = "8ea2b7ca516745bfeafc49904b496089";

/* One tier's block and ctr32 functions. */
struct tier {
	const char *name;
	void (*block)(const void *k, const uint8_t in[16], uint8_t out[16]);
	void (*ctr)(const void *k, uint8_t ctr[16], const uint8_t *in,
	    uint8_t *out, size_t n);
	const void *key;
};

static void
ct_block(const void *k, const uint8_t in[16], uint8_t out[16])
{
	ae_aes_ct_encrypt_block(k, in, out);
}

static void
ct_ctr(const void *k, uint8_t ctr[16], const uint8_t *in, uint8_t *out,
    size_t n)
{
	ae_aes_ct_ctr32(k, ctr, in, out, n);
}

#ifdef HAVE_TARGET_AESNI
static void
ni_block(const void *k, const uint8_t in[16], uint8_t out[16])
{
	ae_gcm_ni_encrypt_block(k, in, out);
}

static void
ni_ctr(const void *k, uint8_t ctr[16], const uint8_t *in, uint8_t *out,
    size_t n)
{
	ae_gcm_ni_ctr32(k, ctr, in, out, n);
}
#endif

#if defined(HAVE_TARGET_AESNI) && defined(HAVE_TARGET_VAES_AVX2)
static void
vaes_block(const void *k, const uint8_t in[16], uint8_t out[16])
{
	ae_gcm_ni_encrypt_block(&((const struct ae_gcm_vaes_key *)k)->ni, in, out);
}

static void
vaes_ctr(const void *k, uint8_t ctr[16], const uint8_t *in, uint8_t *out,
    size_t n)
{
	ae_gcm_vaes_ctr32(k, ctr, in, out, n);
}
#endif

#if defined(HAVE_TARGET_AESNI) && defined(HAVE_TARGET_AVX512)
static void
vaes512_block(const void *k, const uint8_t in[16], uint8_t out[16])
{
	ae_gcm_ni_encrypt_block(&((const struct ae_gcm_vaes512_key *)k)->ni, in,
	    out);
}

static void
vaes512_ctr(const void *k, uint8_t ctr[16], const uint8_t *in, uint8_t *out,
    size_t n)
{
	ae_gcm_vaes512_ctr32(k, ctr, in, out, n);
}
#endif

static void
test_tier(const struct tier *t)
{
	uint8_t *pt, *want, out[16], ctr[16], ctr0[16], blk[16];
	uint8_t data[40 * 16], ks[40 * 16];
	size_t n;
	int i, nb;

	pt = t_unhex(fips_pt, 32, &n);
	want = t_unhex(fips_ct, 32, &n);
	t->block(t->key, pt, out);
	CHECK_MEM(out, want, 16, "[%s] FIPS-197 C.3 block", t->name);
	/* in == out */
	memcpy(out, pt, 16);
	t->block(t->key, out, out);
	CHECK_MEM(out, want, 16, "[%s] FIPS-197 C.3 in place", t->name);
	free(pt);
	free(want);

	/* 40 blocks starting 5 below the wrap, in runs of various sizes. */
	for (i = 0; i < 12; i++)
		ctr0[i] = (uint8_t)(0xF0 + i);
	ctr0[12] = ctr0[13] = ctr0[14] = 0xFF;
	ctr0[15] = 0xFB;
	for (i = 0; i < 40; i++) {
		uint32_t c = 0xFFFFFFFBu + (uint32_t)i;

		memcpy(blk, ctr0, 12);
		blk[12] = (uint8_t)(c >> 24); blk[13] = (uint8_t)(c >> 16);
		blk[14] = (uint8_t)(c >> 8);  blk[15] = (uint8_t)c;
		t->block(t->key, blk, ks + 16 * i);
	}
	for (nb = 1; nb <= 40; nb += 3) {
		int done = 0;

		memcpy(ctr, ctr0, 16);
		memset(data, 0, sizeof data);
		while (done < 40) {
			int m = 40 - done < nb ? 40 - done : nb;

			t->ctr(t->key, ctr, data + 16 * done, data + 16 * done,
			    (size_t)m);
			done += m;
		}
		CHECK_MEM(data, ks, sizeof data, "[%s] ctr32 across the wrap, runs of %d",
		    t->name, nb);
		CHECK_MEM(ctr, ctr0, 12, "[%s] inc32 touched the upper 96 bits",
		    t->name);
		CHECK(ctr[12] == 0 && ctr[13] == 0 && ctr[14] == 0 && ctr[15] == 35,
		    "[%s] counter after 40 blocks", t->name);
	}
}

int
main(void)
{
	struct ae_aes_ct_key ck;
	uint8_t *key;
	size_t n;
	struct tier t;

	key = t_unhex(fips_key, 64, &n);
	ae_aes_ct_init(&ck, key);
	t.name = "soft-ct"; t.block = ct_block; t.ctr = ct_ctr; t.key = &ck;
	test_tier(&t);
#ifdef HAVE_TARGET_AESNI
	if (ae_gcm_ni_available()) {
		static struct ae_gcm_ni_key nk;

		ae_gcm_ni_init(&nk, key);
		t.name = "aesni-pclmul"; t.block = ni_block; t.ctr = ni_ctr;
		t.key = &nk;
		test_tier(&t);
	} else {
		t_skip("aesni-pclmul: CPU lacks AES-NI/PCLMULQDQ");
	}
#else
	t_skip("aesni-pclmul: not built");
#endif
#if defined(HAVE_TARGET_AESNI) && defined(HAVE_TARGET_VAES_AVX2)
	if (ae_gcm_vaes_available()) {
		static struct ae_gcm_vaes_key vk;

		ae_gcm_vaes_init(&vk, key);
		t.name = "vaes-avx2"; t.block = vaes_block; t.ctr = vaes_ctr;
		t.key = &vk;
		test_tier(&t);
	} else {
		t_skip("vaes-avx2: CPU lacks VAES/VPCLMULQDQ/AVX2");
	}
#else
	t_skip("vaes-avx2: not built");
#endif
#if defined(HAVE_TARGET_AESNI) && defined(HAVE_TARGET_AVX512)
	if (ae_gcm_vaes512_available()) {
		static struct ae_gcm_vaes512_key zk;

		ae_gcm_vaes512_init(&zk, key);
		t.name = "vaes-avx512"; t.block = vaes512_block;
		t.ctr = vaes512_ctr; t.key = &zk;
		test_tier(&t);
	} else {
		t_skip("vaes-avx512: CPU lacks VAES/VPCLMULQDQ/AVX-512");
	}
#else
	t_skip("vaes-avx512: not built");
#endif
	free(key);
	return t_finish("aes_blocks");
}
