/*
 * agekey.c -- an age file's key from its stanzas (contracts in
 * agekey.h).  Each type's rules are C2SP age.md's, and agessh's for
 * the ssh types (age's agessh/agessh.go is their only spec).
 */
#include "config.h"
#include "agekey.h"

#include <string.h>

#include "common/base64.h"
#include "common/wipe.h"
#include "crypto/chachapoly.h"
#include "crypto/hkdf.h"
#include "crypto/hpke.h"
#include "crypto/rsa.h"
#include "crypto/scrypt.h"
#include "crypto/sha256.h"
#include "crypto/x25519.h"
#include "sshsig.h"

#define LABEL_X25519 "age-encryption.org/v1/X25519"
#define LABEL_SSH_ED25519 "age-encryption.org/v1/ssh-ed25519"
#define LABEL_SSH_RSA "age-encryption.org/v1/ssh-rsa"
#define LABEL_SCRYPT "age-encryption.org/v1/scrypt"
#define LABEL_PQ "age-encryption.org/mlkem768x25519"
#define WRAPPED (AE_AGE_FILE_KEY_LEN + AE_CHACHAPOLY_TAG_LEN)   /* 32 */

/* What one stanza gave: the key, not for us, or a failure. */
enum { NOT_OURS = 1 };

static int
bad(struct ae_diag *d, size_t i, const char *what)
{
	return ae_fail(d, AE_EFORMAT, AE_AT_STANZA, what, i, 0);
}

/* arg as canonical unpadded base64 of exactly n bytes. */
static int
arg_bytes(const char *arg, uint8_t *out, size_t n)
{
	size_t len;

	return ae_base64_decode_strict(arg, strlen(arg), 0, out, n, &len) == 0
	    && len == n ? 0 : -1;
}

/* The file key from a body wrapped under wrap (nonce 0).  0 or
 * NOT_OURS. */
static int
unwrap_body(const uint8_t wrap[32], const struct ae_age_stanza *s,
    uint8_t file_key[AE_AGE_FILE_KEY_LEN])
{
	static const uint8_t zero[12];

	return ae_chacha20poly1305_open(wrap, zero, s->body, WRAPPED,
	    file_key) == AE_OK ? 0 : NOT_OURS;
}

static int
x25519_stanza(const struct ae_age_stanza *s, size_t i,
    const struct ae_identity *id, uint8_t file_key[AE_AGE_FILE_KEY_LEN],
    struct ae_diag *d)
{
	uint8_t share[32], z[32], salt[64], wrap[32];
	int r;

	if (s->nargs != 2 || arg_bytes(s->arg[1], share, 32) != 0)
		return bad(d, i, "is an X25519 stanza without exactly one "
		    "argument, a 32-byte share in canonical base64");
	if (ae_x25519(z, id->secret, share) != AE_OK)
		return bad(d, i, "is an X25519 stanza whose share is of low "
		    "order (the shared secret would be zero)");
	if (s->bodylen != WRAPPED) {
		ae_wipe(z, sizeof z);
		return bad(d, i, "is an X25519 stanza whose body is not a "
		    "wrapped 16-byte file key");
	}
	memcpy(salt, share, 32);
	memcpy(salt + 32, id->r.pub, 32);
	(void)ae_hkdf_sha256(salt, sizeof salt, z, sizeof z,
	    (const uint8_t *)LABEL_X25519, sizeof LABEL_X25519 - 1, wrap, 32);
	r = unwrap_body(wrap, s, file_key);
	ae_wipe(z, sizeof z);
	ae_wipe(wrap, sizeof wrap);
	return r;
}

/* Whether arg is the base64 of id's tag, SHA-256(blob)[:4]. */
static int
tag_is(const char *arg, const struct ae_identity *id)
{
	uint8_t tag[AE_SSH_TAG_LEN];

	return arg_bytes(arg, tag, sizeof tag) == 0
	    && memcmp(tag, id->r.tag, sizeof tag) == 0;
}

static int
ssh_ed25519_stanza(const struct ae_age_stanza *s, size_t i,
    const struct ae_identity *id, uint8_t file_key[AE_AGE_FILE_KEY_LEN],
    struct ae_diag *d)
{
	uint8_t share[32], z0[32], z[32], tweak[32], salt[64];
	uint8_t blob[AE_SSH_ED25519_BLOB_LEN];
	uint8_t wrap[32];
	int r;

