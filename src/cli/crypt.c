/*
 * crypt.c -- stream mode: aescrypt -e and aescrypt -d.
 *
 * The order of work is chosen so that failures cost nothing: secrets are
 * gathered and the header unlocked before any output file exists, so a
 * wrong passphrase leaves nothing behind; the output is committed only
 * after the final chunk has authenticated.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "../error.h"
#include "../gcm.h"
#include "../header.h"
#include "../io.h"
#include "../clock.h"
#include "../pipeline.h"
#include "../random.h"
#include "../wipe.h"
#include "exitcode.h"
#include "msg.h"
#include "opts.h"
#include "outfile.h"
#include "signals.h"
#include "stats.h"

/* The input as a descriptor and a name for messages. */
struct input {
	int fd;
	const char *name;
};

static int
input_open(struct input *in, const char *path)
{
	if (path == NULL || strcmp(path, "-") == 0) {
		in->fd = STDIN_FILENO;
		in->name = "standard input";
		return EXIT_OK;
	}
	in->name = path;
	in->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (in->fd < 0) {
		msg_error("%s: %s", path, strerror(errno));
		return EXIT_SYSTEM;
	}
	return EXIT_OK;
}

static void
input_close(struct input *in)
{
	if (in->fd != STDIN_FILENO)
		close(in->fd);
}

/* Which passphrase source -e or -d should use, if any. */
static enum pass_source
pass_source(const struct opts *o)
{
	if (o->pass_src != PASS_NONE)
		return o->pass_src;
	return secret_env_source();
}

static int
sys_error(const char *what)
{
	msg_error("%s: %s", what, strerror(errno));
	return EXIT_SYSTEM;
}

/* Build the stanzas and header for a new file.  0 or an exit status. */
static int
make_header(const struct opts *o, struct ae_header *h,
    uint8_t file_key[AE_FILE_KEY_LEN], struct run_stats *rs)
{
	uint64_t c0, w0;
	enum pass_source src = pass_source(o);
	int use_pass = o->keyfile == NULL || o->want_pass || src != PASS_NONE;
	struct passphrase pass;
	uint8_t S[32], key[32];
	struct ae_stanza *s;
	int rc = EXIT_OK, r;

	memset(h, 0, sizeof *h);
	h->payload_type = AE_PAYLOAD_STREAM;
	h->chunk_log2 = (uint8_t)o->chunk_log2;
	if (ae_random(file_key, AE_FILE_KEY_LEN) != AE_OK
	    || ae_random(h->payload_salt, AE_SALT_LEN) != AE_OK)
		return sys_error("the system random number generator");

	if (o->keyfile != NULL) {
		if ((rc = secret_keyfile_read(o->keyfile, key)) != EXIT_OK)
			return rc;
		s = &h->stanza[h->nstanzas++];
		s->type = AE_STANZA_KEYFILE;
		if (ae_random(s->salt, AE_SALT_LEN) != AE_OK) {
			ae_wipe(key, sizeof key);
			return sys_error("the system random number generator");
		}
		ae_stanza_secret_keyfile(s, key, S);
		ae_stanza_wrap(s, S, file_key);
		ae_wipe(key, sizeof key);
		ae_wipe(S, sizeof S);
	}
	if (use_pass) {
		if ((rc = secret_passphrase(src, o->pass_arg, 1, &pass))
		    != EXIT_OK)
			return rc;
		s = &h->stanza[h->nstanzas++];
		s->type = AE_STANZA_ARGON2ID;
		s->kdf = o->kdf;
		if (ae_random(s->salt, AE_SALT_LEN) != AE_OK) {
			secret_wipe(&pass);
			return sys_error("the system random number generator");
		}
		c0 = ae_process_ns();
		w0 = ae_wall_ns();
		r = ae_stanza_secret_passphrase(s, pass.buf, pass.len, S);
		rs->kdf_cpu_ns += ae_process_ns() - c0;
		rs->kdf_wall_ns += ae_wall_ns() - w0;
		rs->kdf_m_kib = s->kdf.m_kib;
		secret_wipe(&pass);
		if (r != AE_OK) {
			msg_error("Argon2id with %u KiB, %u passes, %u lanes: %s",
			    s->kdf.m_kib, s->kdf.t, s->kdf.p,
			    r == AE_ENOMEM ? "out of memory" :
			    "invalid parameters");
			return r == AE_ENOMEM ? EXIT_SYSTEM : EXIT_USAGE;
		}
		ae_stanza_wrap(s, S, file_key);
		ae_wipe(S, sizeof S);
	}
	if (atomic_load(&signals_stop))
		return msg_interrupted();
	if (ae_header_encode(h, file_key) != AE_OK) {
		msg_error("internal error: cannot lay out the header");
		return EXIT_SYSTEM;
	}
	return EXIT_OK;
}

