/*
 * identity.c -- recipients and identities from files and the command
 * line (contracts in identity.h).  The key formats themselves are
 * container/recipient.c's.
 */
#include "config.h"
#include "identity.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/wipe.h"
#include "exitcode.h"
#include "msg.h"
#include "names.h"
#include "secret.h"

/* Identity and recipient files are small: age's hold a few lines. */
#define LIST_MAX (64 * 1024)

/* Add r to the list unless it is there already.  0 or -1 (memory). */
static int
add_recipient(struct ae_recipient **v, size_t *n, const struct ae_recipient *r)
{
	struct ae_recipient *t;
	size_t i;

	for (i = 0; i < *n; i++)
		if (ae_recipient_equal(&(*v)[i], r))
			return 0;
	if ((t = realloc(*v, (*n + 1) * sizeof *t)) == NULL)
		return -1;
	*v = t;
	(*v)[(*n)++] = *r;
	return 0;
}

/* Report a recipient that does not parse; where is "FILE: line N" or
 * NULL for a -r string.  A secret key given as a recipient is named for
 * what it is and never printed: it may be the user's own identity. */
static int
bad_recipient(const char *s, const char *where, int err,
    const struct ae_diag *d)
{
	char q[1024];

	if (ae_recipient_is_secret(s)) {
		if (where != NULL)
			msg_error("%s: a secret key, not a recipient (it is not "
			    "shown)", where);
		else
			msg_error("-r was given a secret key, not a recipient "
			    "(it is not shown)");
		msg_hint("did you mean -i (an identity, for -d, -t and -x)? A "
		    "recipient is the public half: age1..., 'ssh-ed25519 "
		    "AAAA...' or 'ssh-rsa AAAA...' (age-keygen -y or "
		    "ssh-keygen -y prints it)");
		return EXIT_USAGE;
	}
	names_quote(s, q, sizeof q);
	if (where != NULL)
		msg_error("%s: %s", where, d->what);
	else
		msg_error("recipient '%s': %s", q, d->what);
	if (err == AE_EFORMAT && d->offset < strlen(s))
		msg_hint("at character %llu of '%s'", d->offset + 1, q);
	else if (err == AE_EFORMAT)
		msg_hint("a recipient is an age1... key or an 'ssh-ed25519 "
		    "AAAA...' or 'ssh-rsa AAAA...' line");
	return EXIT_USAGE;
}

/* Split text into lines (LF or CR LF) and call fn on each that is not
 * blank or a '#' comment; fn's nonzero result stops the walk. */
static int
each_line(char *text, size_t len, const char *path,
    int (*fn)(char *line, const char *where, void *arg), void *arg)
{
	char where[1100], q[1024];
	size_t lineno = 0;
	char *p = text, *end = text + len, *nl;
	int st;

	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			nl = end;
		*nl = '\0';
		lineno++;
		if (nl > p && nl[-1] == '\r')
			nl[-1] = '\0';
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p != '\0' && *p != '#') {
			snprintf(where, sizeof where, "%s: line %zu",
			    names_quote(path, q, sizeof q), lineno);
			if ((st = fn(p, where, arg)) != EXIT_OK)
				return st;
		}
		p = nl + 1;
	}
	return EXIT_OK;
}

struct rlist {
	struct ae_recipient **v;
	size_t *n;
};

static int
recipient_line(char *line, const char *where, void *arg)
{
	struct rlist *l = arg;
	struct ae_recipient r;
	struct ae_diag d = { 0 };
	int e;

	if (ae_recipient_is_ca(line)) {
		/* authorized_keys and known_hosts have them beside the keys
		 * of people: they sign keys, and are no one's recipient */
		msg_warn("%s: a certificate authority's key, not a recipient; "
		    "skipped", where);
		return EXIT_OK;
	}
	if ((e = ae_recipient_parse(line, &r, &d)) == AE_ENOTSUP) {
		/* another key type (ECDSA, ...), or RSA this build or this
		 * format cannot take: as age does, a list keeps working with
		 * the keys it can use */
		msg_warn("%s: %s; skipped", where, d.what);
		return EXIT_OK;
	}
	if (e != AE_OK)
		return bad_recipient(line, where, e, &d);
	if (add_recipient(l->v, l->n, &r) != 0) {
		msg_error("out of memory");
		return EXIT_SYSTEM;
	}
	return EXIT_OK;
}

