/*
 * recipient.c -- public-key recipients and identities (contract in
 * recipient.h; the slot layouts and derivations are format/aescrypt-v1.md
 * 4.5 and 4.6).
 */
#include "config.h"
#include "recipient.h"

#include <string.h>
#include <strings.h>

#include "common/base64.h"
#include "bech32.h"
#include "common/bytes.h"
#include "crypto/hkdf.h"
#include "crypto/random.h"
#include "crypto/rsa.h"
#include "crypto/sha256.h"
#include "crypto/sha3.h"
#include "common/wipe.h"
#include "crypto/x25519.h"
#include "pqkey.h"
#include "sshkey.h"
#include "sshwire.h"

#define HRP_RECIPIENT "age"
#define HRP_IDENTITY "age-secret-key-"
#define SSH_ED25519 "ssh-ed25519"
#define SSH_RSA "ssh-rsa"

static int
bad(struct ae_diag *d, int err, const char *what, size_t at)
{
	return ae_fail(d, err, AE_AT_NONE, what, 0, at);
}

/*
 * An SSH mpint at *p that must be positive: its magnitude (without the
 * sign byte a set top bit needs) in *v, *vl.  -1 if it is cut short,
 * negative, or has a zero byte it does not need (OpenSSH writes the
 * shortest form, and so one key has one blob and one tag).
 */
static int
ssh_mpint(const uint8_t **p, const uint8_t *end, const uint8_t **v,
    size_t *vl)
{
	if (ae_ssh_string(p, end, v, vl) != 0 || *vl == 0 || ((*v)[0] & 0x80))
		return -1;
	if ((*v)[0] == 0) {
		if (*vl == 1 || !((*v)[1] & 0x80))
			return -1;
		(*v)++;
		(*vl)--;
	}
	return 0;
}

/* The public numbers of an ssh-rsa blob (string, e, n), checked.  0 or
 * -1. */
int
ae_rsa_blob_numbers(const uint8_t *blob, size_t n, struct ae_rsa_public *k)
{
	const uint8_t *p = blob, *end = blob + n, *t;
	size_t tl;

	if (ae_ssh_string(&p, end, &t, &tl) != 0 || !ae_ssh_string_is(t, tl, SSH_RSA)
	    || ssh_mpint(&p, end, &k->e, &k->elen) != 0
	    || ssh_mpint(&p, end, &k->n, &k->nlen) != 0 || p != end)
		return -1;
	return 0;
}

/* The bits of the big-endian number v[0..n), v[0] != 0. */
static unsigned
bits_of(const uint8_t *v, size_t n)
{
	unsigned b = (unsigned)n * 8;
	uint8_t top = v[0];

	while (!(top & 0x80)) {
		top = (uint8_t)(top << 1);
		b--;
	}
	return b;
}

size_t
ae_recipient_slot_len(const struct ae_recipient *r)
{
	struct ae_stanza s;
	struct ae_rsa_public k;

	s.type = r->type;
	s.ct_len = 0;
	if (r->type == AE_STANZA_SSH_RSA && ae_rsa_blob_numbers(r->blob, r->bloblen,
	    &k) == 0)
		s.ct_len = k.nlen;
	return ae_stanza_len(&s);
}

unsigned
ae_recipient_rsa_bits(const struct ae_recipient *r)
{
	struct ae_rsa_public k;

	if (r->type != AE_STANZA_SSH_RSA || ae_rsa_blob_numbers(r->blob, r->bloblen,
	    &k) != 0)
		return 0;
	return bits_of(k.n, k.nlen);
}

/* Fill r from an ssh-rsa public key blob. */
static int
rsa_from_blob(const uint8_t *blob, size_t n, struct ae_recipient *r,
    struct ae_diag *d, size_t at)
{
	struct ae_rsa_public k;
	uint8_t h[AE_SHA256_LEN];
	unsigned bits;