/* The streams of one run: input, output, and their I/O objects. */
struct streams {
	struct input in;
	struct outfile out;
	struct ae_fdio rd, wr;
	struct ae_reader reader;
	struct ae_writer writer;
	atomic_int cancel;
};

static void
streams_init(struct streams *io)
{
	memset(io, 0, sizeof *io);
	atomic_init(&io->cancel, 0);
	io->in.fd = -1;
	io->out.fd = -1;
	io->reader.read = ae_fd_read;
	io->reader.ctx = &io->rd;
	io->writer.write = ae_fd_write;
	io->writer.ctx = &io->wr;
}

static void
pipe_params(const struct opts *o, const gcm_ctx *g, unsigned chunk_log2,
    struct streams *io, struct ae_pipe_params *pp)
{
	memset(pp, 0, sizeof *pp);
	pp->key = g;
	pp->chunk_log2 = chunk_log2;
	pp->level = o->level;
	pp->threads = o->threads;
	pp->interrupt = &signals_stop;
	pp->cancel = &io->cancel;
	pp->timed = o->stats != 0;
}

/* Report and return the exit status for a pipeline failure. */
static int
pipe_error(struct streams *io, int r, const struct ae_diag *d)
{
	const char *name = d->where == AE_AT_OUTPUT ? io->out.name :
	    io->in.name;

	return msg_core_error(name, r, d);
}

/* After a successful run: fill in the totals and print --stats. */
static void
finish_stats(const struct opts *o, struct run_stats *rs, uint64_t w0,
    const gcm_ctx *g, const struct streams *io)
{
	struct rusage ru;

	if (!o->stats)
		return;
	rs->in_bytes = io->rd.bytes;
	rs->out_bytes = io->wr.bytes;
	rs->tier = gcm_tier_name(gcm_ctx_tier(g));
	rs->wall_ns = ae_wall_ns() - w0;
	rs->process_cpu_ns = ae_process_ns();
	if (getrusage(RUSAGE_SELF, &ru) == 0)
		rs->peak_rss_kib = (uint64_t)ru.ru_maxrss;
	stats_print(stderr, rs, o->stats == 2);
}

static int
refuse_tty(void)
{
	msg_error("refusing to write encrypted data to a terminal");
	msg_hint("redirect the output with '>' or use -o FILE");
	return EXIT_USAGE;
}

