/*
 * stanza.c -- key slots: the types as rows, their layout, and the wrap
 * of the file key (contract in stanza.h).
 */
#include "config.h"
#include "stanza.h"

#include <stdio.h>
#include <string.h>

#include "common/bytes.h"
#include "crypto/hkdf.h"
#include "crypto/hmac_sha256.h"
#include "common/wipe.h"

/* ---- the slot types, one row each ---- */

/* m KiB in the largest unit that divides it exactly ("256 MiB"; 1025
 * KiB stays 1025 KiB), as the command words sizes. */
static void
kib_exact(uint32_t m, char *buf, size_t n)
{
	if (m >= 1024u * 1024 && m % (1024u * 1024) == 0)
		snprintf(buf, n, "%u GiB", m / (1024u * 1024));
	else if (m >= 1024 && m % 1024 == 0)
		snprintf(buf, n, "%u MiB", m / 1024);
	else
		snprintf(buf, n, "%u KiB", m);
}

static void
describe_argon2id(const struct ae_stanza *s, int json, char *buf, size_t n)
{
	char mem[32];

	if (json) {
		snprintf(buf, n, ",\"kdf\":\"argon2id\",\"memory_kib\":%u,"
		    "\"time\":%u,\"parallelism\":%u", s->kdf.m_kib, s->kdf.t,
		    s->kdf.p);
		return;
	}
	kib_exact(s->kdf.m_kib, mem, sizeof mem);
	snprintf(buf, n, "passphrase, Argon2id: memory %s, %u passes, %u "
	    "lanes", mem, s->kdf.t, s->kdf.p);
}

static void
describe_keyfile(const struct ae_stanza *s, int json, char *buf, size_t n)
{
	(void)s;
	snprintf(buf, n, "%s", json ? "" : "key file");
}

static void
describe_x25519(const struct ae_stanza *s, int json, char *buf, size_t n)
{
	(void)s;
	/* the slot does not say whose key (4.5) */
	snprintf(buf, n, "%s", json ? "" : "recipient, X25519 (age1...)");
}

/* A key tag's JSON member, or its words after "key tag ". */
#define TAG_FMT "%02x%02x%02x%02x"
#define TAG_ARGS(s) (s)->tag[0], (s)->tag[1], (s)->tag[2], (s)->tag[3]

static void
describe_ssh_ed25519(const struct ae_stanza *s, int json, char *buf,
    size_t n)
{
	if (json)
		snprintf(buf, n, ",\"tag\":\"" TAG_FMT "\"", TAG_ARGS(s));
	else
		snprintf(buf, n, "recipient, ssh-ed25519 (key tag " TAG_FMT ")",
		    TAG_ARGS(s));
}

static void
describe_ssh_rsa(const struct ae_stanza *s, int json, char *buf, size_t n)
{
	/* the slot gives the modulus's length in bytes, not its bits (a
	 * 3071-bit key has 384 too) */
	if (json)
		snprintf(buf, n, ",\"tag\":\"" TAG_FMT "\",\"modulus_bytes\":%zu",
		    TAG_ARGS(s), s->ct_len);
	else
		snprintf(buf, n, "recipient, ssh-rsa (%zu-byte modulus; key tag "
		    TAG_FMT ")", s->ct_len, TAG_ARGS(s));
}

static void
describe_mlkem768x25519(const struct ae_stanza *s, int json, char *buf,
    size_t n)
{
	if (json)
		snprintf(buf, n, ",\"tag\":\"" TAG_FMT "\"", TAG_ARGS(s));
	else
		snprintf(buf, n, "recipient, ML-KEM-768 + X25519, post-quantum "
		    "(age1pq1...; key tag " TAG_FMT ")", TAG_ARGS(s));
}

static const struct ae_slot_type slot_types[] = {
	{ AE_STANZA_ARGON2ID, "passphrase", AE_SLOT_PASSPHRASE,
	    AE_SF_KDF | AE_SF_SALT, 0, 0, describe_argon2id },
	{ AE_STANZA_KEYFILE, "key-file", AE_SLOT_KEYFILE, AE_SF_SALT, 0, 0,
	    describe_keyfile },
	{ AE_STANZA_X25519, "x25519", AE_SLOT_RECIPIENT, AE_SF_SHARE, 0, 0,
	    describe_x25519 },
	{ AE_STANZA_SSH_ED25519, "ssh-ed25519", AE_SLOT_RECIPIENT,
	    AE_SF_TAG | AE_SF_SHARE, 0, 0, describe_ssh_ed25519 },
	/* the ciphertext is as long as the key's modulus, which the body's
	 * length gives (4.7) */
	{ AE_STANZA_SSH_RSA, "ssh-rsa", AE_SLOT_RECIPIENT, AE_SF_TAG | AE_SF_CT,
	    AE_RSA_CT_MIN, AE_RSA_CT_MAX, describe_ssh_rsa },
	{ AE_STANZA_MLKEM768X25519, "mlkem768x25519", AE_SLOT_RECIPIENT,
	    AE_SF_TAG | AE_SF_CT, AE_PQ_CT_LEN, AE_PQ_CT_LEN,
	    describe_mlkem768x25519 },
};

