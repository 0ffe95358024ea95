/*
 * gcm_vaes512.c -- AES-256-GCM with VAES and VPCLMULQDQ on 512-bit
 * vectors (contract in gcm_vaes512.h).
 *
 * Implementation notes
 * --------------------
 * Each ZMM register holds four blocks: VAESENC runs a round on all four
 * and VPCLMULQDQ does four 64x64 carry-less multiplies.  A step is 32
 * blocks in 8 registers, enough independent AES chains to cover the
 * instruction's latency on a CPU that issues two of them a cycle.
 *
 * GHASH of a step multiplies block i by H^(32-i), the 32 powers held in
 * key order so that one load gives the four a register needs, and sums
 * the products unreduced: schoolbook (four multiplies a register, the two
 * middle ones summed with a three-way XOR), not Karatsuba, which would
 * save a multiply but cost a shuffle and a table.  The four lanes are
 * folded together and reduced once per step with tier 1's reduction.
 *
 * Sealing interleaves the two halves of GCM, as Linux's
 * aes-gcm-avx10-x86_64.S describes for its main loop: while the AES
 * rounds of step k run, the GHASH multiplies of step k-1's ciphertext
 * (kept in registers) are issued between them, one register per round,
 * so the AES and carry-less multiply units work at once.  Opening
 * authenticates first (gcm.c: no plaintext before the tag is checked),
 * so its GHASH and CTR passes are separate, each at full width.
 *
 * Fewer than 32 blocks (the end of a message) are done with the same
 * code on as many registers as they need, the last one loaded, stored and
 * multiplied under a mask register, so nothing is read or written past
 * the data and the tail needs no other tier.
 *
 * Constant time: every instruction here runs in time independent of its
 * data, and no address or branch depends on a secret (the masks and the
 * loop counts come from the length, which is public).
 */
#include "config.h"
#include "gcm_vaes512.h"
#include "cpu.h"

#if defined(HAVE_TARGET_AESNI) && defined(HAVE_TARGET_AVX512)

#include "gcm_x86.h"
#include "common/wipe.h"

#define V5 __attribute__((target("vaes,vpclmulqdq,avx512f,avx512bw," \
	"avx512vl,avx2,avx,aes,pclmul,ssse3,sse4.1")))
#define V5_INLINE static inline __attribute__((always_inline)) V5

#define STEP AE_GCM_VAES512_STEP
#define NV (STEP / 4)           /* registers a step fills */

int
ae_gcm_vaes512_available(void)
{
	const struct ae_cpu_features *f = ae_cpu_features();

	return ae_gcm_ni_available() && f->vaes && f->vpclmulqdq
	    && f->avx512f && f->avx512bw && f->avx512vl;
}

V5_INLINE __m512i
bswap512(__m512i x)
{
	return _mm512_shuffle_epi8(x, _mm512_broadcast_i32x4(_mm_set_epi8(
	    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)));
}

V5_INLINE __m512i
bswap_ctr512(__m512i x)
{
	return _mm512_shuffle_epi8(x, _mm512_broadcast_i32x4(_mm_set_epi8(
	    12, 13, 14, 15, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)));
}

V5_INLINE __m512i
xor3(__m512i a, __m512i b, __m512i c)
{
	return _mm512_ternarylogic_epi64(a, b, c, 0x96);
}

/* The 64-bit elements that hold the first nb (1..4) blocks of a
 * register. */
V5_INLINE __mmask8
lanes(size_t nb)
{
	return (__mmask8)((1u << (2 * nb)) - 1);
}

#define RK(r) _mm512_loadu_si512((const void *)k->rk[r])

/* Unreduced sums of products, four lanes each. */
struct acc512 {
	__m512i lo, hi, mid;
};

V5_INLINE void
acc_zero(struct acc512 *a)
{
	a->lo = a->hi = a->mid = _mm512_setzero_si512();
}

