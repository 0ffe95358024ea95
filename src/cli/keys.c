/*
 * keys.c -- the key slots of a container, from the user's side: make a
 * header for a new file from the key sources given, or read one and open
 * it with them (contracts in keys.h).
 */
#include "config.h"
#include "keys.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "common/wipe.h"
#include "exitcode.h"
#include "identity.h"
#include "msg.h"
#include "foreign.h"
#include "names.h"
#include "secret.h"
#include "signals.h"

/* The largest signers file read (OpenSSH has no limit; a few thousand
 * keys fit). */
#define SIGNERS_MAX (1u << 20)

/* Which passphrase source -e or -d should use, if any. */
static enum pass_source
pass_source(const struct key_sources *k)
{
	if (k->pass_src != PASS_NONE)
		return k->pass_src;
	return secret_env_source();
}

/* The recipients the user's key sources give (-r, -R), read and
 * checked against what one header holds before anything is asked for
 * (use_pass: a passphrase slot beside them).  0, with *out (the caller
 * frees it), or an exit status (reported). */
static int
recipients_planned(const struct key_sources *k, int use_pass,
    aescrypt_keys **out)
{
	int has_rcpt = k->nrecipients > 0 || k->nrecipient_files > 0;
	aescrypt_keys *rcpt = aescrypt_keys_new();
	struct aescrypt_plan pl;
	size_t nrcpt;
	int st, err;

	*out = NULL;
	if (rcpt == NULL) {
		msg_error("out of memory");
		return EXIT_SYSTEM;
	}
	if ((st = identity_recipients(k, rcpt)) != EXIT_OK) {
		aescrypt_keys_free(rcpt);
		return st;
	}
	nrcpt = aescrypt_keys_recipients(rcpt);
	if (has_rcpt && nrcpt == 0) {
		aescrypt_keys_free(rcpt);
		msg_error("no recipient in the files given with -R");
		return EXIT_USAGE;
	}
	err = aescrypt_keys_plan(rcpt, k->keyfile != NULL, use_pass, &pl);
	if (err == AESCRYPT_ELIMIT) {
		msg_error("%zu recipients: a file has room for %zu key slots "
		    "in all", nrcpt, pl.max);
		aescrypt_keys_free(rcpt);
		return EXIT_USAGE;
	}
	if (err != AESCRYPT_OK) {
		/* RSA and PQ slots are large: a header (format 3.2) holds
		 * six 4096-bit keys' slots, twelve 2048-bit ones, three
		 * post-quantum ones */
		if (pl.npq > 0)
			msg_error("%zu recipients need %zu bytes of key slots "
			    "and header; a header holds %zu (a post-quantum "
			    "age1pq1 key's slot takes %zu bytes, so %zu fit "
			    "beside the header's own %zu)", nrcpt, pl.need,
			    pl.max, pl.pq_slot, (pl.max - pl.fixed) / pl.pq_slot,
			    pl.fixed);
		else
			msg_error("%zu recipients need %zu bytes of key slots "
			    "and header; a header holds %zu (an RSA key's slot "
			    "is its size in bytes plus 71: 583 for 4096 bits)",
			    nrcpt, pl.need, pl.max);
		msg_hint("split the recipients over two files, or use "
		    "ssh-ed25519 or age1 keys (about 100 bytes each)");
		aescrypt_keys_free(rcpt);
		return EXIT_USAGE;
	}
	*out = rcpt;
	return EXIT_OK;
}

