/*
 * mlkem_poly.c -- ML-KEM's polynomials: arithmetic mod q, the NTT, and
 * the encodings.
 *
 * Plain reduction with a 32-bit reciprocal (Barrett) rather than
 * Montgomery form: every value stays a canonical residue, which keeps
 * the code a line-by-line reading of FIPS 203 at the cost of some
 * speed (bench_cipher's KEM figures say how much).
 */
#include "mlkem_poly.h"

#define Q AE_MLKEM_Q
/* floor(2^32 / q): x - ((x * BARRETT) >> 32) * q is in [0, 2q) for
 * x < 2^32. */
#define BARRETT 1290167u
/* ceil(2^35 / q): (n * RECIP) >> 35 = floor(n / q) for n < 2^23 (the
 * error n * (RECIP - 2^35 / q) / 2^35 < 2^-12 < 1 / q). */
#define RECIP 10321340u
/* 128^-1 mod q, the inverse NTT's scale */
#define INV128 3303u

/* zetas[i] = 17^BitRev7(i) mod q, the NTT's twiddles (Appendix A). */
static const uint16_t zetas[128] = {
	1, 1729, 2580, 3289, 2642, 630, 1897, 848, 1062, 1919, 193, 797,
	2786, 3260, 569, 1746, 296, 2447, 1339, 1476, 3046, 56, 2240, 1333,
	1426, 2094, 535, 2882, 2393, 2879, 1974, 821, 289, 331, 3253, 1756,
	1197, 2304, 2277, 2055, 650, 1977, 2513, 632, 2865, 33, 1320, 1915,
	2319, 1435, 807, 452, 1438, 2868, 1534, 2402, 2647, 2617, 1481, 648,
	2474, 3110, 1227, 910, 17, 2761, 583, 2649, 1637, 723, 2288, 1100,
	1409, 2662, 3281, 233, 756, 2156, 3015, 3050, 1703, 1651, 2789, 1789,
	1847, 952, 1461, 2687, 939, 2308, 2437, 2388, 733, 2337, 268, 641,
	1584, 2298, 2037, 3220, 375, 2549, 2090, 1645, 1063, 319, 2773, 757,
	2099, 561, 2466, 2594, 2804, 1092, 403, 1026, 1143, 2150, 2775, 886,
	1722, 1212, 1874, 1029, 2110, 2935, 885, 2154,
};
/* gammas[i] = 17^(2 BitRev7(i) + 1) mod q, BaseCaseMultiply's moduli
 * (Appendix A). */
static const uint16_t gammas[128] = {
	17, 3312, 2761, 568, 583, 2746, 2649, 680, 1637, 1692, 723, 2606,
	2288, 1041, 1100, 2229, 1409, 1920, 2662, 667, 3281, 48, 233, 3096,
	756, 2573, 2156, 1173, 3015, 314, 3050, 279, 1703, 1626, 1651, 1678,
	2789, 540, 1789, 1540, 1847, 1482, 952, 2377, 1461, 1868, 2687, 642,
	939, 2390, 2308, 1021, 2437, 892, 2388, 941, 733, 2596, 2337, 992,
	268, 3061, 641, 2688, 1584, 1745, 2298, 1031, 2037, 1292, 3220, 109,
	375, 2954, 2549, 780, 2090, 1239, 1645, 1684, 1063, 2266, 319, 3010,
	2773, 556, 757, 2572, 2099, 1230, 561, 2768, 2466, 863, 2594, 735,
	2804, 525, 1092, 2237, 403, 2926, 1026, 2303, 1143, 2186, 2150, 1179,
	2775, 554, 886, 2443, 1722, 1607, 1212, 2117, 1874, 1455, 1029, 2300,
	2110, 1219, 2935, 394, 885, 2444, 2154, 1175,
};

/* x - q if x >= q, for x in [0, 2q): the borrow's sign bit is the mask. */
static uint16_t csubq(uint32_t x)
{
	uint32_t t = x - Q;
	return (uint16_t)(t + (Q & (0u - (t >> 31))));
}

uint16_t ae_mlkem_reduce(uint32_t x)
{
	uint32_t t = (uint32_t)(((uint64_t)x * BARRETT) >> 32);
	return csubq(x - t * Q);
}

static uint16_t fmul(uint16_t a, uint16_t b)
{
	return ae_mlkem_reduce((uint32_t)a * b);
}

static uint16_t fadd(uint16_t a, uint16_t b)
{
	return csubq((uint32_t)a + b);
}

static uint16_t fsub(uint16_t a, uint16_t b)
{
	return csubq((uint32_t)a + Q - b);
}

void ae_poly_add(struct ae_poly *r, const struct ae_poly *a,
    const struct ae_poly *b)
{
	for (int i = 0; i < AE_MLKEM_N; i++)
		r->c[i] = fadd(a->c[i], b->c[i]);
}

