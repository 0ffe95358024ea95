/*
 * raw.c -- a reader's payload as plaintext, for a caller with its own
 * tar reader (aescrypt -t and -x): the whole payload in order, then the
 * check of what follows it, or a run of records found by the index
 * (contracts in aescrypt.h below AESCRYPT_STATIC_LINKING_ONLY; the
 * handle's insides in handle.h).
 *
 * As for reading in order (reader.c), the pipeline runs on a thread of
 * the reader's and writes into a channel the caller reads, so the
 * caller's loop over its tar reader stays a plain loop.  Unlike it, a
 * run can be started again (one run at a time), each on a run of
 * records read by pread, and what the caller makes of the tar stream
 * is its own.
 */
#include "config.h"
#include "handle.h"

#include <string.h>

#include "pipeline/trailer.h"
#include "ixcheck.h"

/* The run's thread: its records into the channel; for the whole
 * payload, what follows the final record too. */
static void *
raw_decode(void *arg)
{
	aescrypt_reader *r = arg;
	struct ae_writer out = { ae_chan_write, &r->raw_chan };
	struct source_cursor cur;
	struct ae_reader rd, *in = &r->src.seq;
	struct ae_pipe_params pp;
	struct ae_lost_fill l;
	int e;

	ae_lib_reader_params(r, &pp);
	if (r->raw_ranged) {
		ae_lib_source_cursor(&r->src, &cur, &rd, r->raw_run.offset);
		in = &rd;
		pp.offset = r->raw_run.offset;
		pp.first_seq = r->raw_run.first;
		pp.max_records = r->raw_run.count;
		pp.progress = NULL;
		if (r->h.is_signed) {
			/* (a run found by the index: the signatures among
			 * its records are stepped over, not checked) */
			pp.sig_skip = 1;
			pp.sig_log2 = r->h.sig_log2;
			pp.sig_intervals = 1;
			pp.sig_last = r->h.payload_type
			    != AE_PAYLOAD_PAX_INDEXED;
		}
	}
	if (r->salvage)
		ae_lib_reader_salvage_params(r, &pp, &l, &out);
	e = ae_pipe_decode(&pp, in, r->raw_ranged ? &out
	    : ae_lib_reader_signed_out(r, &pp, &out), &r->pst, &r->pd);
	r->raw_payload_read = e == AE_OK;
	/* (a run of records stops at its last: what follows it is more
	 * records, which pp.trailer lets be) */
	if (e == AE_OK && pp.trailer && !r->raw_ranged)
		e = ae_trailer_check(&pp, &r->ig, in, &r->h, r->h.len
		    + r->pst.wire_bytes, r->pst.records, r->raw_keep
		    ? &r->ixc.ixw : NULL, &r->pd);
	/* (after the trailer: an archive's last signature follows its
	 * footer) */
	ae_lib_reader_signed_end(r, e, &r->pst, &r->pd);
	r->raw_rc = e;
	ae_chan_close_write(&r->raw_chan, e);
	return NULL;
}