int
keys_to_writer(const struct key_sources *k, aescrypt_writer *w,
    int *pass_slot)
{
	int has_rcpt = k->nrecipients > 0 || k->nrecipient_files > 0;
	int use_pass = (k->keyfile == NULL && !has_rcpt) || k->want_pass
	    || k->pass_src != PASS_NONE;
	aescrypt_keys *rcpt = NULL;
	struct passphrase pass;
	uint8_t key[32];
	int st, err;

	*pass_slot = use_pass;
	if ((st = recipients_planned(k, use_pass, &rcpt)) != EXIT_OK)
		return st;
	err = aescrypt_writer_add_keys(w, rcpt);
	aescrypt_keys_free(rcpt);
	if (err != AESCRYPT_OK) {
		msg_error("%s", aescrypt_writer_error(w));
		return EXIT_SYSTEM;
	}
	if (k->keyfile != NULL) {
		if ((st = secret_keyfile_read(k->keyfile, key)) != EXIT_OK)
			return st;
		err = aescrypt_writer_add_key(w, key);
		ae_wipe(key, sizeof key);
	}
	if (err == AESCRYPT_OK && use_pass) {
		if ((st = secret_passphrase(pass_source(k), k->pass_arg, 1,
		    &pass)) != EXIT_OK)
			return st;
		err = aescrypt_writer_add_passphrase(w, pass.buf, pass.len);
		secret_wipe(&pass);
	}
	if (err == AESCRYPT_OK)
		err = aescrypt_writer_set_kdf(w, k->kdf.t, k->kdf.m_kib,
		    k->kdf.p);
	if (err != AESCRYPT_OK) {
		msg_error("%s", aescrypt_writer_error(w));
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* The number of recipient slots of h. */
/* A file's ways in: how many slots of each class it has.  What the
 * decision and the words below need, and all an unlock callback
 * (aescrypt.h) is shown, so both can share them. */
struct slots {
	unsigned nk, np, nr;        /* key-file, passphrase, recipient */
};

/* Which of the user's key sources to use on a file with slots s. */
struct ways {
	int use_key, use_ids, use_pass;
};

/* Word a failure to open any key slot, given what was tried. */
static int
key_error(const char *name, const struct slots *s, int tried_key,
    int tried_pass, size_t nids)
{
	unsigned nk = s->nk, np = s->np, nr = s->nr;

	if (nids > 0 && !tried_key && !tried_pass) {
		msg_error("%s: no identity matched: %u recipient slot%s, %zu "
		    "identit%s tried", name, nr, nr == 1 ? "" : "s", nids,
		    nids == 1 ? "y" : "ies");
		if (np > 0 || nk > 0)
			msg_hint("this file also opens with %s",
			    np > 0 && nk > 0 ? "a passphrase or a key file" :
			    np > 0 ? "a passphrase (-P)" : "a key file (-k)");
		else
			msg_hint("give the identity file whose public key "
			    "the file was encrypted to (-i FILE)");
		return EXIT_KEY;
	}
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
	else if (nr > 0 && nids == 0)
		msg_hint("this file also opens with an identity; give it with "
		    "-i FILE");
	else
		msg_hint("check that -k names the key file this was "
		    "encrypted to");
	return EXIT_KEY;
}

/* None of the ways in that the user gave fits a slot of the file: say
 * which ways the file has.  Returns EXIT_KEY. */
static int
no_way_in(const char *name, int use_ids, unsigned nk, unsigned np,
    unsigned nr)
{
	if (nr > 0 && nk == 0 && np == 0) {
		msg_error("%s: this file opens only with an identity (%u "
		    "recipient slot%s)", name, nr, nr == 1 ? "" : "s");
		msg_hint("give its private key with -i FILE");
	} else if (use_ids && nr == 0) {
		msg_error("%s: this file has no recipient slot, so no identity "
		    "can open it", name);
		msg_hint(np > 0 ? "drop -i to be asked for the passphrase" :
		    "give its key file with -k FILE");
	} else if (np == 0) {
		msg_error("%s: this file opens only with a key file", name);
		msg_hint("give it with -k FILE");
	} else {
		msg_error("%s: this file has no key-file slot, only a "
		    "passphrase", name);
		msg_hint("drop -k to be asked for the passphrase");
	}
	return EXIT_KEY;
}

/*
 * The ways in to try on a file with slots s, from the key sources k
 * (src: the passphrase source in effect): a key file or identity given
 * is used; a passphrase is asked for if one was given, or if there is
 * neither and the file has a passphrase slot.  0, or EXIT_KEY when none
 * fits (said, with the ways the file has).
 */
static int
choose_ways(const struct key_sources *k, enum pass_source src,
    const char *name, const struct slots *s, struct ways *w)
{
	w->use_key = k->keyfile != NULL;
	w->use_ids = k->nidentity_files > 0;
	w->use_pass = src != PASS_NONE || k->want_pass
	    || (!w->use_key && !w->use_ids && s->np > 0);
	if (s->nk == 0 && s->np == 0 && s->nr == 0) {
		msg_error("%s: no key slot of a type this version knows",
		    name);
		msg_hint("the file may need a newer aescrypt");
		return EXIT_KEY;
	}
	if (!(w->use_key && s->nk > 0) && !(w->use_pass && s->np > 0)
	    && !(w->use_ids && s->nr > 0))
		return no_way_in(name, w->use_ids, s->nk, s->np, s->nr);
	return EXIT_OK;
}

/* The secrets of the ways chosen: what gather reads. */
struct secrets {
	struct passphrase pass;
	int have_pass;              /* pass holds a line (read early, or
	                             * asked for) */
	int use_pass;               /* ... and it goes to a slot */
	uint8_t key[32];
	int use_key;
	aescrypt_keys *ids;         /* -i's identities, or NULL */
};

static void
secrets_wipe(struct secrets *x)
{
	ae_wipe(x->key, sizeof x->key);
	aescrypt_keys_free(x->ids);
	x->ids = NULL;
	secret_wipe(&x->pass);
	x->have_pass = x->use_pass = x->use_key = 0;
}

/*
 * The secrets of the ways chosen, read into x: the key file's key,
 * the identities, the passphrase unless x has it already (read from a
 * descriptor first).  0, or an exit status with everything wiped and
 * freed (reported).
 */
static int
gather(const struct key_sources *k, enum pass_source src,
    const struct ways *w, const struct slots *s, struct secrets *x)
{
	int st = EXIT_OK;

	if (w->use_key) {
		if ((st = secret_keyfile_read(k->keyfile, x->key)) != EXIT_OK) {
			secrets_wipe(x);
			return st;
		}
		x->use_key = 1;
	}
	if (w->use_ids && (x->ids = aescrypt_keys_new()) == NULL) {
		secrets_wipe(x);
		msg_error("out of memory");
		return EXIT_SYSTEM;
	}
	if (w->use_ids && (st = identity_read(k, x->ids)) != EXIT_OK) {
		secrets_wipe(x);
		return st;
	}
	if (w->use_pass && s->np > 0) {
		if (!x->have_pass)
			st = secret_passphrase(src, k->pass_arg, 0, &x->pass);
		if (st != EXIT_OK) {
			secrets_wipe(x);
			return st;
		}
		x->have_pass = x->use_pass = 1;
	}
	return EXIT_OK;
}

/* ---- the reading modes on the library's reader ---- */

/* What the unlock callback needs, and what it leaves for the words
 * after a failed open. */
struct unlock_ctx {
	const struct key_sources *k;
	enum pass_source src;
	const char *name;
	struct secrets x;
	struct slots sl;
	struct ways ways;
	int chose;                  /* the callback chose ways in */
	int st;                     /* its exit status, when it stopped */
};

/* The reader's unlock callback (aescrypt.h): the file's ways in
 * counted from its slots, the user's chosen, their secrets read and
 * given to the reader (so a passphrase is asked for only when the file
 * has a passphrase slot). */
static int
unlock_cb(void *ctx, aescrypt_reader *r, const struct aescrypt_info *info)
{
	struct unlock_ctx *c = ctx;
	unsigned i;
	int err = AESCRYPT_OK;

	memset(&c->sl, 0, sizeof c->sl);
	for (i = 0; i < info->nslots; i++)
		switch (aescrypt_slot_class(info->slot[i].type)) {
		case AESCRYPT_SLOT_CLASS_KEYFILE: c->sl.nk++; break;
		case AESCRYPT_SLOT_CLASS_PASSPHRASE: c->sl.np++; break;
		case AESCRYPT_SLOT_CLASS_RECIPIENT: c->sl.nr++; break;
		default: break;
		}
	if ((c->st = choose_ways(c->k, c->src, c->name, &c->sl, &c->ways))
	    != EXIT_OK || (c->st = gather(c->k, c->src, &c->ways, &c->sl,
	    &c->x)) != EXIT_OK)
		return 1;   /* (reported; all wiped) */
	c->chose = 1;
	if (c->k->max_kdf_kib != 0)
		err = aescrypt_reader_set_max_kdf_memory(r, c->k->max_kdf_kib);
	if (err == AESCRYPT_OK && c->x.use_key)
		err = aescrypt_reader_add_key(r, c->x.key);
	if (err == AESCRYPT_OK && c->x.ids != NULL)
		err = aescrypt_reader_add_keys(r, c->x.ids);
	if (err == AESCRYPT_OK && c->x.use_pass)
		err = aescrypt_reader_add_passphrase(r, c->x.pass.buf,
		    c->x.pass.len);
	/* (the reader holds its own copies now) */
	if (err != AESCRYPT_OK) {
		msg_error("%s", aescrypt_reader_error(r));
		c->st = EXIT_SYSTEM;
		return 1;
	}
	return AESCRYPT_OK;
}

/* A failed open worded: what the events said already, the codec this
 * build lacks, the wrong keys, or the reader's own words. */
static int
open_failed(struct unlock_ctx *c, aescrypt_reader *r, int err,
    const struct reader_words *said)
{
	const struct ae_diag *d = aescrypt_reader_diag(r);
	struct aescrypt_codec_info ci;
	const char *codec;

	if (c->st != EXIT_OK)
		return c->st;           /* the callback's (reported) */
	if (said->st != EXIT_OK)
		return said->st;        /* an event's (reported) */
	if (err == AESCRYPT_ENOTSUP && aescrypt_reader_codec(r) >= 0
	    && aescrypt_codec_info(aescrypt_reader_codec(r), 0, &ci)
	    == AESCRYPT_OK && !ci.available) {
		codec = ci.name;
		msg_error("%s: its chunks are compressed with %s, and this "
		    "build of aescrypt has no %s (configured without "
		    "lib%s-dev, or --without-%s)", c->name, codec, codec, codec,
		    codec);
		msg_hint("build aescrypt with lib%s-dev installed to read it",
		    codec);
		return EXIT_DATA;
	}
	if (err == AESCRYPT_ESIGNER) {
		msg_error("%s: %s", c->name, aescrypt_reader_error(r));
		msg_hint("--signer FILE lists the keys allowed to sign "
		    "(OpenSSH's allowed_signers format)");
		return EXIT_SIGNER;
	}
	if (err == AESCRYPT_EKEY && c->chose)
		return key_error(c->name, &c->sl, c->ways.use_key
		    && c->sl.nk > 0, c->ways.use_pass && c->sl.np > 0,
		    c->ways.use_ids && c->sl.nr > 0 ?
		    aescrypt_keys_identities(c->x.ids) : 0);
	if (d != NULL)
		return msg_core_error(c->name, err, d);
	msg_error("%s", aescrypt_reader_error(r));
	return exit_for(err);
}

int
keys_signers(const char *path, int (*use)(void *ctx, const char *text,
    size_t len, struct ae_diag *d), void *ctx)
{
	struct ae_diag d = { 0 };
	char q[1024], *text;
	size_t len;
	int st, e;

	names_quote(path, q, sizeof q);
	if ((text = malloc(SIGNERS_MAX + 1)) == NULL) {
		msg_error("out of memory");
		return EXIT_SYSTEM;
	}
	st = secret_read_file(path, text, SIGNERS_MAX + 1, &len, NULL, NULL);
	if (st == EXIT_OK && len > SIGNERS_MAX) {
		msg_error("--signer %s: too large for a signers file", q);
		st = EXIT_USAGE;
	}
	if (st == EXIT_OK && (e = use(ctx, text, len, &d)) != AESCRYPT_OK) {
		if (e == AESCRYPT_ENOMEM) {
			msg_error("out of memory");
			st = EXIT_SYSTEM;
		} else {
			msg_error("--signer %s: line %llu: %s", q, d.index,
			    d.what != NULL ? d.what : "not a signers line");
			st = EXIT_USAGE;
		}
	}
	free(text);
	return st;
}

/* keys_signers' use: the list given to the reader. */
static int
to_reader(void *ctx, const char *text, size_t len, struct ae_diag *d)
{
	return aescrypt_reader_set_signers(ctx, text, len, d);
}

/* With -v, who the header says signs the file, once it is open: no
 * signature has been checked yet (each is as the records come, and a
 * failure ends the run), so this names the key, and says no more.
 * And the hint for a signed file cut short: --salvage does not read
 * one, but what its signatures before the cut cover has been given. */
static void
say_signer(const struct key_sources *k, const struct run_prefs *p,
    aescrypt_reader *r, const char *name)
{
	char fp[AESCRYPT_FINGERPRINT_MAX], who[256];
	int is_signed = aescrypt_reader_signer(r, fp, who, sizeof who) == 1;

	msg_on_cut_for(p->mode, p->salvage, is_signed);
	if (!is_signed || !p->verbose)
		return;
	if (k->signers != NULL)
		msg_note("%s: its header names %s (ED25519 key %s) as its "
		    "signer, which --signer allows; each signature is checked "
		    "as it is read", name, who[0] != 0 ? who : "a listed key",
		    fp);
	else
		msg_note("%s: its header names ED25519 key %s as its signer; "
		    "each signature is checked as it is read, the key against "
		    "no list (--signer FILE does that)", name, fp);
}

int
keys_open(const struct key_sources *k, const struct run_prefs *p,
    struct streams *io, aescrypt_reader *r, struct run_stats *rs)
{
	struct unlock_ctx *c = ae_secret_alloc(sizeof *c);
	struct reader_words said = { io->in.name, EXIT_OK };
	struct aescrypt_source src;
	struct aescrypt_info info;
	int err, st, kind;

	if (c == NULL) {
		msg_error("out of memory");
		return EXIT_SYSTEM;
	}
	c->k = k;
	c->src = pass_source(k);
	c->name = io->in.name;
	/* A descriptor may be the input itself (--passphrase-fd 0 with the
	 * container after the first line), so its line is taken first. */
	if (c->src == PASS_FD) {
		if ((st = secret_passphrase(c->src, k->pass_arg, 0, &c->x.pass))
		    != EXIT_OK)
			goto out;
		c->x.have_pass = 1;
	}
	if ((st = foreign_peek(io, &kind)) != EXIT_OK)
		goto out;
	if ((kind == AESCRYPT_FORMAT_AGE || kind == AESCRYPT_FORMAT_AGE_ARMOR)
	    && strchr("dtx", p->mode) != NULL) {
		if (k->signers != NULL) {
			msg_error("%s: the file is not signed (an age file "
			    "cannot be)", c->name);
			st = EXIT_SIGNER;
			goto out;
		}
		if (c->x.have_pass && (io->early_pass
		    = ae_secret_alloc(sizeof c->x.pass)) != NULL)
			*io->early_pass = c->x.pass;
		st = KEYS_AGE;
		goto out;
	}
	if (kind != AESCRYPT_FORMAT_AESCRYPT_LEGACY
	    && (st = foreign_refuse(c->name, kind)) != EXIT_OK)
		goto out;
	if (kind == AESCRYPT_FORMAT_AESCRYPT_LEGACY && k->signers != NULL) {
		/* (AES Crypt has no signatures: --signer cannot be met) */
		msg_error("%s: the file is not signed (an AES Crypt file "
		    "cannot be)", c->name);
		st = EXIT_SIGNER;
		goto out;
	}
	if (kind == AESCRYPT_FORMAT_AESCRYPT_LEGACY) {
		if (c->x.have_pass && (io->early_pass
		    = ae_secret_alloc(sizeof c->x.pass)) != NULL)
			*io->early_pass = c->x.pass;
		st = KEYS_LEGACY;
		goto out;
	}
	if ((st = run_reader_settings(p, r, io)) != EXIT_OK
	    || (k->signers != NULL && (st = keys_signers(k->signers,
	    to_reader, r)) != EXIT_OK))
		goto out;
	run_reader_source(io, &src);
	if (aescrypt_reader_set_events(r, run_reader_event,
	    &said) != AESCRYPT_OK || aescrypt_reader_set_unlock_callback(r,
	    unlock_cb, c) != AESCRYPT_OK) {
		msg_error("%s", aescrypt_reader_error(r));
		st = EXIT_SYSTEM;
		goto out;
	}
	err = aescrypt_reader_open(r, &src);
	/* (said ends here: the caller words the events of the run) */
	(void)aescrypt_reader_set_events(r, NULL, NULL);
	if (err != AESCRYPT_OK) {
		st = open_failed(c, r, err, &said);
		goto out;
	}
	if (aescrypt_reader_info(r, &info) == AESCRYPT_OK)
		rs->codec = info.codec;
	aescrypt_reader_kdf_cost(r, &rs->kdf_cpu_ns, &rs->kdf_wall_ns,
	    &rs->kdf_m_kib);
	if (atomic_load(&signals_stop)) {
		st = msg_interrupted();
		goto out;
	}
	say_signer(k, p, r, c->name);
	if (c->sl.nr > 0 && (c->sl.nk > 0 || c->sl.np > 0) && !c->ways.use_ids)
		/* (made by versions before 0.2, which allowed it) */
		msg_note("%s also has recipient slots: whoever holds one of "
		    "their keys could have written what it holds", c->name);
	st = EXIT_OK;
out:
	secrets_wipe(&c->x);
	ae_secret_free(c, sizeof *c);
	return st;
}
