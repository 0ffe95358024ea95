/*
 * legacy.h -- reading the AES Crypt stream format, versions 0 to 3.
 *
 * AES Crypt is the older tool that also names its files .aes.  Its
 * format (published by its author as "AES Crypt Stream Format"; the
 * summary is in format/README.md, appendix B) is AES-256-CBC with
 * HMAC-SHA256 over the whole ciphertext, so nothing in it can be
 * verified before its end: ae_legacy_decrypt() writes every block but
 * the last before the MAC is checked, and the caller must write to a
 * place it can take back (a temporary file), or verify first with
 * AE_LEGACY_VERIFY and decrypt in a second pass.  Reading only: aescrypt
 * never writes this format.
 */
#ifndef AE_LEGACY_H
#define AE_LEGACY_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "common/io.h"
#include "crypto/cbc.h"

#define AE_LEGACY_CREATOR_MAX 128   /* CREATED_BY kept, with its NUL */

/* What the header says.  Nothing in it is secret or authenticated. */
struct ae_legacy {
	int version;                     /* 0..3 */
	uint8_t mod16;                   /* version 0: last block's length */
	uint32_t iterations;             /* version 3: PBKDF2 iterations */
	uint8_t iv[16];                  /* the public IV (v3: the salt) */
	uint8_t keyblock[48];            /* v1-3: encrypted session IV, key */
	uint8_t keymac[32];              /* v1-3: HMAC of keyblock */
	unsigned extensions;             /* v2-3: how many (container too) */
	char creator[AE_LEGACY_CREATOR_MAX]; /* CREATED_BY, raw, or "" */
	uint64_t header_len;             /* bytes before the ciphertext */
};

/* The session: the payload's CBC key and IV and its MAC key.  Secret. */
struct ae_legacy_keys {
	struct ae_cbc_key cbc;
	uint8_t iv[16];
	uint8_t mackey[32];
};

/* Is b[0..n) the start of an AES Crypt file?  Needs n >= 5. */
int ae_legacy_sniff(const uint8_t *b, size_t n);

/*
 * Read the header from r, up to the first byte of ciphertext.
 * AE_EFORMAT if it is not a version 0-3 AES Crypt header (or its
 * extensions do not end within 1,024 of them), AE_ETRUNC if the input
 * ends inside it, AE_EIO from r.  d says where.
 */
int ae_legacy_read_header(struct ae_reader *r, struct ae_legacy *lg,
    struct ae_diag *d);

/*
 * Derive the key from pass (UTF-8; versions 0-2 hash it as UTF-16LE,
 * invalid UTF-8 bytes taken as code points) and open the session key.
 * Versions 1-3: AE_EKEY if the key block's HMAC does not match (a wrong
 * passphrase, or a damaged key block).  Version 0 has no such check: a
 * wrong passphrase shows only as the MAC at the end.  A version 3
 * iteration count over max_iterations is AE_ELIMIT (d->have, d->limit).
 */
int ae_legacy_unlock(const struct ae_legacy *lg, const uint8_t *pass,
    size_t passlen, uint32_t max_iterations, struct ae_legacy_keys *k,
    struct ae_diag *d);

#define AE_LEGACY_VERIFY 1   /* only check the MAC: nothing is written */

/*
 * Read the ciphertext and the trailer from r (positioned after the
 * header), decrypt to w, and check the MAC in constant time.  The last
 * block is written only after the MAC matched and the padding is
 * valid.  Returns 0; AE_EAUTH if the MAC does not match (damaged, cut
 * at a block boundary, or for version 0 a wrong passphrase: say so);
 * AE_ETRUNC if the input ends where no trailer can; AE_EFORMAT for bad
 * padding after a good MAC; AE_EIO, AE_EINTR from r or w.  *plain (may
 * be NULL) counts bytes written, *cipher (may be NULL) the ciphertext
 * bytes read, the trailer (MAC, and v1-2's length byte) not counted.
 * k is not changed, so a verifying pass can be followed by a real one.
 */
int ae_legacy_decrypt(const struct ae_legacy *lg, struct ae_legacy_keys *k,
    struct ae_reader *r, struct ae_writer *w, int flags, uint64_t *plain,
    uint64_t *cipher, struct ae_diag *d);

void ae_legacy_keys_wipe(struct ae_legacy_keys *k);

#endif
