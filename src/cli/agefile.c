/*
 * agefile.c -- -d and --info of age files, on the library's
 * aescrypt_age (contracts in agefile.h).
 */
#include "config.h"

#define AESCRYPT_STATIC_LINKING_ONLY
#include "aescrypt.h"
#include "agefile.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "common/clock.h"
#include "common/wipe.h"
#include "exitcode.h"
#include "identity.h"
#include "msg.h"
#include "names.h"
#include "secret.h"
#include "signals.h"
#include "stats.h"

/* A failure of a, worded: the armor's, a stanza's, the header's or
 * the payload's.  The exit status. */
int
agefile_failed(const char *name, const aescrypt_age *a, int err,
    const struct ae_diag *d)
{
	const char *why = aescrypt_age_armor_error(a);

	if (why != NULL && err == AE_EFORMAT) {
		msg_error("%s: not valid age armor: %s (line %llu)", name, why,
		    d->offset);
		return EXIT_DATA;
	}
	if (err == AE_ELIMIT && d->where == AE_AT_STANZA) {
		msg_error("%s: age stanza %llu asks for an scrypt work factor "
		    "of %llu (2^%llu), over the limit of %llu", name, d->index,
		    d->have, d->have, d->limit);
		msg_hint("if you trust this file, raise the limit with "
		    "--max-work-factor %llu", d->have);
		return EXIT_LIMIT;
	}
	if (d->where == AE_AT_STANZA && err != AE_ENOMEM) {
		msg_error("%s: age stanza %llu %s", name, d->index, d->what);
		return exit_for(err);
	}
	if (d->where == AE_AT_HEADER && d->what != NULL) {
		msg_error("%s: its age header %s", name, d->what);
		return exit_for(err);
	}
	return msg_core_error(name, err, d);
}

/* The plugins' user interface: the terminal. */
static void
ui_msg(void *ctx, const char *plugin, const char *text)
{
	(void)ctx;
	msg_note("age-plugin-%s: %s", plugin, text);
}

static int
ui_confirm(void *ctx, const char *plugin, const char *text, const char *yes,
    const char *no)
{
	struct passphrase *ans = ae_secret_alloc(sizeof *ans);
	char prompt[1400];
	int r = -1;

	(void)ctx;
	if (ans == NULL)
		return -1;
	snprintf(prompt, sizeof prompt, "age-plugin-%s: %s [%s%s%s]: ",
	    plugin, text, yes, no != NULL ? "/" : "", no != NULL ? no : "");
	if (secret_ask(prompt, 1, ans) == EXIT_OK) {
		/* the YES string or y; the NO string or n; without a NO
		 * string, any answer is YES (a call to act, then go on) */
		if (no == NULL || (ans->len == strlen(yes) && strncasecmp(
		    (char *)ans->buf, yes, ans->len) == 0) || (ans->len == 1
		    && (ans->buf[0] | 0x20) == 'y'))
			r = 1;
		else if ((ans->len == strlen(no) && strncasecmp(
		    (char *)ans->buf, no, ans->len) == 0) || (ans->len == 1
		    && (ans->buf[0] | 0x20) == 'n'))
			r = 0;
	}
	ae_secret_free(ans, sizeof *ans);
	return r;
}

static int
ui_request(void *ctx, const char *plugin, const char *text, int secret,
    char *out, size_t cap, size_t *len)
{
	struct passphrase *ans = ae_secret_alloc(sizeof *ans);
	char prompt[1200];
	int r = -1;

	(void)ctx;
	if (ans == NULL)
		return -1;
	snprintf(prompt, sizeof prompt, "age-plugin-%s: %s ", plugin, text);
	if (secret_ask(prompt, !secret, ans) == EXIT_OK && ans->len <= cap) {
		memcpy(out, ans->buf, ans->len);
		*len = ans->len;
		r = 0;
	}
	ae_secret_free(ans, sizeof *ans);
	return r;
}

