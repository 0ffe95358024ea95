/*
 * header.h -- the container header (format/aescrypt-v1.md, section 3):
 * building it, reading and checking it, opening it with a key, and the
 * keys it leads to.
 *
 * Reading happens in three steps so that each failure has its own name:
 *   ae_header_read()    structure and CRC-32     -> "corrupt header"
 *   ae_header_unlock()  a key slot opens         -> "wrong passphrase/key"
 *                       the header HMAC verifies -> "header was modified"
 * and so that the caller can see which key slots there are (to know
 * whether to prompt for a passphrase) before it unlocks.
 */
#ifndef AE_HEADER_H
#define AE_HEADER_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "format.h"
#include "crypto/gcm.h"
#include "common/io.h"
#include "kdf.h"
#include "recipient.h"
#include "stanza.h"

struct ae_header {
	uint8_t payload_type;           /* enum ae_payload_type (the byte
	                                 * without AE_PAYLOAD_COPY) */
	uint8_t copy;                   /* the file ends with a copy of the
	                                 * header (AE_PAYLOAD_COPY; 6.9) */
	uint8_t codec;                  /* enum ae_codec (payload_type bits
	                                 * 4-6; 6.4) */
	uint8_t from_copy;              /* read from that copy: the one at
	                                 * the start was damaged */
	uint8_t chunk_log2;
	uint8_t is_signed;              /* payload_type bit 3 (6.10): the
	                                 * signer slot's fields follow */
	uint8_t sig_log2;               /* a signature after every
	                                 * 2^sig_log2 payload records */
	uint8_t signer[32];             /* the Ed25519 key that signs */
	uint8_t payload_salt[AE_SALT_LEN];
	unsigned nstanzas;
	struct ae_stanza stanza[AE_MAX_STANZAS];
	size_t len;                     /* bytes in raw */
	uint8_t raw[AE_HEADER_MAX];     /* the header as written or read */
};

/*
 * Building a header for a new file, the way a caller (the command line,
 * examples/minitar.c) does it:
 *   ae_header_new, then whether the slots it will add fit
 *   (ae_header_plan), then one ae_header_add_* per slot, then
 *   ae_header_encode.
 * Each slot wraps file_key, which ae_header_new makes.
 */

/* A header for payload_type with codec and 2^chunk_log2-byte chunks that
 * ends its file with a copy of itself (6.9); a fresh random file key into
 * file_key and payload salt.  AE_OK, or the random source's error. */
int ae_header_new(struct ae_header *h, int payload_type, int codec,
    unsigned chunk_log2, uint8_t file_key[AE_FILE_KEY_LEN]);

/*
 * Whether slots for recipients r[0..nr), a key file (keyfile set) and a
 * passphrase (passphrase set) fit one header: AE_OK; AE_ELIMIT for more
 * slots than a header holds (*max is that count); AE_ETOOBIG for more
 * bytes (*need the header's length with them, *max the most it may be;
 * an RSA key's slot is as large as its key).
 */
int ae_header_plan(const struct ae_recipient *r, size_t nr, int keyfile,
    int passphrase, size_t *need, size_t *max);

/*
 * Add a slot wrapping file_key: for recipient r (a fresh ephemeral share:
 * AE_EINVAL for a key of low order or one libcrypto refuses, AE_ENOMEM,
 * or the random source's error); for a key file's 32-byte key; for a
 * passphrase under Argon2id with kdf (AE_EINVAL for parameters out of
 * range, AE_ENOMEM).  AE_ELIMIT when h has no room for another slot.
 */
int ae_header_add_recipient(struct ae_header *h, const struct ae_recipient *r,
    const uint8_t file_key[AE_FILE_KEY_LEN]);
int ae_header_add_keyfile(struct ae_header *h, const uint8_t key[32],
    const uint8_t file_key[AE_FILE_KEY_LEN]);
int ae_header_add_passphrase(struct ae_header *h, const void *pass,
    size_t passlen, const struct ae_kdf_params *kdf,
    const uint8_t file_key[AE_FILE_KEY_LEN]);

/*
 * Make h a signed header (6.10): ed25519 key pk signs, with a
 * signature after every 2^sig_log2 payload records.  Its slot is laid
 * out after the key slots (it counts in slot_count).  AE_EINVAL for
 * sig_log2 over AE_SIG_LOG2_MAX; AE_ELIMIT when h has no room for
 * another slot.
 */
int ae_header_set_signer(struct ae_header *h, const uint8_t pk[32],
    unsigned sig_log2);

/*
 * Lay out h->raw from h's fields and stanzas (already wrapped), then add
 * the CRC-32 and the HMAC keyed from file_key.  Returns 0, or AE_EINVAL
 * if a field is out of range or there are no stanzas.
 */
int ae_header_encode(struct ae_header *h,
    const uint8_t file_key[AE_FILE_KEY_LEN]);