int
identity_recipients(const struct key_sources *k, struct ae_recipient **out,
    size_t *n)
{
	struct rlist l = { out, n };
	char *text;
	size_t i, len;
	int st = EXIT_OK;

	*out = NULL;
	*n = 0;
	for (i = 0; i < k->nrecipients && st == EXIT_OK; i++) {
		struct ae_recipient err;
		struct ae_diag d = { 0 };
		int e = ae_recipient_parse(k->recipients[i], &err, &d);

		if (e != AE_OK)
			st = bad_recipient(k->recipients[i], NULL, e, &d);
		else if (add_recipient(out, n, &err) != 0) {
			msg_error("out of memory");
			st = EXIT_SYSTEM;
		}
	}
	if (st != EXIT_OK || k->nrecipient_files == 0)
		goto out;
	if ((text = malloc(LIST_MAX + 1)) == NULL) {
		msg_error("out of memory");
		st = EXIT_SYSTEM;
		goto out;
	}
	for (i = 0; i < k->nrecipient_files && st == EXIT_OK; i++) {
		const char *path = k->recipient_files[i];

		st = secret_read_file(path, text, LIST_MAX + 1, &len, NULL,
		    NULL);
		if (st == EXIT_OK && len > LIST_MAX) {
			char q[1024];

			msg_error("%s: too large for a list of recipients",
			    names_quote(path, q, sizeof q));
			st = EXIT_USAGE;
		}
		if (st == EXIT_OK)
			st = each_line(text, len, path, recipient_line, &l);
	}
	free(text);
out:
	if (st != EXIT_OK) {
		free(*out);
		*out = NULL;
		*n = 0;
	}
	return st;
}

struct ilist {
	struct ae_identity *v;
	size_t n, cap;
};

static int
add_identity(struct ilist *l, const struct ae_identity *id)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 8;
		struct ae_identity *t = malloc(cap * sizeof *t);

		if (t == NULL)
			return -1;
		if (l->n > 0)
			memcpy(t, l->v, l->n * sizeof *t);
		/* the old copy held secrets */
		if (l->v != NULL)
			ae_wipe(l->v, l->n * sizeof *l->v);
		free(l->v);
		l->v = t;
		l->cap = cap;
	}
	l->v[l->n++] = *id;
	return 0;
}

/* Add *id to l and wipe it.  0, or EXIT_SYSTEM (reported). */
static int
take_identity(struct ilist *l, struct ae_identity *id)
{
	int e = add_identity(l, id);

	ae_wipe(id, sizeof *id);
	if (e != 0) {
		msg_error("out of memory");
		return EXIT_SYSTEM;
	}
	return EXIT_OK;
}

static int
identity_line(char *line, const char *where, void *arg)
{
	struct ilist *l = arg;
	struct ae_identity id;
	struct ae_diag d = { 0 };
	int e;

	if (strncmp(line, "AGE-PLUGIN-", 11) == 0) {
		msg_error("%s: an age plugin identity, which aescrypt does "
		    "not support", where);
		return EXIT_KEY;
	}
	e = ae_identity_parse_age(line, &id, &d);
	if (e != AE_OK) {
		msg_error("%s: not an age identity (AGE-SECRET-KEY-1... or "
		    "AGE-SECRET-KEY-PQ-1...): %s", where, d.what);
		return EXIT_KEY;
	}
	return take_identity(l, &id);
}

/* One -i file: a PEM OpenSSH key or an age identity file. */
static int
read_one(const struct key_sources *k, const char *path, char *text,
    struct ilist *l)
{
	struct ae_identity id;
	struct ae_diag d = { 0 };
	size_t len;
	unsigned mode;
	char q[1024];
	int st, e;

