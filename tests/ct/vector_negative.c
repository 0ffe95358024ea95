/*
 * vector_negative.c -- the negative control of vector_flow.sh: a function
 * named like the 512-bit tier's that takes a byte out of a vector (as a
 * secret would leave it) and indexes a table with it.  The scan must
 * flag it.  Built only where the 512-bit tier is.
 */
#include "config.h"

#include <stdint.h>

#if defined(HAVE_TARGET_AESNI) && defined(HAVE_TARGET_AVX512)
#include <immintrin.h>

static const uint8_t table[256] = { 1, 2, 3 };

uint8_t ae_gcm_vaes512_leak(const uint8_t *p);

__attribute__((target("avx512f,avx512bw"))) uint8_t
ae_gcm_vaes512_leak(const uint8_t *p)
{
	__m512i v = _mm512_loadu_si512((const void *)p);

	return table[_mm_cvtsi128_si32(_mm512_castsi512_si128(v)) & 0xff];
}
#else
int ae_vector_negative_unused;
#endif
