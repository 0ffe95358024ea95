/*
 * keylist.c -- aescrypt_keys: recipients and identities parsed one at a
 * time by a caller that words its own errors (file and line, the
 * character that is wrong), then handed to a writer or a reader whole
 * (contracts in aescrypt.h below AESCRYPT_STATIC_LINKING_ONLY).
 *
 * The list is a keyring (keyring.h) of its own: the same parsing, the
 * same locked and wiped memory for identities, the same refusal of a
 * recipient of low order, so a key given this way is held exactly as
 * one given to a handle by text.
 */
#include "config.h"

#define AESCRYPT_STATIC_LINKING_ONLY
#include "aescrypt.h"

#include <string.h>

#include "common/wipe.h"
#include "container/format.h"
#include "container/header.h"
#include "container/recipient.h"
#include "container/recipient_slot.h"
#include "ageplugin.h"
#include "container/bech32.h"
#include "keyring.h"

_Static_assert(AESCRYPT_RECIPIENT_TEXT_MAX == AE_RECIPIENT_TEXT_MAX
    && AESCRYPT_IDENTITY_TEXT_MAX == AE_IDENTITY_TEXT_MAX, "text sizes");

struct aescrypt_keys {
	struct keyring ring;
	/* age plugin identities (AGE-PLUGIN-NAME-1...), as given: the
	 * plugin's business, maybe secret, so kept here too */
	char plugin[AESCRYPT_AGE_PLUGINS_MAX][AESCRYPT_AGE_PLUGIN_TEXT_MAX];
	char *plugin_at[AESCRYPT_AGE_PLUGINS_MAX];
	size_t nplugins;
};

aescrypt_keys *
aescrypt_keys_new(void)
{
	return ae_secret_alloc(sizeof(struct aescrypt_keys));
}

void
aescrypt_keys_free(aescrypt_keys *k)
{
	if (k == NULL)
		return;
	ae_lib_keyring_free(&k->ring);
	ae_secret_free(k, sizeof *k);
}

int
aescrypt_keys_add_recipient(aescrypt_keys *k, const char *s,
    struct ae_diag *d)
{
	struct ae_recipient r;
	int e;

	if (k == NULL || s == NULL || d == NULL)
		return AESCRYPT_EINVAL;
	memset(d, 0, sizeof *d);
	if ((e = ae_recipient_parse(s, &r, d)) != AE_OK)
		return e;
	if ((e = ae_lib_keyring_add_parsed(&k->ring, &r)) == AE_EINVAL)
		return ae_fail(d, AE_EINVAL, AE_AT_NONE, "a key of low order, "
		    "which anyone could decrypt to", 0, 0);
	return e;
}

int
aescrypt_keys_add_age_identity(aescrypt_keys *k, const char *line,
    struct ae_diag *d)
{
	struct ae_identity id;
	int e;

	if (k == NULL || line == NULL || d == NULL)
		return AESCRYPT_EINVAL;
	memset(d, 0, sizeof *d);
	e = ae_identity_parse_age(line, &id, d);
	if (e == AE_OK)
		e = ae_lib_keyring_add_identity(&k->ring, &id);
	ae_wipe(&id, sizeof id);
	return e;
}

int
aescrypt_keys_add_plugin_identity(aescrypt_keys *k, const char *line,
    struct ae_diag *d)
{
	char hrp[AESCRYPT_AGE_PLUGIN_TEXT_MAX], name[80];
	uint8_t *data;
	size_t n, len, bad, i;
	int e;

	if (k == NULL || line == NULL || d == NULL)
		return AESCRYPT_EINVAL;
	memset(d, 0, sizeof *d);
	n = strlen(line);
	if (n >= AESCRYPT_AGE_PLUGIN_TEXT_MAX)
		return ae_fail(d, AE_EFORMAT, AE_AT_NONE, "is longer than an age "
		    "plugin identity may be here (1,023 characters)", 0, 0);
	if (ae_lib_plugin_name(line, name, sizeof name) != 0)
		return ae_fail(d, AE_EFORMAT, AE_AT_NONE, "is not "
		    "AGE-PLUGIN-NAME-1... with a NAME of letters, digits and "
		    "- _ . +", 0, 0);
	if ((data = ae_secret_alloc(AESCRYPT_AGE_PLUGIN_TEXT_MAX)) == NULL)
		return AE_ENOMEM;
	e = ae_bech32_decode(line, n, hrp, sizeof hrp, data,
	    AESCRYPT_AGE_PLUGIN_TEXT_MAX, &len, &bad);
	ae_secret_free(data, AESCRYPT_AGE_PLUGIN_TEXT_MAX);
	if (e != 0)
		return ae_fail(d, AE_EFORMAT, AE_AT_NONE, e == -2 ? "has a "
		    "Bech32 checksum that does not match" : "is not valid "
		    "Bech32", 0, bad);
	for (i = 0; i < k->nplugins; i++)
		if (strcmp(k->plugin[i], line) == 0)
			return AE_OK;
	if (k->nplugins == AESCRYPT_AGE_PLUGINS_MAX)
		return ae_fail(d, AE_ELIMIT, AE_AT_NONE, "is one age plugin "
		    "identity too many (32 at most)", 0, 0);
	memcpy(k->plugin[k->nplugins], line, n + 1);
	k->plugin_at[k->nplugins] = k->plugin[k->nplugins];
	k->nplugins++;
	return AE_OK;
}

