/*
 * ghash_ct.c -- constant-time GHASH from integer multiplies (contract
 * in ghash_ct.h).
 *
 * Implementation notes
 * --------------------
 * A block read as a big-endian 128-bit integer V is GCM's polynomial with
 * its bits reversed.  The carry-less product of two reversed operands is
 * the reversed product shifted right by one, so after one left shift the
 * 256-bit result can be reduced with the shift-and-xor method for the
 * reflected polynomial (Gueron and Kounavis, Intel's CLMUL white paper).
 *
 * A carry-less 64x64 multiply is built from ordinary multiplies: each
 * operand is split into four masks that keep every fourth bit, so in each
 * partial product a sum can reach at most 15 below bit 64 (16 only at bit
 * 60, whose carry leaves the word), and the carries land in the holes,
 * which the final masks discard.  That gives the low 64 bits; the high 64
 * bits come from the same routine on bit-reversed operands.
 *
 * Four blocks are hashed per step against H^4..H^1 with one reduction,
 * which gives the multiplier independent work and saves three reductions.
 *
 * Where the CPU has AVX2, the same four-block step runs with the four
 * blocks in the four lanes of VPMULUDQ on 32-bit words (update_avx2()
 * below), about four times faster.  The scalar code stays the portable
 * path, and test_ghash_ct checks the two agree.
 */
#include "config.h"
#include "ghash_ct.h"
#include "cpu.h"
#include "common/bytes.h"
#include "common/wipe.h"

/* Low 64 bits of the carry-less product of x and y. */
static inline uint64_t
bmul64(uint64_t x, uint64_t y)
{
	const uint64_t m0 = 0x1111111111111111, m1 = 0x2222222222222222;
	const uint64_t m2 = 0x4444444444444444, m3 = 0x8888888888888888;
	uint64_t x0 = x & m0, x1 = x & m1, x2 = x & m2, x3 = x & m3;
	uint64_t y0 = y & m0, y1 = y & m1, y2 = y & m2, y3 = y & m3;
	uint64_t z0 = (x0 * y0) ^ (x1 * y3) ^ (x2 * y2) ^ (x3 * y1);
	uint64_t z1 = (x0 * y1) ^ (x1 * y0) ^ (x2 * y3) ^ (x3 * y2);
	uint64_t z2 = (x0 * y2) ^ (x1 * y1) ^ (x2 * y0) ^ (x3 * y3);
	uint64_t z3 = (x0 * y3) ^ (x1 * y2) ^ (x2 * y1) ^ (x3 * y0);

	return (z0 & m0) | (z1 & m1) | (z2 & m2) | (z3 & m3);
}

static inline uint64_t
rev64(uint64_t x)
{
	x = ((x & 0x5555555555555555) << 1) | ((x >> 1) & 0x5555555555555555);
	x = ((x & 0x3333333333333333) << 2) | ((x >> 2) & 0x3333333333333333);
	x = ((x & 0x0F0F0F0F0F0F0F0F) << 4) | ((x >> 4) & 0x0F0F0F0F0F0F0F0F);
	return __builtin_bswap64(x);
}

/*
 * Unreduced sums of partial products for up to four blocks.  Bit
 * reversal and the Karatsuba recombination are linear, so both are
 * applied once to the sums (in reduce()) rather than once per block.
 */
struct acc {
	uint64_t lo[3];   /* low halves: a0*h0, a1*h1, (a0^a1)*(h0^h1) */
	uint64_t hr[3];   /* the same products of the bit-reversed operands */
};

/* acc += (a1:a0) * (h1:h0); h[0] is the high half. */
static inline void
mul_acc(struct acc *r, uint64_t a1, uint64_t a0, const uint64_t h[2],
    const uint64_t hr[2])
{
	uint64_t a1r = rev64(a1), a0r = rev64(a0);

	r->lo[0] ^= bmul64(a0, h[1]);
	r->lo[1] ^= bmul64(a1, h[0]);
	r->lo[2] ^= bmul64(a0 ^ a1, h[0] ^ h[1]);
	r->hr[0] ^= bmul64(a0r, hr[1]);
	r->hr[1] ^= bmul64(a1r, hr[0]);
	r->hr[2] ^= bmul64(a0r ^ a1r, hr[0] ^ hr[1]);
}