	if (s->nargs != 3 || arg_bytes(s->arg[2], share, 32) != 0)
		return bad(d, i, "is an ssh-ed25519 stanza without exactly "
		    "two arguments, a tag and a 32-byte share");
	if (!tag_is(s->arg[1], id))
		return NOT_OURS;
	if (ae_x25519(z0, id->secret, share) != AE_OK)
		return bad(d, i, "is an ssh-ed25519 stanza whose share is of "
		    "low order (the shared secret would be zero)");
	if (s->bodylen != WRAPPED) {
		ae_wipe(z0, sizeof z0);
		return bad(d, i, "is an ssh-ed25519 stanza whose body is not "
		    "a wrapped 16-byte file key");
	}
	/* the secret tweaked by the key itself: HKDF(ikm empty, salt =
	 * the key's blob), so the stanza is bound to the SSH key */
	ae_ssh_ed25519_blob(id->r.ed, blob);
	(void)ae_hkdf_sha256(blob, sizeof blob, NULL, 0,
	    (const uint8_t *)LABEL_SSH_ED25519, sizeof LABEL_SSH_ED25519 - 1,
	    tweak, sizeof tweak);
	r = ae_x25519(z, tweak, z0);
	ae_wipe(z0, sizeof z0);
	memcpy(salt, share, 32);
	memcpy(salt + 32, id->r.pub, 32);
	if (r == AE_OK) {
		(void)ae_hkdf_sha256(salt, sizeof salt, z, sizeof z,
		    (const uint8_t *)LABEL_SSH_ED25519,
		    sizeof LABEL_SSH_ED25519 - 1, wrap, 32);
		r = unwrap_body(wrap, s, file_key);
	} else
		r = NOT_OURS;
	ae_wipe(z, sizeof z);
	ae_wipe(tweak, sizeof tweak);
	ae_wipe(wrap, sizeof wrap);
	return r;
}

static int
ssh_rsa_stanza(const struct ae_age_stanza *s, size_t i,
    const struct ae_identity *id, uint8_t file_key[AE_AGE_FILE_KEY_LEN],
    struct ae_diag *d)
{
	struct ae_rsa_private k;
	size_t len;
	int r;

	if (s->nargs != 2)
		return bad(d, i, "is an ssh-rsa stanza without exactly one "
		    "argument, a tag");
	if (!tag_is(s->arg[1], id))
		return NOT_OURS;
	if (ae_identity_rsa_key(id, &k) != 0)
		return NOT_OURS;
	r = ae_rsa_oaep_decrypt(&k, (const uint8_t *)LABEL_SSH_RSA,
	    sizeof LABEL_SSH_RSA - 1, s->body, s->bodylen, file_key,
	    AE_AGE_FILE_KEY_LEN, &len);
	ae_wipe(&k, sizeof k);
	if (r == AE_ENOMEM || r == AE_ENOTSUP)
		return ae_fail(d, r, AE_AT_STANZA, r == AE_ENOMEM ?
		    "out of memory" : "is an ssh-rsa stanza, and this build "
		    "has no RSA (libcrypto)", i, 0);
	if (r != AE_OK || len != AE_AGE_FILE_KEY_LEN)
		return NOT_OURS;
	return 0;
}

static int
pq_stanza(const struct ae_age_stanza *s, size_t i,
    const struct ae_identity *id, uint8_t file_key[AE_AGE_FILE_KEY_LEN],
    struct ae_diag *d)
{
	uint8_t enc[AE_XWING_CT_LEN];
	int r;

	if (s->nargs != 2 || arg_bytes(s->arg[1], enc, sizeof enc) != 0)
		return bad(d, i, "is an mlkem768x25519 stanza without exactly "
		    "one argument, a 1,120-byte enc in canonical base64");
	if (s->bodylen != WRAPPED)
		return bad(d, i, "is an mlkem768x25519 stanza whose body is "
		    "not a wrapped 16-byte file key");
	r = ae_hpke_xwing_open(&id->pq, enc, (const uint8_t *)LABEL_PQ,
	    sizeof LABEL_PQ - 1, s->body, s->bodylen, file_key);
	if (r == AE_EINVAL)
		return bad(d, i, "is an mlkem768x25519 stanza whose X25519 "
		    "share is of low order (the shared secret would be zero)");
	if (r == AE_EAUTH)
		return NOT_OURS;
	return r == AE_OK ? 0 : ae_fail(d, r, AE_AT_STANZA,
	    "could not be opened", i, 0);
}

/* log2 N as age writes it: ^[1-9][0-9]*$, then capped. */
static int
work_factor(const char *w, unsigned cap, size_t i, unsigned *log_n,
    struct ae_diag *d)
{
	unsigned long v = 0;
	const char *p;

	if (*w < '1' || *w > '9')
		return bad(d, i, "is an scrypt stanza whose work factor is not "
		    "a decimal number without leading zeros");
	for (p = w; *p != 0; p++) {
		if (*p < '0' || *p > '9')
			return bad(d, i, "is an scrypt stanza whose work factor "
			    "is not a decimal number without leading zeros");
		if (v > 1000000)
			return bad(d, i, "is an scrypt stanza with an absurd "
			    "work factor");
		v = v * 10 + (unsigned long)(*p - '0');
	}
	if (v > cap) {
		ae_fail(d, AE_ELIMIT, AE_AT_STANZA, "is an scrypt stanza whose "
		    "work factor (log2 N) is over the cap", i, 0);
		d->have = v;
		d->limit = cap;
		return AE_ELIMIT;
	}
	*log_n = (unsigned)v;
	return 0;
}

