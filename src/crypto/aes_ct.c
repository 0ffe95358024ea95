/*
 * aes_ct.c -- bitsliced, constant-time AES-256 (contract in aes_ct.h).
 *
 * Implementation notes
 * --------------------
 * The state of a batch of blocks is held in 8 "bit-plane" vectors
 * q[0..7]; plane i holds bit i of every state byte.  Each 128-bit lane of
 * a vector carries 8 blocks, one byte per state cell: byte k of a lane
 * (k = row + 4*col, the cell's position in the block) holds, in bit j,
 * bit i of cell k of block j.  With that placement:
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
 * so block j + 8l simply goes into lane l of vector j.
 *
 * The shuffles use constant indices only, so no address or branch
 * depends on data.  The core is written once (aes_ct_core.h) and built
 * at two widths: one 128-bit lane (8 blocks; with an SSSE3 clone for
 * PSHUFB) and, where the CPU has AVX2, two lanes (16 blocks).  None of
 * this uses AES instructions, so --no-hw really measures software AES.
 */
#include "config.h"
#include "aes_ct.h"
#include "common/bytes.h"
#include "cpu.h"
#include "common/wipe.h"

#include <string.h>

/* Every helper taking a vector is always_inline, so the ABI note GCC
 * gives for 32-byte vector arguments never applies. */
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wunknown-warning-option"
#endif
#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

#define CT_INLINE static inline __attribute__((always_inline))

/* Cell k = row + 4*col takes the cell at row, col + row (ShiftRows). */
#define SR_LANE(o) o+0, o+5, o+10, o+15, o+4, o+9, o+14, o+3, \
	o+8, o+13, o+2, o+7, o+12, o+1, o+6, o+11
/* Cell (row, col) takes (row + 1, col), and (row + 2, col). */
/* The inverse: cell (row, col) takes (row, col - row). */
#define ISR_LANE(o) o+0, o+13, o+10, o+7, o+4, o+1, o+14, o+11, \
	o+8, o+5, o+2, o+15, o+12, o+9, o+6, o+3
#define ROT1_LANE(o) o+1, o+2, o+3, o+0, o+5, o+6, o+7, o+4, \
	o+9, o+10, o+11, o+8, o+13, o+14, o+15, o+12
#define ROT2_LANE(o) o+2, o+3, o+0, o+1, o+6, o+7, o+4, o+5, \
	o+10, o+11, o+8, o+9, o+14, o+15, o+12, o+13

/*
 * Width 16 (8 blocks): the portable build.  SSSE3 gives the shuffles
 * PSHUFB; "default" is the baseline (and every other architecture, whose
 * own byte-permute instructions take constant indices just as well).
 */
#define CT_W 16
#define CT_SUFFIX _w16
#define CT_SHUF_SR SR_LANE(0)
#define CT_SHUF_ISR ISR_LANE(0)
#define CT_SHUF_ROT1 ROT1_LANE(0)
#define CT_SHUF_ROT2 ROT2_LANE(0)
#if defined(HAVE_TARGET_CLONES)
#define CT_TARGET __attribute__((target_clones("ssse3", "default")))
#else
#define CT_TARGET
#endif
#include "aes_ct_core.h"
#undef CT_W
#undef CT_SUFFIX
#undef CT_SHUF_SR
#undef CT_SHUF_ISR
#undef CT_SHUF_ROT1
#undef CT_SHUF_ROT2
#undef CT_TARGET

/* Width 32 (16 blocks), AVX2: twice the blocks per instruction. */
#ifdef HAVE_TARGET_AVX2
#define CT_W 32
#define CT_SUFFIX _w32
#define CT_SHUF_SR SR_LANE(0), SR_LANE(16)
#define CT_SHUF_ISR ISR_LANE(0), ISR_LANE(16)
#define CT_SHUF_ROT1 ROT1_LANE(0), ROT1_LANE(16)
#define CT_SHUF_ROT2 ROT2_LANE(0), ROT2_LANE(16)
#define CT_TARGET __attribute__((target("avx2")))
#include "aes_ct_core.h"
#endif

/* SubWord for the key schedule: run the same circuit on one word. */
static uint32_t
sub_word(uint32_t x)
{
	uint8_t buf[16 * 8];
	vq_w16 q[8];
	uint32_t r;

	memset(buf, 0, sizeof buf);
	store_le32(buf, x);
	load_w16(q, buf);
	sub_bytes_w16(q);
	store_w16(q, buf);
	r = load_le32(buf);
	ae_wipe(buf, sizeof buf);
	ae_wipe(q, sizeof q);
	return r;
}

void
ae_aes_ct_init(struct ae_aes_ct_key *k, const uint8_t key[32])
{
	uint32_t w[4 * (AE_AES_CT_ROUNDS + 1)];
	uint8_t buf[16 * 8];
	uint32_t rcon = 1;
	vq_w16 q[8];
	int i, r;

	for (i = 0; i < 8; i++)
		w[i] = load_le32(key + 4 * i);
	for (i = 8; i < 4 * (AE_AES_CT_ROUNDS + 1); i++) {
		uint32_t t = w[i - 1];

		if (i % 8 == 0) {
			t = sub_word((t >> 8) | (t << 24)) ^ rcon;
			rcon <<= 1;   /* never exceeds 0x40 for AES-256 */
		} else if (i % 8 == 4) {
			t = sub_word(t);
		}
		w[i] = w[i - 8] ^ t;
	}
	/* Each round key, copied into all 8 block slots, then to planes. */
	for (r = 0; r <= AE_AES_CT_ROUNDS; r++) {
		for (i = 0; i < 8; i++) {
			store_le32(buf + 16 * i, w[4 * r]);
			store_le32(buf + 16 * i + 4, w[4 * r + 1]);
			store_le32(buf + 16 * i + 8, w[4 * r + 2]);
			store_le32(buf + 16 * i + 12, w[4 * r + 3]);
		}
		load_w16(q, buf);
		for (i = 0; i < 8; i++)
			memcpy(k->sk[r][i], &q[i], 16);
	}
	ae_wipe(w, sizeof w);
	ae_wipe(buf, sizeof buf);
	ae_wipe(q, sizeof q);
}

void
ae_aes_ct_ctr32(const struct ae_aes_ct_key *k, uint8_t ctr[16],
    const uint8_t *in, uint8_t *out, size_t nblocks)
{
#ifdef HAVE_TARGET_AVX2
	if (ae_cpu_features()->avx2) {
		ctr32_w32(k, ctr, in, out, nblocks);
		return;
	}
#endif
	ctr32_w16(k, ctr, in, out, nblocks);
}

void
ae_aes_ct_encrypt_block(const struct ae_aes_ct_key *k, const uint8_t in[16],
    uint8_t out[16])
{
	uint8_t buf[16 * 8];

	memset(buf, 0, sizeof buf);
	memcpy(buf, in, 16);
	encrypt_w16(k, buf);
	memcpy(out, buf, 16);
	ae_wipe(buf, sizeof buf);
}

void
ae_aes_ct_cbc_decrypt(const struct ae_aes_ct_key *k, uint8_t iv[16],
    const uint8_t *in, uint8_t *out, size_t nblocks)
{
#ifdef HAVE_TARGET_AVX2
	if (ae_cpu_features()->avx2) {
		cbc_decrypt_w32(k, iv, in, out, nblocks);
		return;
	}
#endif
	cbc_decrypt_w16(k, iv, in, out, nblocks);
}