const struct ae_slot_type *
ae_slot_type_get(uint8_t id)
{
	size_t i;

	for (i = 0; i < sizeof slot_types / sizeof slot_types[0]; i++)
		if (slot_types[i].id == id)
			return &slot_types[i];
	return NULL;
}

int
ae_stanza_known(uint8_t type)
{
	return ae_slot_type_get(type) != NULL;
}

/* A row's body length with a ciphertext of ct bytes. */
static size_t
body_len(const struct ae_slot_type *t, size_t ct)
{
	return (t->fields & AE_SF_KDF ? 12 : 0)
	    + (t->fields & AE_SF_SALT ? AE_SALT_LEN : 0)
	    + (t->fields & AE_SF_TAG ? AE_SSH_TAG_LEN : 0)
	    + (t->fields & AE_SF_CT ? ct : 0)
	    + (t->fields & AE_SF_SHARE ? AE_SHARE_LEN : 0)
	    + AE_WRAP_LEN;
}

size_t
ae_stanza_len(const struct ae_stanza *s)
{
	const struct ae_slot_type *t = ae_slot_type_get(s->type);

	if (t == NULL)
		return 0;
	/* a fixed ciphertext's length is the row's, whatever s says */
	return AE_STANZA_HEAD_LEN + body_len(t, t->ct_min == t->ct_max ?
	    t->ct_min : s->ct_len);
}

/* s's byte fields that row t lays out after the KDF's words, in their
 * order, the wrap last: where each is in s and its length.  Parsing and
 * encoding walk the same list, so they cannot disagree on the layout.
 * Returns how many (at most 5). */
static size_t
byte_fields(struct ae_stanza *s, const struct ae_slot_type *t,
    uint8_t *at[5], size_t len[5])
{
	size_t n = 0;

	if (t->fields & AE_SF_SALT) {
		at[n] = s->salt;
		len[n++] = AE_SALT_LEN;
	}
	if (t->fields & AE_SF_TAG) {
		at[n] = s->tag;
		len[n++] = AE_SSH_TAG_LEN;
	}
	if (t->fields & AE_SF_CT) {
		at[n] = s->ct;
		len[n++] = s->ct_len;
	}
	if (t->fields & AE_SF_SHARE) {
		at[n] = s->share;
		len[n++] = AE_SHARE_LEN;
	}
	at[n] = s->wrap;
	len[n++] = AE_WRAP_LEN;
	return n;
}

int
ae_stanza_parse(const uint8_t *p, size_t avail, struct ae_stanza *s,
    struct ae_diag *d)
{
	const struct ae_slot_type *t;
	uint8_t *at[5];
	size_t body, fixed, len[5], n, i;

	memset(s, 0, sizeof *s);
	if (avail < AE_STANZA_HEAD_LEN)
		return ae_fail(d, AE_EFORMAT, AE_AT_HEADER,
		    "key slot overruns the header", 0, 0);
	s->type = p[0];
	body = (size_t)p[1] << 8 | p[2];
	s->len = AE_STANZA_HEAD_LEN + body;
	if (s->len > avail)
		return ae_fail(d, AE_EFORMAT, AE_AT_HEADER,
		    "key slot overruns the header", 0, 0);
	if ((t = ae_slot_type_get(s->type)) == NULL)
		return AE_OK;           /* unknown: skipped by the caller */
	/* a ciphertext takes what the other fields leave, within the
	 * row's bounds */
	fixed = body_len(t, 0);
	if (body < fixed || (!(t->fields & AE_SF_CT) && body != fixed)
	    || ((t->fields & AE_SF_CT) && (body - fixed < t->ct_min
	    || body - fixed > t->ct_max)))
		return ae_fail(d, AE_EFORMAT, AE_AT_HEADER,
		    "key slot has the wrong length for its type", 0, 0);
	s->ct_len = t->fields & AE_SF_CT ? body - fixed : 0;
	p += AE_STANZA_HEAD_LEN;
	if (t->fields & AE_SF_KDF) {
		s->kdf.m_kib = load_be32(p);
		s->kdf.t = load_be32(p + 4);
		s->kdf.p = load_be32(p + 8);
		p += 12;
	}
	n = byte_fields(s, t, at, len);
	for (i = 0; i < n; i++) {
		memcpy(at[i], p, len[i]);
		p += len[i];
	}
	return AE_OK;
}