/* a's key from k: identities, and a passphrase if the header asks. */
static int
unlock(const struct key_sources *k, struct streams *io, aescrypt_age *a)
{
	struct aescrypt_age_info info;
	struct passphrase *pass = NULL;
	aescrypt_keys *ids = NULL;
	struct ae_diag d = { 0 };
	int st = EXIT_OK, err;

	(void)aescrypt_age_info(a, &info);
	if (k->keyfile != NULL) {
		msg_error("%s: an age file: it opens with an identity (-i) or "
		    "a passphrase, not a key file (-k)", io->in.name);
		return EXIT_KEY;
	}
	if (info.passphrase) {
		if ((pass = ae_secret_alloc(sizeof *pass)) == NULL) {
			msg_error("out of memory");
			return EXIT_SYSTEM;
		}
		st = run_passphrase(io, k, pass);
	} else if (k->nidentity_files == 0) {
		msg_error("%s: this age file opens only with an identity (%zu "
		    "stanza%s)", io->in.name, info.stanzas, info.stanzas == 1
		    ? "" : "s");
		msg_hint("give its private key with -i FILE (an age identity "
		    "file or an OpenSSH key)");
		return EXIT_KEY;
	}
	if (st == EXIT_OK && k->nidentity_files > 0) {
		if ((ids = aescrypt_keys_new()) == NULL) {
			msg_error("out of memory");
			st = EXIT_SYSTEM;
		} else
			st = identity_read(k, ids);
	}
	if (st == EXIT_OK) {
		struct aescrypt_age_plugin_ui ui = { ui_msg, ui_confirm,
		    ui_request, NULL, k->plugin_timeout_ms };

		(void)aescrypt_age_set_plugin_ui(a, &ui);
		err = aescrypt_age_unlock(a, ids, pass != NULL ? pass->buf :
		    NULL, pass != NULL ? pass->len : 0, k->max_work_factor, &d);
		if (err == AE_EKEY && aescrypt_age_plugin_error(a)[0] != 0) {
			msg_error("%s: no identity given opens this age file: "
			    "%s", io->in.name, aescrypt_age_plugin_error(a));
			st = EXIT_KEY;
		} else if (err == AE_EKEY && info.passphrase) {
			msg_error("%s: the passphrase does not open this age "
			    "file", io->in.name);
			msg_hint("it was encrypted with a passphrase (age -p): "
			    "check the passphrase source (terminal, "
			    "--passphrase-file, --passphrase-fd, "
			    "AESCRYPT_PASSPHRASE)");
			st = EXIT_KEY;
		} else if (err == AE_EKEY) {
			msg_error("%s: no identity given opens this age file",
			    io->in.name);
			msg_hint("check that -i names the key it was encrypted "
			    "to");
			st = EXIT_KEY;
		} else if (err != AE_OK)
			st = agefile_failed(io->in.name, a, err, &d);
	}
	aescrypt_keys_free(ids);
	if (pass != NULL)
		ae_secret_free(pass, sizeof *pass);
	return st;
}

static int
open_age(struct streams *io, const struct run_prefs *p, aescrypt_age *a)
{
	struct aescrypt_source src;
	struct ae_diag d = { 0 };
	int err;

	if (p != NULL && aescrypt_age_set_threads(a, p->threads) != AE_OK) {
		msg_error("-j %u: out of range", p->threads);
		return EXIT_USAGE;
	}
	(void)aescrypt_age_set_signals(a, &signals_stop, &io->cancel);
	if (p != NULL)
		(void)aescrypt_age_set_timed(a, p->stats != 0);
	run_reader_source(io, &src);
	if ((err = aescrypt_age_open(a, &src, &d)) != AE_OK)
		return agefile_failed(io->in.name, a, err, &d);
	return EXIT_OK;
}

/* What --test of an age file writes to: nothing. */
static int
discard(void *ctx, const void *buf, size_t n)
{
	(void)ctx;
	(void)buf;
	(void)n;
	return 0;
}

int
agefile_open(const struct key_sources *k, const struct run_prefs *p,
    struct streams *io, aescrypt_age **out)
{
	aescrypt_age *a = aescrypt_age_new();
	int st;

	*out = NULL;
	if (a == NULL) {
		msg_error("out of memory");
		st = EXIT_SYSTEM;
	} else if ((st = open_age(io, p, a)) == EXIT_OK
	    && (st = unlock(k, io, a)) == EXIT_OK) {
		*out = a;
		a = NULL;
	}
	aescrypt_age_free(a);
	if (io->early_pass != NULL) {
		ae_secret_free(io->early_pass, sizeof *io->early_pass);
		io->early_pass = NULL;
	}
	return st;
}

int
agefile_test(const struct key_sources *k, const struct run_prefs *p,
    struct streams *io)
{
	const struct ae_pipe_stats *ps;
	struct ae_diag d = { 0 };
	aescrypt_age *a;
	int st, err;

	if ((st = agefile_open(k, p, io, &a)) != EXIT_OK)
		return st;
	err = aescrypt_age_decrypt_to(a, discard, NULL, &d);
	ps = aescrypt_age_pipe_stats(a);
	if (err != AE_OK)
		st = agefile_failed(io->in.name, a, err, &d);
	else if (p->verbose)
		msg_note("%s: an age file, whole: %llu bytes, every chunk "
		    "authenticated", io->in.name, (unsigned long long)
		    (ps != NULL ? ps->plain_bytes : 0));
	aescrypt_age_free(a);
	return st;
}

