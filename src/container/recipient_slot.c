/*
 * recipient_slot.c -- each recipient type's slot secrets, as rows of one
 * table: a new slot sealed to a recipient, a slot opened by an
 * identity (contract in recipient_slot.h; format/aescrypt-v1.md 4.5 to
 * 4.8).
 */
#include "config.h"
#include "recipient_slot.h"

#include <string.h>

#include "crypto/hkdf.h"
#include "crypto/random.h"
#include "crypto/rsa.h"
#include "crypto/sha256.h"
#include "crypto/sha3.h"
#include "common/wipe.h"
#include "crypto/x25519.h"
#include "pqkey.h"

/* A PQ slot to r from the 64 bytes eseed. */
static int
pq_slot(struct ae_stanza *s, const struct ae_recipient *r,
    const uint8_t eseed[64], uint8_t S[32])
{
	s->type = AE_STANZA_MLKEM768X25519;
	memcpy(s->tag, r->tag, AE_SSH_TAG_LEN);
	s->ct_len = AE_PQ_CT_LEN;
	return ae_pq_slot_make(s->ct, r->pq, eseed, S);
}

/* S = HKDF(Z, share || R [|| ed], label) (4.5, 4.6). */
static void
slot_secret(uint8_t type, const uint8_t share[32], const uint8_t R[32],
    const uint8_t ed[32], const uint8_t Z[32], uint8_t S[32])
{
	uint8_t salt[96];
	size_t sl = 64;

	memcpy(salt, share, 32);
	memcpy(salt + 32, R, 32);
	if (type == AE_STANZA_SSH_ED25519) {
		memcpy(salt + 64, ed, 32);
		sl = 96;
	}
	if (type == AE_STANZA_SSH_ED25519)
		ae_hkdf_sha256(salt, sl, Z, 32, (const uint8_t *)AE_LABEL_SSH_ED25519,
		    sizeof AE_LABEL_SSH_ED25519 - 1, S, 32);
	else
		ae_hkdf_sha256(salt, sl, Z, 32, (const uint8_t *)AE_LABEL_X25519,
		    sizeof AE_LABEL_X25519 - 1, S, 32);
}

/* ssh-rsa (4.7): S = HKDF(Z, blob, label). */
static void
rsa_slot_secret(const struct ae_recipient *r, const uint8_t Z[32],
    uint8_t S[32])
{
	ae_hkdf_sha256(r->blob, r->bloblen, Z, 32,
	    (const uint8_t *)AE_LABEL_SSH_RSA, sizeof AE_LABEL_SSH_RSA - 1,
	    S, 32);
}

/* An ssh-rsa slot to r: Z OAEP-encrypted into s->ct, with the OAEP
 * seed given (samples) or libcrypto's own (seed NULL). */
static int
rsa_slot(struct ae_stanza *s, const struct ae_recipient *r,
    const uint8_t Z[32], const uint8_t *seed, uint8_t S[32])
{
	struct ae_rsa_public k;
	int err;

	if (ae_rsa_blob_numbers(r->blob, r->bloblen, &k) != 0
	    || k.nlen > sizeof s->ct)
		return AE_EINVAL;
	s->type = r->type;
	memcpy(s->tag, r->tag, AE_SSH_TAG_LEN);
	s->ct_len = k.nlen;
	err = seed != NULL ? ae_rsa_oaep_encrypt_with(&k,
	    (const uint8_t *)AE_LABEL_SSH_RSA, sizeof AE_LABEL_SSH_RSA - 1, Z,
	    32, seed, s->ct) : ae_rsa_oaep_encrypt(&k,
	    (const uint8_t *)AE_LABEL_SSH_RSA, sizeof AE_LABEL_SSH_RSA - 1, Z,
	    32, s->ct);
	if (err == AE_OK)
		rsa_slot_secret(r, Z, S);
	return err;
}

