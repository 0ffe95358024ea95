/*
 * agekey.h -- an age file's key, unwrapped from its header's stanzas
 * with the identities and passphrase given: the native types of C2SP's
 * age.md (X25519, mlkem768x25519, scrypt) and the two of age's agessh
 * package (ssh-ed25519, ssh-rsa), each by age's own rules.
 *
 * As age does: a stanza of a type no identity given is for is passed
 * over; a stanza of a type one is for, but malformed (argument count,
 * a share or salt that is not canonical base64 of its length, a body
 * that is not exactly a wrapped 16-byte key, a share of low order, a
 * work factor not written as age writes it), fails the whole header,
 * before anything is decrypted.  A stanza that does not open is for
 * another key.
 */
#ifndef AE_AGEKEY_H
#define AE_AGEKEY_H

#include <stddef.h>
#include <stdint.h>

#include "agehdr.h"
#include "common/error.h"
#include "recipient.h"

/* age's own cap on scrypt's work factor (log2 N) when decrypting: N =
 * 2^22 takes 4 GiB and seconds; age -p writes 18. */
#define AE_AGE_SCRYPT_LOG_N_DEFAULT 22

struct ae_age_keys {
	const struct ae_identity *ids;
	size_t nids;
	const uint8_t *pass;        /* NULL: no passphrase */
	size_t passlen;
	unsigned max_log_n;         /* scrypt's cap (0: the default) */
};

/* Whether h holds an scrypt stanza, which only a passphrase opens. */
int ae_age_has_scrypt(const struct ae_age_header *h);

/*
 * The file key of h, from k, then h's MAC checked with it.  Returns 0;
 * AE_EKEY when nothing given opens a stanza; AE_EFORMAT (d->index: the
 * stanza, from 0) for a malformed stanza, or an scrypt stanza beside
 * any other (age: a passphrase-encrypted file has that one stanza
 * alone); AE_ELIMIT (d->have, d->limit) for a work factor over the cap;
 * AE_EAUTH when a key opened but the header's MAC is wrong (the header
 * was changed); AE_ENOTSUP (libsodium, or ssh-rsa without libcrypto);
 * AE_ENOMEM.  The caller wipes file_key.
 */
int ae_age_unwrap(const struct ae_age_header *h, const struct ae_age_keys *k,
    uint8_t file_key[AE_AGE_FILE_KEY_LEN], struct ae_diag *d);

#endif
