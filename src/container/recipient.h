/*
 * recipient.h -- public-key recipients (format/aescrypt-v1.md, 4.5 and
 * 4.6): the keys in the text forms users already have, and the slot
 * secrets they give.
 *
 *   recipients  "age1..." (an X25519 key in Bech32, as age prints it)
 *               "age1pq1..." (an ML-KEM-768 + X25519 key, as age 1.3's
 *               age-keygen -pq prints it; container/pqkey.h)
 *               "ssh-ed25519 AAAA... [comment]" or "ssh-rsa AAAA..."
 *               (an OpenSSH public key line, as in id_ed25519.pub or
 *               authorized_keys)
 *   identities  "AGE-SECRET-KEY-1..." (a line of an age identity file)
 *               "AGE-SECRET-KEY-PQ-1..." (age 1.3's hybrid identity)
 *               an OpenSSH ed25519 or RSA private key (PEM), protected
 *               by a passphrase or not
 *
 * The curve arithmetic is libsodium's (crypto/x25519.h), the RSA
 * libcrypto's (crypto/rsa.h: a build without it refuses ssh-rsa keys
 * with AE_ENOTSUP).
 */
#ifndef AE_RECIPIENT_H
#define AE_RECIPIENT_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "crypto/xwing.h"
#include "format.h"
#include "stanza.h"

/* An ssh-rsa key's SSH wire blob: string "ssh-rsa", mpint e (at most 8
 * bytes and a sign byte), mpint n (at most 1024 bytes and a sign byte). */
#define AE_SSH_RSA_BLOB_MAX (4 + 7 + 4 + 9 + 4 + AE_RSA_CT_MAX + 1)
/* Its private numbers as the key file's private section holds them:
 * mpints n, e, d, iqmp, p, q. */
#define AE_SSH_RSA_PRIV_MAX (6 * 4 + 2 * (AE_RSA_CT_MAX + 1) + 9 \
	+ 3 * (AE_RSA_CT_MAX / 2 + 1))

struct ae_recipient {
	uint8_t type;                   /* AE_STANZA_X25519, _SSH_ED25519,
	                                 * _SSH_RSA or _MLKEM768X25519 */
	uint8_t pub[32];                /* its X25519 public key */
	uint8_t ed[32];                 /* ssh-ed25519: the Ed25519 key */
	uint8_t tag[AE_SSH_TAG_LEN];    /* ssh and PQ keys: which key (4.6
	                                 * to 4.8) */
	uint8_t pq[AE_XWING_PK_LEN];    /* mlkem768x25519: the X-Wing
	                                 * public key */
	size_t bloblen;                 /* ssh-rsa: the key's wire blob */
	uint8_t blob[AE_SSH_RSA_BLOB_MAX];
};

/* An identity holds a secret: the caller wipes it (ae_wipe) after use. */
struct ae_identity {
	uint8_t type;                   /* as for a recipient */
	uint8_t secret[32];             /* the X25519 scalar, or the
	                                 * X-Wing seed */
	uint8_t edseed[32];             /* ssh-ed25519: the Ed25519 seed
	                                 * (for signing) */
	struct ae_xwing_key pq;         /* mlkem768x25519: the seed
	                                 * expanded */
	size_t rsalen;                  /* ssh-rsa: the private numbers */
	uint8_t rsa[AE_SSH_RSA_PRIV_MAX];
	struct ae_recipient r;          /* its public half */
};

/* The longest "age1..." string ("age1pq1...": 1,959 characters), and
 * "AGE-SECRET-KEY-[PQ-]1...", with the NUL. */
#define AE_RECIPIENT_TEXT_MAX 2048
#define AE_IDENTITY_TEXT_MAX 80

/*
 * Whether s is (the first line of) a secret key given where a recipient
 * belongs: an age identity ("AGE-SECRET-KEY-", any case) or a PEM
 * private key block ("-----BEGIN ... PRIVATE KEY-----").  Such a string
 * must never be echoed in a message.  1 or 0.
 */
int ae_recipient_is_secret(const char *s);

/* Whether the OpenSSH line s is a certificate authority's key (or a
 * revoked one): an option or marker before its key type says so.  1 or
 * 0. */
