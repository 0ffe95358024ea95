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

#include "common/clock.h"
#include "checksum.h"
#include "common/wipe.h"
#include "exitcode.h"
#include "keys.h"
#include "agefile.h"
#include "legacy.h"
#include "msg.h"
#include "names.h"
#include "progress.h"
#include "run.h"
#include "salvage.h"
#include "signals.h"
#include "sigfile.h"

int
cmd_encrypt(const struct opts *o)
{
	struct aescrypt_source src = { run_writer_source, NULL, 0, NULL };
	struct run_stats rs;
	struct streams io;
	struct checksum sum;
	struct sigfile sig;
	aescrypt_writer *w;
	uint64_t w0 = ae_wall_ns(), c0, k0;
	int st, err, pass_slot = 0;

	memset(&rs, 0, sizeof rs);
	memset(&sig, 0, sizeof sig);
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
	    || (st = run_writer_settings(&o->run, w, &io)) != EXIT_OK
	    || (st = sigfile_open(&sig, &o->keys, o->sign)) != EXIT_OK)
		goto done;
	if (sig.s != NULL && aescrypt_writer_set_signer(w, sig.s)
	    != AESCRYPT_OK) {
		msg_error("%s", aescrypt_writer_error(w));
		st = EXIT_SYSTEM;
		goto done;
	}
	if ((st = run_out_open(&io.out, o->output)) != EXIT_OK)
		goto done;
	if ((st = run_out_distinct(&io.out, io.in.fd, o->checksum,
	    o->sig_file, NULL)) != EXIT_OK) {
		ae_outfile_abort(&io.out);
		goto done;
	}
	if (isatty(io.out.fd)) {
		ae_outfile_abort(&io.out);
		st = run_refuse_tty(&o->run);
		goto done;
	}
	ae_fd_init(&io.rd, io.in.fd, &signals_stop, &io.cancel);
	ae_fd_init(&io.wr, io.out.fd, &signals_stop, NULL);
	checksum_start(&sum, o->checksum, &io.writer);
	sigfile_start(&sig, o->sig_file, &io.writer);
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
	    o->output : "-")) == EXIT_OK
	    && (st = sigfile_finish(&sig, o->sig_file)) == EXIT_OK) {
		rs.pipe = *aescrypt_writer_pipe_stats(w);
		run_finish_stats(&o->run, &rs, w0, aescrypt_writer_tier(w),
		    &io);
	}
done:
	sigfile_free(&sig);
	aescrypt_writer_free(w);
	run_input_close(&io.in);
	return st;
}

/* -d's state, for the steps below. */
struct decrypt {
	struct run_stats rs;
	aescrypt_reader *r;
	struct streams io;
	struct salvage sv;
	uint64_t w0;
};

/* The place of the reader's failure, or, when it has none, its words
 * (then nothing more can be said of where). */
static int
reader_failed(struct decrypt *c, int err)
{
	const struct ae_diag *d = aescrypt_reader_diag(c->r);

	if (d != NULL)
		return run_pipe_error(&c->io, err, d);
	msg_error("%s", aescrypt_reader_error(c->r));
	return exit_for(err);
}

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
		(void)reader_failed(c, err);
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
	else if (lost > 0)
		msg_hint("%zu chunk%s lost; what could be read is in %s, with "
		    "zeros where the lost bytes were", lost, lost == 1 ? "" :
		    "s", q);
	else
		msg_hint("no chunk was lost, but bytes that were no record of "
		    "the file were passed over; what was read is in %s", q);
	return EXIT_DATA;
}

