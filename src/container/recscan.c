/*
 * recscan.c -- the salvage search's candidate test (contract and the
 * idea in recscan.h).
 *
 * GHASH of blocks X1..Xm from state y is y H^m + X1 H^m + ... + Xm H.
 * Q(p) is that sum for the blocks at p - 16j, j = 1, 2, ..., that start
 * at or after `from`: Q(p) = (Q(p - 16) + X(p - 16)) H, one step a byte,
 * and the blocks X(s) .. X(s + 16(k - 1)) of a body at s hash to
 * Q(s + 16k) + H^k Q(s).  The frame, GCM's first (AAD) block A, comes
 * before them: state A H, so the state after the body's full blocks is
 * Q(s + 16k) + H^k (Q(s) + A H), and the partial last block and the
 * length block are two ordinary steps from there.
 */
#include "config.h"
#include "recscan.h"

#include <string.h>

#include "chunk.h"
#include "format.h"
#include "common/error.h"
#include "common/wipe.h"

int
ae_recscan_init(struct ae_recscan *s, const ae_gcm_ctx *key,
    const struct ae_cbc_key *dkey, size_t chunk_size)
{
	static const uint8_t zero[16];
	size_t k;

	memset(s, 0, sizeof *s);
	s->key = key;
	s->dkey = dkey;
	/* Q from a body's start to 16 past its last full block, and back
	 * to the last candidate's start, which is before this one's */
	s->ring = chunk_size + AE_FRAME_LEN + AE_TAG_LEN + 64;
	s->npow = chunk_size / 16 + 1;
	if ((s->q = ae_secret_alloc(s->ring * 16)) == NULL
	    || (s->hpow = ae_secret_alloc(s->npow * 16)) == NULL)
		return AE_ENOMEM;
	s->hpow[0][0] = 0x80;   /* 1: GCM's bits run from the top */
	for (k = 1; k < s->npow; k++) {
		memcpy(s->hpow[k], s->hpow[k - 1], 16);
		ae_gcm_ghash(key, s->hpow[k], zero, 1);
	}
	return AE_OK;
}

void
ae_recscan_reset(struct ae_recscan *s)
{
	s->live = 0;
}

/* Q on [s->upto, to], from the bytes of win (file offset base). */
static void
extend(struct ae_recscan *s, const uint8_t *win, uint64_t base, uint64_t to)
{
	size_t at = (size_t)(s->upto % s->ring), back;

	back = (size_t)((s->upto + s->ring - 16) % s->ring);
	for (; s->upto <= to; s->upto++) {
		if (s->upto < s->from + 16)
			memset(s->q[at], 0, 16);
		else {
			memcpy(s->q[at], s->q[back], 16);
			ae_gcm_ghash(s->key, s->q[at], win + (s->upto - 16 - base),
			    1);
		}
		if (++at == s->ring)
			at = 0;
		if (++back == s->ring)
			back = 0;
	}
}

int
ae_recscan_number(struct ae_recscan *s, const uint8_t *win, uint64_t base,
    uint64_t at, size_t ctlen, uint64_t lo, uint64_t hi, uint64_t *found)
{
	const uint8_t *rec = win + (at - base);
	uint64_t body = at + AE_FRAME_LEN, end;
	size_t k = ctlen / 16, rest = ctlen % 16;
	uint8_t y[16], b[16];
	int r;

	end = body + 16 * (uint64_t)k;
	/* Start afresh where what is known cannot serve: none yet, a body
	 * before `from`, its start gone from the ring, or bytes the next
	 * step would need already gone from the window. */
	if (!s->live || body < s->from || body + s->ring <= s->upto
	    || (s->upto >= s->from + 16 && s->upto - 16 < base)) {
		s->from = s->upto = body;
		s->live = 1;
	}
	if (s->upto <= end)
		extend(s, win, base, end);
	/* the frame block, then the full blocks by the stored sums */
	memset(b, 0, sizeof b);
	memcpy(b, rec, AE_FRAME_LEN);
	memset(y, 0, sizeof y);
	ae_gcm_ghash(s->key, y, b, 1);
	for (size_t i = 0; i < 16; i++)
		y[i] ^= s->q[body % s->ring][i];
	ae_gf128_mul(y, y, s->hpow[k]);
	for (size_t i = 0; i < 16; i++)
		y[i] ^= s->q[end % s->ring][i];
	if (rest > 0) {
		memset(b, 0, sizeof b);
		memcpy(b, rec + AE_FRAME_LEN + 16 * k, rest);
		ae_gcm_ghash(s->key, y, b, 1);
	}
	ae_chunk_lens(b, ctlen);
	ae_gcm_ghash(s->key, y, b, 1);
	r = ae_chunk_number_of(s->dkey, rec[0] & AE_FLAG_FINAL, y,
	    rec + AE_FRAME_LEN + ctlen, lo, hi, found);
	ae_wipe(y, sizeof y);
	ae_wipe(b, sizeof b);
	return r;
}

void
ae_recscan_free(struct ae_recscan *s)
{
	ae_secret_free(s->q, s->ring * 16);
	ae_secret_free(s->hpow, s->npow * 16);
	s->q = NULL;
	s->hpow = NULL;
}