/* ---- each recipient type's slot secrets ----
 *
 * seal: the slot secret S of a new slot s to r, from e, 32 bytes of the
 * caller's randomness (the samples), or from fresh randomness (e NULL;
 * every real file).  open: S of slot s for identity id, whose type and
 * tag match s's.  share: the ephemeral X25519 key in s that a reader
 * checks for low order (4.5). */

/* X25519 and ssh-ed25519 (4.5, 4.6): an ephemeral key's share. */
static int
dh_seal(struct ae_stanza *s, const struct ae_recipient *r, const uint8_t *e,
    uint8_t S[32])
{
	uint8_t fresh[32], Z[32];
	int err;

	if (e == NULL) {
		if ((err = ae_random(fresh, sizeof fresh)) != AE_OK)
			return err;
		e = fresh;
	}
	s->type = r->type;
	memcpy(s->tag, r->tag, AE_SSH_TAG_LEN);
	if ((err = ae_x25519_base(s->share, e)) == AE_OK
	    && (err = ae_x25519(Z, e, r->pub)) == AE_OK)
		slot_secret(r->type, s->share, r->pub, r->ed, Z, S);
	ae_wipe(Z, sizeof Z);
	ae_wipe(fresh, sizeof fresh);
	return err;
}

static int
dh_open(const struct ae_stanza *s, const struct ae_identity *id,
    uint8_t S[32])
{
	uint8_t Z[32];
	int err = ae_x25519(Z, id->secret, s->share);

	if (err == AE_EINVAL)
		return AE_EFORMAT;      /* a low-order share: malformed */
	if (err == AE_OK)
		slot_secret(s->type, s->share, id->r.pub, id->r.ed, Z, S);
	ae_wipe(Z, sizeof Z);
	return err;
}

static const uint8_t *
dh_share(const struct ae_stanza *s)
{
	return s->share;
}

static const uint8_t *
dh_key(const struct ae_recipient *r)
{
	return r->pub;
}

/* ssh-rsa (4.7): a secret Z, OAEP-encrypted; from e, Z is e and
 * SHA-256(e) the OAEP seed. */
static int
rsa_seal(struct ae_stanza *s, const struct ae_recipient *r, const uint8_t *e,
    uint8_t S[32])
{
	uint8_t Z[32], seed[AE_SHA256_LEN];
	int err;

	if (e == NULL) {
		if ((err = ae_random(Z, sizeof Z)) == AE_OK)
			err = rsa_slot(s, r, Z, NULL, S);
		ae_wipe(Z, sizeof Z);
		return err;
	}
	ae_sha256(e, 32, seed);
	err = rsa_slot(s, r, e, seed, S);
	ae_wipe(seed, sizeof seed);
	return err;
}

/* The slot secret of ssh-rsa slot s for identity id (tags equal). */
static int
rsa_open(const struct ae_stanza *s, const struct ae_identity *id,
    uint8_t S[32])
{
	struct ae_rsa_private k;
	uint8_t Z[32];
	size_t zl;
	int err;

	if (ae_identity_rsa_key(id, &k) != 0)
		return AE_EKEY;
	if (s->ct_len != k.pub.nlen)
		return AE_EKEY;         /* the tag matched by chance */
	err = ae_rsa_oaep_decrypt(&k, (const uint8_t *)AE_LABEL_SSH_RSA,
	    sizeof AE_LABEL_SSH_RSA - 1, s->ct, s->ct_len, Z, sizeof Z, &zl);
	if (err == AE_OK && zl != sizeof Z)
		err = AE_EKEY;
	if (err == AE_OK)
		rsa_slot_secret(&id->r, Z, S);
	else if (err != AE_ENOMEM)
		err = AE_EKEY;
	ae_wipe(Z, sizeof Z);
	ae_wipe(&k, sizeof k);
	return err;
}

/* mlkem768x25519 (4.8): X-Wing takes 64 bytes of randomness, not a
 * scalar; from e, the samples' 64 bytes are SHAKE256(e). */