	if (n > sizeof r->blob || ae_rsa_blob_numbers(blob, n, &k) != 0
	    || k.elen > AE_RSA_MAX_E_BYTES || !(k.e[k.elen - 1] & 1)
	    || (k.elen == 1 && k.e[0] < 3)) {
		/* (a blob over the cap is a modulus over 8192 bits or an
		 * exponent no one uses) */
		if (n > sizeof r->blob && ae_rsa_blob_numbers(blob, n, &k) == 0)
			return bad(d, AE_ENOTSUP, "an RSA key of more than "
			    "8192 bits, or with a public exponent over 64 "
			    "bits (aescrypt takes 2048 to 8192 bits)", at);
		return bad(d, AE_EFORMAT, "the key data is not an ssh-rsa "
		    "public key", at);
	}
	bits = bits_of(k.n, k.nlen);
	if (bits < 8 * AE_RSA_CT_MIN || k.nlen > AE_RSA_CT_MAX)
		return bad(d, AE_ENOTSUP, bits < 8 * AE_RSA_CT_MIN ?
		    "an RSA key of fewer than 2048 bits (too weak; aescrypt "
		    "takes 2048 to 8192)" : "an RSA key of more than 8192 "
		    "bits (aescrypt takes 2048 to 8192)", at);
	if (!ae_rsa_available())
		return bad(d, AE_ENOTSUP, "an RSA SSH key, and this aescrypt "
		    "was built without libcrypto (./configure found no "
		    "libssl-dev), so it has no RSA", at);
	memset(r, 0, sizeof *r);
	r->type = AE_STANZA_SSH_RSA;
	memcpy(r->blob, blob, n);
	r->bloblen = n;
	ae_sha256(blob, n, h);
	memcpy(r->tag, h, AE_SSH_TAG_LEN);
	return AE_OK;
}

/* Fill r from an ssh-ed25519 or ssh-rsa public key blob. */
static int
recipient_from_blob(const uint8_t *blob, size_t n, struct ae_recipient *r,
    struct ae_diag *d, size_t at)
{
	const uint8_t *p = blob, *end = blob + n, *t, *k;
	size_t tl, kl;
	uint8_t h[AE_SHA256_LEN];

	if (ae_ssh_string(&p, end, &t, &tl) == 0 && ae_ssh_string_is(t, tl, SSH_RSA))
		return rsa_from_blob(blob, n, r, d, at);
	p = blob;
	if (ae_ssh_string(&p, end, &t, &tl) != 0 || !ae_ssh_string_is(t, tl,
	    SSH_ED25519) || ae_ssh_string(&p, end, &k, &kl) != 0 || kl != 32
	    || p != end)
		return bad(d, AE_EFORMAT, "the key data is not an ssh-ed25519 "
		    "public key", at);
	memset(r, 0, sizeof *r);
	r->type = AE_STANZA_SSH_ED25519;
	memcpy(r->ed, k, 32);
	if (ae_ed25519_pk_to_x25519(r->pub, r->ed) != AE_OK)
		return bad(d, AE_EFORMAT, "not a valid Ed25519 public key", at);
	ae_sha256(blob, n, h);
	memcpy(r->tag, h, AE_SSH_TAG_LEN);
	return AE_OK;
}

/* Whether the token p[0, n) before a key type makes the line a
 * certificate authority's (or a revoked key's): a known_hosts marker,
 * or "cert-authority" among the comma-separated authorized_keys
 * options. */
static int
ca_token(const char *p, size_t n)
{
	size_t i = 0, k;

	if ((n >= 15 && strncmp(p, "@cert-authority", 15) == 0)
	    || (n >= 8 && strncmp(p, "@revoked", 8) == 0))
		return 1;
	while (i < n) {
		k = i;
		while (k < n && p[k] != ',')
			k++;
		if (k - i == 14 && strncmp(p + i, "cert-authority", 14) == 0)
			return 1;
		i = k + 1;
	}
	return 0;
}