	names_quote(path, q, sizeof q);
	st = secret_read_file(path, text, LIST_MAX + 1, &len, NULL, &mode);
	if (st != EXIT_OK)
		return st;
	/* a public key given as an identity: say so before anything about
	 * its mode or its case, which would mislead */
	if (len >= 4 && (memcmp(text, "ssh-", 4) == 0
	    || memcmp(text, "age1", 4) == 0
	    || (len >= 6 && memcmp(text, "ecdsa-", 6) == 0))) {
		msg_error("%s is a public key (a recipient), not an identity",
		    q);
		msg_hint("-i takes the private key (for an ssh key, the file "
		    "without .pub); a public key encrypts to it, with -r or -R");
		return EXIT_KEY;
	}
	/* only now is it a secret's file, whose mode matters */
	secret_warn_mode(mode, path, "identity file");
	if (len > LIST_MAX) {
		msg_error("%s: too large for an identity file", q);
		return EXIT_KEY;
	}
	if (memmem(text, len, "-----BEGIN", 10) != NULL) {
		e = ae_identity_parse_ssh(text, len, NULL, 0, &id, &d);
		if (e == AE_EKEY && d.what != NULL
		    && strcmp(d.what, AE_SSH_NEEDS_PASSPHRASE) == 0) {
			/* ssh-keygen -N: ask, as ssh and age do */
			struct passphrase pass;

			memset(&d, 0, sizeof d);
			if ((st = secret_key_passphrase(k->pass_src, k->pass_arg,
			    q, &pass)) != EXIT_OK)
				return st;
			e = ae_identity_parse_ssh(text, len, pass.buf, pass.len,
			    &id, &d);
			secret_wipe(&pass);
		}
		if (e == AE_ELIMIT) {
			msg_error("%s: the OpenSSH key asks for %llu bcrypt "
			    "rounds, over the limit of %llu (ssh-keygen's "
			    "default is 16)", q, d.have, d.limit);
			return EXIT_LIMIT;
		}
		if (e != AE_OK) {
			msg_error("%s: %s", q, d.what);
			return EXIT_KEY;
		}
		return take_identity(l, &id);
	}
	{
		size_t before = l->n;

		st = each_line(text, len, path, identity_line, l);
		if (st == EXIT_OK && l->n == before) {
			msg_error("%s: no identity in it", q);
			st = EXIT_KEY;
		}
	}
	return st;
}

int
identity_read(const struct key_sources *k, struct ae_identity **out, size_t *n)
{
	struct ilist l = { NULL, 0, 0 };
	char *text;
	size_t i;
	int st = EXIT_OK;

	*out = NULL;
	*n = 0;
	if (k->nidentity_files == 0)
		return EXIT_OK;
	if ((text = malloc(LIST_MAX + 1)) == NULL) {
		msg_error("out of memory");
		return EXIT_SYSTEM;
	}
	for (i = 0; i < k->nidentity_files && st == EXIT_OK; i++)
		st = read_one(k, k->identity_files[i], text, &l);
	ae_wipe(text, LIST_MAX + 1);
	free(text);
	if (st != EXIT_OK) {
		identity_free(l.v, l.n);
		return st;
	}
	*out = l.v;
	*n = l.n;
	return EXIT_OK;
}

void
identity_free(struct ae_identity *ids, size_t n)
{
	if (ids != NULL)
		ae_wipe(ids, n * sizeof *ids);
	free(ids);
}

int
identity_generate(const char *path, int pq)
{
	struct ae_identity id;
	char text[AE_RECIPIENT_TEXT_MAX + 256], rcpt[AE_RECIPIENT_TEXT_MAX];
	char sec[AE_IDENTITY_TEXT_MAX];
	char when[32];
	time_t now = time(NULL);
	struct tm tm;
	size_t len;
	int st, to_stdout = strcmp(path, "-") == 0;

	if (ae_identity_generate(&id, pq ? AE_STANZA_MLKEM768X25519
	    : AE_STANZA_X25519) != AE_OK) {
		msg_error("the system random number generator failed");
		return EXIT_SYSTEM;
	}
	if (gmtime_r(&now, &tm) == NULL
	    || strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(when, sizeof when, "unknown");
	ae_recipient_format(&id.r, rcpt, sizeof rcpt);
	ae_identity_format(&id, sec, sizeof sec);
	ae_wipe(&id, sizeof id);
	len = (size_t)snprintf(text, sizeof text, "# created: %s\n"
	    "# public key: %s\n%s\n", when, rcpt, sec);
	ae_wipe(sec, sizeof sec);
	st = secret_write_new(path, text, len, "an identity file");
	ae_wipe(text, sizeof text);
	if (st == EXIT_OK && !to_stdout) {
		/* The recipient, for scripts: R=$(aescrypt --gen-identity F) */
		printf("%s\n", rcpt);
		if (fflush(stdout) != 0)
			st = msg_sys_error("standard output");
	}
	return st;
}