static int
scrypt_stanza(const struct ae_age_stanza *s, size_t i,
    const struct ae_age_keys *k, uint8_t file_key[AE_AGE_FILE_KEY_LEN],
    struct ae_diag *d)
{
	uint8_t salt[sizeof LABEL_SCRYPT - 1 + 16], wrap[32];
	unsigned log_n = 0, cap = k->max_log_n != 0 ? k->max_log_n :
	    AE_AGE_SCRYPT_LOG_N_DEFAULT;
	int r;

	if (s->nargs != 3 || arg_bytes(s->arg[1], salt + sizeof LABEL_SCRYPT
	    - 1, 16) != 0)
		return bad(d, i, "is an scrypt stanza without exactly two "
		    "arguments, a 16-byte salt in canonical base64 and the "
		    "work factor");
	if ((r = work_factor(s->arg[2], cap, i, &log_n, d)) != 0)
		return r;
	if (s->bodylen != WRAPPED)
		return bad(d, i, "is an scrypt stanza whose body is not a "
		    "wrapped 16-byte file key");
	memcpy(salt, LABEL_SCRYPT, sizeof LABEL_SCRYPT - 1);
	if ((r = ae_scrypt(k->pass, k->passlen, salt, sizeof salt, log_n, 8,
	    1, wrap, sizeof wrap)) != AE_OK)
		return ae_fail(d, r, AE_AT_STANZA, r == AE_ENOMEM ?
		    "needs more memory for scrypt than there is" :
		    "could not run scrypt", i, 0);
	r = unwrap_body(wrap, s, file_key);
	ae_wipe(wrap, sizeof wrap);
	return r;
}

int
ae_age_has_scrypt(const struct ae_age_header *h)
{
	size_t i;

	for (i = 0; i < h->n; i++)
		if (strcmp(h->st[i].arg[0], "scrypt") == 0)
			return 1;
	return 0;
}

/* One identity against every stanza of its type.  0 with the key,
 * NOT_OURS, or a failure. */
static int
try_identity(const struct ae_age_header *h, const struct ae_identity *id,
    uint8_t file_key[AE_AGE_FILE_KEY_LEN], struct ae_diag *d)
{
	const char *type;
	size_t i;
	int r;

	type = id->type == AE_STANZA_X25519 ? "X25519" :
	    id->type == AE_STANZA_SSH_ED25519 ? "ssh-ed25519" :
	    id->type == AE_STANZA_SSH_RSA ? "ssh-rsa" :
	    id->type == AE_STANZA_MLKEM768X25519 ? "mlkem768x25519" : NULL;
	if (type == NULL)
		return NOT_OURS;
	for (i = 0; i < h->n; i++) {
		const struct ae_age_stanza *s = &h->st[i];

		if (strcmp(s->arg[0], type) != 0)
			continue;
		switch (id->type) {
		case AE_STANZA_X25519:
			r = x25519_stanza(s, i, id, file_key, d);
			break;
		case AE_STANZA_SSH_ED25519:
			r = ssh_ed25519_stanza(s, i, id, file_key, d);
			break;
		case AE_STANZA_SSH_RSA:
			r = ssh_rsa_stanza(s, i, id, file_key, d);
			break;
		default:
			r = pq_stanza(s, i, id, file_key, d);
			break;
		}
		if (r != NOT_OURS)
			return r;
	}
	return NOT_OURS;
}

int
ae_age_unwrap(const struct ae_age_header *h, const struct ae_age_keys *k,
    uint8_t file_key[AE_AGE_FILE_KEY_LEN], struct ae_diag *d)
{
	size_t i;
	int r = NOT_OURS;

	if (ae_age_has_scrypt(h) && h->n != 1) {
		for (i = 0; strcmp(h->st[i].arg[0], "scrypt") != 0; i++)
			;
		return bad(d, i == 0 ? 1 : i, "makes the header hold more than "
		    "one stanza with an scrypt one (a passphrase-encrypted "
		    "file has that stanza alone)");
	}
	/* the identities first, as age tries its native ones first and
	 * scrypt is the dear one */
	for (i = 0; r == NOT_OURS && i < k->nids; i++)
		r = try_identity(h, &k->ids[i], file_key, d);
	if (r == NOT_OURS && k->pass != NULL && h->n == 1
	    && strcmp(h->st[0].arg[0], "scrypt") == 0)
		r = scrypt_stanza(&h->st[0], 0, k, file_key, d);
	if (r == NOT_OURS)
		return ae_fail(d, AE_EKEY, AE_AT_HEADER, "has no stanza that "
		    "the identities or passphrase given open", 0, 0);
	if (r != 0) {
		ae_wipe(file_key, AE_AGE_FILE_KEY_LEN);
		return r;
	}
	if (ae_age_header_check_mac(h, file_key) != AE_OK) {
		ae_wipe(file_key, AE_AGE_FILE_KEY_LEN);
		return ae_fail(d, AE_EAUTH, AE_AT_HEADER, "has a MAC that does "
		    "not match: the header was changed after it was written",
		    0, 0);
	}
	return AE_OK;
}