/* An OpenSSH public key line: [options] type base64 [comment]. */
static int
parse_ssh_line(const char *s, struct ae_recipient *r, struct ae_diag *d)
{
	uint8_t blob[AE_SSH_RSA_BLOB_MAX + 64];
	const char *p = s, *tok = NULL, *b64;
	size_t tl = 0, bl, len, at;

	/* The key type is the first token that looks like one. */
	while (*p != '\0') {
		while (*p == ' ' || *p == '\t')
			p++;
		tl = strcspn(p, " \t");
		if (tl == 0)
			break;
		if (strncmp(p, "ssh-", 4) == 0 || strncmp(p, "ecdsa-", 6) == 0
		    || strncmp(p, "sk-", 3) == 0) {
			tok = p;
			break;
		}
		if (ca_token(p, tl))
			return bad(d, AE_ENOTSUP, "a certificate authority's key "
			    "(it signs keys; it is no one's recipient)",
			    (size_t)(p - s));
		p += tl;
	}
	if (tok == NULL)
		return bad(d, AE_EFORMAT, "not an age1... recipient or an "
		    "ssh-ed25519 or ssh-rsa public key", 0);
	if (!(tl == strlen(SSH_ED25519) && memcmp(tok, SSH_ED25519, tl) == 0)
	    && !(tl == strlen(SSH_RSA) && memcmp(tok, SSH_RSA, tl) == 0))
		return bad(d, AE_ENOTSUP, "only ssh-ed25519 and ssh-rsa SSH "
		    "keys are supported", (size_t)(tok - s));
	b64 = tok + tl;
	while (*b64 == ' ' || *b64 == '\t')
		b64++;
	bl = strcspn(b64, " \t");
	if (bl == 0)
		return bad(d, AE_EFORMAT, "the key data is missing",
		    (size_t)(b64 - s));
	switch (ae_base64_decode(b64, bl, blob, sizeof blob, &len, &at)) {
	case 0:
		break;
	case -2:
		return bad(d, AE_ENOTSUP, "the key data is longer than any "
		    "key aescrypt takes (RSA keys: 2048 to 8192 bits)",
		    (size_t)(b64 - s));
	default:
		return bad(d, AE_EFORMAT, "the key data is not base64",
		    (size_t)(b64 - s) + (at < bl ? at : bl));
	}
	/* the blob names its type again: it must be the line's */
	if (len < 4 + tl || load_be32(blob) != tl || memcmp(blob + 4, tok,
	    tl) != 0)
		return bad(d, AE_EFORMAT, tl == strlen(SSH_RSA) ?
		    "the key data is not an ssh-rsa public key" :
		    "the key data is not an ssh-ed25519 public key",
		    (size_t)(b64 - s));
	return recipient_from_blob(blob, len, r, d, (size_t)(b64 - s));
}

int
ae_recipient_is_ca(const char *s)
{
	const char *p = s;
	size_t tl;

	while (*p != '\0') {
		while (*p == ' ' || *p == '\t')
			p++;
		if ((tl = strcspn(p, " \t")) == 0)
			break;
		if (strncmp(p, "ssh-", 4) == 0 || strncmp(p, "ecdsa-", 6) == 0
		    || strncmp(p, "sk-", 3) == 0)
			return 0;
		if (ca_token(p, tl))
			return 1;
		p += tl;
	}
	return 0;
}

/* "age1pq1..." (4.8) into r. */
static int
pq_recipient(const char *s, struct ae_recipient *r, struct ae_diag *d)
{
	int e = ae_pq_public_parse(s, r->pq, d);

	if (e != AE_OK)
		return e;
	r->type = AE_STANZA_MLKEM768X25519;
	ae_pq_tag(r->pq, r->tag);
	return AE_OK;
}

