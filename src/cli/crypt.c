/*
 * crypt.c -- stream mode: aescrypt -e and aescrypt -d (contract in
 * opts.h).
 *
 * The order of work is chosen so that failures cost nothing: secrets are
 * gathered and the header unlocked before any output file exists, so a
 * wrong passphrase leaves nothing behind; the output is committed only
 * after the final chunk has authenticated.
 */
#include "config.h"

#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#define AESCRYPT_STATIC_LINKING_ONLY
#include "aescrypt.h"

#include "pipeline/trailer.h"
#include "common/clock.h"
#include "container/header.h"
#include "checksum.h"
#include "common/wipe.h"
#include "container/index.h"
#include "exitcode.h"
#include "indexed.h"
#include "keys.h"
#include "legacy.h"
#include "msg.h"
#include "names.h"
#include "progress.h"
#include "run.h"
#include "session.h"
#include "salvage.h"
#include "signals.h"

int
cmd_encrypt(const struct opts *o)
{
	struct aescrypt_source src = { run_writer_source, NULL, 0, NULL };
	struct run_stats rs;
	struct streams io;
	struct checksum sum;
	aescrypt_writer *w;
	uint64_t w0 = ae_wall_ns(), c0, k0;
	int st, err, pass_slot = 0;

	memset(&rs, 0, sizeof rs);
	run_streams_init(&io);
	if ((st = run_input_open(&io.in, o->input, NULL)) != EXIT_OK)
		return st;
	if ((o->output == NULL || strcmp(o->output, "-") == 0)
	    && isatty(STDOUT_FILENO)) {
		run_input_close(&io.in);
		return run_refuse_tty(&o->run);
	}
	if ((w = aescrypt_writer_new()) == NULL) {
		run_input_close(&io.in);
		msg_error("out of memory");
		return EXIT_SYSTEM;
	}
	rs.codec = o->run.codec;
	if ((st = keys_to_writer(&o->keys, w, &pass_slot)) != EXIT_OK
	    || (st = run_writer_settings(&o->run, w, &io)) != EXIT_OK)
		goto done;
	if ((st = run_out_open(&io.out, o->output)) != EXIT_OK)
		goto done;
	if (isatty(io.out.fd)) {
		ae_outfile_abort(&io.out);
		st = run_refuse_tty(&o->run);
		goto done;
	}
	ae_fd_init(&io.rd, io.in.fd, &signals_stop, &io.cancel);
	ae_fd_init(&io.wr, io.out.fd, &signals_stop, NULL);
	checksum_start(&sum, o->checksum, &io.writer);
	src.ctx = &io;
	/* the header's slots are made now: a passphrase's KDF runs here */
	c0 = ae_process_ns();
	k0 = ae_wall_ns();
	err = aescrypt_writer_open(w, AESCRYPT_STREAM, run_writer_sink, &io);
	if (pass_slot) {
		rs.kdf_cpu_ns = ae_process_ns() - c0;
		rs.kdf_wall_ns = ae_wall_ns() - k0;
		rs.kdf_m_kib = o->keys.kdf.m_kib;
	}
	if (err == AESCRYPT_OK && atomic_load(&signals_stop))
		err = AESCRYPT_EINTR;
	if (err == AESCRYPT_OK) {
		run_progress_start(&o->run, 0, io.in.fd, 0, 0, -1);
		err = aescrypt_writer_write_from(w, &src);
		progress_stop();
		if (err == AESCRYPT_OK)
			err = aescrypt_writer_close(w);
	}
	if (err != AESCRYPT_OK) {
		st = err == AESCRYPT_EINTR && aescrypt_writer_diag(w) == NULL ?
		    msg_interrupted() : run_writer_failed(&io, w, err);
		ae_outfile_abort(&io.out);
		goto done;
	}
	if ((st = run_out_commit(&io.out)) == EXIT_OK
	    && (st = checksum_finish(&sum, o->checksum, o->output != NULL ?
	    o->output : "-")) == EXIT_OK) {
		rs.pipe = *aescrypt_writer_pipe_stats(w);
		run_finish_stats(&o->run, &rs, w0, aescrypt_writer_tier(w),
		    &io);
	}
done:
	aescrypt_writer_free(w);
	run_input_close(&io.in);
	return st;
}

/* -d's state, for the steps below. */
struct decrypt {
	struct run_stats rs;
	struct ae_pipe_params pp;
	struct ae_diag d;
	struct ae_header h;
	struct streams io;
	struct salvage sv;
	ae_gcm_ctx gcm, igcm;
	struct ae_index ix;
	int have_ix;
	uint64_t w0;
};

/* --salvage: keep what could be read, never under the name asked for,
 * as OUT.damaged (in place for standard output and devices: said so).
 * err is the run's failure (a cut, a damaged frame), or AE_OK when only
 * chunks were lost.  Returns the exit status. */
static int
keep_damaged(struct decrypt *c, int err)
{
	size_t lost = salvage_count(&c->sv);
	char q[1024];
	int st;

	if (lost > 0)
		salvage_report(&c->sv, "plaintext");
	if (err != AE_OK)
		(void)run_pipe_error(&c->io, err, &c->d);
	if ((st = run_out_retarget(&c->io.out, ".damaged")) != EXIT_OK) {
		ae_outfile_abort(&c->io.out);
		return st;
	}
	if ((st = run_out_commit(&c->io.out)) != EXIT_OK)
		return st;
	names_quote(c->io.out.name, q, sizeof q);
	if (err != AE_OK)
		msg_hint("the first %llu bytes, every one verified%s, are in %s; "
		    "what followed could not be read", (unsigned long long)
		    c->rs.pipe.plain_bytes, lost > 0 ? " (zeros where chunks "
		    "were lost)" : "", q);
	else
		msg_hint("%zu chunk%s lost; what could be read is in %s, with "
		    "zeros where the lost bytes were", lost, lost == 1 ? "" :
		    "s", q);
	return EXIT_DATA;
}

