#include "config.h"
#include "payload.h"

#include <stdlib.h>

#include "chunk.h"
#include "format.h"
#include "wipe.h"

/* Put chunk `index` at `offset` into a diagnostic another call filled. */
static int
at(struct ae_diag *d, int err, uint64_t index, uint64_t offset)
{
	if (d != NULL) {
		d->index = index;
		d->offset = offset;
	}
	return err;
}

static int
io_fail(struct ae_diag *d, int err, enum ae_where where, uint64_t chunk,
    uint64_t offset)
{
	return ae_fail(d, err, where, where == AE_AT_INPUT ? "reading input" :
	    "writing output", chunk, offset);
}

int
ae_payload_encode(const gcm_ctx *key, unsigned chunk_log2, int level,
    struct ae_reader *in, struct ae_writer *out,
    struct ae_payload_stats *st, struct ae_diag *d)
{
	size_t cs = (size_t)1 << chunk_log2, got, next = 0, rlen;
	struct ae_chunk_coder coder;
	uint8_t *cur, *ahead, *rec, *tmp;
	uint64_t index = 0;
	int r, final;

	if (chunk_log2 < AE_CHUNK_LOG2_MIN || chunk_log2 > AE_CHUNK_LOG2_MAX)
		return AE_EINVAL;
	if ((r = ae_chunk_coder_init_seal(&coder, cs, level)) != AE_OK)
		return r;
	cur = malloc(cs);
	ahead = malloc(cs);
	rec = malloc(AE_RECORD_MAX(cs));
	if (cur == NULL || ahead == NULL || rec == NULL) {
		r = AE_ENOMEM;
		goto out;
	}
	if ((r = in->read(in->ctx, cur, cs, &got)) != AE_OK) {
		r = io_fail(d, r, AE_AT_INPUT, 0, 0);
		goto out;
	}
	for (;;) {
		/* A short read means EOF, so only a full chunk needs the
		 * read-ahead to learn whether it is the last. */
		final = got < cs;
		if (!final) {
			r = in->read(in->ctx, ahead, cs, &next);
			if (r != AE_OK) {
				r = io_fail(d, r, AE_AT_INPUT, index + 1,
				    st->plain_bytes + cs);
				goto out;
			}
			final = next == 0;
		}
		r = ae_chunk_seal(&coder, key, index, final, cur, got, rec,
		    &rlen);
		if (r != AE_OK)
			goto out;
		if ((r = out->write(out->ctx, rec, rlen)) != AE_OK) {
			r = io_fail(d, r, AE_AT_OUTPUT, index, st->wire_bytes);
			goto out;
		}
		st->plain_bytes += got;
		st->wire_bytes += rlen;
		st->chunks++;
		if (final)
			break;
		if (index == UINT64_MAX) {
			r = AE_ETOOBIG;
			goto out;
		}
		index++;
		tmp = cur, cur = ahead, ahead = tmp;
		got = next;
	}
	r = AE_OK;
out:
	/* The buffers held plaintext. */
	if (cur != NULL)
		ae_wipe(cur, cs);
	if (ahead != NULL)
		ae_wipe(ahead, cs);
	free(cur);
	free(ahead);
	free(rec);
	ae_chunk_coder_free(&coder);
	return r;
}

int
ae_payload_decode(const gcm_ctx *key, unsigned chunk_log2, uint64_t offset,
    struct ae_reader *in, struct ae_writer *out,
    struct ae_payload_stats *st, struct ae_diag *d)
{
	size_t cs = (size_t)1 << chunk_log2, got, ctlen, plen;
	struct ae_chunk_coder coder;
	uint8_t *rec, *plain, *scratch, extra;
	uint64_t index = 0;
	int r, final = 0, deflated;

	if (chunk_log2 < AE_CHUNK_LOG2_MIN || chunk_log2 > AE_CHUNK_LOG2_MAX)
		return AE_EINVAL;
	if ((r = ae_chunk_coder_init_open(&coder, cs)) != AE_OK)
		return r;
	rec = malloc(AE_RECORD_MAX(cs));
	plain = malloc(cs);
	scratch = malloc(cs);
	if (rec == NULL || plain == NULL || scratch == NULL) {
		r = AE_ENOMEM;
		goto out;
	}
	while (!final) {
		r = in->read(in->ctx, rec, AE_FRAME_LEN, &got);
		if (r != AE_OK) {
			r = io_fail(d, r, AE_AT_INPUT, index, offset);
			goto out;
		}
		if (got == 0) {
			r = ae_fail(d, AE_ETRUNC, AE_AT_CHUNK,
			    "is missing: the input ends with no final chunk",
			    index, offset);
			goto out;
		}
		if (got < AE_FRAME_LEN) {
			r = ae_fail(d, AE_ETRUNC, AE_AT_CHUNK,
			    "is truncated", index, offset);
			goto out;
		}
		r = ae_chunk_frame(rec, cs, &final, &deflated, &ctlen, d);
		if (r != AE_OK) {
			r = at(d, r, index, offset);
			goto out;
		}
		r = in->read(in->ctx, rec + AE_FRAME_LEN, ctlen + AE_TAG_LEN,
		    &got);
		if (r != AE_OK) {
			r = io_fail(d, r, AE_AT_INPUT, index, offset);
			goto out;
		}
		if (got < ctlen + AE_TAG_LEN) {
			r = ae_fail(d, AE_ETRUNC, AE_AT_CHUNK,
			    "is truncated", index, offset);
			goto out;
		}
		r = ae_chunk_open(&coder, key, index, rec, rec + AE_FRAME_LEN,
		    ctlen, scratch, plain, &plen, d);
		if (r != AE_OK) {
			r = at(d, r, index, offset);
			goto out;
		}
		if ((r = out->write(out->ctx, plain, plen)) != AE_OK) {
			r = io_fail(d, r, AE_AT_OUTPUT, index, st->plain_bytes);
			goto out;
		}
		offset += AE_FRAME_LEN + ctlen + AE_TAG_LEN;
		st->plain_bytes += plen;
		st->wire_bytes += AE_FRAME_LEN + ctlen + AE_TAG_LEN;
		st->chunks++;
		index++;
	}
	/* The final chunk must be the end: anything after it (garbage, a
	 * second final chunk, an appended file) is refused. */
	if ((r = in->read(in->ctx, &extra, 1, &got)) != AE_OK) {
		r = io_fail(d, r, AE_AT_INPUT, index, offset);
		goto out;
	}
	if (got != 0) {
		r = ae_fail(d, AE_EFORMAT, AE_AT_INPUT,
		    "data after the final chunk", index, offset);
		goto out;
	}
	r = AE_OK;
out:
	if (plain != NULL)
		ae_wipe(plain, cs);
	if (scratch != NULL)
		ae_wipe(scratch, cs);
	free(rec);
	free(plain);
	free(scratch);
	ae_chunk_coder_free(&coder);
	return r;
}