/* The PQ identity of seed: the seed expanded once, and its public half. */
static int
pq_identity_of(struct ae_identity *id, const uint8_t seed[32])
{
	int e;

	memset(id, 0, sizeof *id);
	memcpy(id->secret, seed, 32);
	id->type = id->r.type = AE_STANZA_MLKEM768X25519;
	if ((e = ae_xwing_expand(&id->pq, id->r.pq, seed)) != AE_OK) {
		ae_wipe(id, sizeof *id);
		return e;
	}
	ae_pq_tag(id->r.pq, id->r.tag);
	return AE_OK;
}

/* "AGE-SECRET-KEY-PQ-1..." into id. */
static int
pq_identity(const char *s, struct ae_identity *id, struct ae_diag *d)
{
	uint8_t seed[32];
	int e;

	if ((e = ae_pq_seed_parse(s, seed, d)) != AE_OK)
		return e;
	e = pq_identity_of(id, seed);
	ae_wipe(seed, sizeof seed);
	if (e != AE_OK)
		return bad(d, AE_EFORMAT, "not a usable key", 0);
	return AE_OK;
}

int
ae_recipient_is_secret(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	if (strncasecmp(s, "AGE-SECRET-KEY-", 15) == 0)
		return 1;
	return strncmp(s, "-----BEGIN ", 11) == 0
	    && strstr(s, "PRIVATE KEY-----") != NULL;
}

/* Whether s is an age plugin's recipient: Bech32 whose prefix is
 * "age1" and a plugin's name (age's plugin spec), checksum good. */
static int
plugin_recipient(const char *s)
{
	char hrp[64];
	uint8_t data[2048 + 8];
	size_t len, at, i;
	int plugin;

	if (ae_bech32_decode(s, strlen(s), hrp, sizeof hrp, data, sizeof data,
	    &len, &at) != 0 || strncmp(hrp, "age1", 4) != 0 || hrp[4] == '\0')
		return 0;
	plugin = 1;
	for (i = 4; hrp[i] != '\0'; i++)
		if (!((hrp[i] >= 'a' && hrp[i] <= 'z')
		    || (hrp[i] >= '0' && hrp[i] <= '9') || hrp[i] == '-'
		    || hrp[i] == '.' || hrp[i] == '_' || hrp[i] == '+'))
			plugin = 0;
	return plugin;
}

int
ae_recipient_parse(const char *s, struct ae_recipient *r, struct ae_diag *d)
{
	memset(r, 0, sizeof *r);
	if (ae_recipient_is_secret(s))
		return bad(d, AE_EINVAL, "a secret key, not a recipient", 0);
	if (strncasecmp(s, AE_PQ_RECIPIENT_PREFIX,
	    sizeof AE_PQ_RECIPIENT_PREFIX - 1) == 0)
		return pq_recipient(s, r, d);
	if (strncasecmp(s, "age1", 4) == 0) {
		int e;

		if (plugin_recipient(s))
			return bad(d, AE_ENOTSUP, "an age plugin recipient "
			    "(age1NAME1...): aescrypt files take none, as "
			    "their keys are the plugin's to use", 0);
		e = ae_bech32_key(s, HRP_RECIPIENT, r->pub, 32, d);

		if (e != AE_OK)
			return e;
		r->type = AE_STANZA_X25519;
		return AE_OK;
	}
	return parse_ssh_line(s, r, d);
}

size_t
ae_recipient_format(const struct ae_recipient *r, char *out, size_t cap)
{
	if (r->type == AE_STANZA_MLKEM768X25519)
		return ae_pq_public_format(r->pq, out, cap);
	if (r->type != AE_STANZA_X25519)
		return 0;
	return ae_bech32_encode(out, cap, HRP_RECIPIENT, r->pub, 32);
}

int
ae_recipient_equal(const struct ae_recipient *a, const struct ae_recipient *b)
{
	return a->type == b->type && memcmp(a->pub, b->pub, 32) == 0
	    && memcmp(a->ed, b->ed, 32) == 0
	    && memcmp(a->pq, b->pq, sizeof a->pq) == 0
	    && a->bloblen == b->bloblen
	    && memcmp(a->blob, b->blob, a->bloblen) == 0;
}

