/*
 * gcm_ni.c -- AES-256-GCM with AES-NI and PCLMULQDQ intrinsics
 * (contract in gcm_ni.h).
 *
 * Implementation notes
 * --------------------
 * Eight counter blocks are kept in flight: AESENC has a latency of
 * several cycles but a throughput of one or two per cycle, so eight
 * independent blocks keep the unit busy.  GHASH is aggregated the same
 * way: X1*H^8 + X2*H^7 + ... + X8*H^1 is summed unreduced (three
 * carry-less multiplies per block, Karatsuba) and reduced once per eight
 * blocks.  The counter is held with its last word byte-swapped so that
 * PADDD gives GCM's inc32 (wrap modulo 2^32, upper 96 bits untouched).
 *
 * The seal loop hashes each batch of ciphertext right after writing it,
 * while it is still in L1, so the data is walked once.  (On the Zen 5
 * machine this was measured on, the AES and GHASH halves did not overlap
 * in time, with or without explicit interleaving; the fused loop runs at
 * about the sum of the two.)
 */
#include "config.h"
#include "gcm_ni.h"
#include "cpu.h"

#ifdef HAVE_TARGET_AESNI

#include "gcm_x86.h"

int
ae_gcm_ni_available(void)
{
	const struct ae_cpu_features *f = ae_cpu_features();

	return f->aesni && f->pclmul && f->ssse3 && f->sse41;
}

/* One key-schedule step: each word of k XORed with all earlier words of
 * k (the running XOR of the schedule), then with t, the SubWord (and
 * RotWord/Rcon) word broadcast to all four lanes. */
NI_INLINE __m128i
expand(__m128i k, __m128i t)
{
	k = _mm_xor_si128(k, _mm_slli_si128(k, 4));
	k = _mm_xor_si128(k, _mm_slli_si128(k, 4));
	k = _mm_xor_si128(k, _mm_slli_si128(k, 4));
	return _mm_xor_si128(k, t);
}

NI_INLINE __m128i
aes_block(const struct ae_gcm_ni_key *k, __m128i b)
{
	int r;

	b = _mm_xor_si128(b, _mm_load_si128((const __m128i *)k->rk[0]));
	UNROLL for (r = 1; r < 14; r++)
		b = _mm_aesenc_si128(b, _mm_load_si128((const __m128i *)k->rk[r]));
	return _mm_aesenclast_si128(b, _mm_load_si128((const __m128i *)k->rk[14]));
}

#define HP(i) _mm_load_si128((const __m128i *)k->hp[i])
#define HK(i) _mm_load_si128((const __m128i *)k->hk[i])

/*
 * y <- (y + X1)H^8 + X2 H^7 + ... + X8 H^1 over the 8 blocks at p.
 * Blocks are loaded one at a time as they are multiplied: holding all
 * eight in registers spills on a 16-register machine.
 */
NI_INLINE __m128i
ghash8(const struct ae_gcm_ni_key *k, __m128i y, const uint8_t *p)
{
	struct acc a = { _mm_setzero_si128(), _mm_setzero_si128(),
	    _mm_setzero_si128() };
	int i;

	mul_acc(&a, _mm_xor_si128(y, bswap128(_mm_loadu_si128(
	    (const __m128i *)p))), HP(7), HK(7));
	UNROLL for (i = 1; i < 8; i++)
		mul_acc(&a, bswap128(_mm_loadu_si128((const __m128i *)(p + 16 * i))),
		    HP(7 - i), HK(7 - i));
	return reduce(&a);
}

NI void
ae_gcm_ni_init(struct ae_gcm_ni_key *k, const uint8_t key[32])
{
	__m128i k0 = _mm_loadu_si128((const __m128i *)key);
	__m128i k1 = _mm_loadu_si128((const __m128i *)(key + 16));
	__m128i h, hp;
	int i;

	/* AES-256 schedule: even round keys take RotWord+SubWord+Rcon of
	 * the previous odd one (AESKEYGENASSIST word 3), odd keys take
	 * SubWord alone of the previous even one (word 2). */
#define STORE(i, v) _mm_store_si128((__m128i *)k->rk[i], (v))
	STORE(0, k0);
	STORE(1, k1);
#define STEP(i, rcon)							\
	k0 = expand(k0, _mm_shuffle_epi32(				\
	    _mm_aeskeygenassist_si128(k1, rcon), 0xff));			\
	STORE(i, k0);							\
	if (i < 14) {							\
		k1 = expand(k1, _mm_shuffle_epi32(			\
		    _mm_aeskeygenassist_si128(k0, 0), 0xaa));		\
		STORE(i + 1, k1);					\
	}
	STEP(2, 0x01) STEP(4, 0x02) STEP(6, 0x04) STEP(8, 0x08)
	STEP(10, 0x10) STEP(12, 0x20) STEP(14, 0x40)
#undef STEP
#undef STORE

	h = bswap128(aes_block(k, _mm_setzero_si128()));
	hp = h;
	for (i = 0; i < 8; i++) {
		_mm_store_si128((__m128i *)k->hp[i], hp);
		_mm_store_si128((__m128i *)k->hk[i], hkey(hp));
		hp = gfmul(hp, h);
	}
}

