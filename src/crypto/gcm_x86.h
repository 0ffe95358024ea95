/*
 * gcm_x86.h -- inline helpers shared by the x86 GCM tiers (private).
 *
 * Included only by gcm_ni.c, gcm_vaes.c and gcm_vaes512.c, inside their
 * HAVE_TARGET_AESNI guards.  Every function carries the AES-NI target
 * attribute and is always inlined, so it takes on the (wider) target of
 * the function it is inlined into.
 */
#ifndef AE_GCM_X86_H
#define AE_GCM_X86_H

#include <immintrin.h>

#define NI __attribute__((target("aes,pclmul,ssse3,sse4.1")))
#define NI_INLINE static inline __attribute__((always_inline)) NI

/* The 8-block arrays must live in registers: fully unroll the loops over
 * them (GCC otherwise keeps them in memory and runs 3x slower). */
#define UNROLL _Pragma("GCC unroll 16")

NI_INLINE __m128i
bswap128(__m128i x)
{
	return _mm_shuffle_epi8(x, _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8,
	    9, 10, 11, 12, 13, 14, 15));
}

/* Swap the bytes of the last 32-bit word only (the GCM counter). */
NI_INLINE __m128i
bswap_ctr(__m128i x)
{
	return _mm_shuffle_epi8(x, _mm_set_epi8(12, 13, 14, 15, 11, 10, 9,
	    8, 7, 6, 5, 4, 3, 2, 1, 0));
}

/* Unreduced 256-bit sum of products, Karatsuba middle kept apart. */
struct acc {
	__m128i lo, hi, mid;
};

NI_INLINE void
mul_acc(struct acc *a, __m128i x, __m128i h, __m128i hk)
{
	__m128i xk = _mm_xor_si128(x, _mm_shuffle_epi32(x, 0x4e));

	a->lo = _mm_xor_si128(a->lo, _mm_clmulepi64_si128(x, h, 0x00));
	a->hi = _mm_xor_si128(a->hi, _mm_clmulepi64_si128(x, h, 0x11));
	a->mid = _mm_xor_si128(a->mid, _mm_clmulepi64_si128(xk, hk, 0x00));
}

/* Fold the Karatsuba middle, shift the 256-bit product left by one (the
 * operands are bit-reflected) and reduce modulo the GCM polynomial. */
NI_INLINE __m128i
reduce(const struct acc *a)
{
	__m128i lo = a->lo, hi = a->hi;
	__m128i mid = _mm_xor_si128(a->mid, _mm_xor_si128(lo, hi));
	__m128i t, u, v;

	lo = _mm_xor_si128(lo, _mm_slli_si128(mid, 8));
	hi = _mm_xor_si128(hi, _mm_srli_si128(mid, 8));

	t = _mm_srli_epi32(lo, 31);
	u = _mm_srli_epi32(hi, 31);
	lo = _mm_slli_epi32(lo, 1);
	hi = _mm_slli_epi32(hi, 1);
	v = _mm_srli_si128(t, 12);
	u = _mm_slli_si128(u, 4);
	t = _mm_slli_si128(t, 4);
	lo = _mm_or_si128(lo, t);
	hi = _mm_or_si128(hi, _mm_or_si128(u, v));

	t = _mm_xor_si128(_mm_slli_epi32(lo, 31),
	    _mm_xor_si128(_mm_slli_epi32(lo, 30), _mm_slli_epi32(lo, 25)));
	v = _mm_srli_si128(t, 4);
	lo = _mm_xor_si128(lo, _mm_slli_si128(t, 12));
	t = _mm_xor_si128(_mm_srli_epi32(lo, 1),
	    _mm_xor_si128(_mm_srli_epi32(lo, 2), _mm_srli_epi32(lo, 7)));
	t = _mm_xor_si128(t, v);
	lo = _mm_xor_si128(lo, t);
	return _mm_xor_si128(hi, lo);
}

NI_INLINE __m128i
hkey(__m128i h)
{
	return _mm_xor_si128(h, _mm_shuffle_epi32(h, 0x4e));
}

NI_INLINE __m128i
gfmul(__m128i x, __m128i h)
{
	struct acc a = { _mm_setzero_si128(), _mm_setzero_si128(),
	    _mm_setzero_si128() };

	mul_acc(&a, x, h, hkey(h));
	return reduce(&a);
}

#endif
