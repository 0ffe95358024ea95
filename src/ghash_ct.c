/*
 * ghash_ct.c -- constant-time GHASH from integer multiplies.
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
 */
#include "ghash_ct.h"
#include "bytes.h"
#include "wipe.h"

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

/* Recombine into the 256-bit product, shift left by one and reduce
 * modulo x^128 + x^7 + x^2 + x + 1 (reflected); result in (*y1:*y0). */
static inline void
reduce(const struct acc *a, uint64_t *y1, uint64_t *y0)
{
	uint64_t hi0 = rev64(a->hr[0]) >> 1, hi1 = rev64(a->hr[1]) >> 1;
	uint64_t lo2 = a->lo[2] ^ a->lo[0] ^ a->lo[1];
	uint64_t hi2 = (rev64(a->hr[2]) >> 1) ^ hi0 ^ hi1;
	uint64_t v0 = a->lo[0], v1 = hi0 ^ lo2, v2 = a->lo[1] ^ hi2, v3 = hi1;
	uint64_t x0 = v0 << 1;
	uint64_t x1 = (v1 << 1) | (v0 >> 63);
	uint64_t x2 = (v2 << 1) | (v1 >> 63);
	uint64_t x3 = (v3 << 1) | (v2 >> 63);
	uint64_t d = x1 ^ (x0 << 63) ^ (x0 << 62) ^ (x0 << 57);
	uint64_t e0 = x0 ^ (x0 >> 1) ^ (d << 63) ^ (x0 >> 2) ^ (d << 62)
	    ^ (x0 >> 7) ^ (d << 57);
	uint64_t e1 = d ^ (d >> 1) ^ (d >> 2) ^ (d >> 7);

	*y1 = x3 ^ e1;
	*y0 = x2 ^ e0;
}

static void
mul_h(const struct ghash_ct_key *k, int pow, uint64_t *y1, uint64_t *y0)
{
	struct acc a = { { 0, 0, 0 }, { 0, 0, 0 } };

	mul_acc(&a, *y1, *y0, k->h[pow], k->hr[pow]);
	reduce(&a, y1, y0);
}

void
ghash_ct_init(struct ghash_ct_key *k, const uint8_t h[16])
{
	uint64_t y1 = load_be64(h), y0 = load_be64(h + 8);
	int i;

	k->h[0][0] = y1;
	k->h[0][1] = y0;
	k->hr[0][0] = rev64(y1);
	k->hr[0][1] = rev64(y0);
	for (i = 1; i < 4; i++) {
		mul_h(k, 0, &y1, &y0);
		k->h[i][0] = y1;
		k->h[i][1] = y0;
		k->hr[i][0] = rev64(y1);
		k->hr[i][1] = rev64(y0);
	}
}

void
ghash_ct_update(const struct ghash_ct_key *k, uint8_t y[16],
    const uint8_t *in, size_t nblocks)
{
	uint64_t y1 = load_be64(y), y0 = load_be64(y + 8);

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
		mul_h(k, 0, &y1, &y0);
	}
	store_be64(y, y1);
	store_be64(y + 8, y0);
}