int
ae_identity_parse_age(const char *s, struct ae_identity *id,
    struct ae_diag *d)
{
	int e;

	memset(id, 0, sizeof *id);
	if (strncasecmp(s, AE_PQ_IDENTITY_PREFIX,
	    sizeof AE_PQ_IDENTITY_PREFIX - 1) == 0)
		return pq_identity(s, id, d);
	if ((e = ae_bech32_key(s, HRP_IDENTITY, id->secret, 32, d)) != AE_OK)
		return e;
	id->type = AE_STANZA_X25519;
	id->r.type = AE_STANZA_X25519;
	if ((e = ae_x25519_base(id->r.pub, id->secret)) != AE_OK) {
		ae_wipe(id, sizeof *id);
		return bad(d, AE_EFORMAT, "not a usable X25519 key", 0);
	}
	return AE_OK;
}

/*
 * The private numbers of an ssh-rsa key from its private section at p
 * (after the check words): string "ssh-rsa", mpints n, e, d, iqmp, p,
 * q.  n and e must be the public half's (id->r).  Kept as they stand in
 * id->rsa.  0 or AE_EFORMAT.
 */
static int
rsa_private(const uint8_t *p, const uint8_t *end, struct ae_identity *id)
{
	struct ae_rsa_public pub;
	const uint8_t *t, *v[6], *start;
	size_t tl, vl[6], i;

	if (ae_rsa_blob_numbers(id->r.blob, id->r.bloblen, &pub) != 0
	    || ae_ssh_string(&p, end, &t, &tl) != 0 || !ae_ssh_string_is(t, tl,
	    SSH_RSA))
		return AE_EFORMAT;
	start = p;
	for (i = 0; i < 6; i++)
		if (ssh_mpint(&p, end, &v[i], &vl[i]) != 0)
			return AE_EFORMAT;
	if (vl[0] != pub.nlen || memcmp(v[0], pub.n, pub.nlen) != 0
	    || vl[1] != pub.elen || memcmp(v[1], pub.e, pub.elen) != 0
	    || (size_t)(p - start) > sizeof id->rsa
	    || vl[2] > pub.nlen || vl[3] > pub.nlen || vl[4] > pub.nlen
	    || vl[5] > pub.nlen)
		return AE_EFORMAT;
	memcpy(id->rsa, start, (size_t)(p - start));
	id->rsalen = (size_t)(p - start);
	id->type = AE_STANZA_SSH_RSA;
	return AE_OK;
}

/* id's private key for crypto/rsa.h, pointing into id->rsa.  0 or -1. */
int
ae_identity_rsa_key(const struct ae_identity *id, struct ae_rsa_private *k)
{
	const uint8_t *p = id->rsa, *end = id->rsa + id->rsalen;

	if (ssh_mpint(&p, end, &k->pub.n, &k->pub.nlen) != 0
	    || ssh_mpint(&p, end, &k->pub.e, &k->pub.elen) != 0
	    || ssh_mpint(&p, end, &k->d, &k->dlen) != 0
	    || ssh_mpint(&p, end, &k->iqmp, &k->iqmplen) != 0
	    || ssh_mpint(&p, end, &k->p, &k->plen) != 0
	    || ssh_mpint(&p, end, &k->q, &k->qlen) != 0)
		return -1;
	return 0;
}

/* An SSH mpint of v (n bytes, big-endian, no leading zero) at out + *at,
 * with a zero byte first when its top bit is set; the caller has room. */
static void
put_mpint(uint8_t *out, size_t *at, const uint8_t *v, size_t n)
{
	int pad = n > 0 && (v[0] & 0x80);

	store_be32(out + *at, (uint32_t)(n + (size_t)pad));
	*at += 4;
	if (pad)
		out[(*at)++] = 0;
	memcpy(out + *at, v, n);
	*at += n;
}

