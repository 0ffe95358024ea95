/*
 * records.c -- random access to a payload's records (contract in
 * records.h).
 */
#include "config.h"
#include "records.h"

#include <stdlib.h>
#include <string.h>

#include "common/wipe.h"
#include "format.h"

int
ae_records_init(struct ae_records *r, struct ae_reader *in,
    const uint64_t *rec_off, uint64_t records, unsigned chunk_log2,
    const ae_gcm_ctx *key, int codec, int engine)
{
	memset(r, 0, sizeof *r);
	r->in = in;
	r->rec_off = rec_off;
	r->records = records;
	r->key = key;
	r->chunk = (size_t)1 << chunk_log2;
	r->have = UINT64_MAX;
	if (ae_chunk_coder_init_open(&r->coder, r->chunk, codec, engine)
	    != AE_OK)
		return AE_ENOMEM;
	r->rec = malloc(AE_RECORD_MAX(r->chunk));
	r->plain = malloc(r->chunk);
	if (r->rec == NULL || r->plain == NULL) {
		ae_records_free(r);
		return AE_ENOMEM;
	}
	ae_nodump(r->rec, AE_RECORD_MAX(r->chunk));
	ae_nodump(r->plain, r->chunk);
	return AE_OK;
}

/* The record the cache lent, given back. */
static void
unpin(struct ae_records *r)
{
	if (r->lent != NULL) {
		r->cache->unpin(r->cache->ctx, r->have);
		r->lent = NULL;
		r->have = UINT64_MAX;
	}
}

void
ae_records_forget(struct ae_records *r)
{
	unpin(r);
	r->have = UINT64_MAX;
}

void
ae_records_free(struct ae_records *r)
{
	unpin(r);
	if (r->rec != NULL) {
		ae_wipe(r->rec, AE_RECORD_MAX(r->chunk));
		free(r->rec);
	}
	if (r->plain != NULL) {
		ae_wipe(r->plain, r->chunk);
		free(r->plain);
	}
	ae_chunk_coder_free(&r->coder);
	memset(r, 0, sizeof *r);
}

/* Read exactly n bytes at file offset off.  0, AE_ETRUNC or the
 * reader's error. */
static int
read_at(struct ae_records *r, uint64_t off, uint8_t *buf, size_t n)
{
	size_t got, k = 0;
	int err;

	if ((err = r->in->seek(r->in->ctx, off)) != AE_OK)
		return err;
	while (k < n) {
		if ((err = r->in->read(r->in->ctx, buf + k, n - k, &got))
		    != AE_OK)
			return err;
		if (got == 0)
			return AE_ETRUNC;
		k += got;
	}
	return AE_OK;
}

/* Record i read from the file and opened into out (chunk bytes of
 * room), *len its length.  0 or an error with d. */
static int
open_to(struct ae_records *r, uint64_t i, uint8_t *out, size_t *len,
    struct ae_diag *d)
{
	uint64_t off, size;
	size_t ctlen;
	int final, compressed, err;

	off = r->rec_off[i];
	size = r->rec_off[i + 1] - off;
	if (i + 1 < r->records && AE_SIG_AFTER(i, r->sig_every)) {
		/* (the signature record after it is no part of it) */
		if (size < AE_SIG_RECORD_LEN)
			return ae_fail(d, AE_EFORMAT, AE_AT_CHUNK, "has a "
			    "length the index does not allow", i, off);
		size -= AE_SIG_RECORD_LEN;
	}
	/* (a parsed index keeps every record within these bounds) */
	if (size < AE_FRAME_LEN + AE_TAG_LEN || size > AE_RECORD_MAX(r->chunk))
		return ae_fail(d, AE_EFORMAT, AE_AT_CHUNK, "has a length the "
		    "index does not allow", i, off);
	if ((err = read_at(r, off, r->rec, (size_t)size)) != AE_OK)
		return ae_fail(d, err, err == AE_ETRUNC ? AE_AT_CHUNK :
		    AE_AT_INPUT, err == AE_ETRUNC ? "is truncated" :
		    "reading input", i, off);
	err = ae_chunk_frame(r->rec, r->chunk, &final, &compressed, &ctlen, d);
	if (err == AE_OK && (AE_FRAME_LEN + ctlen + AE_TAG_LEN != size
	    || (final != 0) != (i + 1 == r->records)))
		err = ae_fail(d, AE_EFORMAT, AE_AT_CHUNK, "does not agree with "
		    "the index (its length, or where the final record is)",
		    i, off);
	if (err == AE_OK)
		err = ae_chunk_open(&r->coder, r->key, i, r->rec,
		    r->rec + AE_FRAME_LEN, ctlen, r->rec + AE_FRAME_LEN,
		    out, len, d);
	if (err != AE_OK && d != NULL) {
		d->where = AE_AT_CHUNK;
		d->index = i;
		d->offset = off;
	}
	return err;
}

/* Record i opened into r->plain (r->have then i). */
static int
open_record(struct ae_records *r, uint64_t i, struct ae_diag *d)
{
	int err;

	r->have = UINT64_MAX;
	if ((err = open_to(r, i, r->plain, &r->plen, d)) == AE_OK)
		r->have = i;
	return err;
}

int
ae_records_open_into(struct ae_records *r, uint64_t i, uint8_t *out,
    size_t *len, struct ae_diag *d)
{
	if (i >= r->records)
		return AE_EINVAL;
	return open_to(r, i, out, len, d);
}

int
ae_records_get(struct ae_records *r, uint64_t i, const uint8_t **plain,
    size_t *len, struct ae_diag *d)
{
	int err;

	if (i >= r->records)
		return AE_EINVAL;
	if (i == r->have) {
		*plain = r->lent != NULL ? r->lent : r->plain;
		*len = r->plen;
		return AE_OK;
	}
	unpin(r);
	if (r->cache != NULL && r->cache->get(r->cache->ctx, i, &r->lent, &r->plen)) {
		r->have = i;
		*plain = r->lent;
		*len = r->plen;
		return AE_OK;
	}
	if ((err = open_record(r, i, d)) != AE_OK) {
		if (r->cache != NULL)
			r->cache->drop(r->cache->ctx, i);
		return err;
	}
	if (r->cache != NULL)
		r->cache->put(r->cache->ctx, i, r->plain, r->plen);
	*plain = r->plain;
	*len = r->plen;
	return AE_OK;
}

int
ae_records_read(void *ctx, uint8_t *buf, size_t n, size_t *got)
{
	struct ae_records_view *v = ctx;
	struct ae_records *r = v->r;
	const uint8_t *p;
	size_t len, at, k;
	uint64_t i;

	*got = 0;
	if (v->err != AE_OK)
		return v->err;
	while (*got < n) {
		i = v->pos / r->chunk;
		if (i >= r->records)
			break;          /* the end of the payload */
		if ((v->err = ae_records_get(r, i, &p, &len, &v->d)) != AE_OK)
			return v->err;
		at = (size_t)(v->pos - i * r->chunk);
		if (at >= len)
			break;          /* past the final record's end */
		k = len - at < n - *got ? len - at : n - *got;
		memcpy(buf + *got, p + at, k);
		*got += k;
		v->pos += k;
	}
	return AE_OK;
}
