/*
 * keyring.c -- a handle's keys (contract in keyring.h).
 */
#include "config.h"
#include "keyring.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "container/keyfile.h"
#include "container/recipient_slot.h"
#include "common/wipe.h"

void
ae_lib_keyring_free(struct keyring *k)
{
	if (k->ids != NULL)
		ae_secret_free(k->ids, k->capids * sizeof *k->ids);
	free(k->rcp);
	ae_wipe(k, sizeof *k);
}

int
ae_lib_keyring_set_pass(struct keyring *k, const void *pass, size_t len)
{
	if (pass == NULL || len == 0 || len > sizeof k->pass)
		return AE_EINVAL;
	ae_wipe(k->pass, sizeof k->pass);
	memcpy(k->pass, pass, len);
	k->passlen = len;
	k->have_pass = 1;
	return AE_OK;
}

void
ae_lib_keyring_set_key(struct keyring *k, const uint8_t key[32])
{
	memcpy(k->key, key, sizeof k->key);
	k->have_key = 1;
}

int
ae_lib_keyring_read_keyfile(struct keyring *k, const char *path, struct ae_diag *d)
{
	char text[AE_KEYFILE_MAX + 1];
	size_t got = 0;
	ssize_t n;
	uint8_t key[32];
	int fd, e;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		e = ae_fail(d, AE_EIO, AE_AT_INPUT, "cannot open the key file",
		    0, 0);
		d->sys_errno = errno;
		return e;
	}
	while (got < sizeof text && ((n = read(fd, text + got,
	    sizeof text - got)) > 0 || (n < 0 && errno == EINTR)))
		if (n > 0)
			got += (size_t)n;
	close(fd);
	if (got > AE_KEYFILE_MAX)
		e = ae_fail(d, AE_EFORMAT, AE_AT_INPUT, "too large for a key "
		    "file", 0, 0);
	else if ((e = ae_keyfile_parse(text, got, key)) != AE_OK)
		ae_fail(d, e, AE_AT_INPUT, "not an aescrypt key file "
		    "(AESCRYPT-KEY-V1-...)", 0, 0);
	else
		ae_lib_keyring_set_key(k, key);
	ae_wipe(text, sizeof text);
	ae_wipe(key, sizeof key);
	return e;
}

int
ae_lib_keyring_add_recipient(struct keyring *k, const char *s, struct ae_diag *d)
{
	struct ae_recipient r;
	int e;

	if ((e = ae_recipient_parse(s, &r, d)) != AE_OK)
		return e;
	return ae_lib_keyring_add_parsed(k, &r);
}

int
ae_lib_keyring_add_parsed(struct keyring *k, const struct ae_recipient *r)
{
	struct ae_recipient *t;
	size_t i;

	/* refused now, not when the slot is made: it is the caller's key */
	if (ae_recipient_low_order(r))
		return AE_EINVAL;
	for (i = 0; i < k->nrcp; i++)
		if (ae_recipient_equal(&k->rcp[i], r))
			return AE_OK;
	if ((t = realloc(k->rcp, (k->nrcp + 1) * sizeof *t)) == NULL)
		return AE_ENOMEM;
	k->rcp = t;
	k->rcp[k->nrcp++] = *r;
	return AE_OK;
}

/* Append id (then wiped) to k's identities. */
static int
take_identity(struct keyring *k, struct ae_identity *id)
{
	if (k->nids == k->capids) {
		size_t cap = k->capids ? 2 * k->capids : 4;
		struct ae_identity *t = ae_secret_alloc(cap * sizeof *t);

		if (t == NULL) {
			ae_wipe(id, sizeof *id);
			return AE_ENOMEM;
		}
		if (k->nids > 0)
			memcpy(t, k->ids, k->nids * sizeof *t);
		if (k->ids != NULL)
			ae_secret_free(k->ids, k->capids * sizeof *k->ids);
		k->ids = t;
		k->capids = cap;
	}
	k->ids[k->nids++] = *id;
	ae_wipe(id, sizeof *id);
	return AE_OK;
}

int
ae_lib_keyring_add_identity(struct keyring *k, const struct ae_identity *id)
{
	struct ae_identity c = *id;

	return take_identity(k, &c);
}

/* The age lines of an identity file's text, each in a buffer of its
 * own (the text is the caller's, and const). */