/*
 * Parse and check the len bytes at buf (a whole header) into h: magic,
 * version, length, CRC-32, fields, stanzas, and the rules on the slots
 * as a set (every passphrase slot's Argon2id parameters valid, at most
 * one passphrase slot), all before any key is tried.  Returns 0;
 * AE_EFORMAT for a malformed or corrupt header (d->where is
 * AE_AT_STANZA, with d->index, for a slot that breaks a rule);
 * AE_ETRUNC if len is shorter than the length the header gives itself,
 * or is 0 ("input is empty"); AE_ENOTSUP for a version or payload type
 * this code does not know (d->have holds the number), or a header whose
 * slots are all of unknown types (d->where AE_AT_NONE).  What the bytes
 * present show comes before "truncated": a 4-byte AES Crypt prefix or a
 * 9-byte lead with another version is named as such.  d->what says
 * which check failed.  Nothing is trusted yet: the MAC is unchecked.
 */
int ae_header_parse(const uint8_t *buf, size_t len, struct ae_header *h,
    struct ae_diag *d);

/*
 * Read one header from r and parse it as above.  Reads exactly the
 * header's bytes, so r is left at the first chunk.  Also returns
 * AE_ETRUNC if the input ends inside the header, and the errors of r.
 */
int ae_header_read(struct ae_reader *r, struct ae_header *h,
    struct ae_diag *d);

/*
 * Whether ae_header_read or _parse failed (with d) on a check that a
 * damaged header fails: its version, its length, its CRC.  A header
 * whose CRC holds but whose fields break a rule was written so; one
 * that is not an aescrypt file at all (its magic) is not damage either.
 */
int ae_header_damaged(const struct ae_diag *d);

/* Whether d is ae_header_read's "bad magic": another kind of file, or
 * (when the file ends with a copy of a header, 6.9) a damaged start. */
int ae_header_bad_magic(const struct ae_diag *d);

/*
 * 6.9, the copy at the end of a file with h->copy: the header's bytes
 * again, then their length (u16), after everything else (the final
 * record, or an index's footer).  ae_header_tail_len is its length (0
 * without h->copy); ae_header_tail lays it out in out (that many
 * bytes).
 */
size_t ae_header_tail_len(const struct ae_header *h);
void ae_header_tail(const struct ae_header *h, uint8_t *out);

/*
 * Check the n bytes that follow the payload (and the footer) against h's
 * tail; at is their offset in the file, for d.  0 if they are exactly
 * the tail; AE_ETRUNC if they are fewer (the file is cut short);
 * AE_EFORMAT if they differ from it, or if more follow.
 */
int ae_header_check_tail(const struct ae_header *h, const uint8_t *b,
    size_t n, uint64_t at, struct ae_diag *d);

/*
 * Salvage: the header from its copy, in the last n bytes of a file
 * (end points at them; n need not be exact, at most AE_HEADER_MAX + 2
 * bytes are looked at).  Parsed and checked as ae_header_parse does,
 * and it must have the copy bit; h->from_copy is set.  The copy is only
 * as good as its MAC: ae_header_unlock checks that as for any header.
 * Returns 0; AE_EFORMAT if no good copy is there (d says why); or
 * ae_header_parse's errors.
 */
int ae_header_parse_copy(const uint8_t *end, size_t n, struct ae_header *h,
    struct ae_diag *d);

/* The number of h's slots of a class (enum ae_slot_class: their types'
 * rows say), slots of unknown types not counted. */
unsigned ae_header_count(const struct ae_header *h, int cls);

/* What ae_header_unlock() may try. */
struct ae_unlock {
	const uint8_t *pass;            /* passphrase, or NULL */
	size_t passlen;
	const uint8_t *key;             /* 32-byte key-file key, or NULL */
	const struct ae_identity *ids;  /* identities for recipient slots */
	size_t nids;
	struct ae_kdf_limits limits;    /* caps on Argon2id costs */
};

/*
 * Find a stanza that opens with what u offers (key-file and recipient
 * slots first, as they are cheap; each recipient slot with each
 * identity), then verify the header MAC with the file key it holds.
 * Returns 0 with file_key set; AE_EKEY if no slot opens (d->index is the
 * last slot tried); AE_ELIMIT if a passphrase slot was skipped for its
 * cost and nothing else opened (d->have, d->limit); AE_EAUTH if a slot
 * opened but the MAC does not verify (the header was altered);
 * AE_EFORMAT (at AE_AT_STANZA) for a recipient slot whose ephemeral key
 * is of low order; AE_ENOMEM.  h must come from ae_header_parse (or ae_header_read),
 * which has checked the slots' parameters.
 * file_key is written only on success.
 */
int ae_header_unlock(const struct ae_header *h, const struct ae_unlock *u,
    uint8_t file_key[AE_FILE_KEY_LEN], struct ae_diag *d);

/* The payload key: HKDF(file key, payload salt, "aescrypt-v1 payload"). */
void ae_header_payload_key(const struct ae_header *h,
    const uint8_t file_key[AE_FILE_KEY_LEN], uint8_t key[32]);

/*
 * Set up g with the payload key (ae_gcm_init with the default tier); the
 * key itself is wiped once g holds it.  The caller MUST ae_gcm_wipe(g).
 */
void ae_header_payload_cipher(const struct ae_header *h,
    const uint8_t file_key[AE_FILE_KEY_LEN], ae_gcm_ctx *g);

#endif
