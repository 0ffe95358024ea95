/*
 * gcm_arm.c -- AES-256-GCM with the ARMv8 Crypto Extensions
 * (contract in gcm_arm.h).
 *
 * Implementation notes
 * --------------------
 * The shape is tier 1's: eight counter blocks in flight (AESE has a
 * latency of two or three cycles and a throughput of one or two per
 * cycle on Cortex-A72 and Neoverse cores), and GHASH aggregated over
 * eight blocks, X1*H^8 + ... + X8*H^1 summed unreduced with three
 * PMULLs per block (Karatsuba), one reduction per eight blocks.  With 32
 * vector registers, all 15 round keys stay in registers beside the 8
 * blocks.
 *
 * GHASH's field elements are held in their natural bit order: RBIT on
 * each byte of a GCM block turns "bit 0 of byte 0 is the coefficient of
 * x^0" into a little-endian 128-bit integer whose bit i is the
 * coefficient of x^i.  Then PMULL is plain polynomial multiplication and
 * the reduction modulo x^128 + x^7 + x^2 + x + 1 is two more PMULLs by
 * 0x87, folding the top 64 bits twice.  That costs one RBIT per block
 * in and out, and is easy to check against the definition.
 *
 * AESE is AddRoundKey, ShiftRows and SubBytes; AESMC is MixColumns.  So
 * a round here is AESE with the previous round's key, which shifts the
 * keys by one against the FIPS 197 description: thirteen AESE+AESMC
 * pairs, one AESE, and an XOR with the last key.
 *
 * Only little-endian aarch64: the counter's lane arithmetic assumes it
 * (configure builds the tier nowhere else).
 */
#include "config.h"
#include "gcm_arm.h"
#include "cpu.h"

#ifdef HAVE_TARGET_ARMV8_CRYPTO

#include <arm_neon.h>
#include <string.h>

#include "common/bytes.h"
#include "common/wipe.h"

#define ARM __attribute__((target("+crypto")))
#define ARM_INLINE static inline __attribute__((always_inline, target("+crypto")))

int
ae_gcm_arm_available(void)
{
	const struct ae_cpu_features *f = ae_cpu_features();

	return f->arm_aes && f->arm_pmull;
}

/* ---- GHASH in GF(2^128), natural bit order ---- */

ARM_INLINE uint64x2_t
from_gcm(uint8x16_t b)
{
	return vreinterpretq_u64_u8(vrbitq_u8(b));
}

ARM_INLINE uint8x16_t
to_gcm(uint64x2_t v)
{
	return vrbitq_u8(vreinterpretq_u8_u64(v));
}

ARM_INLINE uint64x2_t
pmull_lo(uint64x2_t a, uint64x2_t b)
{
	return vreinterpretq_u64_p128(vmull_p64(
	    (poly64_t)vgetq_lane_u64(a, 0), (poly64_t)vgetq_lane_u64(b, 0)));
}

ARM_INLINE uint64x2_t
pmull_hi(uint64x2_t a, uint64x2_t b)
{
	return vreinterpretq_u64_p128(vmull_high_p64(vreinterpretq_p64_u64(a),
	    vreinterpretq_p64_u64(b)));
}

/* An unreduced sum of products: lo, hi, and Karatsuba's middle term. */
struct acc {
	uint64x2_t lo, mid, hi;
};

/* a += x * h, where hk's lane 0 is h's lo ^ hi. */
ARM_INLINE void
mul_acc(struct acc *a, uint64x2_t x, uint64x2_t h, uint64x2_t hk)
{
	uint64x2_t xk = veorq_u64(x, vextq_u64(x, x, 1));

	a->lo = veorq_u64(a->lo, pmull_lo(x, h));
	a->hi = veorq_u64(a->hi, pmull_hi(x, h));
	a->mid = veorq_u64(a->mid, pmull_lo(xk, hk));
}

/*
 * The 256-bit product p3:p2:p1:p0 reduced modulo x^128 + x^7 + x^2 + x
 * + 1: p3 x^192 is p3 x^64 (x^7 + x^2 + x + 1), at most 71 bits, which
 * lands in p2:p1; then p2 x^128 likewise lands in p1:p0.
 */