int ae_recipient_is_ca(const char *s);

/*
 * Parse one recipient: "age1..." or an OpenSSH public key line
 * (options before the key type, as authorized_keys has them, are
 * skipped).  Returns 0; AE_EFORMAT for a malformed one (d->what says
 * why, d->offset is the 0-based position of the bad character, or the
 * string's length for a checksum or length error); AE_ENOTSUP for an
 * SSH key of another type (d->what names it: ECDSA, ...), an RSA key
 * under 2048 or over 8192 bits or in a build without libcrypto, or a
 * certificate authority's key (the authorized_keys option
 * "cert-authority", the known_hosts marker "@cert-authority", or
 * "@revoked"), which is trusted to sign keys and is no one's recipient;
 * AE_EINVAL for a secret key (ae_recipient_is_secret).
 */
int ae_recipient_parse(const char *s, struct ae_recipient *r,
    struct ae_diag *d);

/* The encoded length of r's slot in a header (4.5 to 4.7). */
size_t ae_recipient_slot_len(const struct ae_recipient *r);

/* The bits of an ssh-rsa recipient's modulus (0 for other types). */
unsigned ae_recipient_rsa_bits(const struct ae_recipient *r);

/* "age1..." for an X25519 recipient or "age1pq1..." for a PQ one, into
 * out (cap bytes).  Returns the length, or 0 if it does not fit. */
size_t ae_recipient_format(const struct ae_recipient *r, char *out,
    size_t cap);

/* Whether a and b are the same recipient (for writing each once). */
int ae_recipient_equal(const struct ae_recipient *a,
    const struct ae_recipient *b);

/*
 * Parse "AGE-SECRET-KEY-1..." or "AGE-SECRET-KEY-PQ-1..." (upper case,
 * as age writes it; lower case is accepted, mixed case is not).  0, or
 * AE_EFORMAT as above.
 */
int ae_identity_parse_age(const char *s, struct ae_identity *id,
    struct ae_diag *d);

/* d->what of ae_identity_parse_ssh for a protected key and no
 * passphrase: compare the pointer. */
#define AE_SSH_NEEDS_PASSPHRASE "the OpenSSH key is protected by a passphrase"

/*
 * Parse an OpenSSH private key file's text (the PEM block
 * "-----BEGIN OPENSSH PRIVATE KEY-----").  A key protected by a
 * passphrase (ssh-keygen -N: bcrypt with aes256-ctr or
 * aes256-gcm@openssh.com, sshkey.h) is opened with pass; with pass NULL
 * it is AE_EKEY with d->what AE_SSH_NEEDS_PASSPHRASE, so the caller can
 * ask for one.  Returns 0 for an ssh-ed25519 key or an ssh-rsa key
 * (one ae_recipient_parse takes; n and e must match the public half's,
 * or it is malformed); AE_EKEY for a wrong
 * passphrase; AE_ELIMIT for KDF rounds over AE_SSHKEY_MAX_ROUNDS;
 * AE_ENOTSUP for another key type, cipher or KDF (d->what names it);
 * AE_EFORMAT if it is malformed.
 */
int ae_identity_parse_ssh(const char *text, size_t len, const uint8_t *pass,
    size_t passlen, struct ae_identity *id, struct ae_diag *d);

/* A new random identity: X25519 (type AE_STANZA_X25519) or X-Wing
 * (AE_STANZA_MLKEM768X25519).  0, or the random source's error. */
int ae_identity_generate(struct ae_identity *id, uint8_t type);

/* "AGE-SECRET-KEY-[PQ-]1..." for an X25519 or PQ identity, into out.
 * Returns the length, or 0 if it does not fit. */
size_t ae_identity_format(const struct ae_identity *id, char *out,
    size_t cap);

/* An ssh-rsa key's public numbers from its wire blob (n bytes); an
 * ssh-rsa identity's private numbers.  0, or -1 if they do not parse
 * (recipient_slot.c opens and seals with them). */
struct ae_rsa_public;
struct ae_rsa_private;
int ae_rsa_blob_numbers(const uint8_t *blob, size_t n,
    struct ae_rsa_public *k);
int ae_identity_rsa_key(const struct ae_identity *id,
    struct ae_rsa_private *k);

#endif
