/*
 * aes_ct.c -- bitsliced, constant-time AES-256.
 *
 * Implementation notes
 * --------------------
 * The state of 16 blocks is held in 8 "bit-plane" vectors q[0..7] of four
 * 64-bit lanes; plane i holds bit i of every state byte.  Each lane
 * carries 4 blocks, and inside a lane the bit for (row, col, block) sits
 * at position row*16 + col*4 + block.  With that placement:
 *
 *   - SubBytes is a Boolean circuit applied to the eight planes at once,
 *     the 113-gate depth-16 circuit of Boyar and Peralta ("A depth-16
 *     circuit for the AES S-box", 2011), so no byte is ever used as an
 *     index;
 *   - ShiftRows rotates each 16-bit row segment of a plane, which is a
 *     fixed set of masks and shifts;
 *   - MixColumns needs "the byte one row down", which is a 16-bit
 *     rotation of the whole lane, plus xtime, which moves whole planes.
 *
 * Converting 64 bytes to planes is an 8x8 bit transpose between "which
 * word" and "which bit of the byte" (three swap-move steps, its own
 * inverse), after the bytes are first spread so that word j, byte g holds
 * the state byte at position 8g + j.
 *
 * The vector type lets one body serve several widths: the default build
 * lowers it to SSE2 pairs (or scalars off x86), and a target_clones
 * variant uses AVX2 where the CPU has it.  None of this uses AES
 * instructions, so --no-hw really measures software AES.
 */
#include "config.h"
#include "aes_ct.h"
#include "bytes.h"
#include "wipe.h"

#include <string.h>

/* Every helper taking a vector is always_inline, so the ABI note GCC
 * gives for 32-byte vector arguments never applies. */
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wunknown-warning-option"
#endif
#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

typedef uint64_t ctv __attribute__((vector_size(32)));

#define INLINE static inline __attribute__((always_inline))

#if defined(HAVE_TARGET_CLONES)
#define CT_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define CT_CLONES
#endif

#define LANES 4
#define BLOCKS (LANES * 4)

INLINE ctv
bcast(uint64_t x)
{
	ctv v = { x, x, x, x };
	return v;
}

/* SubBytes on all planes: Boyar-Peralta.  x0 is the most significant
 * bit of the byte, so x0 = q[7] ... x7 = q[0]. */