int
cmd_encrypt(const struct opts *o)
{
	struct run_stats rs;
	struct ae_pipe_params pp;
	struct ae_diag d = { 0 };
	uint8_t file_key[AE_FILE_KEY_LEN];
	static struct ae_header h;
	struct streams io;
	uint64_t w0 = ae_wall_ns();
	gcm_ctx gcm;
	int rc, r;

	memset(&rs, 0, sizeof rs);
	streams_init(&io);
	/* Checked before the passphrase is asked for, and again once the
	 * output is open (-o /dev/tty). */
	if ((o->output == NULL || strcmp(o->output, "-") == 0)
	    && isatty(STDOUT_FILENO))
		return refuse_tty();
	if ((rc = input_open(&io.in, o->input)) != EXIT_OK)
		return rc;
	rc = make_header(o, &h, file_key, &rs);
	if (rc != EXIT_OK) {
		input_close(&io.in);
		ae_wipe(file_key, sizeof file_key);
		return rc;
	}
	ae_header_payload_cipher(&h, file_key, &gcm);
	ae_wipe(file_key, sizeof file_key);

	if ((rc = outfile_open(&io.out, o->output)) != EXIT_OK)
		goto done;
	if (isatty(io.out.fd)) {
		outfile_abort(&io.out);
		rc = refuse_tty();
		goto done;
	}
	ae_fd_init(&io.rd, io.in.fd, &signals_stop, &io.cancel);
	ae_fd_init(&io.wr, io.out.fd, &signals_stop, NULL);
	pipe_params(o, &gcm, h.chunk_log2, &io, &pp);
	r = io.writer.write(io.writer.ctx, h.raw, h.len);
	if (r != AE_OK)
		ae_fail(&d, r, AE_AT_OUTPUT, "writing output", 0, 0);
	else
		r = ae_pipe_encode(&pp, &io.reader, &io.writer, &rs.pipe, &d);
	if (r != AE_OK) {
		rc = pipe_error(&io, r, &d);
		outfile_abort(&io.out);
		goto done;
	}
	if ((rc = outfile_commit(&io.out)) == EXIT_OK)
		finish_stats(o, &rs, w0, &gcm, &io);
done:
	gcm_wipe(&gcm);
	input_close(&io.in);
	return rc;
}

/* Word a failure to open any key slot, given what was tried. */
static int
key_error(const char *name, const struct ae_header *h, int tried_key,
    int tried_pass)
{
	unsigned nk = ae_header_count(h, AE_STANZA_KEYFILE);
	unsigned np = ae_header_count(h, AE_STANZA_ARGON2ID);

	if (tried_key && tried_pass)
		msg_error("%s: wrong passphrase or key file", name);
	else if (tried_key)
		msg_error("%s: wrong key file", name);
	else
		msg_error("%s: wrong passphrase", name);
	if (tried_key && !tried_pass && np > 0)
		msg_hint("this file also opens with a passphrase; give one "
		    "with -P");
	else if (tried_pass && !tried_key && nk > 0)
		msg_hint("this file also opens with a key file; give it "
		    "with -k FILE");
	else if (tried_pass)
		msg_hint("check the passphrase source (terminal, "
		    "--passphrase-file, --passphrase-fd, AESCRYPT_PASSPHRASE)");
	else
		msg_hint("check that -k names the key file this was "
		    "encrypted to");
	return EXIT_KEY;
}

/* Read the header and open it with the user's secrets. */
static int
unlock(const struct opts *o, struct input *in, struct ae_reader *reader,
    struct ae_header *h, uint8_t file_key[AE_FILE_KEY_LEN],
    struct run_stats *rs)
{
	uint64_t c0, w0;
	struct ae_unlock u;
	struct ae_diag d = { 0 };
	struct passphrase pass;
	enum pass_source src = pass_source(o);
	uint8_t key[32];
	unsigned nk, np;
	int r, rc, use_key, use_pass, have_pass = 0;

	/* A descriptor may be the input itself (--passphrase-fd 0 with the
	 * container after the first line), so its line is taken first. */
	memset(&pass, 0, sizeof pass);
	if (src == PASS_FD) {
		rc = secret_passphrase(src, o->pass_arg, 0, &pass);
		if (rc != EXIT_OK)
			return rc;
		have_pass = 1;
	}
	if ((r = ae_header_read(reader, h, &d)) != AE_OK) {
		secret_wipe(&pass);
		return msg_core_error(in->name, r, &d);
	}
	nk = ae_header_count(h, AE_STANZA_KEYFILE);
	np = ae_header_count(h, AE_STANZA_ARGON2ID);

