/*
 * trailer.c -- what follows a payload, written and checked (contract
 * in trailer.h).
 */
#include "config.h"
#include "trailer.h"

#include <string.h>

#include "common/bytes.h"
#include "container/sigchain.h"

int
ae_trailer_write_index(const struct ae_pipe_params *payload,
    const struct ae_index_builder *ib, const struct ae_header *h,
    const ae_gcm_ctx *ig, struct ae_writer *out, struct ae_diag *d)
{
	struct ae_pipe_params pp = *payload;
	struct ae_pipe_stats st;
	struct ae_index_source src;
	struct ae_reader rd = { ae_index_source_read, &src, NULL };
	uint8_t footer[AE_FOOTER_LEN];
	uint64_t off = h->len;
	size_t i;
	int r;

	/* (read from the builder as it is: an index the size of a deep
	 * tree's names is not copied to be sealed) */
	if ((r = ae_index_source_init(&src, ib)) != AE_OK)
		return ae_fail(d, r, AE_AT_NONE, "building the index", 0, 0);
	for (i = 0; i < ib->nrecs; i++)
		off += load_be32(ib->recs + 4 * i);
	/* (a signed file's interval signatures sit between the payload's
	 * records, 6.10: none after the final one) */
	if (payload->sign)
		off += AE_SIGS_AMONG(ib->nrecs, (uint64_t)1 << payload->sig_log2)
		    * AE_SIG_RECORD_LEN;
	memset(&st, 0, sizeof st);
	pp.key = ig;
	pp.progress = NULL;
	/* the index's records are hashed into the signatures, and none
	 * sits among them */
	pp.sig_intervals = 0;
	pp.sig_last = 0;
	r = ae_pipe_encode(&pp, &rd, out, &st, d);
	ae_index_source_free(&src);
	if (r == AE_OK) {
		ae_footer_seal(ig, off, ib->nrecs, footer);
		if ((r = out->write(out->ctx, footer, sizeof footer)) != AE_OK)
			ae_fail(d, r, AE_AT_OUTPUT, "writing output", 0, 0);
	}
	if (r == AE_OK && payload->sign) {
		/* the footer, then the file's last signature */
		uint8_t dg[AE_SIG_DIGEST_LEN];

		ae_sigchain_digest(footer, sizeof footer, dg);
		r = payload->signed_fn(payload->signed_ctx, 0, 1, dg, NULL, 1,
		    0, d);
	}
	return r;
}

int
ae_trailer_write_copy(struct ae_writer *out, const struct ae_header *h,
    struct ae_diag *d)
{
	uint8_t buf[AE_HEADER_MAX + AE_COPY_LEN_LEN];
	size_t n = ae_header_tail_len(h);
	int r;

	if (n == 0)
		return AE_OK;
	ae_header_tail(h, buf);
	if ((r = out->write(out->ctx, buf, n)) != AE_OK)
		return ae_fail(d, r, AE_AT_OUTPUT, "writing output", 0, 0);
	return AE_OK;
}

/* After what comes before it (at offset at): h's copy, if it has one,
 * and then the end of the input; what_after names the data after the
 * last part of a file without a copy. */
static int
read_tail(struct ae_reader *in, const struct ae_header *h, uint64_t at,
    const char *what_after, struct ae_diag *d)
{
	uint8_t buf[AE_HEADER_MAX + AE_COPY_LEN_LEN + 1];
	size_t got;
	int r;

	/* one byte more than the tail: the file must end with it */
	r = in->read(in->ctx, buf, ae_header_tail_len(h) + 1, &got);
	if (r != AE_OK)
		return ae_fail(d, r, AE_AT_INPUT, "reading input", 0, at);
	if (h->copy)
		return ae_header_check_tail(h, buf, got, at, d);
	if (got > 0)
		return ae_fail(d, AE_EFORMAT, AE_AT_INPUT, what_after, 0, at);
	return AE_OK;
}