/* Shift the 256-bit product v[3]:v[2]:v[1]:v[0] left by one and reduce
 * modulo x^128 + x^7 + x^2 + x + 1 (reflected); result in (*y1:*y0). */
static inline void
reduce256(const uint64_t v[4], uint64_t *y1, uint64_t *y0)
{
	uint64_t x0 = v[0] << 1;
	uint64_t x1 = (v[1] << 1) | (v[0] >> 63);
	uint64_t x2 = (v[2] << 1) | (v[1] >> 63);
	uint64_t x3 = (v[3] << 1) | (v[2] >> 63);
	uint64_t d = x1 ^ (x0 << 63) ^ (x0 << 62) ^ (x0 << 57);
	uint64_t e0 = x0 ^ (x0 >> 1) ^ (d << 63) ^ (x0 >> 2) ^ (d << 62)
	    ^ (x0 >> 7) ^ (d << 57);
	uint64_t e1 = d ^ (d >> 1) ^ (d >> 2) ^ (d >> 7);

	*y1 = x3 ^ e1;
	*y0 = x2 ^ e0;
}

/* Recombine the sums into the 256-bit product and reduce it. */
static inline void
reduce(const struct acc *a, uint64_t *y1, uint64_t *y0)
{
	uint64_t hi0 = rev64(a->hr[0]) >> 1, hi1 = rev64(a->hr[1]) >> 1;
	uint64_t lo2 = a->lo[2] ^ a->lo[0] ^ a->lo[1];
	uint64_t hi2 = (rev64(a->hr[2]) >> 1) ^ hi0 ^ hi1;
	uint64_t v[4];

	v[0] = a->lo[0];
	v[1] = hi0 ^ lo2;
	v[2] = a->lo[1] ^ hi2;
	v[3] = hi1;
	reduce256(v, y1, y0);
}

/* (y1:y0) <- (y1:y0) * H */
static void
mul_h(const struct ae_ghash_ct_key *k, uint64_t *y1, uint64_t *y0)
{
	struct acc a = { { 0, 0, 0 }, { 0, 0, 0 } };

	mul_acc(&a, *y1, *y0, k->h[0], k->hr[0]);
	reduce(&a, y1, y0);
}

#ifdef HAVE_TARGET_AVX2
/*
 * The AVX2 path: four blocks at once, one per 64-bit lane, block L
 * multiplied by H^(4-L).  VPMULUDQ gives four exact 32x32->64 integer
 * products; with operands split into four classes of every fourth bit, a
 * column of a 32x32 product sums at most 8 terms, so the carries stay in
 * the three-bit holes and the class masks remove them.  Karatsuba at both
 * levels: a 128x128 product is three 64x64 ones, each three 32x32.
 * The lanes are then XORed together (that is the 4-block aggregation)
 * and reduced once.  Integer multiplies take the same time whatever the
 * operands, as the scalar path already assumes.
 */
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))
#define AVX2_INLINE static inline __attribute__((always_inline)) AVX2
/* The small arrays below must become registers: unroll fully. */
#define UNROLL _Pragma("GCC unroll 16")

/* The four bit classes of a 32-bit operand in each lane. */
AVX2_INLINE void
classes(__m256i w, __m256i c[4])
{
	c[0] = _mm256_and_si256(w, _mm256_set1_epi64x(0x11111111));
	c[1] = _mm256_and_si256(w, _mm256_set1_epi64x(0x22222222));
	c[2] = _mm256_and_si256(w, _mm256_set1_epi64x(0x44444444));
	c[3] = _mm256_and_si256(w, _mm256_set1_epi64x(0x88888888));
}

/* z[(i+j) mod 4] ^= a[i] * b[j]: the unmasked 32x32 carry-less product. */
AVX2_INLINE void
cm32(__m256i z[4], const __m256i a[4], const __m256i *b)
{
	int i, j;

	UNROLL for (i = 0; i < 4; i++)
		UNROLL for (j = 0; j < 4; j++)
			z[(i + j) & 3] = _mm256_xor_si256(z[(i + j) & 3],
			    _mm256_mul_epu32(a[i], _mm256_load_si256(b + j)));
}