INLINE void
sub_bytes(ctv q[8])
{
	ctv x0 = q[7], x1 = q[6], x2 = q[5], x3 = q[4];
	ctv x4 = q[3], x5 = q[2], x6 = q[1], x7 = q[0];
	ctv y1, y2, y3, y4, y5, y6, y7, y8, y9, y10, y11, y12, y13, y14, y15;
	ctv y16, y17, y18, y19, y20, y21;
	ctv t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14;
	ctv t15, t16, t17, t18, t19, t20, t21, t22, t23, t24, t25, t26, t27;
	ctv t28, t29, t30, t31, t32, t33, t34, t35, t36, t37, t38, t39, t40;
	ctv t41, t42, t43, t44, t45, t46, t47, t48, t49, t50, t51, t52, t53;
	ctv t54, t55, t56, t57, t58, t59, t60, t61, t62, t63, t64, t65, t66;
	ctv t67;
	ctv z0, z1, z2, z3, z4, z5, z6, z7, z8, z9, z10, z11, z12, z13, z14;
	ctv z15, z16, z17;

	/* Top linear layer. */
	y14 = x3 ^ x5;   y13 = x0 ^ x6;   y9 = x0 ^ x3;    y8 = x0 ^ x5;
	t0 = x1 ^ x2;    y1 = t0 ^ x7;    y4 = y1 ^ x3;    y12 = y13 ^ y14;
	y2 = y1 ^ x0;    y5 = y1 ^ x6;    y3 = y5 ^ y8;    t1 = x4 ^ y12;
	y15 = t1 ^ x5;   y20 = t1 ^ x1;   y6 = y15 ^ x7;   y10 = y15 ^ t0;
	y11 = y20 ^ y9;  y7 = x7 ^ y11;   y17 = y10 ^ y11; y19 = y10 ^ y8;
	y16 = t0 ^ y11;  y21 = y13 ^ y16; y18 = x0 ^ y16;

	/* Shared non-linear middle: inversion in GF(2^4)^2. */
	t2 = y12 & y15;  t3 = y3 & y6;    t4 = t3 ^ t2;    t5 = y4 & x7;
	t6 = t5 ^ t2;    t7 = y13 & y16;  t8 = y5 & y1;    t9 = t8 ^ t7;
	t10 = y2 & y7;   t11 = t10 ^ t7;  t12 = y9 & y11;  t13 = y14 & y17;
	t14 = t13 ^ t12; t15 = y8 & y10;  t16 = t15 ^ t12; t17 = t4 ^ t14;
	t18 = t6 ^ t16;  t19 = t9 ^ t14;  t20 = t11 ^ t16; t21 = t17 ^ y20;
	t22 = t18 ^ y19; t23 = t19 ^ y21; t24 = t20 ^ y18; t25 = t21 ^ t22;
	t26 = t21 & t23; t27 = t24 ^ t26; t28 = t25 & t27; t29 = t28 ^ t22;
	t30 = t23 ^ t24; t31 = t22 ^ t26; t32 = t31 & t30; t33 = t32 ^ t24;
	t34 = t23 ^ t33; t35 = t27 ^ t33; t36 = t24 & t35; t37 = t36 ^ t34;
	t38 = t27 ^ t36; t39 = t29 & t38; t40 = t25 ^ t39; t41 = t40 ^ t37;
	t42 = t29 ^ t33; t43 = t29 ^ t40; t44 = t33 ^ t37; t45 = t42 ^ t41;
	z0 = t44 & y15;  z1 = t37 & y6;   z2 = t33 & x7;   z3 = t43 & y16;
	z4 = t40 & y1;   z5 = t29 & y7;   z6 = t42 & y11;  z7 = t45 & y17;
	z8 = t41 & y10;  z9 = t44 & y12;  z10 = t37 & y3;  z11 = t33 & y4;
	z12 = t43 & y13; z13 = t40 & y5;  z14 = t29 & y2;  z15 = t42 & y9;
	z16 = t45 & y14; z17 = t41 & y8;

	/* Bottom linear layer, with the affine constant 0x63 folded in as
	 * the four complements. */
	t46 = z15 ^ z16; t47 = z10 ^ z11; t48 = z5 ^ z13;  t49 = z9 ^ z10;
	t50 = z2 ^ z12;  t51 = z2 ^ z5;   t52 = z7 ^ z8;   t53 = z0 ^ z3;
	t54 = z6 ^ z7;   t55 = z16 ^ z17; t56 = z12 ^ t48; t57 = t50 ^ t53;
	t58 = z4 ^ t46;  t59 = z3 ^ t54;  t60 = t46 ^ t57; t61 = z14 ^ t57;
	t62 = t52 ^ t58; t63 = t49 ^ t58; t64 = z4 ^ t59;  t65 = t61 ^ t62;
	t66 = z1 ^ t63;  t67 = t64 ^ t65;
	q[7] = t59 ^ t63;
	q[1] = t56 ^ ~t62;
	q[0] = t48 ^ ~t60;
	q[4] = t53 ^ t66;
	q[3] = t51 ^ t66;
	q[2] = t47 ^ t65;
	q[6] = t64 ^ ~q[4];
	q[5] = t55 ^ ~t67;
}

/* Row r of the state moves left by r columns: rotate each 16-bit row
 * segment right by 4r bits. */
INLINE void
shift_rows(ctv q[8])
{
	int i;

	for (i = 0; i < 8; i++) {
		ctv x = q[i];

		q[i] = (x & bcast(0x000000000000FFFF))
		    | ((x & bcast(0x00000000FFF00000)) >> 4)
		    | ((x & bcast(0x00000000000F0000)) << 12)
		    | ((x & bcast(0x0000FF0000000000)) >> 8)
		    | ((x & bcast(0x000000FF00000000)) << 8)
		    | ((x & bcast(0xF000000000000000)) >> 12)
		    | ((x & bcast(0x0FFF000000000000)) << 4);
	}
}

/* Macros, not functions: GCC notes an ABI change for every function
 * that takes a 32-byte vector by value, inline or not. */
#define rotr16(x) (((x) >> 16) | ((x) << 48))
#define rotr32(x) (((x) >> 32) | ((x) << 32))

/*
 * out[r] = 2a[r] + 3a[r+1] + a[r+2] + a[r+3]
 *        = 2(a[r] + a[r+1]) + a[r+1] + (a[r+2] + a[r+3]).
 * With b = a + a[r+1], that is xtime(b) + a[r+1] + b[r+2].
 */
