/*
 * stanza.h -- key slots: the file key wrapped under a passphrase or a
 * key file (format/aescrypt-v1.md, section 4).
 *
 * Every slot type first turns its user secret into a 32-byte slot
 * secret S (Argon2id for a passphrase, HKDF for a key file), then wraps
 * the file key under S the same way: an XOR pad and an HMAC-SHA-256, both
 * from HKDF(S).  The HMAC commits to S, so one wrapped body cannot open
 * under two different keys (the partitioning-oracle attack on GCM key
 * wrapping does not apply).
 */
#ifndef AE_STANZA_H
#define AE_STANZA_H

#include <stddef.h>
#include <stdint.h>

#include "format.h"
#include "kdf.h"

struct ae_stanza {
	uint8_t type;                   /* enum ae_stanza_type, or unknown */
	size_t offset;                  /* of its first byte in the header */
	size_t len;                     /* head + body, in bytes */
	struct ae_kdf_params kdf;       /* AE_STANZA_ARGON2ID only */
	uint8_t salt[AE_SALT_LEN];      /* passphrase and key-file slots */
	uint8_t share[AE_SHARE_LEN];    /* recipient slots: the ephemeral
	                                 * X25519 public key */
	uint8_t tag[AE_SSH_TAG_LEN];    /* ssh and PQ slots: which key */
	size_t ct_len;                  /* ssh-rsa: the OAEP ciphertext's */
	uint8_t ct[AE_STANZA_CT_MAX];   /* length, and its bytes;
	                                 * mlkem768x25519: the X-Wing
	                                 * ciphertext */
	uint8_t wrap[AE_WRAP_LEN];      /* known types only */
};

/*
 * The slot types this code knows, as rows of one table (stanza.c): a
 * new type is a row here, its secrets' row in recipient_slot.c (for a
 * recipient), and its tests; the parser, the encoder, the header's
 * checks, the unlock and --info read the rows.
 */
enum ae_slot_class {
	AE_SLOT_PASSPHRASE,     /* opened by a passphrase (tried last) */
	AE_SLOT_KEYFILE,        /* opened by a key file */
	AE_SLOT_RECIPIENT       /* opened by an identity */
};

/* A slot body's fields, laid out in this order before its wrap
 * (format section 4): the KDF's m_kib, t and p (12 bytes), a salt, a
 * key tag, a ciphertext, an ephemeral X25519 share. */
enum {
	AE_SF_KDF = 1 << 0,
	AE_SF_SALT = 1 << 1,
	AE_SF_TAG = 1 << 2,
	AE_SF_CT = 1 << 3,
	AE_SF_SHARE = 1 << 4
};

/* The most bytes ae_slot_type.describe writes, NUL included. */
#define AE_SLOT_WORDS_MAX 160

struct ae_slot_type {
	uint8_t id;                     /* enum ae_stanza_type */
	const char *name;               /* --info --json's "type" (stable) */
	enum ae_slot_class cls;
	unsigned fields;                /* AE_SF_* */
	size_t ct_min, ct_max;          /* AE_SF_CT: its length's bounds
	                                 * (equal when fixed) */
	/* --info's words for slot s: the line (json 0), or the members
	 * after "type" of its JSON object, each with a leading comma
	 * (json 1); into buf (AE_SLOT_WORDS_MAX bytes) */
	void (*describe)(const struct ae_stanza *s, int json, char *buf,
	    size_t n);
};

/* The row of slot type id, or NULL for a type this code does not
 * know. */
const struct ae_slot_type *ae_slot_type_get(uint8_t id);

/* Whether this code knows the stanza type.  1 or 0. */
int ae_stanza_known(uint8_t type);

/* The encoded length of a known stanza (an ssh-rsa one's depends on its
 * ct_len), or 0 for an unknown type. */
size_t ae_stanza_len(const struct ae_stanza *s);

/*
 * Parse one stanza from p (avail bytes left in the header).  Unknown
 * types are accepted and only their length is taken, so a decoder can
 * skip them.  Returns 0 or AE_EFORMAT (with d->what set).
 */
int ae_stanza_parse(const uint8_t *p, size_t avail, struct ae_stanza *s,
    struct ae_diag *d);

/* Write the encoding of a known stanza to out (ae_stanza_len bytes). */
void ae_stanza_encode(const struct ae_stanza *s, uint8_t *out);

/*
 * The slot secret of an AE_STANZA_KEYFILE stanza: HKDF of the 32-byte key
 * with the stanza's salt.
 */
void ae_stanza_secret_keyfile(const struct ae_stanza *s,
    const uint8_t key[AE_FILE_KEY_LEN], uint8_t S[32]);

/*
 * The slot secret of an AE_STANZA_ARGON2ID stanza: Argon2id of the
 * passphrase with the stanza's salt and costs.  The caller MUST have
 * checked the costs with ae_kdf_within() if the stanza is untrusted.
 * Returns as ae_kdf_argon2id().
 */
int ae_stanza_secret_passphrase(const struct ae_stanza *s, const void *pass,
    size_t passlen, uint8_t S[32]);

/* Fill s->wrap with file_key wrapped under S (type, kdf, salt set). */
void ae_stanza_wrap(struct ae_stanza *s, const uint8_t S[32],
    const uint8_t file_key[AE_FILE_KEY_LEN]);

/*
 * Unwrap: check the HMAC in constant time and, only if it matches, write
 * the file key.  Returns 0 or AE_EKEY (file_key untouched).
 */
int ae_stanza_unwrap(const struct ae_stanza *s, const uint8_t S[32],
    uint8_t file_key[AE_FILE_KEY_LEN]);

#endif
