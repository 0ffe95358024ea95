/*
 * keyring.h -- the keys a handle was given (aescrypt.h, "keys"): held
 * in memory from ae_secret_alloc (wiped, out of core dumps) until the
 * handle is freed, and turned into a new header's slots (a writer) or
 * into what ae_header_unlock tries (a reader).
 */
#ifndef AE_LIB_KEYRING_H
#define AE_LIB_KEYRING_H

#include <stddef.h>
#include <stdint.h>

#include "container/header.h"
#include "container/kdf.h"
#include "container/recipient.h"

#define KEYRING_PASS_MAX 4096

struct keyring {
	uint8_t pass[KEYRING_PASS_MAX];
	size_t passlen;
	int have_pass;
	uint8_t key[32];
	int have_key;
	struct ae_recipient *rcp;   /* malloc'd (public) */
	size_t nrcp;
	struct ae_identity *ids;    /* from ae_secret_alloc */
	size_t nids, capids;
};

/* A keyring is zeroed memory; ae_lib_keyring_free wipes and frees what it
 * holds (and leaves it zeroed). */
void ae_lib_keyring_free(struct keyring *k);

/* A passphrase (1 to KEYRING_PASS_MAX bytes: else AE_EINVAL) or a
 * 32-byte key; a second one replaces the first. */
int ae_lib_keyring_set_pass(struct keyring *k, const void *pass, size_t len);
void ae_lib_keyring_set_key(struct keyring *k, const uint8_t key[32]);

/* A key file's text, read from path (AE_EIO with d->sys_errno, or
 * ae_keyfile_parse's AE_EFORMAT). */
int ae_lib_keyring_read_keyfile(struct keyring *k, const char *path,
    struct ae_diag *d);

/* A recipient string (ae_recipient_parse's errors; a repeat is kept
 * once).  0 or an error with d. */
int ae_lib_keyring_add_recipient(struct keyring *k, const char *s,
    struct ae_diag *d);

/* A recipient already parsed (the command's -r and -R); a repeat is
 * kept once.  0, AE_EINVAL for a key of low order (a slot to it anyone
 * could open), or AE_ENOMEM. */
int ae_lib_keyring_add_parsed(struct keyring *k, const struct ae_recipient *r);

/* Identities from an identity file's text (age lines or an OpenSSH
 * PEM key, opened with pass when it is protected).  0; AE_EFORMAT when
 * the text holds none or a line is not one (d->index: the line, from
 * 1); ae_identity_parse_ssh's errors; AE_ENOMEM. */
int ae_lib_keyring_add_identities(struct keyring *k, const char *text, size_t len,
    const void *pass, size_t passlen, struct ae_diag *d);

/* An identity already parsed (the command's -i): copied.  0 or
 * AE_ENOMEM. */
int ae_lib_keyring_add_identity(struct keyring *k, const struct ae_identity *id);

/* The keyring behind a key list (keylist.c), or NULL for none. */
struct aescrypt_keys;
const struct keyring *ae_lib_keys_ring(const struct aescrypt_keys *k);
/* Its age plugin identities, as given, into *ids: how many. */
size_t ae_lib_keys_plugins(const struct aescrypt_keys *k, char *const **ids);

/* Give every recipient (ae_lib_keyring_add_parsed) or every identity
 * of `from` to k as well.  0, or AE_ENOMEM. */
int ae_lib_keyring_add_all_recipients(struct keyring *k,
    const struct keyring *from);
int ae_lib_keyring_add_all_identities(struct keyring *k,
    const struct keyring *from);

/* Whether k has any key a writer can make a slot of. */
int ae_lib_keyring_empty(const struct keyring *k);

/* A new header for payload_type with k's slots (the passphrase's under
 * kdf), encoded; the file key in file_key (the caller wipes it).  0 or
 * ae_header_plan's and _add_*'s errors. */
int ae_lib_keyring_new_header(const struct keyring *k, int payload_type, int codec,
    unsigned chunk_log2, const struct ae_kdf_params *kdf,
    struct ae_header *h, uint8_t file_key[AE_FILE_KEY_LEN], struct ae_diag *d);

/* Unlock h with k's keys under the Argon2id memory cap max_kib (0: the
 * default limits): ae_header_unlock's results. */
int ae_lib_keyring_unlock(const struct keyring *k, uint64_t max_kib,
    const struct ae_header *h, uint8_t file_key[AE_FILE_KEY_LEN],
    struct ae_diag *d);

#endif