void ae_poly_sub(struct ae_poly *r, const struct ae_poly *a,
    const struct ae_poly *b)
{
	for (int i = 0; i < AE_MLKEM_N; i++)
		r->c[i] = fsub(a->c[i], b->c[i]);
}

void ae_poly_ntt(struct ae_poly *f)
{
	unsigned i = 1, len, start, j;

	for (len = 128; len >= 2; len /= 2) {
		for (start = 0; start < AE_MLKEM_N; start += 2 * len) {
			uint16_t zeta = zetas[i++];
			for (j = start; j < start + len; j++) {
				uint16_t t = fmul(zeta, f->c[j + len]);
				f->c[j + len] = fsub(f->c[j], t);
				f->c[j] = fadd(f->c[j], t);
			}
		}
	}
}

void ae_poly_invntt(struct ae_poly *f)
{
	unsigned i = 127, len, start, j;

	for (len = 2; len <= 128; len *= 2) {
		for (start = 0; start < AE_MLKEM_N; start += 2 * len) {
			uint16_t zeta = zetas[i--];
			for (j = start; j < start + len; j++) {
				uint16_t t = f->c[j];
				f->c[j] = fadd(t, f->c[j + len]);
				f->c[j + len] = fmul(zeta, fsub(f->c[j + len], t));
			}
		}
	}
	for (j = 0; j < AE_MLKEM_N; j++)
		f->c[j] = fmul(f->c[j], INV128);
}

void ae_poly_basemul_acc(struct ae_poly *r, const struct ae_poly *a,
    const struct ae_poly *b)
{
	for (int i = 0; i < 128; i++) {
		uint16_t a0 = a->c[2 * i], a1 = a->c[2 * i + 1];
		uint16_t b0 = b->c[2 * i], b1 = b->c[2 * i + 1];
		/* Each sum is under 2q^2 + q < 2^25: one reduction. */
		uint32_t c0 = (uint32_t)a0 * b0
		    + (uint32_t)fmul(a1, b1) * gammas[i] + r->c[2 * i];
		uint32_t c1 = (uint32_t)a0 * b1 + (uint32_t)a1 * b0
		    + r->c[2 * i + 1];
		r->c[2 * i] = ae_mlkem_reduce(c0);
		r->c[2 * i + 1] = ae_mlkem_reduce(c1);
	}
}

/* Bits are packed little-endian: coefficient i's bit b is bit
 * i * d + b of the string (ByteEncode's BitsToBytes order). */
void ae_poly_tobytes(uint8_t *out, const struct ae_poly *a, unsigned d)
{
	uint32_t acc = 0;
	unsigned have = 0, o = 0;

	for (int i = 0; i < AE_MLKEM_N; i++) {
		acc |= (uint32_t)a->c[i] << have;
		have += d;
		while (have >= 8) {
			out[o++] = (uint8_t)acc;
			acc >>= 8;
			have -= 8;
		}
	}
}

static void unpack_bits(uint16_t v[AE_MLKEM_N], const uint8_t *in, unsigned d)
{
	uint32_t acc = 0, mask = (1u << d) - 1;
	unsigned have = 0, o = 0;

	for (int i = 0; i < AE_MLKEM_N; i++) {
		while (have < d) {
			acc |= (uint32_t)in[o++] << have;
			have += 8;
		}
		v[i] = (uint16_t)(acc & mask);
		acc >>= d;
		have -= d;
	}
}

void ae_poly_frombytes(struct ae_poly *a, const uint8_t *in, unsigned d)
{
	unpack_bits(a->c, in, d);
	if (d == 12)
		for (int i = 0; i < AE_MLKEM_N; i++)
			a->c[i] = csubq(a->c[i]);   /* < 4096 < 2q */
}

int ae_poly_frombytes_checked(struct ae_poly *a, const uint8_t *in)
{
	uint32_t bad = 0;

	unpack_bits(a->c, in, 12);
	for (int i = 0; i < AE_MLKEM_N; i++)
		bad |= (Q - 1u - a->c[i]) >> 31;   /* set if c >= q */
	return bad == 0;
}

uint16_t ae_mlkem_compress(uint16_t x, unsigned d)
{
	/* round(2^d x / q) = floor((2^d x + q/2) / q), under 2^23 */
	uint32_t n = ((uint32_t)x << d) + Q / 2;
	uint32_t t = (uint32_t)(((uint64_t)n * RECIP) >> 35);
	return (uint16_t)(t & ((1u << d) - 1));
}

void ae_poly_compress(struct ae_poly *a, unsigned d)
{
	for (int i = 0; i < AE_MLKEM_N; i++)
		a->c[i] = ae_mlkem_compress(a->c[i], d);
}

void ae_poly_decompress(struct ae_poly *a, unsigned d)
{
	/* round(q y / 2^d) */
	for (int i = 0; i < AE_MLKEM_N; i++)
		a->c[i] = (uint16_t)(((uint32_t)a->c[i] * Q
		    + (1u << (d - 1))) >> d);
}