static int
pq_seal(struct ae_stanza *s, const struct ae_recipient *r, const uint8_t *e,
    uint8_t S[32])
{
	uint8_t eseed[64];
	int err = AE_OK;

	if (e == NULL)
		err = ae_random(eseed, sizeof eseed);
	else
		ae_shake256(eseed, sizeof eseed, e, 32, NULL, 0);
	if (err == AE_OK)
		err = pq_slot(s, r, eseed, S);
	ae_wipe(eseed, sizeof eseed);
	return err;
}

static int
pq_open(const struct ae_stanza *s, const struct ae_identity *id,
    uint8_t S[32])
{
	return ae_pq_slot_open(s->ct, &id->pq, id->r.pq, S);
}

/* the X25519 half of the X-Wing ciphertext, its last 32 bytes */
static const uint8_t *
pq_share(const struct ae_stanza *s)
{
	return s->ct + AE_PQ_CT_LEN - 32;
}

/* and of the X-Wing public key */
static const uint8_t *
pq_key(const struct ae_recipient *r)
{
	return r->pq + AE_XWING_PK_LEN - 32;
}

static const struct recipient_type {
	uint8_t type;
	int (*seal)(struct ae_stanza *s, const struct ae_recipient *r,
	    const uint8_t *e, uint8_t S[32]);
	int (*open)(const struct ae_stanza *s, const struct ae_identity *id,
	    uint8_t S[32]);
	const uint8_t *(*share)(const struct ae_stanza *s);
	/* the recipient's X25519 public key, which must not be of low
	 * order, or NULL */
	const uint8_t *(*key)(const struct ae_recipient *r);
} recipient_types[] = {
	{ AE_STANZA_X25519, dh_seal, dh_open, dh_share, dh_key },
	{ AE_STANZA_SSH_ED25519, dh_seal, dh_open, dh_share, dh_key },
	{ AE_STANZA_SSH_RSA, rsa_seal, rsa_open, NULL, NULL },
	{ AE_STANZA_MLKEM768X25519, pq_seal, pq_open, pq_share, pq_key },
};

static const struct recipient_type *
recipient_type(uint8_t type)
{
	size_t i;

	for (i = 0; i < sizeof recipient_types / sizeof recipient_types[0];
	    i++)
		if (recipient_types[i].type == type)
			return &recipient_types[i];
	return NULL;
}

int
ae_stanza_secret_recipient_with(struct ae_stanza *s,
    const struct ae_recipient *r, const uint8_t e[32], uint8_t S[32])
{
	const struct recipient_type *t = recipient_type(r->type);

	return t != NULL ? t->seal(s, r, e, S) : AE_EINVAL;
}

int
ae_stanza_secret_recipient(struct ae_stanza *s, const struct ae_recipient *r,
    uint8_t S[32])
{
	const struct recipient_type *t = recipient_type(r->type);

	return t != NULL ? t->seal(s, r, NULL, S) : AE_EINVAL;
}

int
ae_recipient_low_order(const struct ae_recipient *r)
{
	const struct recipient_type *t = recipient_type(r->type);

	return t != NULL && t->key != NULL && ae_x25519_low_order(t->key(r));
}

const uint8_t *
ae_stanza_share(const struct ae_stanza *s)
{
	const struct recipient_type *t = recipient_type(s->type);

	return t != NULL && t->share != NULL ? t->share(s) : NULL;
}

int
ae_stanza_secret_identity(const struct ae_stanza *s,
    const struct ae_identity *id, uint8_t S[32])
{
	const struct ae_slot_type *st = ae_slot_type_get(s->type);
	const struct recipient_type *t = recipient_type(s->type);

	if (st == NULL || t == NULL || s->type != id->type
	    || ((st->fields & AE_SF_TAG)
	    && memcmp(s->tag, id->r.tag, AE_SSH_TAG_LEN) != 0))
		return AE_EKEY;
	return t->open(s, id, S);
}