/* ae_trailer_check for an index: its records, its footer, the rest. */
static int
index_tail(const struct ae_pipe_params *payload, const ae_gcm_ctx *ig,
    struct ae_reader *in, const struct ae_header *h, uint64_t index_offset,
    uint64_t records, struct ae_writer *keep, struct ae_diag *d)
{
	struct ae_pipe_params pp = *payload;
	struct ae_pipe_stats st;
	struct ae_memio sink = { .discard = 1 };
	struct ae_writer w = { ae_mem_write, &sink };
	uint8_t footer[AE_FOOTER_LEN];
	uint64_t at, said_offset, said_records;
	size_t got;
	int r;

	memset(&st, 0, sizeof st);
	pp.key = ig;
	pp.offset = index_offset;
	pp.first_seq = 0;
	pp.max_records = 0;
	pp.trailer = 1;
	pp.salvage = 0;
	pp.progress = NULL;
	pp.sig_intervals = 0;
	pp.sig_last = 0;
	r = ae_pipe_decode(&pp, in, keep != NULL ? keep : &w, &st, d);
	if (r != AE_OK) {
		if (d->where == AE_AT_CHUNK) {
			/* an index record: say so, not "chunk N" */
			d->where = AE_AT_INDEX;
			if (r == AE_ETRUNC)
				d->what = "is missing or cut short: the file "
				    "ends before its index does";
		}
		return r;
	}
	at = index_offset + st.wire_bytes;
	if ((r = in->read(in->ctx, footer, sizeof footer, &got)) != AE_OK)
		return ae_fail(d, r, AE_AT_INPUT, "reading input", 0, at);
	if (got < AE_FOOTER_LEN)
		return ae_fail(d, AE_ETRUNC, AE_AT_INDEX, "the footer is "
		    "missing or cut short", 0, at);
	if (ae_footer_open(ig, footer, &said_offset, &said_records) != AE_OK)
		return ae_fail(d, AE_EAUTH, AE_AT_INDEX, "the footer failed "
		    "authentication", 0, at);
	if (said_offset != index_offset || said_records != records)
		return ae_fail(d, AE_EFORMAT, AE_AT_INDEX, "the footer does "
		    "not match the payload before it", 0, at);
	at += AE_FOOTER_LEN;
	if (payload->sign) {
		/* 6.10: the file's last signature, over the footer too */
		uint8_t sig[AE_SIG_RECORD_LEN], dg[AE_SIG_DIGEST_LEN];

		if ((r = in->read(in->ctx, sig, sizeof sig, &got)) != AE_OK)
			return ae_fail(d, r, AE_AT_INPUT, "reading input", 0,
			    at);
		if (got < sizeof sig)
			return ae_fail(d, AE_ETRUNC, AE_AT_INDEX, "the file's "
			    "last signature, after the footer, is missing or "
			    "cut short", 0, at);
		ae_sigchain_digest(footer, sizeof footer, dg);
		if ((r = payload->signed_fn(payload->signed_ctx, 0, 1, dg, sig,
		    1, at + sizeof sig, d)) != AE_OK) {
			d->where = AE_AT_INDEX;
			d->offset = at;
			if (r == AE_EAUTH)
				d->what = "the file's last signature, after the "
				    "footer, does not verify (the file was changed "
				    "after it was signed, or not signed by the key "
				    "its header names)";
			return r;
		}
		at += sizeof sig;
	}
	return read_tail(in, h, at, "data after the footer", d);
}

int
ae_trailer_check(const struct ae_pipe_params *payload, const ae_gcm_ctx *ig,
    struct ae_reader *in, const struct ae_header *h, uint64_t end,
    uint64_t records, struct ae_writer *keep, struct ae_diag *d)
{
	if (h->payload_type == AE_PAYLOAD_PAX_INDEXED)
		return index_tail(payload, ig, in, h, end, records, keep, d);
	return read_tail(in, h, end, "data after the final chunk", d);
}