ARM_INLINE uint64x2_t
reduce(const struct acc *a)
{
	const uint64x2_t z = vdupq_n_u64(0), poly = vdupq_n_u64(0x87);
	uint64x2_t mid = veorq_u64(a->mid, veorq_u64(a->lo, a->hi));
	uint64x2_t lo = veorq_u64(a->lo, vextq_u64(z, mid, 1));   /* p1:p0 */
	uint64x2_t hi = veorq_u64(a->hi, vextq_u64(mid, z, 1));   /* p3:p2 */
	uint64x2_t t = pmull_hi(hi, poly);

	lo = veorq_u64(lo, vextq_u64(z, t, 1));
	hi = veorq_u64(hi, vextq_u64(t, z, 1));
	return veorq_u64(lo, pmull_lo(hi, poly));
}

ARM_INLINE uint64x2_t
hkey(uint64x2_t h)
{
	return veorq_u64(h, vextq_u64(h, h, 1));
}

ARM_INLINE uint64x2_t
gfmul(uint64x2_t x, uint64x2_t h)
{
	struct acc a = { vdupq_n_u64(0), vdupq_n_u64(0), vdupq_n_u64(0) };

	mul_acc(&a, x, h, hkey(h));
	return reduce(&a);
}

#define HP(i) vld1q_u64(k->hp[i])
#define HK(i) vld1q_u64(k->hk[i])

/* y <- (y + X1)H^8 + X2 H^7 + ... + X8 H^1 over the 8 blocks at p. */
ARM_INLINE uint64x2_t
ghash8(const struct ae_gcm_arm_key *k, uint64x2_t y, const uint8_t *p)
{
	struct acc a = { vdupq_n_u64(0), vdupq_n_u64(0), vdupq_n_u64(0) };
	int i;

	mul_acc(&a, veorq_u64(y, from_gcm(vld1q_u8(p))), HP(7), HK(7));
	for (i = 1; i < 8; i++)
		mul_acc(&a, from_gcm(vld1q_u8(p + 16 * i)), HP(7 - i), HK(7 - i));
	return reduce(&a);
}

/* ---- AES ---- */

/* The round keys, loaded once per call into registers.  (As in tier 1,
 * copies the compiler may spill to the stack are not wiped; the key
 * itself is, by its owner.) */
struct rks {
	uint8x16_t r[15];
};

ARM_INLINE void
load_rks(const struct ae_gcm_arm_key *k, struct rks *s)
{
	int r;

	for (r = 0; r < 15; r++)
		s->r[r] = vld1q_u8(k->rk[r]);
}

ARM_INLINE uint8x16_t
aes_block(const struct rks *s, uint8x16_t b)
{
	int r;

	for (r = 0; r < 13; r++)
		b = vaesmcq_u8(vaeseq_u8(b, s->r[r]));
	return veorq_u8(vaeseq_u8(b, s->r[13]), s->r[14]);
}

/* SubWord of w: AESE with a zero key on four copies of w.  ShiftRows
 * only moves bytes between columns, and all four columns are equal. */
ARM_INLINE uint32_t
sub_word(uint32_t w)
{
	uint8x16_t v = vreinterpretq_u8_u32(vdupq_n_u32(w));

	return vgetq_lane_u32(vreinterpretq_u32_u8(vaeseq_u8(v, vdupq_n_u8(0))), 0);
}

ARM void
ae_gcm_arm_init(struct ae_gcm_arm_key *k, const uint8_t key[32])
{
	static const uint8_t rcon[7] = { 0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40 };
	uint32_t w[60];
	struct rks s;
	uint64x2_t h, hp;
	int i;

	/* FIPS 197 section 5.2, with words as little-endian integers, so
	 * RotWord is a rotation right by 8 and Rcon goes in the low byte. */
	for (i = 0; i < 8; i++)
		w[i] = load_le32(key + 4 * i);
	for (i = 8; i < 60; i++) {
		uint32_t t = w[i - 1];

		if (i % 8 == 0)
			t = sub_word((t >> 8) | (t << 24)) ^ rcon[i / 8 - 1];
		else if (i % 8 == 4)
			t = sub_word(t);
		w[i] = w[i - 8] ^ t;
	}
	for (i = 0; i < 60; i++)
		store_le32(k->rk[i / 4] + 4 * (i % 4), w[i]);
	ae_wipe(w, sizeof w);

	load_rks(k, &s);
	h = from_gcm(aes_block(&s, vdupq_n_u8(0)));
	hp = h;
	for (i = 0; i < 8; i++) {
		vst1q_u64(k->hp[i], hp);
		vst1q_u64(k->hk[i], hkey(hp));
		hp = gfmul(hp, h);
	}
	ae_wipe(&s, sizeof s);
}

