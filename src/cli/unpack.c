/*
 * unpack.c -- open and decode an archive for -t and -x (contract in
 * unpack.h).
 *
 * The library's reader runs the payload in a thread of its own
 * (aescrypt_reader_raw_start), its writer being a channel; the caller's
 * thread pulls the tar stream from the other end.  So the caller can
 * be a plain loop over ae_tar_next.
 */
#include "config.h"
#include "unpack.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/wipe.h"
#include "exitcode.h"
#include "agefile.h"
#include "keys.h"
#include "legacy.h"
#include "msg.h"
#include "names.h"
#include "progress.h"
#include "signals.h"

/* A read of the run: a failure is the run's (said at its end). */
static int
run_read(struct unpack *u, uint8_t *buf, size_t n, size_t *got)
{
	int r = u->age != NULL ? aescrypt_age_raw_read(u->age, buf, n, got) :
	    aescrypt_reader_raw_read(u->r, buf, n, got);

	if (r != AE_OK)
		u->decoder_failed = 1;
	return r;
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
		r = run_read(u, scratch, k, &more);
		if (r == AE_OK && more < k) {
			u->decoder_failed = 1;
			r = AE_ETRUNC;  /* the records ended early */
		}
		if (r != AE_OK)
			return r;
		u->skip -= k;
	}
	if (u->left > 0) {
		k = u->left < n ? (size_t)u->left : n;
		r = run_read(u, buf, k, &more);
		if (r == AE_OK && more < k) {
			u->decoder_failed = 1;
			r = AE_ETRUNC;
		}
		if (r != AE_OK)
			return r;
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

/* The caller's reader: the peeked block first, then the run. */
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
	r = run_read(u, buf + k, n - k, &more);
	*got = k + more;
	return r;
}

/* End the run (drained, or stopped) and keep its result. */
static void
end_run(struct unpack *u, int stop, uint64_t *bytes)
{
	if (!u->started)
		return;
	u->pipe_rc = u->age != NULL ? aescrypt_age_raw_end(u->age, stop, bytes,
	    &u->age_d) : aescrypt_reader_raw_end(u->r, stop, bytes);
	u->started = 0;
}

/* The run's failure said, as every mode says a pipeline's. */
static int
run_failed(struct unpack *u)
{
	const struct ae_diag *d = aescrypt_reader_diag(u->r);

	if (u->age != NULL)
		return agefile_failed(u->io.in.name, u->age, u->pipe_rc,
		    &u->age_d);

	if (d != NULL)
		return run_pipe_error(&u->io, u->pipe_rc, d);
	msg_error("%s", aescrypt_reader_error(u->r));
	return exit_for(u->pipe_rc);
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
	/* (kept until now: the caller may still read its index, and
	 * whether its last run was whole) */
	aescrypt_reader_free(u->r);
	aescrypt_age_free(u->age);
	ae_secret_free(u, sizeof *u);
}

void
unpack_watch(struct unpack *u, struct ae_tar_reader *tr)
{
	if (!u->check_index)
		return;
	tr->seen = aescrypt_reader_raw_seen;
	tr->seen_ctx = u->r;
}

int
unpack_open_keys(struct unpack *u, const struct key_sources *k,
    const struct run_prefs *p, const char *archive)
{
	struct aescrypt_source src;
	int st;

	memset(u, 0, sizeof *u);
	u->run = p;
	u->w0 = ae_wall_ns();
	u->rs.decrypt = 1;
	run_streams_init(&u->io);
	if ((st = run_input_open(&u->io.in, archive, p)) != EXIT_OK)
		return st;
	ae_fd_init(&u->io.rd, u->io.in.fd, &signals_stop, &u->io.cancel);
	if ((u->r = aescrypt_reader_new()) == NULL) {
		msg_error("out of memory");
		run_input_close(&u->io.in);
		return EXIT_SYSTEM;
	}
	/* (the callback runs only in a run, after salvage_init below) */
	if (p->salvage && aescrypt_reader_set_salvage(u->r, salvage_lost,
	    &u->salvage) != AESCRYPT_OK) {
		msg_error("%s", aescrypt_reader_error(u->r));
		st = EXIT_SYSTEM;
	} else
		st = keys_open(k, p, &u->io, u->r, &u->rs);
	if (st == KEYS_LEGACY) {
		st = p->test ? legacy_test(k, p, &u->io)
		    : legacy_not_archive(u->io.in.name);
		ae_secret_free(u->io.early_pass, sizeof *u->io.early_pass);
		st = st == EXIT_OK ? UNPACK_DONE : st;
	}
	if (st == KEYS_AGE && p->salvage) {
		msg_error("%s: an age file: --salvage reads aescrypt "
		    "containers only", u->io.in.name);
		ae_secret_free(u->io.early_pass, sizeof *u->io.early_pass);
		st = EXIT_USAGE;
	} else if (st == KEYS_AGE && p->test) {
		st = agefile_test(k, p, &u->io);
		st = st == EXIT_OK ? UNPACK_DONE : st;
	} else if (st == KEYS_AGE && (st = agefile_open(k, p, &u->io,
	    &u->age)) == EXIT_OK) {
		/* an age file's plaintext: a tar stream, read as one; it
		 * has no index, so -t reads it all */
		u->keys = 1;
		return EXIT_OK;
	}
	if (st != EXIT_OK) {
		aescrypt_reader_free(u->r);
		u->r = NULL;
		run_input_close(&u->io.in);
		return st;
	}
	(void)aescrypt_reader_info(u->r, &u->info);
	u->from_copy = aescrypt_reader_from_copy(u->r);
	if (p->salvage)
		salvage_init(&u->salvage, u->io.in.name, u->info.chunk_log2);
	run_reader_source(&u->io, &src);
	u->seekable = src.pread != NULL;
	u->keys = 1;
	return EXIT_OK;
}

