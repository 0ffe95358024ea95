/*
 * sha3.c -- Keccak-f[1600] and the FIPS 202 sponges.
 *
 * The permutation follows FIPS 202 section 3.2 step by step (theta,
 * rho and pi, chi, iota) on 25 64-bit lanes, lane (x, y) at a[x + 5y].
 * Bytes enter and leave the lanes little-endian, as FIPS 202's bit
 * order makes them.
 */
#include "sha3.h"

#include <string.h>

#include "common/wipe.h"

static const uint64_t round_const[24] = {
	0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808aULL,
	0x8000000080008000ULL, 0x000000000000808bULL, 0x0000000080000001ULL,
	0x8000000080008081ULL, 0x8000000000008009ULL, 0x000000000000008aULL,
	0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000aULL,
	0x000000008000808bULL, 0x800000000000008bULL, 0x8000000000008089ULL,
	0x8000000000008003ULL, 0x8000000000008002ULL, 0x8000000000000080ULL,
	0x000000000000800aULL, 0x800000008000000aULL, 0x8000000080008081ULL,
	0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL
};

static uint64_t rotl(uint64_t x, unsigned n)
{
	return (x << n) | (x >> (64 - n));
}

static void keccak_f1600(uint64_t a[25])
{
	uint64_t c0, c1, c2, c3, c4, d0, d1, d2, d3, d4;
	uint64_t b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, b12,
	    b13, b14, b15, b16, b17, b18, b19, b20, b21, b22, b23, b24;
	int r;

	for (r = 0; r < 24; r++) {
		/* theta: each column's parity, then d[x] = c[x-1] ^ rot(c[x+1]) */
		c0 = a[0] ^ a[5] ^ a[10] ^ a[15] ^ a[20];
		c1 = a[1] ^ a[6] ^ a[11] ^ a[16] ^ a[21];
		c2 = a[2] ^ a[7] ^ a[12] ^ a[17] ^ a[22];
		c3 = a[3] ^ a[8] ^ a[13] ^ a[18] ^ a[23];
		c4 = a[4] ^ a[9] ^ a[14] ^ a[19] ^ a[24];
		d0 = c4 ^ rotl(c1, 1);
		d1 = c0 ^ rotl(c2, 1);
		d2 = c1 ^ rotl(c3, 1);
		d3 = c2 ^ rotl(c4, 1);
		d4 = c3 ^ rotl(c0, 1);
		/* rho and pi: b[y + 5((2x + 3y) mod 5)] = rot(a[x + 5y], r[x][y]) */
		b0 = a[0] ^ d0;
		b10 = rotl(a[1] ^ d1, 1);
		b20 = rotl(a[2] ^ d2, 62);
		b5 = rotl(a[3] ^ d3, 28);
		b15 = rotl(a[4] ^ d4, 27);
		b16 = rotl(a[5] ^ d0, 36);
		b1 = rotl(a[6] ^ d1, 44);
		b11 = rotl(a[7] ^ d2, 6);
		b21 = rotl(a[8] ^ d3, 55);
		b6 = rotl(a[9] ^ d4, 20);
		b7 = rotl(a[10] ^ d0, 3);
		b17 = rotl(a[11] ^ d1, 10);
		b2 = rotl(a[12] ^ d2, 43);
		b12 = rotl(a[13] ^ d3, 25);
		b22 = rotl(a[14] ^ d4, 39);
		b23 = rotl(a[15] ^ d0, 41);
		b8 = rotl(a[16] ^ d1, 45);
		b18 = rotl(a[17] ^ d2, 15);
		b3 = rotl(a[18] ^ d3, 21);
		b13 = rotl(a[19] ^ d4, 8);
		b14 = rotl(a[20] ^ d0, 18);
		b24 = rotl(a[21] ^ d1, 2);
		b9 = rotl(a[22] ^ d2, 61);
		b19 = rotl(a[23] ^ d3, 56);
		b4 = rotl(a[24] ^ d4, 14);
		/* chi */
		a[0] = b0 ^ (~b1 & b2);
		a[1] = b1 ^ (~b2 & b3);
		a[2] = b2 ^ (~b3 & b4);
		a[3] = b3 ^ (~b4 & b0);
		a[4] = b4 ^ (~b0 & b1);
		a[5] = b5 ^ (~b6 & b7);
		a[6] = b6 ^ (~b7 & b8);
		a[7] = b7 ^ (~b8 & b9);
		a[8] = b8 ^ (~b9 & b5);
		a[9] = b9 ^ (~b5 & b6);
		a[10] = b10 ^ (~b11 & b12);
		a[11] = b11 ^ (~b12 & b13);
		a[12] = b12 ^ (~b13 & b14);
		a[13] = b13 ^ (~b14 & b10);
		a[14] = b14 ^ (~b10 & b11);
		a[15] = b15 ^ (~b16 & b17);
		a[16] = b16 ^ (~b17 & b18);
		a[17] = b17 ^ (~b18 & b19);
		a[18] = b18 ^ (~b19 & b15);
		a[19] = b19 ^ (~b15 & b16);
		a[20] = b20 ^ (~b21 & b22);
		a[21] = b21 ^ (~b22 & b23);
		a[22] = b22 ^ (~b23 & b24);
		a[23] = b23 ^ (~b24 & b20);
		a[24] = b24 ^ (~b20 & b21);
		/* iota */
		a[0] ^= round_const[r];
	}
}

