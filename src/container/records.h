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
 * that stay in one record cost one opening; a shared cache, when one is
 * set, spares the opening of a record another reader opened.
 */
#ifndef AE_CONTAINER_RECORDS_H
#define AE_CONTAINER_RECORDS_H

#include <stddef.h>
#include <stdint.h>

#include "chunk.h"
#include "common/error.h"
#include "common/io.h"
#include "crypto/gcm.h"

/* A cache of opened records shared with other record readers (the
 * library's, with its lock): get lends record i's plaintext (*p, *len,
 * held for this reader until it calls unpin) and says 1; or says 0, and
 * then the record is this reader's to open: others that ask for it wait
 * until put gives it (opened and authenticated) or drop says it
 * failed. */
struct ae_records_cache {
	int (*get)(void *ctx, uint64_t i, const uint8_t **p, size_t *len);
	void (*unpin)(void *ctx, uint64_t i);
	void (*put)(void *ctx, uint64_t i, const uint8_t *p, size_t len);
	void (*drop)(void *ctx, uint64_t i);
	void *ctx;
};

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
	const struct ae_records_cache *cache;   /* or NULL */
	const uint8_t *lent;        /* record `have` lent by the cache, or
	                             * NULL (it is in plain) */
	uint64_t sig_every;         /* a signed file's interval (6.10): a
	                             * signature record sits between record
	                             * i and i + 1 when (i + 1) % sig_every
	                             * is 0; 0 (as init leaves it): none */
};

/* Set up for the records at rec_off (records + 1 offsets, as a parsed
 * index gives them), of chunk size 2^chunk_log2, opened with key.  0 or
 * AE_ENOMEM. */
int ae_records_init(struct ae_records *r, struct ae_reader *in,
    const uint64_t *rec_off, uint64_t records, unsigned chunk_log2,
    const ae_gcm_ctx *key, int codec, int engine);

/* Record i opened into out (chunk bytes of room, *len its length), as
 * ae_records_get opens it but past the cache and leaving the record r
 * keeps alone: for the cache's own read-ahead, which opens a record
 * straight into its place there.  0 or as ae_records_get. */
int ae_records_open_into(struct ae_records *r, uint64_t i, uint8_t *out,
    size_t *len, struct ae_diag *d);

/* Forget the record r keeps (the cache's loan given back): the next
 * ae_records_get opens it again. */
void ae_records_forget(struct ae_records *r);

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