V5_INLINE void
mul_acc512(struct acc512 *a, __m512i x, __m512i h)
{
	__m512i l = _mm512_clmulepi64_epi128(x, h, 0x00);
	__m512i u = _mm512_clmulepi64_epi128(x, h, 0x11);

	a->lo = _mm512_xor_si512(a->lo, l);
	a->hi = _mm512_xor_si512(a->hi, u);
	/* the schoolbook middle, plus lo and hi: the Karatsuba middle */
	a->mid = xor3(a->mid, xor3(l, u, _mm512_clmulepi64_epi128(x, h,
	    0x01)), _mm512_clmulepi64_epi128(x, h, 0x10));
}

/* Two registers at once, Karatsuba: three multiplies a register, the
 * middle one on (x0 + x1)(h0 + h1), with h0 + h1 from the key (hk).
 * On CPUs where VPCLMULQDQ issues at half the rate of VAESENC it is the
 * scarce unit, so a multiply saved is worth the shuffle and XOR. */
V5_INLINE void
mul_acc512x2(struct acc512 *a, __m512i x0, const uint8_t *h0p,
    const uint8_t *k0p, __m512i x1, const uint8_t *h1p, const uint8_t *k1p)
{
	__m512i h0 = _mm512_loadu_si512((const void *)h0p);
	__m512i h1 = _mm512_loadu_si512((const void *)h1p);
	__m512i xk0 = _mm512_xor_si512(x0, _mm512_shuffle_epi32(x0, 0x4e));
	__m512i xk1 = _mm512_xor_si512(x1, _mm512_shuffle_epi32(x1, 0x4e));

	a->lo = xor3(a->lo, _mm512_clmulepi64_epi128(x0, h0, 0x00),
	    _mm512_clmulepi64_epi128(x1, h1, 0x00));
	a->hi = xor3(a->hi, _mm512_clmulepi64_epi128(x0, h0, 0x11),
	    _mm512_clmulepi64_epi128(x1, h1, 0x11));
	a->mid = xor3(a->mid, _mm512_clmulepi64_epi128(xk0,
	    _mm512_loadu_si512((const void *)k0p), 0x00),
	    _mm512_clmulepi64_epi128(xk1, _mm512_loadu_si512(
	    (const void *)k1p), 0x00));
}

V5_INLINE __m128i
fold512(__m512i x)
{
	__m256i t = _mm256_xor_si256(_mm512_castsi512_si256(x),
	    _mm512_extracti64x4_epi64(x, 1));

	return _mm_xor_si128(_mm256_castsi256_si128(t),
	    _mm256_extracti128_si256(t, 1));
}

/* Fold the lanes and reduce (reduce() takes the Karatsuba middle, which
 * is what the sums hold, except where a caller summed the schoolbook
 * middle: mul_acc512 adds lo + hi to it for that). */
V5_INLINE __m128i
acc_reduce(const struct acc512 *a)
{
	struct acc r;

	r.lo = fold512(a->lo);
	r.hi = fold512(a->hi);
	r.mid = fold512(a->mid);
	return reduce(&r);
}

/* Block 0 of a step with the running hash y added (lane 0). */
V5_INLINE __m512i
with_y(__m512i x, __m128i y)
{
	return _mm512_xor_si512(x, _mm512_inserti32x4(_mm512_setzero_si512(),
	    y, 0));
}

/* y <- (y + X0)H^32 + X1 H^31 + ... + X31 H over a full step whose
 * blocks (byte-swapped) are in x[]. */
V5_INLINE __m128i
ghash_step(const struct ae_gcm_vaes512_key *k, __m128i y, const __m512i *x)
{
	struct acc512 a;
	int j;

	/* the block that takes y last: the other products need not wait
	 * for the step before to be reduced */
	acc_zero(&a);
	UNROLL for (j = 2; j < NV + 2; j += 2) {
		int i = j % NV;

		mul_acc512x2(&a, i == 0 ? with_y(x[0], y) : x[i],
		    k->hpow[4 * i], k->hk[4 * i], x[i + 1], k->hpow[4 * i + 4],
		    k->hk[4 * i + 4]);
	}
	return acc_reduce(&a);
}