/*
 * An RSA key in PEM (PKCS#1 "BEGIN RSA PRIVATE KEY" or PKCS#8 "BEGIN
 * PRIVATE KEY", unencrypted), read by libcrypto (crypto/rsa.h) into the
 * form an OpenSSH key gives: the public blob, then the private numbers
 * as rsa_private takes them.  age opens such keys too.
 */
static int
identity_from_pem_rsa(const char *text, size_t len, struct ae_identity *id,
    struct ae_diag *d)
{
	struct ae_rsa_numbers *k = ae_secret_alloc(sizeof *k);
	uint8_t pub[AE_SSH_RSA_BLOB_MAX], *priv;
	size_t pl = 0, at = 0, cap = sizeof id->rsa + 64;
	int r;

	if (k == NULL || (priv = ae_secret_alloc(cap)) == NULL) {
		ae_secret_free(k, sizeof *k);
		return bad(d, AE_ENOMEM, "out of memory", 0);
	}
	r = ae_rsa_from_pem(text, len, k);
	if (r == AE_ENOTSUP && !ae_rsa_available())
		r = bad(d, AE_ENOTSUP, "a PEM RSA key needs a build with "
		    "libcrypto (or convert it: ssh-keygen -p -f KEY rewrites "
		    "it as OpenSSH's)", 0);
	else if (r == AE_ENOTSUP)
		r = bad(d, AE_ENOTSUP, "a PEM private key of a type other than "
		    "RSA", 0);
	else if (r == AE_EINVAL)
		r = bad(d, AE_EINVAL, "an RSA key outside 2048 to 8192 bits",
		    0);
	else if (r != AE_OK)
		r = bad(d, r, "a PEM private key libcrypto cannot read", 0);
	/* The file says how long each number is: the form rsa_private
	 * takes must fit priv whatever it says (a p of 1024 bytes beside a
	 * 256-byte n is no key, but it parses) */
	if (r == AE_OK && 11 + 5 * 6 + k->nlen + k->elen + k->dlen + k->iqmplen
	    + k->plen + k->qlen > cap)
		r = bad(d, AE_EFORMAT, "a malformed PEM RSA key (its numbers "
		    "are too long for its modulus)", 0);
	if (r == AE_OK) {
		/* string "ssh-rsa", mpint e, mpint n: the public blob */
		store_be32(pub, 7);
		memcpy(pub + 4, SSH_RSA, 7);
		pl = 11;
		put_mpint(pub, &pl, k->e, k->elen);
		put_mpint(pub, &pl, k->n, k->nlen);
		/* string "ssh-rsa", then n, e, d, iqmp, p, q */
		store_be32(priv, 7);
		memcpy(priv + 4, SSH_RSA, 7);
		at = 11;
		put_mpint(priv, &at, k->n, k->nlen);
		put_mpint(priv, &at, k->e, k->elen);
		put_mpint(priv, &at, k->d, k->dlen);
		put_mpint(priv, &at, k->iqmp, k->iqmplen);
		put_mpint(priv, &at, k->p, k->plen);
		put_mpint(priv, &at, k->q, k->qlen);
		if ((r = recipient_from_blob(pub, pl, &id->r, d, 0)) == AE_OK
		    && rsa_private(priv, priv + at, id) != AE_OK)
			r = bad(d, AE_EFORMAT, "a malformed PEM RSA key", 0);
	}
	ae_secret_free(priv, cap);
	ae_secret_free(k, sizeof *k);
	if (r != AE_OK)
		ae_wipe(id, sizeof *id);
	return r;
}

#define PEM_BEGIN "-----BEGIN OPENSSH PRIVATE KEY-----"
#define PEM_END "-----END OPENSSH PRIVATE KEY-----"
#define OPENSSH_MAGIC "openssh-key-v1"    /* and its NUL */