size_t
aescrypt_keys_plugin_identities(const aescrypt_keys *k)
{
	return k != NULL ? k->nplugins : 0;
}

size_t
ae_lib_keys_plugins(const struct aescrypt_keys *k, char *const **ids)
{
	if (k == NULL) {
		*ids = NULL;
		return 0;
	}
	*ids = k->plugin_at;
	return k->nplugins;
}

int
aescrypt_keys_add_ssh_identity(aescrypt_keys *k, const char *text,
    size_t len, const void *pass, size_t passlen, struct ae_diag *d)
{
	struct ae_identity id;
	int e;

	if (k == NULL || text == NULL || d == NULL)
		return AESCRYPT_EINVAL;
	memset(d, 0, sizeof *d);
	e = ae_identity_parse_ssh(text, len, pass, passlen, &id, d);
	if (e == AE_OK)
		e = ae_lib_keyring_add_identity(&k->ring, &id);
	ae_wipe(&id, sizeof id);
	return e;
}

int
aescrypt_ssh_needs_passphrase(int status, const struct ae_diag *d)
{
	return status == AE_EKEY && d != NULL && d->what != NULL
	    && strcmp(d->what, AE_SSH_NEEDS_PASSPHRASE) == 0;
}

int
aescrypt_is_ca_key_text(const char *s)
{
	return s != NULL && ae_recipient_is_ca(s);
}

size_t
aescrypt_keys_recipients(const aescrypt_keys *k)
{
	return k != NULL ? k->ring.nrcp : 0;
}

size_t
aescrypt_keys_identities(const aescrypt_keys *k)
{
	return k != NULL ? k->ring.nids : 0;
}

int
aescrypt_keys_plan(const aescrypt_keys *k, int keyfile, int pass,
    struct aescrypt_plan *p)
{
	size_t i;
	int e;

	if (p == NULL)
		return AESCRYPT_EINVAL;
	memset(p, 0, sizeof *p);
	p->fixed = AE_PREFIX_LEN + AE_CHECK_LEN + AE_MAC_LEN;
	p->pq_slot = AE_STANZA_HEAD_LEN + AE_PQ_BODY_LEN;
	if (k == NULL)
		return ae_header_plan(NULL, 0, keyfile, pass, &p->need, &p->max);
	for (i = 0; i < k->ring.nrcp; i++)
		p->npq += k->ring.rcp[i].type == AE_STANZA_MLKEM768X25519;
	e = ae_header_plan(k->ring.rcp, k->ring.nrcp, keyfile, pass,
	    &p->need, &p->max);
	return e;
}

size_t
aescrypt_keys_recipient_text(const aescrypt_keys *k, size_t i, char *buf,
    size_t cap)
{
	if (k == NULL || i >= k->ring.nrcp || buf == NULL || cap == 0)
		return 0;
	return ae_recipient_format(&k->ring.rcp[i], buf, cap);
}

const struct keyring *
ae_lib_keys_ring(const aescrypt_keys *k)
{
	return k != NULL ? &k->ring : NULL;
}

int
aescrypt_identity_new(int pq, char *secret, size_t scap, char *recipient,
    size_t rcap)
{
	struct ae_identity id;
	int ok;

	if (secret == NULL || recipient == NULL)
		return AESCRYPT_EINVAL;
	if (ae_identity_generate(&id, pq ? AE_STANZA_MLKEM768X25519
	    : AE_STANZA_X25519) != AE_OK)
		return AESCRYPT_EIO;
	ok = ae_recipient_format(&id.r, recipient, rcap) > 0
	    && ae_identity_format(&id, secret, scap) > 0;
	ae_wipe(&id, sizeof id);
	return ok ? AESCRYPT_OK : AESCRYPT_EINVAL;
}