ARM void
ae_gcm_arm_encrypt_block(const struct ae_gcm_arm_key *k, const uint8_t in[16],
    uint8_t out[16])
{
	struct rks s;

	load_rks(k, &s);
	vst1q_u8(out, aes_block(&s, vld1q_u8(in)));
}

ARM void
ae_gcm_arm_ghash(const struct ae_gcm_arm_key *k, uint8_t y[16],
    const uint8_t *in, size_t nblocks)
{
	uint64x2_t acc = from_gcm(vld1q_u8(y));

	for (; nblocks >= 8; nblocks -= 8, in += 128)
		acc = ghash8(k, acc, in);
	for (; nblocks > 0; nblocks--, in += 16)
		acc = gfmul(veorq_u64(acc, from_gcm(vld1q_u8(in))), HP(0));
	vst1q_u8(y, to_gcm(acc));
}

/* ---- CTR ---- */

/* Counter block n: ctr's first 12 bytes, then n big-endian. */
ARM_INLINE uint8x16_t
ctr_block(uint32x4_t base, uint32_t n)
{
	return vreinterpretq_u8_u32(vsetq_lane_u32(__builtin_bswap32(n), base, 3));
}

/* Encrypt counter blocks n .. n+7, XOR into in, write out. */
ARM_INLINE void
ctr8(const struct rks *s, uint32x4_t base, uint32_t n, const uint8_t *in,
    uint8_t *out)
{
	uint8x16_t c[8];
	int i, r;

	for (i = 0; i < 8; i++)
		c[i] = ctr_block(base, n + (uint32_t)i);
	for (r = 0; r < 13; r++)
		for (i = 0; i < 8; i++)
			c[i] = vaesmcq_u8(vaeseq_u8(c[i], s->r[r]));
	for (i = 0; i < 8; i++) {
		c[i] = veorq_u8(vaeseq_u8(c[i], s->r[13]), s->r[14]);
		vst1q_u8(out + 16 * i, veorq_u8(c[i], vld1q_u8(in + 16 * i)));
	}
}

/* Blocks past the last multiple of 8, one at a time; each ciphertext
 * block is also folded into *acc unless acc is NULL.  Returns the next
 * counter. */
ARM_INLINE uint32_t
ctr_tail(const struct ae_gcm_arm_key *k, const struct rks *s, uint32x4_t base,
    uint32_t n, const uint8_t *in, uint8_t *out, size_t nblocks,
    uint64x2_t *acc)
{
	for (; nblocks > 0; nblocks--, in += 16, out += 16, n++) {
		uint8x16_t c = veorq_u8(aes_block(s, ctr_block(base, n)),
		    vld1q_u8(in));

		vst1q_u8(out, c);
		if (acc != NULL)
			*acc = gfmul(veorq_u64(*acc, from_gcm(c)), HP(0));
	}
	return n;
}

ARM void
ae_gcm_arm_ctr32(const struct ae_gcm_arm_key *k, uint8_t ctr[16],
    const uint8_t *in, uint8_t *out, size_t nblocks)
{
	uint32x4_t base = vreinterpretq_u32_u8(vld1q_u8(ctr));
	uint32_t n = load_be32(ctr + 12);
	struct rks s;

	load_rks(k, &s);
	for (; nblocks >= 8; nblocks -= 8, in += 128, out += 128, n += 8)
		ctr8(&s, base, n, in, out);
	n = ctr_tail(k, &s, base, n, in, out, nblocks, NULL);
	store_be32(ctr + 12, n);
}

ARM void
ae_gcm_arm_ctr32_ghash(const struct ae_gcm_arm_key *k, uint8_t ctr[16],
    uint8_t y[16], const uint8_t *in, uint8_t *out, size_t nblocks)
{
	uint32x4_t base = vreinterpretq_u32_u8(vld1q_u8(ctr));
	uint32_t n = load_be32(ctr + 12);
	uint64x2_t acc = from_gcm(vld1q_u8(y));
	struct rks s;

	load_rks(k, &s);
	/* The ciphertext is hashed from out, just stored, while in L1. */
	for (; nblocks >= 8; nblocks -= 8, in += 128, out += 128, n += 8) {
		ctr8(&s, base, n, in, out);
		acc = ghash8(k, acc, out);
	}
	n = ctr_tail(k, &s, base, n, in, out, nblocks, &acc);
	store_be32(ctr + 12, n);
	vst1q_u8(y, to_gcm(acc));
}

#else /* !HAVE_TARGET_ARMV8_CRYPTO */

int
ae_gcm_arm_available(void)
{
	return 0;
}

#endif