NI void
ae_gcm_ni_encrypt_block(const struct ae_gcm_ni_key *k, const uint8_t in[16],
    uint8_t out[16])
{
	__m128i b = _mm_loadu_si128((const __m128i *)in);

	_mm_storeu_si128((__m128i *)out, aes_block(k, b));
}

NI void
ae_gcm_ni_ghash(const struct ae_gcm_ni_key *k, uint8_t y[16], const uint8_t *in,
    size_t nblocks)
{
	__m128i acc = bswap128(_mm_loadu_si128((const __m128i *)y));

	for (; nblocks >= 8; nblocks -= 8, in += 128)
		acc = ghash8(k, acc, in);
	for (; nblocks > 0; nblocks--, in += 16) {
		acc = _mm_xor_si128(acc,
		    bswap128(_mm_loadu_si128((const __m128i *)in)));
		acc = gfmul(acc, HP(0));
	}
	_mm_storeu_si128((__m128i *)y, bswap128(acc));
}

/* Encrypt the 8 counter blocks at ctr, ctr+1, ..., XOR into in, write
 * out. */
NI_INLINE void
ctr8(const struct ae_gcm_ni_key *k, __m128i ctr, const uint8_t *in,
    uint8_t *out)
{
	__m128i rk = _mm_load_si128((const __m128i *)k->rk[0]);
	__m128i c[8];
	int i, r;

	UNROLL for (i = 0; i < 8; i++)
		c[i] = _mm_xor_si128(bswap_ctr(_mm_add_epi32(ctr,
		    _mm_set_epi32(i, 0, 0, 0))), rk);
	UNROLL for (r = 1; r < 14; r++) {
		rk = _mm_load_si128((const __m128i *)k->rk[r]);
		UNROLL for (i = 0; i < 8; i++)
			c[i] = _mm_aesenc_si128(c[i], rk);
	}
	rk = _mm_load_si128((const __m128i *)k->rk[14]);
	UNROLL for (i = 0; i < 8; i++) {
		c[i] = _mm_aesenclast_si128(c[i], rk);
		c[i] = _mm_xor_si128(c[i],
		    _mm_loadu_si128((const __m128i *)(in + 16 * i)));
		_mm_storeu_si128((__m128i *)(out + 16 * i), c[i]);
	}
}

/* Blocks past the last multiple of 8, one at a time; each ciphertext
 * block is also folded into *acc unless acc is NULL. */
NI_INLINE __m128i
ctr_tail(const struct ae_gcm_ni_key *k, __m128i ctr, const uint8_t *in,
    uint8_t *out, size_t n, __m128i *acc)
{
	for (; n > 0; n--, in += 16, out += 16) {
		__m128i c = aes_block(k, bswap_ctr(ctr));

		c = _mm_xor_si128(c, _mm_loadu_si128((const __m128i *)in));
		_mm_storeu_si128((__m128i *)out, c);
		if (acc != NULL)
			*acc = gfmul(_mm_xor_si128(*acc, bswap128(c)), HP(0));
		ctr = _mm_add_epi32(ctr, _mm_set_epi32(1, 0, 0, 0));
	}
	return ctr;
}

NI void
ae_gcm_ni_ctr32(const struct ae_gcm_ni_key *k, uint8_t ctr[16], const uint8_t *in,
    uint8_t *out, size_t nblocks)
{
	__m128i c = bswap_ctr(_mm_loadu_si128((const __m128i *)ctr));

	for (; nblocks >= 8; nblocks -= 8, in += 128, out += 128) {
		ctr8(k, c, in, out);
		c = _mm_add_epi32(c, _mm_set_epi32(8, 0, 0, 0));
	}
	c = ctr_tail(k, c, in, out, nblocks, NULL);
	_mm_storeu_si128((__m128i *)ctr, bswap_ctr(c));
}

NI void
ae_gcm_ni_ctr32_ghash(const struct ae_gcm_ni_key *k, uint8_t ctr[16], uint8_t y[16],
    const uint8_t *in, uint8_t *out, size_t nblocks)
{
	__m128i c = bswap_ctr(_mm_loadu_si128((const __m128i *)ctr));
	__m128i acc = bswap128(_mm_loadu_si128((const __m128i *)y));

	/* The ciphertext is hashed from out, just stored: the loads are
	 * served by store forwarding, and the registers stay free. */
	for (; nblocks >= 8; nblocks -= 8, in += 128, out += 128) {
		ctr8(k, c, in, out);
		c = _mm_add_epi32(c, _mm_set_epi32(8, 0, 0, 0));
		acc = ghash8(k, acc, out);
	}
	c = ctr_tail(k, c, in, out, nblocks, &acc);
	_mm_storeu_si128((__m128i *)ctr, bswap_ctr(c));
	_mm_storeu_si128((__m128i *)y, bswap128(acc));
}

#else /* !HAVE_TARGET_AESNI */

int
ae_gcm_ni_available(void)
{
	return 0;
}

#endif
