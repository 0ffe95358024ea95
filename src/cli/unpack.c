/*
 * unpack.c -- open and decode an archive for -t and -x (contract in
 * unpack.h).
 *
 * The decoder runs ae_pipe_decode in its own thread, its writer being a
 * channel; the caller's thread pulls the tar stream from the other end.
 * So the caller can be a plain loop over ae_tar_next, and the pipeline
 * stays what it is for -d.
 */
#include "config.h"
#include "pipeline/trailer.h"
#include "unpack.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/clock.h"
#include "container/index.h"
#include "common/wipe.h"
#include "exitcode.h"
#include "legacy.h"
#include "msg.h"
#include "progress.h"
#include "session.h"
#include "signals.h"

static void *
decode(void *arg)
{
	struct unpack *u = arg;

	u->pipe_rc = ae_pipe_decode(&u->pp, &u->io.reader, &u->chan_w,
	    &u->rs.pipe, &u->d);
	u->payload_read = u->pipe_rc == AE_OK;
	if (u->pipe_rc == AE_OK && u->check_tail)
		u->pipe_rc = ae_trailer_check(&u->pp, &u->igcm, &u->io.reader,
		    &u->h, u->h.len + u->rs.pipe.wire_bytes,
		    u->rs.pipe.records, u->check_index ? &u->ixc.ixw : NULL,
		    &u->d);
	ae_chan_close_write(&u->chan, u->pipe_rc);
	return NULL;
}

/* Whether an index follows the payload (and igcm holds its key). */
static int
indexed(const struct unpack *u)
{
	return u->h.payload_type == AE_PAYLOAD_PAX_INDEXED;
}

static void
unpack_wipe_keys(struct unpack *u)
{
	ae_gcm_wipe(&u->gcm);
	if (indexed(u))
		ae_gcm_wipe(&u->igcm);
}

/* A range's tar stream: skip bytes, then len bytes, then the end
 * blocks (zeros); then a clean end. */
static int
range_read(struct unpack *u, uint8_t *buf, size_t n, size_t *got)
{
	uint8_t scratch[4096];
	size_t k, more;
	int r;

	*got = 0;
	while (u->skip > 0) {
		k = u->skip < sizeof scratch ? (size_t)u->skip : sizeof scratch;
		r = ae_chan_read(&u->chan, scratch, k, &more);
		if (r == AE_OK && more < k)
			r = AE_ETRUNC;  /* the records ended early */
		if (r != AE_OK) {
			u->decoder_failed = 1;
			return r;
		}
		u->skip -= k;
	}
	if (u->left > 0) {
		k = u->left < n ? (size_t)u->left : n;
		r = ae_chan_read(&u->chan, buf, k, &more);
		if (r == AE_OK && more < k)
			r = AE_ETRUNC;
		if (r != AE_OK) {
			u->decoder_failed = 1;
			return r;
		}
		u->left -= k;
		*got = k;
		return AE_OK;
	}
	k = u->tail < n ? u->tail : n;
	memset(buf, 0, k);
	u->tail -= k;
	*got = k;
	return AE_OK;
}

/* The caller's reader: the peeked block first, then the channel. */
static int
tar_read(void *ctx, uint8_t *buf, size_t n, size_t *got)
{
	struct unpack *u = ctx;
	size_t k = 0, more;
	int r;

	if (u->peek_pos < u->peek_len) {
		k = u->peek_len - u->peek_pos;
		if (k > n)
			k = n;
		memcpy(buf, u->peek + u->peek_pos, k);
		u->peek_pos += k;
	}
	if (k == n) {
		*got = k;
		return AE_OK;
	}
	if (u->ranged)
		return range_read(u, buf, n, got);
	r = ae_chan_read(&u->chan, buf + k, n - k, &more);
	*got = k + more;
	if (r != AE_OK)
		u->decoder_failed = 1;
	return r;
}

/* Stop the decoder and collect it. */
static void
stop_decoder(struct unpack *u)
{
	if (!u->started)
		return;
	ae_chan_close_read(&u->chan);
	pthread_join(u->thread, NULL);
	u->started = 0;
}

struct unpack *
unpack_new(void)
{
	return ae_secret_alloc(sizeof(struct unpack));
}