INLINE void
mix_columns(ctv q[8])
{
	ctv a1[8], b[8];
	int i;

	for (i = 0; i < 8; i++) {
		a1[i] = rotr16(q[i]);
		b[i] = q[i] ^ a1[i];
	}
	/* xtime modulo x^8 + x^4 + x^3 + x + 1, plane by plane. */
	q[0] = b[7] ^ a1[0] ^ rotr32(b[0]);
	q[1] = b[0] ^ b[7] ^ a1[1] ^ rotr32(b[1]);
	q[2] = b[1] ^ a1[2] ^ rotr32(b[2]);
	q[3] = b[2] ^ b[7] ^ a1[3] ^ rotr32(b[3]);
	q[4] = b[3] ^ b[7] ^ a1[4] ^ rotr32(b[4]);
	q[5] = b[4] ^ a1[5] ^ rotr32(b[5]);
	q[6] = b[5] ^ a1[6] ^ rotr32(b[6]);
	q[7] = b[6] ^ a1[7] ^ rotr32(b[7]);
}

/* Exchange bits where (word index bit k) != (bit-in-byte index bit k). */
INLINE void
swapmove(ctv *a, ctv *b, uint64_t mask, int s)
{
	ctv t = ((*a >> s) ^ *b) & bcast(mask);

	*b ^= t;
	*a ^= t << s;
}

INLINE void
ortho(ctv q[8])
{
	swapmove(&q[0], &q[1], 0x5555555555555555, 1);
	swapmove(&q[2], &q[3], 0x5555555555555555, 1);
	swapmove(&q[4], &q[5], 0x5555555555555555, 1);
	swapmove(&q[6], &q[7], 0x5555555555555555, 1);
	swapmove(&q[0], &q[2], 0x3333333333333333, 2);
	swapmove(&q[1], &q[3], 0x3333333333333333, 2);
	swapmove(&q[4], &q[6], 0x3333333333333333, 2);
	swapmove(&q[5], &q[7], 0x3333333333333333, 2);
	swapmove(&q[0], &q[4], 0x0F0F0F0F0F0F0F0F, 4);
	swapmove(&q[1], &q[5], 0x0F0F0F0F0F0F0F0F, 4);
	swapmove(&q[2], &q[6], 0x0F0F0F0F0F0F0F0F, 4);
	swapmove(&q[3], &q[7], 0x0F0F0F0F0F0F0F0F, 4);
}

/* Bytes of a 32-bit word to the even bytes of a 64-bit word, and back. */
INLINE uint64_t
spread(uint32_t w)
{
	uint64_t x = w;

	x = (x | x << 16) & 0x0000FFFF0000FFFF;
	x = (x | x << 8) & 0x00FF00FF00FF00FF;
	return x;
}

INLINE uint32_t
unspread(uint64_t x)
{
	x &= 0x00FF00FF00FF00FF;
	x = (x | x >> 8) & 0x0000FFFF0000FFFF;
	x = (x | x >> 16) & 0x00000000FFFFFFFF;
	return (uint32_t)x;
}

/* Load 16 blocks into bit planes. */
INLINE void
load16(ctv q[8], const uint8_t *in)
{
	uint64_t w[8][LANES];
	int lane, blk;

	for (lane = 0; lane < LANES; lane++) {
		for (blk = 0; blk < 4; blk++) {
			const uint8_t *b = in + 16 * (4 * lane + blk);

			/* Column c of the block is bytes 4c..4c+3. */
			w[blk][lane] = spread(load_le32(b)) | spread(load_le32(b + 8)) << 8;
			w[4 + blk][lane] = spread(load_le32(b + 4))
			    | spread(load_le32(b + 12)) << 8;
		}
	}
	for (blk = 0; blk < 8; blk++) {
		ctv v = { w[blk][0], w[blk][1], w[blk][2], w[blk][3] };
		q[blk] = v;
	}
	ortho(q);
}

INLINE void
store16(ctv q[8], uint8_t *out)
{
	int lane, blk;

	ortho(q);
	for (lane = 0; lane < LANES; lane++) {
		for (blk = 0; blk < 4; blk++) {
			uint8_t *b = out + 16 * (4 * lane + blk);
			uint64_t lo = q[blk][lane], hi = q[4 + blk][lane];

			store_le32(b, unspread(lo));
			store_le32(b + 8, unspread(lo >> 8));
			store_le32(b + 4, unspread(hi));
			store_le32(b + 12, unspread(hi >> 8));
		}
	}
}

INLINE void
add_round_key(ctv q[8], const uint64_t sk[8])
{
	int i;

	for (i = 0; i < 8; i++)
		q[i] ^= bcast(sk[i]);
}

