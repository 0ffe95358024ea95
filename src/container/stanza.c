#include "config.h"
#include "stanza.h"

#include <string.h>

#include "common/bytes.h"
#include "crypto/hkdf.h"
#include "crypto/hmac_sha256.h"
#include "crypto/wipe.h"

int
ae_stanza_known(uint8_t type)
{
	return type >= AE_STANZA_ARGON2ID && type <= AE_STANZA_TYPE_MAX;
}

size_t
ae_stanza_len(const struct ae_stanza *s)
{
	switch (s->type) {
	case AE_STANZA_ARGON2ID:
		return AE_STANZA_HEAD_LEN + AE_ARGON2ID_BODY_LEN;
	case AE_STANZA_KEYFILE:
		return AE_STANZA_HEAD_LEN + AE_KEYFILE_BODY_LEN;
	case AE_STANZA_X25519:
		return AE_STANZA_HEAD_LEN + AE_X25519_BODY_LEN;
	case AE_STANZA_SSH_ED25519:
		return AE_STANZA_HEAD_LEN + AE_SSH_BODY_LEN;
	case AE_STANZA_SSH_RSA:
		return AE_STANZA_HEAD_LEN + AE_SSH_RSA_BODY_LEN(s->ct_len);
	case AE_STANZA_MLKEM768X25519:
		return AE_STANZA_HEAD_LEN + AE_PQ_BODY_LEN;
	}
	return 0;
}

int
ae_stanza_parse(const uint8_t *p, size_t avail, struct ae_stanza *s,
    struct ae_diag *d)
{
	size_t body, want;

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
	if (!ae_stanza_known(s->type))
		return AE_OK;           /* unknown: skipped by the caller */
	if (s->type == AE_STANZA_SSH_RSA) {
		/* the ciphertext is as long as the key's modulus, which the
		 * body's length gives (4.7) */
		if (body < AE_SSH_RSA_BODY_LEN(AE_RSA_CT_MIN)
		    || body > AE_SSH_RSA_BODY_LEN(AE_RSA_CT_MAX))
			return ae_fail(d, AE_EFORMAT, AE_AT_HEADER,
			    "key slot has the wrong length for its type", 0,
			    0);
		s->ct_len = body - AE_SSH_RSA_BODY_LEN(0);
	}
	if (s->type == AE_STANZA_MLKEM768X25519)
		s->ct_len = AE_PQ_CT_LEN;
	want = ae_stanza_len(s);
	if (s->len != want)
		return ae_fail(d, AE_EFORMAT, AE_AT_HEADER,
		    "key slot has the wrong length for its type", 0, 0);
	p += AE_STANZA_HEAD_LEN;
	switch (s->type) {
	case AE_STANZA_ARGON2ID:
		s->kdf.m_kib = load_be32(p);
		s->kdf.t = load_be32(p + 4);
		s->kdf.p = load_be32(p + 8);
		p += 12;
		/* fall through */
	case AE_STANZA_KEYFILE:
		memcpy(s->salt, p, AE_SALT_LEN);
		p += AE_SALT_LEN;
		break;
	case AE_STANZA_SSH_RSA:
	case AE_STANZA_MLKEM768X25519:
		memcpy(s->tag, p, AE_SSH_TAG_LEN);
		memcpy(s->ct, p + AE_SSH_TAG_LEN, s->ct_len);
		p += AE_SSH_TAG_LEN + s->ct_len;
		break;
	case AE_STANZA_SSH_ED25519:
		memcpy(s->tag, p, AE_SSH_TAG_LEN);
		p += AE_SSH_TAG_LEN;
		/* fall through */
	case AE_STANZA_X25519:
		memcpy(s->share, p, AE_SHARE_LEN);
		p += AE_SHARE_LEN;
		break;
	}
	memcpy(s->wrap, p, AE_WRAP_LEN);
	return AE_OK;
}

void
ae_stanza_encode(const struct ae_stanza *s, uint8_t *out)
{
	size_t len = ae_stanza_len(s);

	out[0] = s->type;
	out[1] = (uint8_t)((len - AE_STANZA_HEAD_LEN) >> 8);
	out[2] = (uint8_t)(len - AE_STANZA_HEAD_LEN);
	out += AE_STANZA_HEAD_LEN;
	switch (s->type) {
	case AE_STANZA_ARGON2ID:
		store_be32(out, s->kdf.m_kib);
		store_be32(out + 4, s->kdf.t);
		store_be32(out + 8, s->kdf.p);
		out += 12;
		/* fall through */
	case AE_STANZA_KEYFILE:
		memcpy(out, s->salt, AE_SALT_LEN);
		out += AE_SALT_LEN;
		break;
	case AE_STANZA_SSH_RSA:
	case AE_STANZA_MLKEM768X25519:
		memcpy(out, s->tag, AE_SSH_TAG_LEN);
		memcpy(out + AE_SSH_TAG_LEN, s->ct, s->ct_len);
		out += AE_SSH_TAG_LEN + s->ct_len;
		break;
	case AE_STANZA_SSH_ED25519:
		memcpy(out, s->tag, AE_SSH_TAG_LEN);
		out += AE_SSH_TAG_LEN;
		/* fall through */
	case AE_STANZA_X25519:
		memcpy(out, s->share, AE_SHARE_LEN);
		out += AE_SHARE_LEN;
		break;
	}
	memcpy(out, s->wrap, AE_WRAP_LEN);
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