/* The same over n (1..STEP) blocks read from p: block i times H^(n-i).
 * The last register is read under a mask, and the powers past n are
 * never loaded. */
V5_INLINE __m128i
ghash_part(const struct ae_gcm_vaes512_key *k, __m128i y, const uint8_t *p,
    size_t n)
{
	const uint8_t *h = k->hpow[STEP - n];
	struct acc512 a;
	size_t j;

	acc_zero(&a);
	for (j = 0; 4 * j < n; j++) {
		__mmask8 m = lanes(n - 4 * j < 4 ? n - 4 * j : 4);
		__m512i x = bswap512(_mm512_maskz_loadu_epi64(m, p + 64 * j));

		mul_acc512(&a, j == 0 ? with_y(x, y) : x,
		    _mm512_maskz_loadu_epi64(m, h + 64 * j));
	}
	return acc_reduce(&a);
}

/* Counter blocks c, c+1, c+2, c+3 (c in byte-swapped-counter form, its
 * 32-bit counter in lane 0's top word) as one register, whitened. */
V5_INLINE __m512i
counters(__m512i cb, __m512i rk0)
{
	return _mm512_xor_si512(bswap_ctr512(cb), rk0);
}

V5_INLINE __m512i
ctr_base(__m128i c)
{
	return _mm512_add_epi32(_mm512_broadcast_i32x4(c), _mm512_set_epi32(
	    3, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0));
}

#define FOUR _mm512_set_epi32(4, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0)

/* Encrypt n (1..STEP) blocks of counters from c: in XOR keystream to
 * out, the last register under a mask.  Returns c advanced by n. */
V5_INLINE __m128i
ctr_part(const struct ae_gcm_vaes512_key *k, __m128i c, const uint8_t *in,
    uint8_t *out, size_t n)
{
	__m512i s[NV], cb = ctr_base(c), rk = RK(0);
	size_t nv = (n + 3) / 4, j;
	int r;

	for (j = 0; j < nv; j++, cb = _mm512_add_epi32(cb, FOUR))
		s[j] = counters(cb, rk);
	for (r = 1; r < 14; r++) {
		rk = RK(r);
		for (j = 0; j < nv; j++)
			s[j] = _mm512_aesenc_epi128(s[j], rk);
	}
	rk = RK(14);
	for (j = 0; j < nv; j++) {
		__mmask8 m = lanes(n - 4 * j < 4 ? n - 4 * j : 4);

		s[j] = _mm512_aesenclast_epi128(s[j], rk);
		s[j] = _mm512_xor_si512(s[j],
		    _mm512_maskz_loadu_epi64(m, in + 64 * j));
		_mm512_mask_storeu_epi64(out + 64 * j, m, s[j]);
	}
	return _mm_add_epi32(c, _mm_set_epi32((int)n, 0, 0, 0));
}

/*
 * A full step of AES on the counters from c, whose rounds carry the
 * GHASH multiplies of the previous step's ciphertext prev[] (when
 * have_prev) into a, one register per round; s[] gets the keystream.
 */
