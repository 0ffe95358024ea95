/*
 * recscan.h -- the salvage search's test of candidate records at a cost
 * that does not grow with their length (format 6.5's work bound).
 *
 * A search with no index tries every offset of the damaged bytes as the
 * start of a record.  Testing each by ae_chunk_number() costs a GHASH
 * pass over the length its frame claims, so bytes crafted to hold a
 * plausible frame every few bytes cost the chunk size at each: 16 MiB of
 * them took minutes.  GHASH is a polynomial in H, though, and the body
 * of a candidate is a run of 16-byte blocks that starts at some offset.
 * For each offset p this keeps Q(p), the GHASH state of the blocks at
 * p - 16, p - 32, ... back to where the scan started; the blocks from s
 * to s + 16k then hash to Q(s + 16k) + H^k Q(s).  One GHASH step per
 * byte scanned, and per candidate one product by a stored power of H, a
 * few steps for the frame, the partial last block and the lengths, and
 * one block of the cipher's inverse (ae_chunk_number_of()).
 *
 * Memory: 16 bytes per byte of a chunk for Q (a ring over the longest
 * record), and as much again for the powers of H.  Secret: both.
 */
#ifndef AE_RECSCAN_H
#define AE_RECSCAN_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/cbc.h"
#include "crypto/gcm.h"

struct ae_recscan {
	const ae_gcm_ctx *key;
	const struct ae_cbc_key *dkey;
	uint8_t (*q)[16];      /* q[p % ring]: Q(p), for p in [upto - ring, upto) */
	uint8_t (*hpow)[16];   /* hpow[k] = H^k, k < npow */
	size_t ring, npow;
	int live;              /* from and upto below hold */
	uint64_t from, upto;   /* Q is known on [max(from, upto - ring), upto);
	                        * Q(p) = 0 for p < from + 16 */
};

/*
 * Set s up for records of chunk_size (key and dkey: the payload key's
 * GCM context and decryption schedule, which must outlive s).  0, or
 * AE_ENOMEM.  ae_recscan_free() whatever it returns.
 */
int ae_recscan_init(struct ae_recscan *s, const ae_gcm_ctx *key,
    const struct ae_cbc_key *dkey, size_t chunk_size);

/* Forget what was scanned: the next call starts afresh (a new window). */
void ae_recscan_reset(struct ae_recscan *s);

/*
 * Whether the record at file offset `at` (frame, ctlen bytes, tag) is
 * one sealed under a number in lo..hi, as ae_chunk_number() answers.
 * win holds the input from file offset base, through the record's end;
 * between resets, each call's `at` is at least the last one's and win
 * holds the bytes from the last `at` on (a search's sliding window).
 * 0 with *found, or AE_EAUTH.
 */
int ae_recscan_number(struct ae_recscan *s, const uint8_t *win, uint64_t base,
    uint64_t at, size_t ctlen, uint64_t lo, uint64_t hi, uint64_t *found);

/* Wipe and free what s holds. */
void ae_recscan_free(struct ae_recscan *s);

#endif