void
unpack_close(struct unpack *u)
{
	if (!u->keys)
		return;
	end_run(u, 1, NULL);
	run_input_close(&u->io.in);
	u->keys = 0;
}

int
unpack_start(struct unpack *u, const struct unpack_range *range)
{
	struct aescrypt_run run;
	int st, err;

	u->decoder_failed = 0;
	u->pipe_rc = AE_OK;
	u->tar_in.read = tar_read;
	u->tar_in.ctx = u;
	u->check_index = u->info.indexed && range == NULL && !u->run->salvage
	    && !u->caller_checks_index;
	if (range == NULL)
		/* (checks of headers by the index may have run before) */
		memset(&u->rs.pipe, 0, sizeof u->rs.pipe);
	u->ranged = range != NULL;
	if (range != NULL) {
		/* A run of records found by the index: the tar reader sees
		 * [skip, skip + len) of their plaintext, then the two zero
		 * blocks that end an archive. */
		run.first = range->first;
		run.count = range->count;
		run.offset = range->offset;
		u->skip = range->skip;
		u->left = range->len;
		u->tail = AE_TAR_END_LEN;
	} else
		run_progress_start(u->run, 1, u->io.in.fd, 0,
		    u->info.header_len, u->run->mode == 't' ? STDOUT_FILENO
		    : -1);
	if (u->age != NULL) {
		if (range != NULL)
			return EXIT_SYSTEM;     /* (no index, so no range) */
		err = aescrypt_age_raw_start(u->age, &u->age_d);
		u->started = 1;
		if (err != AE_OK) {
			progress_stop();
			/* (a failure of the run itself is its end's) */
			if (err == AE_ENOTSUP || err == AE_ENOMEM)
				st = msg_core_error(u->io.in.name, err,
				    &u->age_d);
			else {
				end_run(u, 1, NULL);
				st = u->pipe_rc != AE_OK ? run_failed(u) :
				    msg_core_error(u->io.in.name, err,
				    &u->age_d);
			}
			goto fail;
		}
	} else if (aescrypt_reader_raw_start(u->r, range != NULL ? &run : NULL,
	    u->check_index ? AESCRYPT_RAW_CHECK_INDEX : 0) != AESCRYPT_OK) {
		msg_error("%s", aescrypt_reader_error(u->r));
		st = EXIT_SYSTEM;
		goto fail;
	} else
		u->started = 1;
	u->files_t0 = ae_thread_ns();
	if (u->info.kind == AESCRYPT_ARCHIVE || u->run->test)
		return EXIT_OK;     /* --test reads a stream too */

	/* A stream: an archive only if it starts like one. */
	err = run_read(u, u->peek, sizeof u->peek, &u->peek_len);
	if (err == AE_OK && u->peek_len == sizeof u->peek
	    && ae_tar_is_header(u->peek))
		return EXIT_OK;
	end_run(u, 1, NULL);
	progress_stop();
	if (err != AE_OK && !(err == AE_EINTR && !atomic_load(&signals_stop))) {
		st = run_failed(u);
	} else if (atomic_load(&signals_stop)) {
		st = msg_interrupted();
	} else if (u->age != NULL) {
		msg_error("%s: an age file whose plaintext is not a tar "
		    "archive (%s)", u->io.in.name, strcmp(
		    aescrypt_age_compression(u->age), "none") == 0 ?
		    "nor gzip- or zstd-compressed tar" : "inside its "
		    "compression");
		msg_hint("decrypt it with 'aescrypt -d'");
		st = EXIT_DATA;
	} else {
		msg_error("%s: an encrypted stream, not an archive",
		    u->io.in.name);
		msg_hint("decrypt it with 'aescrypt -d'");
		st = EXIT_DATA;
	}
fail:
	unpack_close(u);
	return st;
}