/* A failed run without --salvage: nothing under the name asked for. */
static int
decrypt_failed(struct decrypt *c, int err)
{
	int st = reader_failed(c, err);

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

/* Decode into the open output; commit it, keep what was read, or remove
 * it.  Returns the exit status. */
static int
decrypt_run(struct decrypt *c, const struct opts *o)
{
	struct reader_words said = { c->io.in.name, EXIT_OK };
	struct aescrypt_info info;
	const struct ae_pipe_stats *ps;
	int err;

	ae_fd_init(&c->io.wr, c->io.out.fd, &signals_stop, NULL);
	(void)aescrypt_reader_info(c->r, &info);
	if (o->run.salvage)
		salvage_init(&c->sv, c->io.in.name, info.chunk_log2);
	(void)aescrypt_reader_set_events(c->r, run_reader_event, &said);
	run_progress_start(&o->run, 1, c->io.in.fd, 0, info.header_len,
	    c->io.out.fd);
	err = aescrypt_reader_decode_to(c->r, run_writer_sink, &c->io);
	progress_stop();
	(void)aescrypt_reader_set_events(c->r, NULL, NULL);
	if ((ps = aescrypt_reader_pipe_stats(c->r)) != NULL)
		c->rs.pipe = *ps;
	/* --salvage keeps what was verified when chunks were lost, or when
	 * the input is cut or a frame cannot be followed (the data errors);
	 * an I/O error or a signal ends it as any run */
	if (o->run.salvage && ((err == AE_OK && salvage_damaged(&c->sv))
	    || (err != AE_OK && exit_for(err) == EXIT_DATA && err != AE_EKEY)))
		return keep_damaged(c, err);
	if (err != AE_OK)
		return decrypt_failed(c, err);
	if ((err = run_out_commit(&c->io.out)) != EXIT_OK)
		return err;         /* (an exit status) */
	if (o->run.verbose)
		msg_note("%s: decrypted, %llu bytes, every chunk authenticated",
		    c->io.in.name, (unsigned long long)c->rs.pipe.plain_bytes);
	run_finish_stats(&o->run, &c->rs, c->w0, aescrypt_reader_tier(c->r),
	    &c->io);
	return run_reader_copy_used(&c->io, aescrypt_reader_from_copy(c->r),
	    EXIT_OK);
}

int
cmd_decrypt(const struct opts *o)
{
	struct decrypt *c = ae_secret_alloc(sizeof *c);
	int st;

	if (c == NULL || (c->r = aescrypt_reader_new()) == NULL) {
		ae_secret_free(c, sizeof *c);
		msg_error("out of memory");
		return EXIT_SYSTEM;
	}
	c->w0 = ae_wall_ns();
	c->rs.decrypt = 1;
	run_streams_init(&c->io);
	if ((st = run_input_open(&c->io.in, o->input, &o->run)) != EXIT_OK)
		goto out;
	ae_fd_init(&c->io.rd, c->io.in.fd, &signals_stop, &c->io.cancel);
	if (o->run.salvage && aescrypt_reader_set_salvage(c->r, salvage_lost,
	    &c->sv) != AESCRYPT_OK) {
		msg_error("%s", aescrypt_reader_error(c->r));
		st = EXIT_SYSTEM;
		goto close;
	}
	st = keys_open(&o->keys, &o->run, &c->io, c->r, &c->rs);
	if (st == KEYS_LEGACY) {
		st = legacy_decrypt(&o->keys, &o->run, o->output, o->max_size,
		    &c->io);
		ae_secret_free(c->io.early_pass, sizeof *c->io.early_pass);
		goto close;
	}
	if (st == KEYS_AGE && o->run.salvage) {
		msg_error("%s: an age file: --salvage reads aescrypt "
		    "containers only", c->io.in.name);
		ae_secret_free(c->io.early_pass, sizeof *c->io.early_pass);
		st = EXIT_USAGE;
	} else if (st == KEYS_AGE) {
		st = agefile_decrypt(&o->keys, &o->run, o->output, &c->io);
		goto close;
	}
	if (st != EXIT_OK)
		goto close;
	if ((st = run_out_open(&c->io.out, o->output)) == EXIT_OK
	    && (st = run_out_distinct(&c->io.out, c->io.in.fd, NULL, NULL,
	    NULL)) != EXIT_OK)
		ae_outfile_abort(&c->io.out);
	else if (st == EXIT_OK)
		st = decrypt_run(c, o);
	if (o->run.salvage)
		salvage_free(&c->sv);
close:
	run_input_close(&c->io.in);
out:
	aescrypt_reader_free(c->r);
	ae_secret_free(c, sizeof *c);
	return st;
}