V5_INLINE void
aes_step(const struct ae_gcm_vaes512_key *k, __m128i c, __m512i *s,
    const __m512i *prev, __m128i y, int have_prev, struct acc512 *a)
{
	__m512i rk = RK(0);
	int j, r;

	if ((_mm_extract_epi32(c, 3) & 0xff) <= 256 - STEP) {
		/* The counter's last byte does not carry within the step (7
		 * steps in 8): the blocks are the first one, big-endian, with
		 * 0..31 added to that byte, and need no byte swap. */
		__m512i b = _mm512_broadcast_i32x4(bswap_ctr(c));

		UNROLL for (j = 0; j < NV; j++)
			s[j] = _mm512_xor_si512(_mm512_add_epi32(b,
			    _mm512_set_epi32((4 * j + 3) << 24, 0, 0, 0,
			    (4 * j + 2) << 24, 0, 0, 0, (4 * j + 1) << 24, 0, 0, 0,
			    (4 * j) << 24, 0, 0, 0)), rk);
	} else {
		__m512i cb = ctr_base(c);

		UNROLL for (j = 0; j < NV; j++, cb = _mm512_add_epi32(cb, FOUR))
			s[j] = counters(cb, rk);
	}
	UNROLL for (r = 1; r < 14; r++) {
		rk = RK(r);
		UNROLL for (j = 0; j < NV; j++)
			s[j] = _mm512_aesenc_epi128(s[j], rk);
		/* registers i and i+1 in round i+1, from 2; the pair that
		 * takes y last, as in ghash_step */
		if (have_prev && (r & 1) && r < NV) {
			int i = (r + 1) % NV;

			mul_acc512x2(a, i == 0 ? with_y(prev[0], y) : prev[i],
			    k->hpow[4 * i], k->hk[4 * i], prev[i + 1],
			    k->hpow[4 * i + 4], k->hk[4 * i + 4]);
		}
	}
	rk = RK(14);
	UNROLL for (j = 0; j < NV; j++)
		s[j] = _mm512_aesenclast_epi128(s[j], rk);
}

V5 void
ae_gcm_vaes512_init(struct ae_gcm_vaes512_key *k, const uint8_t key[32])
{
	__m128i pw[STEP];
	int i;

	ae_gcm_ni_init(&k->ni, key);
	for (i = 0; i < 15; i++)
		_mm512_storeu_si512((void *)k->rk[i], _mm512_broadcast_i32x4(
		    _mm_loadu_si128((const __m128i *)k->ni.rk[i])));
	/* pw[i] = H^(i+1): tier 1 has the first eight */
	for (i = 0; i < 8; i++)
		pw[i] = _mm_loadu_si128((const __m128i *)k->ni.hp[i]);
	for (i = 8; i < STEP; i++)
		pw[i] = gfmul(pw[i - 1], pw[0]);
	for (i = 0; i < STEP; i++) {
		_mm_storeu_si128((__m128i *)k->hpow[i], pw[STEP - 1 - i]);
		_mm_storeu_si128((__m128i *)k->hk[i], hkey(pw[STEP - 1 - i]));
	}
	ae_wipe(pw, sizeof pw);
}

V5 void
ae_gcm_vaes512_ghash(const struct ae_gcm_vaes512_key *k, uint8_t y[16],
    const uint8_t *in, size_t nblocks)
{
	__m128i acc = bswap128(_mm_loadu_si128((const __m128i *)y));

	for (; nblocks >= STEP; nblocks -= STEP, in += 16 * STEP) {
		__m512i x[NV];
		int j;

		UNROLL for (j = 0; j < NV; j++)
			x[j] = bswap512(_mm512_loadu_si512(
			    (const void *)(in + 64 * j)));
		acc = ghash_step(k, acc, x);
	}
	if (nblocks > 0)
		acc = ghash_part(k, acc, in, nblocks);
	_mm_storeu_si128((__m128i *)y, bswap128(acc));
}

V5 void
ae_gcm_vaes512_ctr32(const struct ae_gcm_vaes512_key *k, uint8_t ctr[16],
    const uint8_t *in, uint8_t *out, size_t nblocks)
{
	__m128i c = bswap_ctr(_mm_loadu_si128((const __m128i *)ctr));
	struct acc512 none;

	acc_zero(&none);
	for (; nblocks >= STEP; nblocks -= STEP, in += 16 * STEP,
	    out += 16 * STEP) {
		__m512i s[NV];
		int j;

		aes_step(k, c, s, NULL, c, 0, &none);
		UNROLL for (j = 0; j < NV; j++)
			_mm512_storeu_si512((void *)(out + 64 * j),
			    _mm512_xor_si512(s[j], _mm512_loadu_si512(
			    (const void *)(in + 64 * j))));
		c = _mm_add_epi32(c, _mm_set_epi32(STEP, 0, 0, 0));
	}
	if (nblocks > 0)
		c = ctr_part(k, c, in, out, nblocks);
	_mm_storeu_si128((__m128i *)ctr, bswap_ctr(c));
}