/* After a full read that kept the index: whether it says what was
 * read.  0 (or a warning that it could not be compared), or EXIT_DATA
 * (reported). */
static int
index_verdict(struct unpack *u)
{
	struct aescrypt_index_verdict v;
	const char *name = u->io.in.name;
	char q[1024];

	if (aescrypt_reader_raw_verdict(u->r, &v) != AESCRYPT_OK) {
		msg_error("%s", aescrypt_reader_error(u->r));
		return EXIT_SYSTEM;
	}
	switch (v.kind) {
	case AESCRYPT_INDEX_AGREES:
		return EXIT_OK;
	case AESCRYPT_INDEX_NOT_HELD:
		u->index_not_held = 1;
		msg_warn("%s: the archive's index is too large to hold, so it "
		    "was not compared with the payload", name);
		return EXIT_OK;
	case AESCRYPT_INDEX_NO_MEMORY:
		u->index_not_held = 1;
		msg_warn("%s: the archive's index does not fit in memory, so it "
		    "was not compared with the payload", name);
		return EXIT_OK;
	case AESCRYPT_INDEX_MALFORMED:
		msg_error("%s: the archive's index authenticates but %s", name,
		    v.text);
		return EXIT_DATA;
	case AESCRYPT_INDEX_ENTRY:
		msg_error("%s: the archive's index does not match its payload: "
		    "entry %llu says '%s' at tar stream byte %llu, where the "
		    "payload has another member", name,
		    (unsigned long long)v.entry, names_quote(v.text, q,
		    sizeof q), (unsigned long long)v.at);
		break;
	case AESCRYPT_INDEX_COUNT:
		msg_error("%s: the archive's index does not match its payload: "
		    "it lists %llu members, the payload holds %llu", name,
		    (unsigned long long)v.listed, (unsigned long long)v.seen);
		break;
	default:
		msg_error("%s: the archive's index does not match its payload: "
		    "the tar stream ends at byte %llu, not %llu", name,
		    (unsigned long long)v.at, (unsigned long long)v.tar_end);
		break;
	}
	msg_hint("the payload was read in full and is what the archive "
	    "holds; -t and -x NAME, which use the index, would not show the "
	    "same (read with --no-index)");
	return EXIT_DATA;
}

static int
finish(struct unpack *u, int stopped, int last)
{
	uint8_t scratch[4096];
	uint64_t files_ns = ae_thread_ns() - u->files_t0, bytes = 0;
	const struct ae_pipe_stats *ps;
	const struct ae_diag *d;
	size_t got;
	int err = AE_OK, st = EXIT_OK;

	if (!stopped && !u->ranged)
		/* Drain: tar pads archives, and the final chunk has to be
		 * seen and verified before the archive counts as whole (the
		 * peeked block first; a range's rest is the run's own) */
		do
			err = tar_read(u, scratch, sizeof scratch, &got);
		while (err == AE_OK && got == sizeof scratch);
	end_run(u, stopped, &bytes);
	if ((ps = u->age != NULL ? aescrypt_age_pipe_stats(u->age) :
	    aescrypt_reader_pipe_stats(u->r)) != NULL)
		u->rs.pipe = *ps;
	if (last)
		progress_stop();
	d = u->age != NULL ? &u->age_d : aescrypt_reader_diag(u->r);
	if (u->pipe_rc != AE_OK) {
		if (atomic_load(&signals_stop))
			st = msg_interrupted();
		else if (!(stopped && u->pipe_rc == AE_EINTR && d != NULL
		    && d->where == AE_AT_OUTPUT))
			st = run_failed(u);
		else
			st = EXIT_OK;   /* we stopped it: the caller's story */
	} else if (!stopped && u->check_index
	    && (st = index_verdict(u)) != EXIT_OK) {
		/* (the payload itself authenticated: the index lies) */
	} else if (!stopped) {
		u->files_ns += files_ns;
		u->files_bytes += bytes;
		if (last) {
			u->io.wr.bytes = u->files_bytes;
			u->rs.archive = 1;
			u->rs.no_codec = u->age != NULL;
			u->rs.files_ns = u->files_ns;
			u->rs.files_bytes = u->files_bytes;
			run_finish_stats(u->run, &u->rs, u->w0, u->age
			    != NULL ? AGEFILE_TIER :
			    aescrypt_reader_tier(u->r), &u->io);
		}
	}
	if (last)
		unpack_close(u);
	return st;
}

int
unpack_cut(const struct unpack *u)
{
	if (u->age != NULL)
		return exit_for(u->pipe_rc) == EXIT_DATA;
	return !aescrypt_reader_raw_complete(u->r)
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
		/* The run's failure, reported by finish. */
		stopped = 1;
	}
	err = finish(u, stopped, last);
	return err != EXIT_OK ? err : st;
}