void
unpack_free(struct unpack *u)
{
	if (u == NULL)
		return;
	unpack_close(u);
	ixcheck_free(&u->ixc);
	ae_secret_free(u, sizeof *u);
}

void
unpack_watch(struct unpack *u, struct ae_tar_reader *tr)
{
	if (!u->check_index)
		return;
	tr->seen = ixcheck_seen;
	tr->seen_ctx = &u->ixc;
}

int
unpack_open_keys(struct unpack *u, const struct key_sources *k,
    const struct run_prefs *p, const char *archive)
{
	int st;

	memset(u, 0, sizeof *u);
	ixcheck_init(&u->ixc);
	u->run = p;
	u->w0 = ae_wall_ns();
	u->rs.decrypt = 1;
	st = session_open(k, p, archive, &u->io, &u->h, &u->gcm, &u->igcm,
	    &u->rs);
	if (st == SESSION_LEGACY) {
		st = p->test ? legacy_test(k, p, &u->io)
		    : legacy_not_archive(u->io.in.name);
		ae_secret_free(u->io.early_pass, sizeof *u->io.early_pass);
		run_input_close(&u->io.in);
		return st == EXIT_OK ? UNPACK_DONE : st;
	}
	if (st != EXIT_OK)
		return st;
	u->keys = 1;
	return EXIT_OK;
}

void
unpack_close(struct unpack *u)
{
	if (!u->keys)
		return;
	unpack_wipe_keys(u);
	run_input_close(&u->io.in);
	u->keys = 0;
}

int
unpack_start(struct unpack *u, const struct unpack_range *range)
{
	int st, err;

	if (ae_chan_init(&u->chan, 0) != AE_OK) {
		msg_error("out of memory");
		st = EXIT_SYSTEM;
		goto fail;
	}
	u->decoder_failed = 0;
	u->pipe_rc = AE_OK;
	u->payload_read = 0;
	/* (an earlier run that stopped early, on the index or a range,
	 * left it set) */
	atomic_store(&u->io.cancel, 0);
	u->chan_w.write = ae_chan_write;
	u->chan_w.ctx = &u->chan;
	u->tar_in.read = tar_read;
	u->tar_in.ctx = u;
	run_pipe_params(u->run, &u->gcm, &u->h, &u->io, &u->pp);
	u->pp.offset = u->h.len;
	u->pp.trailer = indexed(u) || u->h.copy;
	u->check_tail = u->pp.trailer;
	u->check_index = indexed(u) && range == NULL && !u->run->salvage
	    && !u->caller_checks_index;
	if (range == NULL)
		/* (checks of headers by the index may have run before) */
		memset(&u->rs.pipe, 0, sizeof u->rs.pipe);
	ixcheck_free(&u->ixc);
	u->ranged = range != NULL;
	if (range != NULL) {
		/* A run of records found by the index: the tar reader sees
		 * [skip, skip + len) of their plaintext, then the two zero
		 * blocks that end an archive. */
		if (lseek(u->io.in.fd, (off_t)range->offset, SEEK_SET) < 0) {
			st = msg_sys_error(u->io.in.name);
			ae_chan_free(&u->chan);
			goto fail;
		}
		ae_fd_init(&u->io.rd, u->io.in.fd, &signals_stop,
		    &u->io.cancel);
		u->pp.offset = range->offset;
		u->pp.first_seq = range->first;
		u->pp.max_records = range->count;
		u->check_tail = 0;
		u->skip = range->skip;
		u->left = range->len;
		u->tail = AE_TAR_END_LEN;
		u->pp.progress = NULL;
	}
	if (u->run->salvage) {
		salvage_init(&u->salvage, u->io.in.name, u->h.chunk_log2,
		    &u->chan_w);
		u->pp.salvage = 1;
		u->pp.damaged = salvage_damaged;
		u->pp.damaged_ctx = &u->salvage;
		if (u->salvage_ix != NULL) {
			u->pp.rec_off = u->salvage_ix->rec_off;
			u->pp.nrec = u->salvage_ix->records;
		}
	}
	if (range == NULL)
		run_progress_start(u->run, 1, u->io.in.fd, 0, u->h.len,
		    u->run->mode == 't' ? STDOUT_FILENO : -1);
	if (pthread_create(&u->thread, NULL, decode, u) != 0) {
		msg_error("cannot start a thread");
		ae_chan_free(&u->chan);
		st = EXIT_SYSTEM;
		goto fail;
	}
	u->started = 1;
	u->files_t0 = ae_thread_ns();
	if (AE_PAYLOAD_IS_ARCHIVE(u->h.payload_type) || u->run->test)
		return EXIT_OK;     /* --test reads a stream too */

	/* A stream: an archive only if it starts like one. */
	err = ae_chan_read(&u->chan, u->peek, sizeof u->peek, &u->peek_len);
	if (err == AE_OK && u->peek_len == sizeof u->peek
	    && ae_tar_is_header(u->peek))
		return EXIT_OK;
	stop_decoder(u);
	progress_stop();
	if (err != AE_OK && !(err == AE_EINTR && !atomic_load(&signals_stop))) {
		st = run_pipe_error(&u->io, u->pipe_rc, &u->d);
	} else if (atomic_load(&signals_stop)) {
		st = msg_interrupted();
	} else {
		msg_error("%s: an encrypted stream, not an archive",
		    u->io.in.name);
		msg_hint("decrypt it with 'aescrypt -d'");
		st = EXIT_DATA;
	}
	ae_chan_free(&u->chan);
fail:
	unpack_close(u);
	return st;
}

