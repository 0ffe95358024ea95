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
#include <strings.h>
#include <time.h>

#include "common/wipe.h"
#include "exitcode.h"
#include "msg.h"
#include "names.h"
#include "secret.h"

/* Identity and recipient files are small: age's hold a few lines. */
#define LIST_MAX (64 * 1024)

/* Report a recipient that does not parse; where is "FILE: line N" or
 * NULL for a -r string.  A secret key given as a recipient is named for
 * what it is and never printed: it may be the user's own identity. */
static int
bad_recipient(const char *s, const char *where, int err,
    const struct ae_diag *d)
{
	char q[1024];

	if (aescrypt_is_secret_key_text(s)) {
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
	if (err == AESCRYPT_EINVAL && where == NULL)
		msg_error("recipient '%s' is %s", q, d->what);
	else if (err == AESCRYPT_EINVAL)
		msg_error("%s: the recipient is %s", where, d->what);
	else if (where != NULL)
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

static int
recipient_line(char *line, const char *where, void *arg)
{
	aescrypt_keys *l = arg;
	struct ae_diag d = { 0 };
	int e;

	if (aescrypt_is_ca_key_text(line)) {
		/* authorized_keys and known_hosts have them beside the keys
		 * of people: they sign keys, and are no one's recipient */
		msg_warn("%s: a certificate authority's key, not a recipient; "
		    "skipped", where);
		return EXIT_OK;
	}
	if ((e = aescrypt_keys_add_recipient(l, line, &d)) == AE_ENOTSUP) {
		/* another key type (ECDSA, ...), or RSA this build or this
		 * format cannot take: as age does, a list keeps working with
		 * the keys it can use */
		msg_warn("%s: %s; skipped", where, d.what);
		return EXIT_OK;
	}
	if (e == AE_ENOMEM) {
		msg_error("out of memory");
		return EXIT_SYSTEM;
	}
	if (e != AE_OK)
		return bad_recipient(line, where, e, &d);
	return EXIT_OK;
}

int
identity_recipients(const struct key_sources *k, aescrypt_keys *out)
{
	char *text;
	size_t i, len;
	int st = EXIT_OK;

	for (i = 0; i < k->nrecipients && st == EXIT_OK; i++) {
		struct ae_diag d = { 0 };
		int e = aescrypt_keys_add_recipient(out, k->recipients[i], &d);

		if (e == AE_ENOMEM) {
			msg_error("out of memory");
			st = EXIT_SYSTEM;
		} else if (e != AE_OK)
			st = bad_recipient(k->recipients[i], NULL, e, &d);
	}
	if (st != EXIT_OK || k->nrecipient_files == 0)
		return st;
	if ((text = malloc(LIST_MAX + 1)) == NULL) {
		msg_error("out of memory");
		return EXIT_SYSTEM;
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
			st = each_line(text, len, path, recipient_line, out);
	}
	free(text);
	return st;
}

static int
identity_line(char *line, const char *where, void *arg)
{
	aescrypt_keys *l = arg;
	struct ae_diag d = { 0 };
	int e;

	if (strncasecmp(line, "AGE-PLUGIN-", 11) == 0) {
		/* (for age files: age-plugin-NAME is run by agefile.c) */
		e = aescrypt_keys_add_plugin_identity(l, line, &d);
		if (e == AE_ENOMEM) {
			msg_error("out of memory");
			return EXIT_SYSTEM;
		}
		if (e != AE_OK) {
			msg_error("%s: an age plugin identity that %s", where,
			    d.what);
			return EXIT_KEY;
		}
		return EXIT_OK;
	}
	e = aescrypt_keys_add_age_identity(l, line, &d);
	if (e == AE_ENOMEM) {
		msg_error("out of memory");
		return EXIT_SYSTEM;
	}
	if (e != AE_OK) {
		msg_error("%s: not an age identity (AGE-SECRET-KEY-1... or "
		    "AGE-SECRET-KEY-PQ-1...): %s", where, d.what);
		return EXIT_KEY;
	}
	return EXIT_OK;
}

/* An age-encrypted identity file (age-keygen | age -p > key.age) in
 * memory, read by the age handle. */
struct memsrc {
	const char *p;
	size_t len, pos;
};

static int
mem_read(void *ctx, void *buf, size_t n, size_t *got)
{
	struct memsrc *m = ctx;

	*got = m->len - m->pos < n ? m->len - m->pos : n;
	memcpy(buf, m->p + m->pos, *got);
	m->pos += *got;
	return 0;
}

/* Its plaintext, into the caller's secret buffer. */
struct membuf {
	char *p;
	size_t len, cap;
};

static int
mem_write(void *ctx, const void *buf, size_t n)
{
	struct membuf *m = ctx;

	if (n > m->cap - m->len)
		return AESCRYPT_EIO;    /* (too large: said by the caller) */
	memcpy(m->p + m->len, buf, n);
	m->len += n;
	return 0;
}

/* An encrypted identity file that cannot be read, worded. */
static int
encrypted_failed(const char *q, const aescrypt_age *a, int e,
    const struct ae_diag *d)
{
	const char *why = aescrypt_age_armor_error(a);

	if (why != NULL) {
		msg_error("%s: an encrypted identity file whose age armor is "
		    "not valid: %s", q, why);
		return EXIT_KEY;
	}
	if (e == AE_ENOMEM || e == AE_EIO || e == AE_EINTR)
		return msg_core_error(q, e, d);
	msg_error("%s: an encrypted identity file that cannot be read: %s%s",
	    q, d->where == AE_AT_HEADER ? "its age header " : "",
	    d->what != NULL ? d->what : "damaged");
	return e == AE_ELIMIT ? EXIT_LIMIT : EXIT_KEY;
}

/*
 * -i key.age: the identity file encrypted with a passphrase, as age -p
 * makes it.  The passphrase is asked for once (or taken from the
 * sources given, as for a protected OpenSSH key), then its lines are
 * the identities.  The plaintext stays in wiped memory.
 */
static int
read_encrypted(const struct key_sources *k, const char *q, const char *text,
    size_t len, aescrypt_keys *l, const char *path)
{
	struct memsrc ms = { text, len, 0 };
	struct aescrypt_source src = { mem_read, NULL, 0, &ms };
	struct membuf out = { NULL, 0, LIST_MAX };
	struct aescrypt_age_info info;
	struct passphrase pass;
	struct ae_diag d = { 0 };
	aescrypt_age *a = aescrypt_age_new();
	size_t before = aescrypt_keys_identities(l)
	    + aescrypt_keys_plugin_identities(l);
	int st = EXIT_OK, e;

	if (a == NULL || (out.p = ae_secret_alloc(LIST_MAX)) == NULL) {
		aescrypt_age_free(a);
		msg_error("out of memory");
		return EXIT_SYSTEM;
	}
	(void)aescrypt_age_set_threads(a, 1);
	if ((e = aescrypt_age_open(a, &src, &d)) != AE_OK) {
		st = encrypted_failed(q, a, e, &d);
		goto out;
	}
	(void)aescrypt_age_info(a, &info);
	if (!info.passphrase) {
		msg_error("%s: an age-encrypted identity file must be encrypted "
		    "with a passphrase (age -p), and this one is not", q);
		st = EXIT_KEY;
		goto out;
	}
	if ((st = secret_key_passphrase(k->pass_src, k->pass_arg, q, &pass))
	    != EXIT_OK)
		goto out;
	e = aescrypt_age_unlock(a, NULL, pass.buf, pass.len, k->max_work_factor,
	    &d);
	secret_wipe(&pass);
	if (e == AE_EKEY) {
		msg_error("%s: the passphrase does not open this encrypted "
		    "identity file", q);
		st = EXIT_KEY;
		goto out;
	}
	if (e == AE_OK)
		e = aescrypt_age_decrypt_to(a, mem_write, &out, &d);
	if (e == AE_EIO && d.where == AE_AT_OUTPUT) {
		msg_error("%s: too large for an identity file", q);
		st = EXIT_KEY;
		goto out;
	}
	if (e != AE_OK) {
		st = encrypted_failed(q, a, e, &d);
		goto out;
	}
	st = each_line(out.p, out.len, path, identity_line, l);
	if (st == EXIT_OK && aescrypt_keys_identities(l)
	    + aescrypt_keys_plugin_identities(l) == before) {
		msg_error("%s: no identity in it", q);
		st = EXIT_KEY;
	}
out:
	aescrypt_age_free(a);
	ae_secret_free(out.p, LIST_MAX);
	return st;
}

/* One -i file: a PEM OpenSSH key, an age identity file, or one
 * encrypted with age -p. */
static int
read_one(const struct key_sources *k, const char *path, char *text,
    aescrypt_keys *l)
{
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
	if (len > LIST_MAX) {
		msg_error("%s: too large for an identity file", q);
		return EXIT_KEY;
	}
	/* (encrypted, its mode matters less: age does not warn) */
	e = aescrypt_sniff(text, len < AESCRYPT_SNIFF_LEN ? len :
	    AESCRYPT_SNIFF_LEN);
	if (e == AESCRYPT_FORMAT_AGE || e == AESCRYPT_FORMAT_AGE_ARMOR)
		return read_encrypted(k, q, text, len, l, path);
	/* only now is it a secret's file, whose mode matters */
	secret_warn_mode(mode, path, "identity file");
	if (memmem(text, len, "-----BEGIN", 10) != NULL) {
		e = aescrypt_keys_add_ssh_identity(l, text, len, NULL, 0, &d);
		if (aescrypt_ssh_needs_passphrase(e, &d)) {
			/* ssh-keygen -N: ask, as ssh and age do */
			struct passphrase pass;

			memset(&d, 0, sizeof d);
			if ((st = secret_key_passphrase(k->pass_src, k->pass_arg,
			    q, &pass)) != EXIT_OK)
				return st;
			e = aescrypt_keys_add_ssh_identity(l, text, len,
			    pass.buf, pass.len, &d);
			secret_wipe(&pass);
		}
		if (e == AE_ELIMIT) {
			msg_error("%s: the OpenSSH key asks for %llu bcrypt "
			    "rounds, over the limit of %llu (ssh-keygen's "
			    "default is 16)", q, d.have, d.limit);
			return EXIT_LIMIT;
		}
		if (e == AE_ENOMEM) {
			msg_error("out of memory");
			return EXIT_SYSTEM;
		}
		if (e != AE_OK) {
			msg_error("%s: %s", q, d.what);
			return EXIT_KEY;
		}
		return EXIT_OK;
	}
	{
		size_t before = aescrypt_keys_identities(l)
		    + aescrypt_keys_plugin_identities(l);

		st = each_line(text, len, path, identity_line, l);
		if (st == EXIT_OK && aescrypt_keys_identities(l)
		    + aescrypt_keys_plugin_identities(l) == before) {
			msg_error("%s: no identity in it", q);
			st = EXIT_KEY;
		}
	}
	return st;
}

int
identity_read(const struct key_sources *k, aescrypt_keys *out)
{
	char *text;
	size_t i;
	int st = EXIT_OK;

	if (k->nidentity_files == 0)
		return EXIT_OK;
	if ((text = malloc(LIST_MAX + 1)) == NULL) {
		msg_error("out of memory");
		return EXIT_SYSTEM;
	}
	for (i = 0; i < k->nidentity_files && st == EXIT_OK; i++)
		st = read_one(k, k->identity_files[i], text, out);
	ae_wipe(text, LIST_MAX + 1);
	free(text);
	return st;
}

int
identity_generate(const char *path, int pq)
{
	char text[AESCRYPT_RECIPIENT_TEXT_MAX + 256];
	char rcpt[AESCRYPT_RECIPIENT_TEXT_MAX];
	char sec[AESCRYPT_IDENTITY_TEXT_MAX];
	char when[32];
	time_t now = time(NULL);
	struct tm tm;
	size_t len;
	int st, to_stdout = strcmp(path, "-") == 0;

	if (aescrypt_identity_new(pq, sec, sizeof sec, rcpt, sizeof rcpt)
	    != AESCRYPT_OK) {
		ae_wipe(sec, sizeof sec);
		msg_error("the system random number generator failed");
		return EXIT_SYSTEM;
	}
	if (gmtime_r(&now, &tm) == NULL
	    || strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(when, sizeof when, "unknown");
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