/* A failed run without --salvage: nothing under the name asked for. */
static int
decrypt_failed(struct decrypt *c, int err)
{
	int st = run_pipe_error(&c->io, err, &c->d);

	if (st == EXIT_PIPE)
		;   /* the reader left: nothing to say (msg.h) */
	else if (c->io.out.in_place && c->rs.pipe.plain_bytes > 0)
		msg_error("the output is incomplete: only the first %llu bytes "
		    "were written, and they must not be used as a whole",
		    (unsigned long long)c->rs.pipe.plain_bytes);
	else if (!c->io.out.in_place) {
		char q[1024];

		msg_hint("%s was not written", names_quote(c->io.out.name, q,
		    sizeof q));
	}
	ae_outfile_abort(&c->io.out);
	return st;
}

/* The pipeline's parameters, with --salvage's hooks: an archive's index
 * steps over a damaged frame. */
static void
decrypt_params(struct decrypt *c, const struct opts *o)
{
	ae_fd_init(&c->io.wr, c->io.out.fd, &signals_stop, NULL);
	run_pipe_params(&o->run, &c->gcm, &c->h, &c->io, &c->pp);
	c->pp.offset = c->h.len;
	if (o->run.salvage) {
		salvage_init(&c->sv, c->io.in.name, c->h.chunk_log2,
		    &c->io.writer);
		c->pp.salvage = 1;
		c->pp.damaged = salvage_damaged;
		c->pp.damaged_ctx = &c->sv;
		if (c->h.payload_type == AE_PAYLOAD_PAX_INDEXED
		    && indexed_load(&c->io, &c->h, &c->igcm, &o->run, &c->ix,
		    NULL)) {
			c->have_ix = 1;
			c->pp.rec_off = c->ix.rec_off;
			c->pp.nrec = c->ix.records;
		}
	}
	c->pp.trailer = c->h.payload_type == AE_PAYLOAD_PAX_INDEXED
	    || c->h.copy;
}

/* Decode into the open output; commit it, keep what was read, or remove
 * it.  Returns the exit status. */
static int
decrypt_run(struct decrypt *c, const struct opts *o)
{
	int err;

	decrypt_params(c, o);
	run_progress_start(&o->run, 1, c->io.in.fd, 0, c->h.len, c->io.out.fd);
	err = ae_pipe_decode(&c->pp, &c->io.reader, &c->io.writer, &c->rs.pipe,
	    &c->d);
	if (err == AE_OK && c->pp.trailer)
		err = ae_trailer_check(&c->pp, &c->igcm, &c->io.reader, &c->h,
		    c->h.len + c->rs.pipe.wire_bytes, c->rs.pipe.records, NULL,
		    &c->d);
	progress_stop();
	/* --salvage keeps what was verified when chunks were lost, or when
	 * the input is cut or a frame cannot be followed (the data errors);
	 * an I/O error or a signal ends it as any run */
	if (o->run.salvage && ((err == AE_OK && salvage_count(&c->sv) > 0)
	    || (err != AE_OK && exit_for(err) == EXIT_DATA && err != AE_EKEY)))
		return keep_damaged(c, err);
	if (err != AE_OK)
		return decrypt_failed(c, err);
	if ((err = run_out_commit(&c->io.out)) != EXIT_OK)
		return err;         /* (an exit status) */
	if (o->run.verbose)
		msg_note("%s: decrypted, %llu bytes, every chunk authenticated",
		    c->io.in.name, (unsigned long long)c->rs.pipe.plain_bytes);
	run_finish_stats(&o->run, &c->rs, c->w0,
	    ae_gcm_tier_name(ae_gcm_ctx_tier(&c->gcm)), &c->io);
	return run_copy_used(&c->io, &c->h, EXIT_OK);
}

int
cmd_decrypt(const struct opts *o)
{
	struct decrypt *c = ae_secret_alloc(sizeof *c);
	int st;

	if (c == NULL) {
		msg_error("out of memory");
		return EXIT_SYSTEM;
	}
	c->w0 = ae_wall_ns();
	c->rs.decrypt = 1;
	st = session_open(&o->keys, &o->run, o->input, &c->io, &c->h, &c->gcm,
	    &c->igcm, &c->rs);
	if (st == SESSION_LEGACY) {
		st = legacy_decrypt(&o->keys, &o->run, o->output, &c->io);
		ae_secret_free(c->io.early_pass, sizeof *c->io.early_pass);
		run_input_close(&c->io.in);
		goto out;
	}
	if (st != EXIT_OK)
		goto out;
	if ((st = run_out_open(&c->io.out, o->output)) == EXIT_OK)
		st = decrypt_run(c, o);
	if (o->run.salvage)
		salvage_free(&c->sv);
	if (c->have_ix)
		ae_index_free(&c->ix);
	ae_gcm_wipe(&c->gcm);
	if (c->h.payload_type == AE_PAYLOAD_PAX_INDEXED)
		ae_gcm_wipe(&c->igcm);
	run_input_close(&c->io.in);
out:
	ae_secret_free(c, sizeof *c);
	return st;
}