AVX2_INLINE __m256i
unhole(const __m256i z[4])
{
	__m256i m = _mm256_set1_epi64x(0x1111111111111111);

	return _mm256_or_si256(
	    _mm256_or_si256(_mm256_and_si256(z[0], m),
		_mm256_and_si256(z[1], _mm256_slli_epi64(m, 1))),
	    _mm256_or_si256(_mm256_and_si256(z[2], _mm256_slli_epi64(m, 2)),
		_mm256_and_si256(z[3], _mm256_slli_epi64(m, 3))));
}

/* 64x64 carry-less product of lane operand a (64-bit) with a key
 * operand given as the classes of its low word, high word and their XOR
 * (Karatsuba again, one level down); 128-bit result in *lo, *hi. */
AVX2_INLINE void
cm64(__m256i a, const __m256i *h, __m256i *lo, __m256i *hi)
{
	__m256i ac[4], z[4], p0, p1, pm;
	int i;

	UNROLL for (i = 0; i < 4; i++) z[i] = _mm256_setzero_si256();
	classes(a, ac);
	cm32(z, ac, h);
	p0 = unhole(z);
	UNROLL for (i = 0; i < 4; i++) z[i] = _mm256_setzero_si256();
	classes(_mm256_srli_epi64(a, 32), ac);
	cm32(z, ac, h + 4);
	p1 = unhole(z);
	UNROLL for (i = 0; i < 4; i++) z[i] = _mm256_setzero_si256();
	classes(_mm256_xor_si256(a, _mm256_srli_epi64(a, 32)), ac);
	cm32(z, ac, h + 8);
	pm = _mm256_xor_si256(unhole(z), _mm256_xor_si256(p0, p1));
	*lo = _mm256_xor_si256(p0, _mm256_slli_epi64(pm, 32));
	*hi = _mm256_xor_si256(p1, _mm256_srli_epi64(pm, 32));
}

AVX2_INLINE uint64_t
xor_lanes(__m256i v)
{
	__m128i x = _mm_xor_si128(_mm256_castsi256_si128(v),
	    _mm256_extracti128_si256(v, 1));

	return (uint64_t)_mm_cvtsi128_si64(x)
	    ^ (uint64_t)_mm_extract_epi64(x, 1);
}

#define HV(w) ((const __m256i *)k->hv[w])

static AVX2 void
update_avx2(const struct ae_ghash_ct_key *k, uint64_t *y1, uint64_t *y0,
    const uint8_t *in, size_t ngroups)
{
	for (; ngroups > 0; ngroups--, in += 64) {
		__m256i x1 = _mm256_set_epi64x((long long)load_be64(in + 48),
		    (long long)load_be64(in + 32), (long long)load_be64(in + 16),
		    (long long)(load_be64(in) ^ *y1));
		__m256i x0 = _mm256_set_epi64x((long long)load_be64(in + 56),
		    (long long)load_be64(in + 40), (long long)load_be64(in + 24),
		    (long long)(load_be64(in + 8) ^ *y0));
		__m256i l0, h0, l1, h1, l2, h2, mlo, mhi;
		uint64_t v[4];

		cm64(x0, HV(0), &l0, &h0);                      /* x0*h0 */
		cm64(x1, HV(3), &l1, &h1);                      /* x1*h1 */
		cm64(_mm256_xor_si256(x0, x1), HV(6), &l2, &h2); /* Karatsuba */
		mlo = _mm256_xor_si256(l2, _mm256_xor_si256(l0, l1));
		mhi = _mm256_xor_si256(h2, _mm256_xor_si256(h0, h1));
		v[0] = xor_lanes(l0);
		v[1] = xor_lanes(_mm256_xor_si256(h0, mlo));
		v[2] = xor_lanes(_mm256_xor_si256(l1, mhi));
		v[3] = xor_lanes(h1);
		reduce256(v, y1, y0);
	}
}

/* Lay out H^4..H^1 for update_avx2(): for each 64-bit operand h0, h1
 * and h0^h1, the words lo, hi and lo^hi, each split into four classes,
 * lane L holding the word of H^(4-L). */