int
aescrypt_reader_raw_start(aescrypt_reader *r, const struct aescrypt_run *run,
    unsigned flags)
{
	int e = ae_lib_reader_is_open(r);

	if (e != AESCRYPT_OK)
		return e;
	if (r->raw_started || r->seq_started || r->decoded)
		return ae_lib_reader_fail_plain(r, AESCRYPT_ESTATE, "one run "
		    "at a time, and not beside reading in order");
	if (run != NULL && !ae_lib_source_seekable(&r->src))
		return ae_lib_reader_fail_plain(r, AESCRYPT_ENOTSUP, "a run of "
		    "records needs a source that can pread");
	if (run == NULL && r->raw_whole)
		return ae_lib_reader_fail_plain(r, AESCRYPT_ESTATE, "the whole "
		    "payload is read once");
	if (ae_chan_init(&r->raw_chan, 0) != AE_OK)
		return ae_lib_reader_fail_plain(r, AESCRYPT_ENOMEM, "out of "
		    "memory");
	r->raw_ranged = run != NULL;
	if (run != NULL)
		r->raw_run = *run;
	else {
		r->raw_whole = 1;
		/* (the figures are the whole run's, not the checks' before) */
		memset(&r->pst, 0, sizeof r->pst);
		if (r->src.seq.seek != NULL)
			(void)r->src.seq.seek(r->src.seq.ctx, r->h.len);
	}
	/* (kept to compare with the members the caller meets) */
	ae_ixcheck_free(&r->ixc);
	r->raw_keep = run == NULL && (flags & AESCRYPT_RAW_CHECK_INDEX)
	    && r->h.payload_type == AE_PAYLOAD_PAX_INDEXED;
	r->raw_checked = 0;
	r->raw_rc = AE_OK;
	r->raw_payload_read = 0;
	memset(&r->pd, 0, sizeof r->pd);
	/* (an earlier run that was stopped early left it set) */
	atomic_store(r->ext_cancel != NULL ? r->ext_cancel : &r->cancel, 0);
	if (pthread_create(&r->raw_thread, NULL, raw_decode, r) != 0) {
		ae_chan_free(&r->raw_chan);
		return ae_lib_reader_fail_plain(r, AESCRYPT_ENOMEM, "cannot "
		    "start a thread");
	}
	r->raw_started = 1;
	r->have_pst = 1;
	return AESCRYPT_OK;
}

int
aescrypt_reader_raw_read(aescrypt_reader *r, void *buf, size_t n,
    size_t *got)
{
	*got = 0;
	if (r == NULL || !r->raw_started)
		return AESCRYPT_ESTATE;
	return ae_chan_read(&r->raw_chan, buf, n, got);
}

int
aescrypt_reader_raw_end(aescrypt_reader *r, int stop, uint64_t *bytes)
{
	uint8_t buf[4096];
	size_t got;
	int e = AE_OK;

	if (r == NULL || !r->raw_started)
		return AESCRYPT_ESTATE;
	if (!stop)
		do
			e = ae_chan_read(&r->raw_chan, buf, sizeof buf, &got);
		while (e == AE_OK && got == sizeof buf);
	ae_chan_close_read(&r->raw_chan);
	pthread_join(r->raw_thread, NULL);
	r->raw_started = 0;
	if (bytes != NULL)
		*bytes = r->raw_chan.bytes;
	ae_chan_free(&r->raw_chan);
	if (r->raw_rc != AE_OK)
		return ae_lib_reader_fail(r, r->raw_rc, &r->pd);
	/* (a whole run read to its checked end: its members can be
	 * compared with the index it kept) */
	r->raw_checked = r->raw_keep && !r->raw_ranged && !stop;
	return AESCRYPT_OK;
}

void
aescrypt_reader_raw_seen(void *ctx, const struct ae_tar_member *m,
    uint64_t end_at)
{
	aescrypt_reader *r = ctx;

	if (r != NULL && r->raw_keep)
		ae_ixcheck_seen(&r->ixc, m, end_at);
}

int
aescrypt_reader_raw_verdict(aescrypt_reader *r,
    struct aescrypt_index_verdict *v)
{
	if (r == NULL || v == NULL)
		return AESCRYPT_EINVAL;
	if (!r->raw_checked)
		return ae_lib_reader_fail_plain(r, AESCRYPT_ESTATE, "no whole "
		    "run with the index kept has ended");
	ae_ixcheck_compare(&r->ixc, r->h.len, r->h.chunk_log2,
	    ae_lib_reader_sig_every(r), r->h.len + r->pst.wire_bytes,
	    r->pst.records, v);
	return AESCRYPT_OK;
}

int
aescrypt_reader_raw_complete(const aescrypt_reader *r)
{
	return r != NULL && r->raw_payload_read;
}

void
ae_lib_raw_free(aescrypt_reader *r)
{
	if (r->raw_started)
		(void)aescrypt_reader_raw_end(r, 1, NULL);
}