static int
age_lines(struct keyring *k, const char *text, size_t len, struct ae_diag *d)
{
	char line[AE_IDENTITY_TEXT_MAX + 2];
	const char *p = text, *end = text + len, *nl;
	unsigned long long lineno = 0;
	size_t before = k->nids, n;
	struct ae_identity id;
	int e = AE_OK;

	while (p < end && e == AE_OK) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		lineno++;
		while (p < nl && (*p == ' ' || *p == '\t'))
			p++;
		n = (size_t)(nl - p);
		if (n > 0 && p[n - 1] == '\r')
			n--;
		if (n > 0 && *p != '#') {
			if (n >= sizeof line)
				e = ae_fail(d, AE_EFORMAT, AE_AT_INPUT, "line too "
				    "long for an age identity", lineno, 0);
			else {
				memcpy(line, p, n);
				line[n] = '\0';
				if ((e = ae_identity_parse_age(line, &id, d))
				    != AE_OK)
					d->index = lineno;
				else
					e = take_identity(k, &id);
			}
		}
		p = nl + (nl < end);
	}
	ae_wipe(line, sizeof line);
	if (e == AE_OK && k->nids == before)
		e = ae_fail(d, AE_EFORMAT, AE_AT_INPUT, "no identity in it", 0,
		    0);
	return e;
}

int
ae_lib_keyring_add_identities(struct keyring *k, const char *text, size_t len,
    const void *pass, size_t passlen, struct ae_diag *d)
{
	struct ae_identity id;
	int e;

	if (text == NULL || len == 0)
		return ae_fail(d, AE_EFORMAT, AE_AT_INPUT, "no identity in it",
		    0, 0);
	if (memmem(text, len, "-----BEGIN", 10) == NULL)
		return age_lines(k, text, len, d);
	if ((e = ae_identity_parse_ssh(text, len, pass, passlen, &id, d))
	    != AE_OK)
		return e;
	return take_identity(k, &id);
}

int
ae_lib_keyring_empty(const struct keyring *k)
{
	return !k->have_pass && !k->have_key && k->nrcp == 0;
}

int
ae_lib_keyring_new_header(const struct keyring *k, int payload_type, int codec,
    unsigned chunk_log2, const struct ae_kdf_params *kdf,
    struct ae_header *h, uint8_t file_key[AE_FILE_KEY_LEN], struct ae_diag *d)
{
	size_t need, max, i;
	int e;

	if ((e = ae_header_plan(k->rcp, k->nrcp, k->have_key, k->have_pass,
	    &need, &max)) != AE_OK)
		return ae_fail(d, e, AE_AT_HEADER, e == AE_ELIMIT ? "too many "
		    "key slots for one header" : "the key slots do not fit one "
		    "header", 0, 0);
	if ((e = ae_header_new(h, payload_type, codec, chunk_log2, file_key))
	    != AE_OK)
		return ae_fail(d, e, AE_AT_HEADER, "making the header", 0, 0);
	for (i = 0; i < k->nrcp && e == AE_OK; i++)
		e = ae_header_add_recipient(h, &k->rcp[i], file_key);
	if (e == AE_OK && k->have_key)
		e = ae_header_add_keyfile(h, k->key, file_key);
	if (e == AE_OK && k->have_pass)
		e = ae_header_add_passphrase(h, k->pass, k->passlen, kdf,
		    file_key);
	if (e == AE_OK)
		e = ae_header_encode(h, file_key);
	if (e != AE_OK) {
		ae_wipe(file_key, AE_FILE_KEY_LEN);
		return ae_fail(d, e, AE_AT_HEADER, "making a key slot", 0, 0);
	}
	return AE_OK;
}

int
ae_lib_keyring_unlock(const struct keyring *k, uint64_t max_kib,
    const struct ae_header *h, uint8_t file_key[AE_FILE_KEY_LEN],
    struct ae_diag *d)
{
	struct ae_unlock u;

	memset(&u, 0, sizeof u);
	if (k->have_pass) {
		u.pass = k->pass;
		u.passlen = k->passlen;
	}
	if (k->have_key)
		u.key = k->key;
	u.ids = k->ids;
	u.nids = k->nids;
	ae_kdf_default_limits(&u.limits);
	if (max_kib != 0)
		u.limits.max_m_kib = max_kib;
	return ae_header_unlock(h, &u, file_key, d);
}

int
ae_lib_keyring_add_all_recipients(struct keyring *k, const struct keyring *from)
{
	size_t i;
	int e = AE_OK;

	for (i = 0; from != NULL && i < from->nrcp && e == AE_OK; i++)
		e = ae_lib_keyring_add_parsed(k, &from->rcp[i]);
	/* (low order was refused when from took them) */
	return e == AE_OK ? AE_OK : AE_ENOMEM;
}

int
ae_lib_keyring_add_all_identities(struct keyring *k,
    const struct keyring *from)
{
	size_t i;
	int e = AE_OK;

	for (i = 0; from != NULL && i < from->nids && e == AE_OK; i++)
		e = ae_lib_keyring_add_identity(k, &from->ids[i]);
	return e;
}
