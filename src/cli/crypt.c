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

#include <string.h>
#include <unistd.h>

#include "common/clock.h"
#include "container/header.h"
#include "crypto/wipe.h"
#include "container/index.h"
#include "exitcode.h"
#include "indexed.h"
#include "keys.h"
#include "msg.h"
#include "progress.h"
#include "run.h"
#include "salvage.h"
#include "signals.h"

int
cmd_encrypt(const struct opts *o)
{
	struct run_stats rs;
	struct ae_pipe_params pp;
	struct ae_diag d = { 0 };
	struct ae_header h;
	struct streams io;
	uint64_t w0 = ae_wall_ns();
	ae_gcm_ctx gcm;
	int st, err;

	memset(&rs, 0, sizeof rs);
	run_streams_init(&io);
	if ((st = run_input_open(&io.in, o->input, NULL)) != EXIT_OK)
		return st;
	st = run_new_container(o, o->output, AE_PAYLOAD_STREAM, &h, &gcm, NULL,
	    &io, &rs);
	if (st != EXIT_OK) {
		run_input_close(&io.in);
		return st;
	}
	ae_fd_init(&io.rd, io.in.fd, &signals_stop, &io.cancel);
	ae_fd_init(&io.wr, io.out.fd, &signals_stop, NULL);
	run_pipe_params(o, &gcm, h.chunk_log2, &io, &pp);
	err = io.writer.write(io.writer.ctx, h.raw, h.len);
	if (err != AE_OK) {
		ae_fail(&d, err, AE_AT_OUTPUT, "writing output", 0, 0);
	} else {
		run_progress_start(o, 0, io.in.fd, 0, 0, -1);
		err = ae_pipe_encode(&pp, &io.reader, &io.writer, &rs.pipe, &d);
		progress_stop();
	}
	if (err != AE_OK) {
		st = run_pipe_error(&io, err, &d);
		outfile_abort(&io.out);
		goto done;
	}
	if ((st = outfile_commit(&io.out)) == EXIT_OK)
		run_finish_stats(o, &rs, w0, &gcm, &io);
done:
	ae_gcm_wipe(&gcm);
	run_input_close(&io.in);
	return st;
}

int
cmd_decrypt(const struct opts *o)
{
	struct run_stats rs;
	struct ae_pipe_params pp;
	struct ae_diag d = { 0 };
	uint8_t file_key[AE_FILE_KEY_LEN];
	struct ae_header h;
	struct streams io;
	struct salvage sv;
	uint64_t w0 = ae_wall_ns();
	ae_gcm_ctx gcm, igcm;
	struct ae_index ix;
	int st, err, have_ix = 0;

	memset(&rs, 0, sizeof rs);
	memset(&sv, 0, sizeof sv);
	rs.decrypt = 1;
	run_streams_init(&io);
	if ((st = run_input_open(&io.in, o->input, o)) != EXIT_OK)
		return st;
	ae_fd_init(&io.rd, io.in.fd, &signals_stop, &io.cancel);
	st = keys_unlock(o, io.in.name, &io.reader, &h, file_key, &rs);
	if (st != EXIT_OK) {
		run_input_close(&io.in);
		return st;
	}
	ae_header_payload_cipher(&h, file_key, &gcm);
	if (h.payload_type == AE_PAYLOAD_PAX_INDEXED)
		ae_index_cipher(&h, file_key, &igcm);
	ae_wipe(file_key, sizeof file_key);

	if ((st = outfile_open(&io.out, o->output)) != EXIT_OK)
		goto done;
	ae_fd_init(&io.wr, io.out.fd, &signals_stop, NULL);
	run_pipe_params(o, &gcm, h.chunk_log2, &io, &pp);
	pp.offset = h.len;
	if (o->salvage) {
		salvage_init(&sv, io.in.name, h.chunk_log2, &io.writer);
		pp.salvage = 1;
		pp.damaged = salvage_damaged;
		pp.damaged_ctx = &sv;
		/* an archive's index: its record offsets step over a
		 * damaged frame */
		if (h.payload_type == AE_PAYLOAD_PAX_INDEXED
		    && indexed_load(&io, &h, &igcm, o, &ix, NULL)) {
			have_ix = 1;
			pp.rec_off = ix.rec_off;
			pp.nrec = ix.records;
		}
	}
	pp.trailer = h.payload_type == AE_PAYLOAD_PAX_INDEXED;
	run_progress_start(o, 1, io.in.fd, 0, h.len, io.out.fd);
	err = ae_pipe_decode(&pp, &io.reader, &io.writer, &rs.pipe, &d);
	if (err == AE_OK && pp.trailer)
		err = run_index_tail(&pp, &igcm, &io.reader, h.len +
		    rs.pipe.wire_bytes, rs.pipe.records, &d);
	progress_stop();
	if (err == AE_OK && o->salvage && salvage_count(&sv) > 0) {
		/* What could be read is kept, never under the name asked
		 * for: the lost chunks are zeros in it. */
		salvage_report(&sv, "plaintext");
		if ((st = outfile_retarget(&io.out, ".damaged")) == EXIT_OK
		    && (st = outfile_commit(&io.out)) == EXIT_OK) {
			msg_hint("%zu chunk%s lost; what could be read is in "
			    "%s, with zeros where the lost bytes were",
			    salvage_count(&sv), salvage_count(&sv) == 1 ? "" :
			    "s", io.out.name);
			st = EXIT_DATA;
		}
		goto done;
	}
	if (err != AE_OK) {
		if (o->salvage && salvage_count(&sv) > 0)
			salvage_report(&sv, "plaintext");
		st = run_pipe_error(&io, err, &d);
		if (st == EXIT_PIPE)
			;   /* the reader left: nothing to say (msg.h) */
		else if (io.out.in_place && rs.pipe.plain_bytes > 0)
			msg_error("the output is incomplete: only the first "
			    "%llu bytes were written, and they must not be used "
			    "as a whole", (unsigned long long)rs.pipe.plain_bytes);
		else if (!io.out.in_place)
			msg_hint("%s was not written", io.out.name);
		outfile_abort(&io.out);
		goto done;
	}
	if ((st = outfile_commit(&io.out)) == EXIT_OK)
		run_finish_stats(o, &rs, w0, &gcm, &io);
done:
	if (o->salvage)
		salvage_free(&sv);
	if (have_ix)
		ae_index_free(&ix);
	ae_gcm_wipe(&gcm);
	if (h.payload_type == AE_PAYLOAD_PAX_INDEXED)
		ae_gcm_wipe(&igcm);
	run_input_close(&io.in);
	return st;
}
