/*
 * gcm_vaes.c -- AES-256-GCM with VAES and VPCLMULQDQ on 256-bit vectors
 * (contract in gcm_vaes.h).
 *
 * Implementation notes
 * --------------------
 * The same algorithm as gcm_ni.c at twice the width: each YMM register
 * holds two blocks, VAESENC runs a round on both, and VPCLMULQDQ does
 * two 64x64 carry-less multiplies.  Sixteen blocks (8 registers) are in
 * flight; GHASH multiplies them by H^16..H^1, held in pairs, sums the
 * products unreduced, folds the two lanes together and reduces once per
 * 16 blocks with the tier-1 reduction.
 *
 * On CPUs where AESENC and PCLMULQDQ cost the same per instruction at
 * any width, this halves the instruction count of both halves of GCM,
 * which is where the speed comes from.  Tails of fewer than 16 blocks go
 * to tier 1, so this file has no partial-batch code of its own.
 */
#include "config.h"
#include "gcm_vaes.h"
#include "cpu.h"

#if defined(HAVE_TARGET_AESNI) && defined(HAVE_TARGET_VAES_AVX2)

#include "gcm_x86.h"
#include "common/wipe.h"

#define VX __attribute__((target("vaes,vpclmulqdq,avx2,avx,aes,pclmul,ssse3,sse4.1")))
#define VX_INLINE static inline __attribute__((always_inline)) VX

int
ae_gcm_vaes_available(void)
{
	const struct ae_cpu_features *f = ae_cpu_features();

	return ae_gcm_ni_available() && f->vaes && f->vpclmulqdq && f->avx2;
}