int
ae_identity_parse_ssh(const char *text, size_t len, const uint8_t *pass,
    size_t passlen, struct ae_identity *id, struct ae_diag *d)
{
	static const char *const other[] = {
		"-----BEGIN RSA PRIVATE KEY-----",
		"-----BEGIN EC PRIVATE KEY-----",
		"-----BEGIN DSA PRIVATE KEY-----",
		"-----BEGIN PRIVATE KEY-----",
		"-----BEGIN ENCRYPTED PRIVATE KEY-----",
	};
	uint8_t buf[8192], plain[8192];
	const uint8_t *p, *end, *s1, *s2, *s3, *pub, *priv, *t, *k, *sk;
	int encrypted;
	const char *b, *e;
	size_t n, l1, l2, l3, publ, privl, tl, kl, skl, at, i;
	uint32_t nkeys;
	int r = AE_EFORMAT;

	memset(id, 0, sizeof *id);
	b = memmem(text, len, PEM_BEGIN, strlen(PEM_BEGIN));
	if (b == NULL) {
		/* RSA in PKCS#1 or PKCS#8, unencrypted: through libcrypto */
		if ((memmem(text, len, other[0], strlen(other[0])) != NULL
		    || memmem(text, len, other[3], strlen(other[3])) != NULL)
		    && memmem(text, len, "ENCRYPTED", 9) == NULL)
			return identity_from_pem_rsa(text, len, id, d);
		for (i = 0; i < sizeof other / sizeof *other; i++)
			if (memmem(text, len, other[i], strlen(other[i])))
				return bad(d, AE_ENOTSUP, "a PEM private key "
				    "aescrypt does not read (an encrypted one, "
				    "or not RSA; ssh-keygen -p -f KEY rewrites "
				    "it as OpenSSH's, which it reads)", 0);
		return bad(d, AE_EFORMAT, "not an OpenSSH private key", 0);
	}
	b += strlen(PEM_BEGIN);
	e = memmem(b, len - (size_t)(b - text), PEM_END, strlen(PEM_END));
	if (e == NULL)
		return bad(d, AE_EFORMAT, "the OpenSSH private key has no end "
		    "line", len);
	if (ae_base64_decode(b, (size_t)(e - b), buf, sizeof buf, &n, &at)
	    != 0)
		return bad(d, AE_EFORMAT, "the OpenSSH private key is not "
		    "base64", (size_t)(b - text) + at);
	p = buf;
	end = buf + n;
	if (n < sizeof OPENSSH_MAGIC || memcmp(p, OPENSSH_MAGIC,
	    sizeof OPENSSH_MAGIC) != 0)
		goto malformed;
	p += sizeof OPENSSH_MAGIC;
	if (ae_ssh_string(&p, end, &s1, &l1) != 0         /* cipher */
	    || ae_ssh_string(&p, end, &s2, &l2) != 0      /* kdf */
	    || ae_ssh_string(&p, end, &s3, &l3) != 0      /* kdf options */
	    || end - p < 4)
		goto malformed;
	encrypted = !ae_ssh_string_is(s1, l1, "none")
	    || !ae_ssh_string_is(s2, l2, "none");
	if (encrypted && (r = ae_sshkey_supported(s1, l1, s2, l2, d)) != AE_OK)
		goto out;
	if (encrypted && pass == NULL) {
		r = bad(d, AE_EKEY, AE_SSH_NEEDS_PASSPHRASE, 0);
		goto out;
	}
	nkeys = load_be32(p);
	p += 4;
	if (nkeys != 1 || ae_ssh_string(&p, end, &pub, &publ) != 0
	    || ae_ssh_string(&p, end, &priv, &privl) != 0)
		goto malformed;
	if (encrypted) {
		/* a GCM or Poly1305 tag follows the section's string */
		const uint8_t *tag = NULL;

		if (ae_sshkey_cipher_has_tag(s1, l1)) {
			if (end - p < 16)
				goto malformed;
			tag = p;
		}
		if (privl > sizeof plain)
			goto malformed;
		r = ae_sshkey_decrypt(s1, l1, s2, l2, s3, l3, priv, privl, tag,
		    pass, passlen, plain, d);
		if (r != AE_OK)
			goto out;
		priv = plain;
	}
	{
		const uint8_t *q = pub, *qe = pub + publ;

		if (ae_ssh_string(&q, qe, &t, &tl) != 0)
			goto malformed;
		if (!ae_ssh_string_is(t, tl, SSH_ED25519)
		    && !ae_ssh_string_is(t, tl, SSH_RSA)) {
			r = bad(d, AE_ENOTSUP, "an SSH key of a type other "
			    "than ssh-ed25519 and ssh-rsa", 0);
			goto out;
		}
		if ((r = recipient_from_blob(pub, publ, &id->r, d, 0)) != AE_OK)
			goto out;
		r = AE_EFORMAT;
	}
	/* The private section: two equal check words, then the key. */
	p = priv;
	end = priv + privl;
	if (privl < 8)
		goto malformed;
	if (load_be32(p) != load_be32(p + 4)) {
		/* the check words: for aes256-ctr, where a wrong passphrase
		 * shows */
		if (encrypted) {
			r = bad(d, AE_EKEY, "wrong passphrase for the OpenSSH "
			    "key", 0);
			goto out;
		}
		goto malformed;
	}
	p += 8;
	if (id->r.type == AE_STANZA_SSH_RSA) {
		if (rsa_private(p, end, id) != AE_OK)
			goto malformed;
		r = AE_OK;
		goto out;
	}
	if (ae_ssh_string(&p, end, &t, &tl) != 0 || !ae_ssh_string_is(t, tl,
	    SSH_ED25519) || ae_ssh_string(&p, end, &k, &kl) != 0 || kl != 32
	    || memcmp(k, id->r.ed, 32) != 0 || ae_ssh_string(&p, end, &sk, &skl)
	    != 0 || skl != 64 || memcmp(sk + 32, id->r.ed, 32) != 0)
		goto malformed;
	if (ae_ed25519_seed_to_x25519(id->secret, sk) != AE_OK)
		goto malformed;
	memcpy(id->edseed, sk, 32);
	id->type = AE_STANZA_SSH_ED25519;
	r = AE_OK;
	goto out;
malformed:
	r = bad(d, AE_EFORMAT, "a malformed OpenSSH private key", 0);
out:
	ae_wipe(buf, sizeof buf);
	ae_wipe(plain, sizeof plain);
	if (r != AE_OK)
		ae_wipe(id, sizeof *id);
	return r;
}