V5 void
ae_gcm_vaes512_ctr32_ghash(const struct ae_gcm_vaes512_key *k,
    uint8_t ctr[16], uint8_t y[16], const uint8_t *in, uint8_t *out,
    size_t nblocks)
{
	__m128i c = bswap_ctr(_mm_loadu_si128((const __m128i *)ctr));
	__m128i acc = bswap128(_mm_loadu_si128((const __m128i *)y));
	__m512i prev[NV];
	int have = 0, j;

	for (; nblocks >= STEP; nblocks -= STEP, in += 16 * STEP,
	    out += 16 * STEP) {
		__m512i s[NV];
		struct acc512 a;

		acc_zero(&a);
		aes_step(k, c, s, prev, acc, have, &a);
		if (have)
			acc = acc_reduce(&a);
		UNROLL for (j = 0; j < NV; j++) {
			s[j] = _mm512_xor_si512(s[j], _mm512_loadu_si512(
			    (const void *)(in + 64 * j)));
			_mm512_storeu_si512((void *)(out + 64 * j), s[j]);
			prev[j] = bswap512(s[j]);
		}
		have = 1;
		c = _mm_add_epi32(c, _mm_set_epi32(STEP, 0, 0, 0));
	}
	if (have)
		acc = ghash_step(k, acc, prev);
	if (nblocks > 0) {
		c = ctr_part(k, c, in, out, nblocks);
		acc = ghash_part(k, acc, out, nblocks);
	}
	_mm_storeu_si128((__m128i *)ctr, bswap_ctr(c));
	_mm_storeu_si128((__m128i *)y, bswap128(acc));
	/* (the ciphertext in prev[] is public; the keystream in s[] died
	 * in the registers) */
}

V5 void
ae_gcm_vaes512_ghash_ctr32(const struct ae_gcm_vaes512_key *k,
    uint8_t ctr[16], uint8_t y[16], const uint8_t *in, uint8_t *out,
    size_t nblocks)
{
	__m128i c = bswap_ctr(_mm_loadu_si128((const __m128i *)ctr));
	__m128i acc = bswap128(_mm_loadu_si128((const __m128i *)y));

	for (; nblocks >= STEP; nblocks -= STEP, in += 16 * STEP,
	    out += 16 * STEP) {
		__m512i s[NV], x[NV], v[NV];
		struct acc512 a;
		int j;

		/* the step's ciphertext, loaded once: its GHASH multiplies
		 * ride in the same step's AES rounds (no lag, unlike
		 * sealing, whose ciphertext comes out of them), and the
		 * stores below may overwrite it (in == out) */
		UNROLL for (j = 0; j < NV; j++) {
			v[j] = _mm512_loadu_si512((const void *)(in + 64 * j));
			x[j] = bswap512(v[j]);
		}
		acc_zero(&a);
		aes_step(k, c, s, x, acc, 1, &a);
		/* (aes_step issues pairs 2.. in its rounds; 0 and 1, the
		 * pair that takes y, come last there too) */
		acc = acc_reduce(&a);
		UNROLL for (j = 0; j < NV; j++)
			_mm512_storeu_si512((void *)(out + 64 * j),
			    _mm512_xor_si512(s[j], v[j]));
		c = _mm_add_epi32(c, _mm_set_epi32(STEP, 0, 0, 0));
	}
	if (nblocks > 0) {
		acc = ghash_part(k, acc, in, nblocks);
		c = ctr_part(k, c, in, out, nblocks);
	}
	_mm_storeu_si128((__m128i *)ctr, bswap_ctr(c));
	_mm_storeu_si128((__m128i *)y, bswap128(acc));
}

#else /* no AVX-512 build */

int
ae_gcm_vaes512_available(void)
{
	return 0;
}

#endif
