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