static int
finish(struct unpack *u, int stopped, int last)
{
	uint8_t scratch[4096];
	uint64_t files_ns = ae_thread_ns() - u->files_t0;
	size_t got;
	int err = AE_OK, st = EXIT_OK;

	if (!stopped) {
		/* Drain: tar pads archives, and the final chunk has to be
		 * seen and verified before the archive counts as whole (for
		 * a range, the rest of its last chunk). */
		do
			err = u->ranged ? ae_chan_read(&u->chan, scratch,
			    sizeof scratch, &got) : tar_read(u, scratch,
			    sizeof scratch, &got);
		while (err == AE_OK && got == sizeof scratch);
	}
	stop_decoder(u);
	if (last)
		progress_stop();
	if (u->pipe_rc != AE_OK) {
		if (atomic_load(&signals_stop))
			st = msg_interrupted();
		else if (!(stopped && u->pipe_rc == AE_EINTR
		    && u->d.where == AE_AT_OUTPUT))
			st = run_pipe_error(&u->io, u->pipe_rc, &u->d);
		else
			st = EXIT_OK;   /* we stopped it: the caller's story */
	} else if (!stopped && u->check_index && (st = ixcheck_compare(&u->ixc,
	    u->h.len, u->h.chunk_log2, u->h.len + u->rs.pipe.wire_bytes,
	    u->rs.pipe.records, u->io.in.name)) != EXIT_OK) {
		/* (the payload itself authenticated: the index lies) */
	} else if (!stopped) {
		u->files_ns += files_ns;
		u->files_bytes += u->chan.bytes;
		if (last) {
			u->io.wr.bytes = u->files_bytes;
			u->rs.archive = 1;
			u->rs.files_ns = u->files_ns;
			u->rs.files_bytes = u->files_bytes;
			run_finish_stats(u->run, &u->rs, u->w0,
			    ae_gcm_tier_name(ae_gcm_ctx_tier(&u->gcm)),
			    &u->io);
		}
	}
	ae_chan_free(&u->chan);
	if (last)
		unpack_close(u);
	return st;
}

int
unpack_cut(const struct unpack *u)
{
	return !u->payload_read
	    && exit_for(u->pipe_rc) == EXIT_DATA;
}

int
unpack_end(struct unpack *u, int r, const struct ae_diag *d,
    int caller_rc)
{
	return unpack_end_run(u, r, d, caller_rc, 1);
}

int
unpack_end_run(struct unpack *u, int err,
    const struct ae_diag *d, int caller_rc, int last)
{
	int st = caller_rc, stopped = caller_rc != EXIT_OK;

	if (err < 0 && !u->decoder_failed && !stopped) {
		st = msg_core_error(u->io.in.name, err, d);
		stopped = 1;
	} else if (err < 0) {
		/* The decoder's failure, reported by finish. */
		stopped = 1;
	}
	err = finish(u, stopped, last);
	return err != EXIT_OK ? err : st;
}