static void
init_avx2(struct ae_ghash_ct_key *k)
{
	static const uint32_t cls[4] = {
		0x11111111, 0x22222222, 0x44444444, 0x88888888
	};
	int lane, w, c;

	for (lane = 0; lane < 4; lane++) {
		const uint64_t *h = k->h[3 - lane];
		uint64_t hk = h[0] ^ h[1];
		const uint64_t ops[3] = { h[1], h[0], hk };
		uint32_t words[9];

		for (w = 0; w < 3; w++) {
			words[3 * w] = (uint32_t)ops[w];
			words[3 * w + 1] = (uint32_t)(ops[w] >> 32);
			words[3 * w + 2] = words[3 * w] ^ words[3 * w + 1];
		}
		for (w = 0; w < 9; w++)
			for (c = 0; c < 4; c++)
				k->hv[w][c][lane] = words[w] & cls[c];
	}
}
#endif

void
ae_ghash_ct_init(struct ae_ghash_ct_key *k, const uint8_t h[16])
{
	uint64_t y1 = load_be64(h), y0 = load_be64(h + 8);
	int i;

	for (i = 0; i < 4; i++) {
		if (i > 0)
			mul_h(k, &y1, &y0);   /* H^(i+1) = H^i * H */
		k->h[i][0] = y1;
		k->h[i][1] = y0;
		k->hr[i][0] = rev64(y1);
		k->hr[i][1] = rev64(y0);
	}
#ifdef HAVE_TARGET_AVX2
	init_avx2(k);
#endif
}

static void
update_portable(const struct ae_ghash_ct_key *k, uint64_t *py1, uint64_t *py0,
    const uint8_t *in, size_t nblocks)
{
	uint64_t y1 = *py1, y0 = *py0;

	for (; nblocks >= 4; nblocks -= 4, in += 64) {
		struct acc a = { { 0, 0, 0 }, { 0, 0, 0 } };

		mul_acc(&a, y1 ^ load_be64(in), y0 ^ load_be64(in + 8), k->h[3], k->hr[3]);
		mul_acc(&a, load_be64(in + 16), load_be64(in + 24), k->h[2], k->hr[2]);
		mul_acc(&a, load_be64(in + 32), load_be64(in + 40), k->h[1], k->hr[1]);
		mul_acc(&a, load_be64(in + 48), load_be64(in + 56), k->h[0], k->hr[0]);
		reduce(&a, &y1, &y0);
	}
	for (; nblocks > 0; nblocks--, in += 16) {
		y1 ^= load_be64(in);
		y0 ^= load_be64(in + 8);
		mul_h(k, &y1, &y0);
	}
	*py1 = y1;
	*py0 = y0;
}

void
ae_gf128_mul(uint8_t out[16], const uint8_t x[16], const uint8_t y[16])
{
	struct acc a = { { 0, 0, 0 }, { 0, 0, 0 } };
	uint64_t h[2] = { load_be64(y), load_be64(y + 8) };
	uint64_t hr[2] = { rev64(h[0]), rev64(h[1]) };
	uint64_t z1, z0;

	mul_acc(&a, load_be64(x), load_be64(x + 8), h, hr);
	reduce(&a, &z1, &z0);
	store_be64(out, z1);
	store_be64(out + 8, z0);
}

void
ae_ghash_ct_update_portable(const struct ae_ghash_ct_key *k, uint8_t y[16],
    const uint8_t *in, size_t nblocks)
{
	uint64_t y1 = load_be64(y), y0 = load_be64(y + 8);

	update_portable(k, &y1, &y0, in, nblocks);
	store_be64(y, y1);
	store_be64(y + 8, y0);
}

void
ae_ghash_ct_update(const struct ae_ghash_ct_key *k, uint8_t y[16],
    const uint8_t *in, size_t nblocks)
{
	uint64_t y1 = load_be64(y), y0 = load_be64(y + 8);

#ifdef HAVE_TARGET_AVX2
	if (nblocks >= 4 && ae_cpu_features()->avx2) {
		update_avx2(k, &y1, &y0, in, nblocks / 4);
		in += 64 * (nblocks / 4);
		nblocks %= 4;
	}
#endif
	update_portable(k, &y1, &y0, in, nblocks);
	store_be64(y, y1);
	store_be64(y + 8, y0);
}