int
agefile_decrypt(const struct key_sources *k, const struct run_prefs *p,
    const char *output, struct streams *io)
{
	aescrypt_age *a = NULL;
	const struct ae_pipe_stats *ps;
	struct ae_diag d = { 0 };
	uint64_t bytes, w0 = ae_wall_ns();
	char q[1024];
	int st, err;

	if ((st = agefile_open(k, p, io, &a)) != EXIT_OK
	    || (st = run_out_open(&io->out, output)) != EXIT_OK)
		goto out;
	if ((st = run_out_distinct(&io->out, io->in.fd, NULL, NULL, NULL))
	    != EXIT_OK) {
		ae_outfile_abort(&io->out);
		goto out;
	}
	ae_fd_init(&io->wr, io->out.fd, &signals_stop, NULL);
	err = aescrypt_age_decrypt_to(a, run_writer_sink, io, &d);
	ps = aescrypt_age_pipe_stats(a);
	bytes = ps != NULL ? ps->plain_bytes : 0;
	if (err != AE_OK) {
		st = agefile_failed(io->in.name, a, err, &d);
		if (st == EXIT_PIPE)
			;
		else if (io->out.in_place && bytes > 0)
			msg_error("the output is incomplete: only the first %llu "
			    "bytes, each chunk authenticated, were written, and "
			    "they must not be used as a whole",
			    (unsigned long long)bytes);
		else if (!io->out.in_place)
			msg_hint("%s was not written", names_quote(io->out.name,
			    q, sizeof q));
		ae_outfile_abort(&io->out);
		goto out;
	}
	if ((st = run_out_commit(&io->out)) != EXIT_OK)
		goto out;
	if (p->verbose)
		msg_note("%s: decrypted an age file, %llu bytes, every chunk "
		    "authenticated", io->in.name, (unsigned long long)bytes);
	if (ps != NULL) {
		struct run_stats rs = { 0 };

		rs.decrypt = 1;
		rs.no_codec = 1;
		rs.pipe = *ps;
		run_finish_stats(p, &rs, w0, AGEFILE_TIER, io);
	}
out:
	aescrypt_age_free(a);
	return st;
}

int
agefile_info(const struct opts *o, struct streams *io)
{
	aescrypt_age *a = aescrypt_age_new();
	struct aescrypt_age_info info;
	struct ae_diag d = { 0 };
	uint64_t payload = 0;
	size_t i, nargs, body;
	const char *type;
	int st, err;

	(void)o;
	if (a == NULL) {
		msg_error("out of memory");
		return EXIT_SYSTEM;
	}
	if ((st = open_age(io, NULL, a)) != EXIT_OK)
		goto out;
	(void)aescrypt_age_info(a, &info);
	if ((err = aescrypt_age_count_payload(a, &payload, &d)) != AE_OK) {
		st = agefile_failed(io->in.name, a, err, &d);
		goto out;
	}
	printf("%s: age file (age-encryption.org/v1)%s\n", io->in.name,
	    info.armored ? ", ASCII-armored" : "");
	printf("  header: %llu bytes, %zu stanza%s\n",
	    (unsigned long long)info.header_len, info.stanzas,
	    info.stanzas == 1 ? "" : "s");
	for (i = 0; (type = aescrypt_age_stanza(a, i, &nargs, &body))
	    != NULL; i++)
		printf("    %zu: %s (%zu argument%s, %zu-byte body)\n", i, type,
		    nargs, nargs == 1 ? "" : "s", body);
	printf("  post-quantum: %s\n", info.postquantum ? "yes (every "
	    "stanza is mlkem768x25519)" : "no");
	if (payload >= AESCRYPT_AGE_NONCE_LEN) {
		uint64_t ct = payload - AESCRYPT_AGE_NONCE_LEN;
		uint64_t chunks = (ct + AESCRYPT_AGE_RECORD - 1) /
		    AESCRYPT_AGE_RECORD;

		printf("  payload: %llu bytes (16-byte nonce, %llu chunk%s); "
		    "plaintext %llu bytes if whole\n",
		    (unsigned long long)payload, (unsigned long long)chunks,
		    chunks == 1 ? "" : "s", (unsigned long long)(chunks > 0
		    && ct >= chunks * 16 ? ct - chunks * 16 : 0));
	} else
		printf("  payload: %llu bytes: too short for its nonce "
		    "(truncated)\n", (unsigned long long)payload);
out:
	aescrypt_age_free(a);
	return st;
}