VX_INLINE __m256i
bswap256(__m256i x)
{
	return _mm256_shuffle_epi8(x, _mm256_set_epi8(
	    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
	    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
}

VX_INLINE __m256i
bswap_ctr256(__m256i x)
{
	return _mm256_shuffle_epi8(x, _mm256_set_epi8(
	    12, 13, 14, 15, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
	    12, 13, 14, 15, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0));
}

#define RK(r) _mm256_load_si256((const __m256i *)k->rk[r])

struct acc256 {
	__m256i lo, hi, mid;
};

VX_INLINE void
mul_acc256(struct acc256 *a, __m256i x, __m256i h, __m256i hk)
{
	__m256i xk = _mm256_xor_si256(x, _mm256_shuffle_epi32(x, 0x4e));

	a->lo = _mm256_xor_si256(a->lo, _mm256_clmulepi64_epi128(x, h, 0x00));
	a->hi = _mm256_xor_si256(a->hi, _mm256_clmulepi64_epi128(x, h, 0x11));
	a->mid = _mm256_xor_si256(a->mid, _mm256_clmulepi64_epi128(xk, hk, 0x00));
}

VX_INLINE __m128i
fold(__m256i x)
{
	return _mm_xor_si128(_mm256_castsi256_si128(x),
	    _mm256_extracti128_si256(x, 1));
}

/* y <- (y + X1)H^16 + X2 H^15 + ... + X16 H^1 over the 16 blocks at p. */
VX_INLINE __m128i
ghash16(const struct ae_gcm_vaes_key *k, __m128i y, const uint8_t *p)
{
	struct acc256 a = { _mm256_setzero_si256(), _mm256_setzero_si256(),
	    _mm256_setzero_si256() };
	struct acc r;
	int j;

	UNROLL for (j = 0; j < 8; j++) {
		__m256i x = bswap256(_mm256_loadu_si256((const __m256i *)(p + 32 * j)));

		if (j == 0)
			x = _mm256_xor_si256(x, _mm256_set_m128i(_mm_setzero_si128(), y));
		mul_acc256(&a, x, _mm256_load_si256((const __m256i *)k->hp[j]),
		    _mm256_load_si256((const __m256i *)k->hk[j]));
	}
	r.lo = fold(a.lo);
	r.hi = fold(a.hi);
	r.mid = fold(a.mid);
	return reduce(&r);
}

/* a's three sums folded and reduced: the hash so far. */
VX_INLINE __m128i
acc_done(const struct acc256 *a)
{
	struct acc r;

	r.lo = fold(a->lo);
	r.hi = fold(a->hi);
	r.mid = fold(a->mid);
	return reduce(&r);
}

/* x[0]'s first block with the running hash y added. */
VX_INLINE __m256i
with_y(__m256i x, __m128i y)
{
	return _mm256_xor_si256(x, _mm256_set_m128i(_mm_setzero_si128(), y));
}

/*
 * The keystream of counters c .. c+15 (c in byte-swapped-counter form)
 * into s[]; with x, the GHASH multiplies of the 16 byte-swapped blocks
 * in x[] (x[0] carrying the hash so far) issued one register a round,
 * so that the AES and the carry-less multiply units work at once (as
 * tier 4's aes_step and Linux's aes-gcm-avx10-x86_64.S do), summed into
 * a, which the caller reduces.  (Inlined: a NULL x leaves no trace.)
 */
VX_INLINE void
aes16_mul(const struct ae_gcm_vaes_key *k, __m128i c, __m256i *s,
    const __m256i *x, struct acc256 *a)
{
	__m256i cb = _mm256_broadcastsi128_si256(c), rk = RK(0);
	int j, r;

	UNROLL for (j = 0; j < 8; j++)
		s[j] = _mm256_xor_si256(bswap_ctr256(_mm256_add_epi32(cb,
		    _mm256_set_epi32(2 * j + 1, 0, 0, 0, 2 * j, 0, 0, 0))), rk);
	UNROLL for (r = 1; r < 14; r++) {
		rk = RK(r);
		UNROLL for (j = 0; j < 8; j++)
			s[j] = _mm256_aesenc_epi128(s[j], rk);
		if (x != NULL && r <= 8)
			mul_acc256(a, x[r - 1], _mm256_load_si256((const __m256i *)
			    k->hp[r - 1]), _mm256_load_si256((const __m256i *)
			    k->hk[r - 1]));
	}
	rk = RK(14);
	UNROLL for (j = 0; j < 8; j++)
		s[j] = _mm256_aesenclast_epi128(s[j], rk);
}

/* Encrypt counters c .. c+15 (c in byte-swapped-counter form), XOR into
 * in, write out. */
VX_INLINE void
ctr16(const struct ae_gcm_vaes_key *k, __m128i c, const uint8_t *in, uint8_t *out)
{
	__m256i s[8];
	int j;

	aes16_mul(k, c, s, NULL, NULL);
	UNROLL for (j = 0; j < 8; j++)
		_mm256_storeu_si256((__m256i *)(out + 32 * j), _mm256_xor_si256(
		    s[j], _mm256_loadu_si256((const __m256i *)(in + 32 * j))));
}

VX void
ae_gcm_vaes_init(struct ae_gcm_vaes_key *k, const uint8_t key[32])
{
	__m128i pw[16];
	int i;

	ae_gcm_ni_init(&k->ni, key);
	for (i = 0; i < 15; i++)
		_mm256_store_si256((__m256i *)k->rk[i], _mm256_broadcastsi128_si256(
		    _mm_load_si128((const __m128i *)k->ni.rk[i])));
	for (i = 0; i < 8; i++)
		pw[i] = _mm_load_si128((const __m128i *)k->ni.hp[i]);
	for (i = 8; i < 16; i++)
		pw[i] = gfmul(pw[i - 1], pw[0]);
	for (i = 0; i < 8; i++) {
		__m128i lo = pw[15 - 2 * i], hi = pw[14 - 2 * i];

		_mm256_store_si256((__m256i *)k->hp[i], _mm256_set_m128i(hi, lo));
		_mm256_store_si256((__m256i *)k->hk[i],
		    _mm256_set_m128i(hkey(hi), hkey(lo)));
	}
	ae_wipe(pw, sizeof pw);
}

VX void
ae_gcm_vaes_ghash(const struct ae_gcm_vaes_key *k, uint8_t y[16], const uint8_t *in,
    size_t nblocks)
{
	__m128i acc = bswap128(_mm_loadu_si128((const __m128i *)y));

	for (; nblocks >= 16; nblocks -= 16, in += 256)
		acc = ghash16(k, acc, in);
	_mm_storeu_si128((__m128i *)y, bswap128(acc));
	if (nblocks > 0)
		ae_gcm_ni_ghash(&k->ni, y, in, nblocks);
}

VX void
ae_gcm_vaes_ctr32(const struct ae_gcm_vaes_key *k, uint8_t ctr[16],
    const uint8_t *in, uint8_t *out, size_t nblocks)
{
	__m128i c = bswap_ctr(_mm_loadu_si128((const __m128i *)ctr));

	for (; nblocks >= 16; nblocks -= 16, in += 256, out += 256) {
		ctr16(k, c, in, out);
		c = _mm_add_epi32(c, _mm_set_epi32(16, 0, 0, 0));
	}
	_mm_storeu_si128((__m128i *)ctr, bswap_ctr(c));
	if (nblocks > 0)
		ae_gcm_ni_ctr32(&k->ni, ctr, in, out, nblocks);
}

VX void
ae_gcm_vaes_ctr32_ghash(const struct ae_gcm_vaes_key *k, uint8_t ctr[16],
    uint8_t y[16], const uint8_t *in, uint8_t *out, size_t nblocks)
{
	__m128i c = bswap_ctr(_mm_loadu_si128((const __m128i *)ctr));
	__m128i acc = bswap128(_mm_loadu_si128((const __m128i *)y));
	__m256i prev[8], x[8], s[8];
	int have = 0, j;

	/* each step's AES carries the GHASH of the step before's
	 * ciphertext (it exists only once the step's AES is done) */
	for (; nblocks >= 16; nblocks -= 16, in += 256, out += 256) {
		struct acc256 a = { _mm256_setzero_si256(),
		    _mm256_setzero_si256(), _mm256_setzero_si256() };

		UNROLL for (j = 0; j < 8; j++)
			x[j] = have ? prev[j] : _mm256_setzero_si256();
		x[0] = with_y(x[0], acc);
		aes16_mul(k, c, s, x, &a);
		if (have)
			acc = acc_done(&a);
		UNROLL for (j = 0; j < 8; j++) {
			s[j] = _mm256_xor_si256(s[j], _mm256_loadu_si256(
			    (const __m256i *)(in + 32 * j)));
			_mm256_storeu_si256((__m256i *)(out + 32 * j), s[j]);
			prev[j] = bswap256(s[j]);
		}
		have = 1;
		c = _mm_add_epi32(c, _mm_set_epi32(16, 0, 0, 0));
	}
	if (have) {
		struct acc256 a = { _mm256_setzero_si256(),
		    _mm256_setzero_si256(), _mm256_setzero_si256() };

		prev[0] = with_y(prev[0], acc);
		UNROLL for (j = 0; j < 8; j++)
			mul_acc256(&a, prev[j], _mm256_load_si256((const __m256i *)
			    k->hp[j]), _mm256_load_si256((const __m256i *)
			    k->hk[j]));
		acc = acc_done(&a);
	}
	_mm_storeu_si128((__m128i *)ctr, bswap_ctr(c));
	_mm_storeu_si128((__m128i *)y, bswap128(acc));
	if (nblocks > 0)
		ae_gcm_ni_ctr32_ghash(&k->ni, ctr, y, in, out, nblocks);
}

VX void
ae_gcm_vaes_ghash_ctr32(const struct ae_gcm_vaes_key *k, uint8_t ctr[16],
    uint8_t y[16], const uint8_t *in, uint8_t *out, size_t nblocks)
{
	__m128i c = bswap_ctr(_mm_loadu_si128((const __m128i *)ctr));
	__m128i acc = bswap128(_mm_loadu_si128((const __m128i *)y));

	/* opening: the step's own ciphertext is hashed in its AES rounds
	 * (loaded first: in may be out) */
	for (; nblocks >= 16; nblocks -= 16, in += 256, out += 256) {
		struct acc256 a = { _mm256_setzero_si256(),
		    _mm256_setzero_si256(), _mm256_setzero_si256() };
		__m256i v[8], x[8], s[8];
		int j;

		UNROLL for (j = 0; j < 8; j++) {
			v[j] = _mm256_loadu_si256((const __m256i *)(in + 32 * j));
			x[j] = bswap256(v[j]);
		}
		x[0] = with_y(x[0], acc);
		aes16_mul(k, c, s, x, &a);
		acc = acc_done(&a);
		UNROLL for (j = 0; j < 8; j++)
			_mm256_storeu_si256((__m256i *)(out + 32 * j),
			    _mm256_xor_si256(s[j], v[j]));
		c = _mm_add_epi32(c, _mm_set_epi32(16, 0, 0, 0));
	}
	_mm_storeu_si128((__m128i *)ctr, bswap_ctr(c));
	_mm_storeu_si128((__m128i *)y, bswap128(acc));
	if (nblocks > 0) {
		ae_gcm_ni_ghash(&k->ni, y, in, nblocks);
		ae_gcm_ni_ctr32(&k->ni, ctr, in, out, nblocks);
	}
}

#else /* no VAES build */

int
ae_gcm_vaes_available(void)
{
	return 0;
}

#endif
