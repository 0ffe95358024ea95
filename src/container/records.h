/*
 * records.h -- a payload's records one at a time, found by the offsets
 * of its index (6.8): random access for a reader that needs a few bytes
 * here and there (the headers an index names), where starting the
 * parallel pipeline for each would cost more than the bytes.
 *
 * Each record is read whole, its frame checked against the index (its
 * length, and FINAL only on the last record), and opened as 6.5 opens
 * it, with its own number in the nonce: nothing of a record whose tag
 * fails is ever returned.  The last record opened is kept, so reads
 * that stay in one record cost one opening.
 */
#ifndef AE_CONTAINER_RECORDS_H
#define AE_CONTAINER_RECORDS_H

#include <stddef.h>
#include <stdint.h>

#include "chunk.h"
#include "common/error.h"
#include "common/io.h"
#include "crypto/gcm.h"

struct ae_records {
	struct ae_reader *in;       /* the file; its seek is required */
	const uint64_t *rec_off;    /* records + 1 offsets (ae_index) */
	uint64_t records;
	const ae_gcm_ctx *key;
	size_t chunk;
	struct ae_chunk_coder coder;
	uint8_t *rec;               /* a whole record: frame, body, tag */
	uint8_t *plain;             /* its plaintext (chunk bytes) */
	uint64_t have;              /* which record plain holds, or
	                             * UINT64_MAX */
	size_t plen;
};

/* Set up for the records at rec_off (records + 1 offsets, as a parsed
 * index gives them), of chunk size 2^chunk_log2, opened with key.  0 or
 * AE_ENOMEM. */
int ae_records_init(struct ae_records *r, struct ae_reader *in,
    const uint64_t *rec_off, uint64_t records, unsigned chunk_log2,
    const ae_gcm_ctx *key, int codec, int engine);

/* Free r, wiping the plaintext it held. */
void ae_records_free(struct ae_records *r);

/*
 * Record i's plaintext, in *plain (valid until the next call) and *len.
 * 0; AE_EINVAL for i past the last record; or, with d (AE_AT_CHUNK, its
 * number and file offset), AE_EFORMAT for a frame that disagrees with
 * the index, AE_EAUTH for a tag that fails, the errors of ae_chunk_open
 * and of the reader.
 */
int ae_records_get(struct ae_records *r, uint64_t i, const uint8_t **plain,
    size_t *len, struct ae_diag *d);

/* A reader of the payload's plaintext from byte pos on, across records
 * (ae_records_read is its read function; a record that fails sets err
 * and d and returns its error). */
struct ae_records_view {
	struct ae_records *r;
	uint64_t pos;
	int err;
	struct ae_diag d;
};

int ae_records_read(void *view, uint8_t *buf, size_t n, size_t *got);

#endif
