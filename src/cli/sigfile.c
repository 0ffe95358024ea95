/*
 * sigfile.c -- --sign and --sig-file (contract in sigfile.h).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/wipe.h"
#include "disk/outfile.h"
#include "exitcode.h"
#include "msg.h"
#include "names.h"
#include "run.h"
#include "secret.h"
#include "sigfile.h"

/* A key file is small; a public key line or a PEM key fits easily. */
#define KEY_MAX 16384

static int
hash_write(void *ctx, const uint8_t *buf, size_t n)
{
	struct sigfile *c = ctx;
	int r = c->next.write(c->next.ctx, buf, n);

	if (r == 0)
		crypto_hash_sha512_update(&c->h, buf, n);
	return r;
}

/* Why the key does not sign, worded, and its exit status. */
static int
refused(const char *q, int e, const struct ae_diag *d)
{
	if (e == AESCRYPT_ENOMEM) {
		msg_error("out of memory");
		return EXIT_SYSTEM;
	}
	if (e == AESCRYPT_ELIMIT) {
		msg_error("%s: the OpenSSH key asks for %llu bcrypt rounds, "
		    "over the limit of %llu (ssh-keygen's default is 16)", q,
		    d->have, d->limit);
		return EXIT_LIMIT;
	}
	if (e == AESCRYPT_EIO) {
		msg_error("--sign %s: %s: %s", q, d->what != NULL ? d->what
		    : "cannot reach ssh-agent", strerror(d->sys_errno));
		return EXIT_SYSTEM;
	}
	msg_error("--sign %s: %s", q, d->what != NULL ? d->what
	    : "not an ssh-ed25519 key");
	return EXIT_KEY;
}

int
sigfile_open(struct sigfile *c, const struct key_sources *k,
    const char *key)
{
	struct ae_diag d = { 0 };
	char q[1024], *text;
	size_t len;
	unsigned mode;
	int st, e;

	memset(c, 0, sizeof *c);
	if (key == NULL)
		return EXIT_OK;
	names_quote(key, q, sizeof q);
	if ((text = ae_secret_alloc(KEY_MAX + 1)) == NULL) {
		msg_error("out of memory");
		return EXIT_SYSTEM;
	}
	st = secret_read_file(key, text, KEY_MAX + 1, &len, NULL, &mode);
	if (st == EXIT_OK && len > KEY_MAX) {
		msg_error("--sign %s: too large for a key file", q);
		st = EXIT_KEY;
	}
	if (st != EXIT_OK)
		goto out;
	if (memmem(text, len, "-----BEGIN", 10) != NULL)
		secret_warn_mode(mode, key, "private key");
	e = aescrypt_signer_open(&c->s, text, len, NULL, 0,
	    getenv("SSH_AUTH_SOCK"), &d);
	if (aescrypt_ssh_needs_passphrase(e, &d)) {
		struct passphrase pass;

		if ((st = secret_key_passphrase(k->pass_src, k->pass_arg, q,
		    &pass)) != EXIT_OK)
			goto out;
		e = aescrypt_signer_open(&c->s, text, len, pass.buf, pass.len,
		    NULL, &d);
		secret_wipe(&pass);
	}
	if (e != AESCRYPT_OK)
		st = refused(q, e, &d);
out:
	ae_secret_free(text, KEY_MAX + 1);
	return st;
}

void
sigfile_start(struct sigfile *c, const char *path, struct ae_writer *w)
{
	if (c->s == NULL || path == NULL)
		return;
	c->next = *w;
	crypto_hash_sha512_init(&c->h);
	w->write = hash_write;
	w->ctx = c;
}

int
sigfile_finish(struct sigfile *c, const char *path)
{
	struct ae_outfile out;
	struct ae_diag d = { 0 };
	uint8_t h[crypto_hash_sha512_BYTES];
	char sig[AESCRYPT_SSHSIG_MAX], q[1024];
	size_t len;
	int e, st;

	if (c->s == NULL || path == NULL)
		return EXIT_OK;
	crypto_hash_sha512_final(&c->h, h);
	e = aescrypt_signer_sshsig(c->s, SIGFILE_NAMESPACE, h, sig, sizeof sig,
	    &len, &d);
	if (e != AESCRYPT_OK) {
		msg_error("%s (the output is complete; it was not signed)",
		    d.what != NULL ? d.what : "the signature failed");
		return e == AESCRYPT_EIO ? EXIT_SYSTEM : EXIT_KEY;
	}
	if ((st = run_out_open(&out, path)) != EXIT_OK)
		return st;
	if (ae_write_full(out.fd, sig, len) != 0) {
		int err = errno;

		ae_outfile_abort(&out);
		msg_error("%s: %s (the output is complete; its signature was "
		    "not written)", names_quote(path, q, sizeof q),
		    strerror(err));
		return EXIT_SYSTEM;
	}
	return run_out_commit(&out);
}

void
sigfile_free(struct sigfile *c)
{
	aescrypt_signer_free(c->s);
	c->s = NULL;
}