static void sponge_init(struct ae_keccak *k, size_t rate, uint8_t pad)
{
	memset(k, 0, sizeof *k);
	k->rate = rate;
	k->pad = pad;
}

void ae_shake128_init(struct ae_keccak *k)
{
	sponge_init(k, AE_SHAKE128_RATE, 0x1f);
}

void ae_shake256_init(struct ae_keccak *k)
{
	sponge_init(k, AE_SHAKE256_RATE, 0x1f);
}

static void xor_byte(uint64_t a[25], size_t i, uint8_t b)
{
	a[i / 8] ^= (uint64_t)b << (8 * (i % 8));
}

void ae_keccak_absorb(struct ae_keccak *k, const void *p, size_t n)
{
	const uint8_t *s = p;

	while (n > 0) {
		/* whole lanes when aligned: the common case for long input */
		if (k->pos % 8 == 0 && n >= 8 && k->pos + 8 <= k->rate) {
			uint64_t w = 0;
			for (int i = 7; i >= 0; i--)
				w = (w << 8) | s[i];
			k->a[k->pos / 8] ^= w;
			k->pos += 8;
			s += 8;
			n -= 8;
		} else {
			xor_byte(k->a, k->pos++, *s++);
			n--;
		}
		if (k->pos == k->rate) {
			keccak_f1600(k->a);
			k->pos = 0;
		}
	}
}

void ae_keccak_squeeze(struct ae_keccak *k, uint8_t *out, size_t n)
{
	if (!k->squeezing) {
		xor_byte(k->a, k->pos, k->pad);
		xor_byte(k->a, k->rate - 1, 0x80);
		keccak_f1600(k->a);
		k->pos = 0;
		k->squeezing = 1;
	}
	while (n > 0) {
		if (k->pos == k->rate) {
			keccak_f1600(k->a);
			k->pos = 0;
		}
		if (k->pos % 8 == 0 && n >= 8) {
			/* a whole lane, little-endian */
			uint64_t w = k->a[k->pos / 8];
			for (int i = 0; i < 8; i++)
				out[i] = (uint8_t)(w >> (8 * i));
			out += 8;
			k->pos += 8;
			n -= 8;
			continue;
		}
		*out++ = (uint8_t)(k->a[k->pos / 8] >> (8 * (k->pos % 8)));
		k->pos++;
		n--;
	}
}

static void oneshot(size_t rate, uint8_t pad, uint8_t *out, size_t nout,
    const void *a, size_t na, const void *b, size_t nb)
{
	struct ae_keccak k;

	sponge_init(&k, rate, pad);
	ae_keccak_absorb(&k, a, na);
	ae_keccak_absorb(&k, b, nb);
	ae_keccak_squeeze(&k, out, nout);
	ae_wipe(&k, sizeof k);
}

void ae_sha3_256(uint8_t out[AE_SHA3_256_LEN], const void *a, size_t na,
    const void *b, size_t nb)
{
	oneshot(200 - 2 * AE_SHA3_256_LEN, 0x06, out, AE_SHA3_256_LEN,
	    a, na, b, nb);
}

void ae_sha3_512(uint8_t out[AE_SHA3_512_LEN], const void *a, size_t na,
    const void *b, size_t nb)
{
	oneshot(200 - 2 * AE_SHA3_512_LEN, 0x06, out, AE_SHA3_512_LEN,
	    a, na, b, nb);
}

void ae_shake256(uint8_t *out, size_t nout, const void *a, size_t na,
    const void *b, size_t nb)
{
	oneshot(AE_SHAKE256_RATE, 0x1f, out, nout, a, na, b, nb);
}
