/*
 * aes_ct.c -- bitsliced, constant-time AES-256.
 *
 * Implementation notes
 * --------------------
 * The state of 16 blocks is held in 8 "bit-plane" vectors q[0..7] of two
 * 128-bit lanes; plane i holds bit i of every state byte.  Each lane
 * carries 8 blocks, one byte per state cell: byte k of a lane (k = row +
 * 4*col, the cell's position in the block) holds, in bit j, bit i of
 * cell k of block j.  With that placement:
 *
 *   - SubBytes is a Boolean circuit applied to the eight planes at once,
 *     the 113-gate depth-16 circuit of Boyar and Peralta ("A depth-16
 *     circuit for the AES S-box", 2011), so no byte is ever used as an
 *     index;
 *   - ShiftRows moves whole cells, so it is one constant byte shuffle
 *     per plane (PSHUFB on x86);
 *   - MixColumns needs "the cell one row down" in each column, another
 *     constant byte shuffle, plus xtime, which moves whole planes.
 *
 * Loading is an 8x8 bit transpose between "which block" (vector index)
 * and "which bit of the byte" (three swap-move steps, its own inverse),
 * so block j simply goes into vector j (lane 0) or j - 8 (lane 1).
 *
 * The shuffles use constant indices only, so no address or branch
 * depends on data.  The vector type lets one body serve several widths:
 * a target_clones variant uses AVX2 where the CPU has it, the default
 * build lowers the same code for the baseline ISA.  None of this uses
 * AES instructions, so --no-hw really measures software AES.
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
typedef uint8_t ctb __attribute__((vector_size(32)));

#define INLINE static inline __attribute__((always_inline))

#if defined(HAVE_TARGET_CLONES)
#define CT_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define CT_CLONES
#endif

#define BLOCKS 16

/* A constant byte shuffle inside each 128-bit lane.  Clang and GCC 12+
 * take the indices as arguments; older GCC takes a mask vector. */
#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 12)
#define SHUF(x, ...) ((ctv)__builtin_shufflevector((ctb)(x), (ctb)(x), __VA_ARGS__))
#else
#define SHUF(x, ...) ((ctv)__builtin_shuffle((ctb)(x), (ctb){ __VA_ARGS__ }))
#endif

/* Cell k = row + 4*col takes the cell at row, col + row. */
#define SR_LANE(o) o+0, o+5, o+10, o+15, o+4, o+9, o+14, o+3, \
	o+8, o+13, o+2, o+7, o+12, o+1, o+6, o+11
/* Cell (row, col) takes (row + 1, col), and (row + 2, col). */
#define ROT1_LANE(o) o+1, o+2, o+3, o+0, o+5, o+6, o+7, o+4, \
	o+9, o+10, o+11, o+8, o+13, o+14, o+15, o+12
#define ROT2_LANE(o) o+2, o+3, o+0, o+1, o+6, o+7, o+4, o+5, \
	o+10, o+11, o+8, o+9, o+14, o+15, o+12, o+13
#define rot1(x) SHUF(x, ROT1_LANE(0), ROT1_LANE(16))
#define rot2(x) SHUF(x, ROT2_LANE(0), ROT2_LANE(16))

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

INLINE void
shift_rows(ctv q[8])
{
	int i;

	for (i = 0; i < 8; i++)
		q[i] = SHUF(q[i], SR_LANE(0), SR_LANE(16));
}

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
		a1[i] = rot1(q[i]);
		b[i] = q[i] ^ a1[i];
	}
	/* xtime modulo x^8 + x^4 + x^3 + x + 1, plane by plane. */
	q[0] = b[7] ^ a1[0] ^ rot2(b[0]);
	q[1] = b[0] ^ b[7] ^ a1[1] ^ rot2(b[1]);
	q[2] = b[1] ^ a1[2] ^ rot2(b[2]);
	q[3] = b[2] ^ b[7] ^ a1[3] ^ rot2(b[3]);
	q[4] = b[3] ^ b[7] ^ a1[4] ^ rot2(b[4]);
	q[5] = b[4] ^ a1[5] ^ rot2(b[5]);
	q[6] = b[5] ^ a1[6] ^ rot2(b[6]);
	q[7] = b[6] ^ a1[7] ^ rot2(b[7]);
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

/* Load 16 blocks into bit planes: block j to lane 0 of vector j, block
 * j + 8 to lane 1. */
INLINE void
load16(ctv q[8], const uint8_t *in)
{
	int j;

	for (j = 0; j < 8; j++) {
		memcpy((uint8_t *)&q[j], in + 16 * j, 16);
		memcpy((uint8_t *)&q[j] + 16, in + 16 * (j + 8), 16);
	}
	ortho(q);
}

INLINE void
store16(ctv q[8], uint8_t *out)
{
	int j;

	ortho(q);
	for (j = 0; j < 8; j++) {
		memcpy(out + 16 * j, (uint8_t *)&q[j], 16);
		memcpy(out + 16 * (j + 8), (uint8_t *)&q[j] + 16, 16);
	}
}

INLINE void
add_round_key(ctv q[8], const uint64_t sk[8][2])
{
	int i;

	for (i = 0; i < 8; i++) {
		ctv v = { sk[i][0], sk[i][1], sk[i][0], sk[i][1] };

		q[i] ^= v;
	}
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
	 * both lanes then hold the same 16 bytes, so keep lane 0. */
	for (r = 0; r <= AES_CT_ROUNDS; r++) {
		for (i = 0; i < BLOCKS; i++) {
			store_le32(buf + 16 * i, w[4 * r]);
			store_le32(buf + 16 * i + 4, w[4 * r + 1]);
			store_le32(buf + 16 * i + 8, w[4 * r + 2]);
			store_le32(buf + 16 * i + 12, w[4 * r + 3]);
		}
		load16(q, buf);
		for (i = 0; i < 8; i++)
			memcpy(k->sk[r][i], &q[i], 16);
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
