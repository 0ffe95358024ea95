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
#include <unistd.h>

#include "../error.h"
#include "../gcm.h"
#include "../header.h"
#include "../io.h"
#include "../payload.h"
#include "../random.h"
#include "../wipe.h"
#include "exitcode.h"
#include "msg.h"
#include "opts.h"
#include "outfile.h"
#include "signals.h"

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
    uint8_t file_key[AE_FILE_KEY_LEN])
{
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
		r = ae_stanza_secret_passphrase(s, pass.buf, pass.len, S);
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
	if (signals_stop)
		return msg_interrupted();
	if (ae_header_encode(h, file_key) != AE_OK) {
		msg_error("internal error: cannot lay out the header");
		return EXIT_SYSTEM;
	}
	return EXIT_OK;
}

int
cmd_encrypt(const struct opts *o)
{
	struct ae_fdio rd = { 0 }, wr = { 0 };
	struct ae_reader reader = { ae_fd_read, &rd };
	struct ae_writer writer = { ae_fd_write, &wr };
	struct ae_payload_stats st = { 0 };
	struct ae_diag d = { 0 };
	uint8_t file_key[AE_FILE_KEY_LEN];
	static struct ae_header h;
	struct outfile out;
	struct input in;
	gcm_ctx gcm;
	int rc, r;

	if ((o->output == NULL || strcmp(o->output, "-") == 0)
	    && isatty(STDOUT_FILENO)) {
		msg_error("refusing to write encrypted data to a terminal");
		msg_hint("redirect the output with '>' or use -o FILE");
		return EXIT_USAGE;
	}
	if ((rc = input_open(&in, o->input)) != EXIT_OK)
		return rc;
	rc = make_header(o, &h, file_key);
	if (rc != EXIT_OK) {
		input_close(&in);
		ae_wipe(file_key, sizeof file_key);
		return rc;
	}
	ae_header_payload_cipher(&h, file_key, &gcm);
	ae_wipe(file_key, sizeof file_key);

	if ((rc = outfile_open(&out, o->output)) != EXIT_OK)
		goto done;
	if (isatty(out.fd)) {
		msg_error("refusing to write encrypted data to a terminal");
		outfile_abort(&out);
		rc = EXIT_USAGE;
		goto done;
	}
	rd.fd = in.fd;
	rd.stop = &signals_stop;
	wr.fd = out.fd;
	wr.stop = &signals_stop;
	r = writer.write(writer.ctx, h.raw, h.len);
	if (r != AE_OK)
		ae_fail(&d, r, AE_AT_OUTPUT, "writing output", 0, 0);
	else
		r = ae_payload_encode(&gcm, h.chunk_log2, o->level, &reader,
		    &writer, &st, &d);
	if (r != AE_OK) {
		rc = msg_core_error(d.where == AE_AT_INPUT ? in.name :
		    out.name, r, &d);
		outfile_abort(&out);
		goto done;
	}
	rc = outfile_commit(&out);
done:
	gcm_wipe(&gcm);
	input_close(&in);
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
    struct ae_header *h, uint8_t file_key[AE_FILE_KEY_LEN])
{
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
	r = ae_header_unlock(h, &u, file_key, &d);
	ae_wipe(key, sizeof key);
	secret_wipe(&pass);
	if (r == AE_EKEY)
		return key_error(in->name, h, use_key && nk > 0,
		    use_pass && np > 0);
	if (r != AE_OK)
		return msg_core_error(in->name, r, &d);
	if (signals_stop)
		return msg_interrupted();
	return EXIT_OK;
}

int
cmd_decrypt(const struct opts *o)
{
	struct ae_fdio rd = { 0 }, wr = { 0 };
	struct ae_reader reader = { ae_fd_read, &rd };
	struct ae_writer writer = { ae_fd_write, &wr };
	struct ae_payload_stats st = { 0 };
	struct ae_diag d = { 0 };
	uint8_t file_key[AE_FILE_KEY_LEN];
	static struct ae_header h;
	struct outfile out;
	struct input in;
	gcm_ctx gcm;
	int rc, r;

	if ((rc = input_open(&in, o->input)) != EXIT_OK)
		return rc;
	rd.fd = in.fd;
	rd.stop = &signals_stop;
	rc = unlock(o, &in, &reader, &h, file_key);
	if (rc != EXIT_OK) {
		input_close(&in);
		return rc;
	}
	ae_header_payload_cipher(&h, file_key, &gcm);
	ae_wipe(file_key, sizeof file_key);

	if ((rc = outfile_open(&out, o->output)) != EXIT_OK)
		goto done;
	wr.fd = out.fd;
	wr.stop = &signals_stop;
	r = ae_payload_decode(&gcm, h.chunk_log2, h.len, &reader, &writer,
	    &st, &d);
	if (r != AE_OK) {
		rc = msg_core_error(d.where == AE_AT_OUTPUT ? out.name :
		    in.name, r, &d);
		if (out.in_place && st.plain_bytes > 0)
			msg_error("the output is incomplete: only the first "
			    "%llu bytes were written, and they must not be "
			    "used as a whole", (unsigned long long)st.plain_bytes);
		else if (!out.in_place)
			msg_hint("%s was not written", out.name);
		outfile_abort(&out);
		goto done;
	}
	rc = outfile_commit(&out);
done:
	gcm_wipe(&gcm);
	input_close(&in);
	return rc;
}