	/* A key file given is used; a passphrase is asked for if one was
	 * given, or if there is no key file and the file has a slot. */
	use_key = o->keyfile != NULL;
	use_pass = src != PASS_NONE || o->want_pass
	    || (!use_key && np > 0);
	if (nk == 0 && np == 0) {
		secret_wipe(&pass);
		msg_error("%s: no key slot of a type this version knows",
		    in->name);
		msg_hint("the file may need a newer aescrypt");
		return EXIT_KEY;
	}
	if (!(use_key && nk > 0) && !(use_pass && np > 0)) {
		secret_wipe(&pass);
		if (np == 0) {
			msg_error("%s: this file opens only with a key file",
			    in->name);
			msg_hint("give it with -k FILE");
		} else {
			msg_error("%s: this file has no key-file slot, only "
			    "a passphrase", in->name);
			msg_hint("drop -k to be asked for the passphrase");
		}
		return EXIT_KEY;
	}
	memset(&u, 0, sizeof u);
	ae_kdf_default_limits(&u.limits);
	if (o->max_kdf_kib != 0)
		u.limits.max_m_kib = o->max_kdf_kib;
	if (use_key) {
		if ((rc = secret_keyfile_read(o->keyfile, key)) != EXIT_OK) {
			secret_wipe(&pass);
			return rc;
		}
		u.key = key;
	}
	if (use_pass && np > 0) {
		if (!have_pass)
			rc = secret_passphrase(src, o->pass_arg, 0, &pass);
		if (rc != EXIT_OK) {
			ae_wipe(key, sizeof key);
			return rc;
		}
		u.pass = pass.buf;
		u.passlen = pass.len;
	}
	c0 = ae_process_ns();
	w0 = ae_wall_ns();
	r = ae_header_unlock(h, &u, file_key, &d);
	if (u.pass != NULL) {
		unsigned i;

		rs->kdf_cpu_ns += ae_process_ns() - c0;
		rs->kdf_wall_ns += ae_wall_ns() - w0;
		for (i = 0; i < h->nstanzas; i++)
			if (h->stanza[i].type == AE_STANZA_ARGON2ID)
				rs->kdf_m_kib = h->stanza[i].kdf.m_kib;
	}
	ae_wipe(key, sizeof key);
	secret_wipe(&pass);
	if (r == AE_EKEY)
		return key_error(in->name, h, use_key && nk > 0,
		    use_pass && np > 0);
	if (r != AE_OK)
		return msg_core_error(in->name, r, &d);
	if (atomic_load(&signals_stop))
		return msg_interrupted();
	return EXIT_OK;
}

int
cmd_decrypt(const struct opts *o)
{
	struct run_stats rs;
	struct ae_pipe_params pp;
	struct ae_diag d = { 0 };
	uint8_t file_key[AE_FILE_KEY_LEN];
	static struct ae_header h;
	struct streams io;
	uint64_t w0 = ae_wall_ns();
	gcm_ctx gcm;
	int rc, r;

	memset(&rs, 0, sizeof rs);
	rs.decrypt = 1;
	streams_init(&io);
	if ((rc = input_open(&io.in, o->input)) != EXIT_OK)
		return rc;
	ae_fd_init(&io.rd, io.in.fd, &signals_stop, &io.cancel);
	rc = unlock(o, &io.in, &io.reader, &h, file_key, &rs);
	if (rc != EXIT_OK) {
		input_close(&io.in);
		return rc;
	}
	ae_header_payload_cipher(&h, file_key, &gcm);
	ae_wipe(file_key, sizeof file_key);

	if ((rc = outfile_open(&io.out, o->output)) != EXIT_OK)
		goto done;
	ae_fd_init(&io.wr, io.out.fd, &signals_stop, NULL);
	pipe_params(o, &gcm, h.chunk_log2, &io, &pp);
	pp.offset = h.len;
	r = ae_pipe_decode(&pp, &io.reader, &io.writer, &rs.pipe, &d);
	if (r != AE_OK) {
		rc = pipe_error(&io, r, &d);
		if (io.out.in_place && rs.pipe.plain_bytes > 0)
			msg_error("the output is incomplete: only the first "
			    "%llu bytes were written, and they must not be used "
			    "as a whole", (unsigned long long)rs.pipe.plain_bytes);
		else if (!io.out.in_place)
			msg_hint("%s was not written", io.out.name);
		outfile_abort(&io.out);
		goto done;
	}
	if ((rc = outfile_commit(&io.out)) == EXIT_OK)
		finish_stats(o, &rs, w0, &gcm, &io);
done:
	gcm_wipe(&gcm);
	input_close(&io.in);
	return rc;
}