void
ae_stanza_encode(const struct ae_stanza *s, uint8_t *out)
{
	const struct ae_slot_type *t = ae_slot_type_get(s->type);
	size_t slen = ae_stanza_len(s), len[5], n, i;
	uint8_t *at[5];

	out[0] = s->type;
	out[1] = (uint8_t)((slen - AE_STANZA_HEAD_LEN) >> 8);
	out[2] = (uint8_t)(slen - AE_STANZA_HEAD_LEN);
	out += AE_STANZA_HEAD_LEN;
	if (t->fields & AE_SF_KDF) {
		store_be32(out, s->kdf.m_kib);
		store_be32(out + 4, s->kdf.t);
		store_be32(out + 8, s->kdf.p);
		out += 12;
	}
	/* (the fields are only read here) */
	n = byte_fields((struct ae_stanza *)s, t, at, len);
	for (i = 0; i < n; i++) {
		memcpy(out, at[i], len[i]);
		out += len[i];
	}
}

void
ae_stanza_secret_keyfile(const struct ae_stanza *s,
    const uint8_t key[AE_FILE_KEY_LEN], uint8_t S[32])
{
	ae_hkdf_sha256(s->salt, AE_SALT_LEN, key, AE_FILE_KEY_LEN,
	    (const uint8_t *)AE_LABEL_KEYFILE, sizeof AE_LABEL_KEYFILE - 1,
	    S, 32);
}

int
ae_stanza_secret_passphrase(const struct ae_stanza *s, const void *pass,
    size_t passlen, uint8_t S[32])
{
	return ae_kdf_argon2id(pass, passlen, s->salt, AE_SALT_LEN, &s->kdf, S);
}

/* The XOR pad and the MAC key that slot secret S gives. */
static void
wrap_keys(const uint8_t S[32], uint8_t pad[32], uint8_t mackey[32])
{
	uint8_t okm[64];

	ae_hkdf_sha256(NULL, 0, S, 32, (const uint8_t *)AE_LABEL_WRAP,
	    sizeof AE_LABEL_WRAP - 1, okm, sizeof okm);
	memcpy(pad, okm, 32);
	memcpy(mackey, okm + 32, 32);
	ae_wipe(okm, sizeof okm);
}

/* The MAC over stanza s as it is with enc as its encrypted key. */
static void
wrap_mac(const struct ae_stanza *s, const uint8_t mackey[32],
    const uint8_t enc[32], uint8_t mac[32])
{
	uint8_t buf[AE_STANZA_MAX_LEN];
	size_t len = ae_stanza_len(s);
	struct ae_stanza t = *s;

	/* MAC input: the stanza's encoding minus its trailing 32-byte MAC. */
	memcpy(t.wrap, enc, 32);
	ae_stanza_encode(&t, buf);
	ae_hmac_sha256(mackey, 32, buf, len - 32, mac);
	ae_wipe(&t, sizeof t);
}

void
ae_stanza_wrap(struct ae_stanza *s, const uint8_t S[32],
    const uint8_t file_key[AE_FILE_KEY_LEN])
{
	uint8_t pad[32], mackey[32], enc[32];
	int i;

	wrap_keys(S, pad, mackey);
	for (i = 0; i < 32; i++)
		enc[i] = file_key[i] ^ pad[i];
	memcpy(s->wrap, enc, 32);
	wrap_mac(s, mackey, enc, s->wrap + 32);
	ae_wipe(pad, sizeof pad);
	ae_wipe(mackey, sizeof mackey);
}

int
ae_stanza_unwrap(const struct ae_stanza *s, const uint8_t S[32],
    uint8_t file_key[AE_FILE_KEY_LEN])
{
	uint8_t pad[32], mackey[32], mac[32];
	int ok, i;

	wrap_keys(S, pad, mackey);
	wrap_mac(s, mackey, s->wrap, mac);
	ok = ae_ct_equal(mac, s->wrap + 32, 32);
	AE_DECLASSIFY(&ok, sizeof ok);  /* the verdict is public */
	if (ok)
		for (i = 0; i < 32; i++)
			file_key[i] = s->wrap[i] ^ pad[i];
	ae_wipe(pad, sizeof pad);
	ae_wipe(mackey, sizeof mackey);
	return ok ? AE_OK : AE_EKEY;
}