/* Encrypt 16 blocks in place. */
INLINE void
encrypt16(const struct aes_ct_key *k, uint8_t buf[16 * BLOCKS])
{
	ctv q[8];
	int r;

	load16(q, buf);
	add_round_key(q, k->sk[0]);
	for (r = 1; r < AES_CT_ROUNDS; r++) {
		sub_bytes(q);
		shift_rows(q);
		mix_columns(q);
		add_round_key(q, k->sk[r]);
	}
	sub_bytes(q);
	shift_rows(q);
	add_round_key(q, k->sk[AES_CT_ROUNDS]);
	store16(q, buf);
	ae_wipe(q, sizeof q);
}

/* SubWord for the key schedule: run the same circuit on one word. */
static uint32_t
sub_word(uint32_t x)
{
	uint8_t buf[16 * BLOCKS];
	ctv q[8];
	uint32_t r;

	memset(buf, 0, sizeof buf);
	store_le32(buf, x);
	load16(q, buf);
	sub_bytes(q);
	store16(q, buf);
	r = load_le32(buf);
	ae_wipe(buf, sizeof buf);
	ae_wipe(q, sizeof q);
	return r;
}

void
aes_ct_init(struct aes_ct_key *k, const uint8_t key[32])
{
	uint32_t w[4 * (AES_CT_ROUNDS + 1)];
	uint8_t buf[16 * BLOCKS];
	uint32_t rcon = 1;
	ctv q[8];
	int i, r;

	for (i = 0; i < 8; i++)
		w[i] = load_le32(key + 4 * i);
	for (i = 8; i < 4 * (AES_CT_ROUNDS + 1); i++) {
		uint32_t t = w[i - 1];

		if (i % 8 == 0) {
			t = sub_word((t >> 8) | (t << 24)) ^ rcon;
			rcon <<= 1;   /* never exceeds 0x40 for AES-256 */
		} else if (i % 8 == 4) {
			t = sub_word(t);
		}
		w[i] = w[i - 8] ^ t;
	}
	/* Each round key, copied into all 16 block slots, then to planes;
	 * every lane then holds the same words, so keep lane 0. */
	for (r = 0; r <= AES_CT_ROUNDS; r++) {
		for (i = 0; i < BLOCKS; i++) {
			store_le32(buf + 16 * i, w[4 * r]);
			store_le32(buf + 16 * i + 4, w[4 * r + 1]);
			store_le32(buf + 16 * i + 8, w[4 * r + 2]);
			store_le32(buf + 16 * i + 12, w[4 * r + 3]);
		}
		load16(q, buf);
		for (i = 0; i < 8; i++)
			k->sk[r][i] = q[i][0];
	}
	ae_wipe(w, sizeof w);
	ae_wipe(buf, sizeof buf);
	ae_wipe(q, sizeof q);
}

/* Static, with a plain wrapper below: Clang 14 emits the ifunc for a
 * target_clones function only where it is called in the same file. */
static CT_CLONES void
ctr32_clones(const struct aes_ct_key *k, uint8_t ctr[16],
    const uint8_t *in, uint8_t *out, size_t nblocks)
{
	uint8_t ks[16 * BLOCKS];
	uint32_t c = load_be32(ctr + 12);

	while (nblocks > 0) {
		size_t n = nblocks < BLOCKS ? nblocks : BLOCKS;
		size_t i;

		for (i = 0; i < BLOCKS; i++) {
			uint8_t *b = ks + 16 * i;
			uint32_t ci = c + (uint32_t)i;   /* wraps mod 2^32 */

			memcpy(b, ctr, 12);
			store_be32(b + 12, ci);
		}
		encrypt16(k, ks);
		for (i = 0; i < 16 * n; i++)
			out[i] = in[i] ^ ks[i];
		c += (uint32_t)n;
		in += 16 * n;
		out += 16 * n;
		nblocks -= n;
	}
	store_be32(ctr + 12, c);
	ae_wipe(ks, sizeof ks);
}

void
aes_ct_ctr32(const struct aes_ct_key *k, uint8_t ctr[16],
    const uint8_t *in, uint8_t *out, size_t nblocks)
{
	ctr32_clones(k, ctr, in, out, nblocks);
}

void
aes_ct_encrypt_block(const struct aes_ct_key *k, const uint8_t in[16],
    uint8_t out[16])
{
	uint8_t buf[16 * BLOCKS];

	memset(buf, 0, sizeof buf);
	memcpy(buf, in, 16);
	encrypt16(k, buf);
	memcpy(out, buf, 16);
	ae_wipe(buf, sizeof buf);
}