int
ae_identity_generate(struct ae_identity *id, uint8_t type)
{
	int e;

	if (type == AE_STANZA_MLKEM768X25519) {
		uint8_t seed[32];

		if ((e = ae_random(seed, sizeof seed)) == AE_OK)
			e = pq_identity_of(id, seed);
		ae_wipe(seed, sizeof seed);
		return e;
	}
	memset(id, 0, sizeof *id);
	if ((e = ae_random(id->secret, 32)) != AE_OK)
		return e;
	id->type = id->r.type = AE_STANZA_X25519;
	return ae_x25519_base(id->r.pub, id->secret);
}

size_t
ae_identity_format(const struct ae_identity *id, char *out, size_t cap)
{
	size_t n, i;

	if (id->type == AE_STANZA_MLKEM768X25519)
		n = ae_pq_seed_format(id->secret, out, cap);
	else if (id->type == AE_STANZA_X25519)
		n = ae_bech32_encode(out, cap, HRP_IDENTITY, id->secret, 32);
	else
		return 0;
	/* age writes it in upper case; without a branch on the secret's
	 * characters (every character of the charset but digits is a
	 * letter) */
	for (i = 0; i < n; i++) {
		uint32_t c = (uint8_t)out[i];
		uint32_t lower = ((c - 'a') >> 31 ^ 1) & (('z' - c) >> 31 ^ 1);

		out[i] = (char)(c - (32 & (0 - lower)));
	}
	return n;
}
