/*
 * sshkey.h -- the encrypted private section of an OpenSSH private key
 * (OpenSSH's PROTOCOL.key): the "bcrypt" KDF with aes256-ctr or
 * aes256-gcm@openssh.com, as ssh-keygen -N writes it.
 */
#ifndef AE_SSHKEY_H
#define AE_SSHKEY_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

/* ssh-keygen's default is 16 rounds (-a); a file asking for more than
 * this is refused as an absurd cost (AE_ELIMIT). */
#define AE_SSHKEY_MAX_ROUNDS 1024u

/*
 * Decrypt enc[0..enclen) (the private section's string) into out
 * (enclen bytes), given the key file's cipher and KDF names and KDF
 * options and, for aes256-gcm@openssh.com, the 16 bytes after the
 * string (tag; NULL otherwise).  Returns 0; AE_ENOTSUP for another
 * cipher or KDF (d->what names it); AE_EFORMAT for malformed options or
 * a length that is not whole blocks; AE_ELIMIT for rounds over the cap;
 * AE_EKEY when the GCM tag fails (a wrong passphrase).  For aes256-ctr
 * nothing can tell a wrong passphrase here: the caller checks the
 * private section's two check words.  The caller wipes out.
 */
int ae_sshkey_decrypt(const uint8_t *cipher, size_t cipherlen,
    const uint8_t *kdf, size_t kdflen, const uint8_t *opts, size_t optslen,
    const uint8_t *enc, size_t enclen, const uint8_t *tag,
    const uint8_t *pass, size_t passlen, uint8_t *out, struct ae_diag *d);

/* Whether the cipher name is aes256-gcm@openssh.com (its tag follows
 * the private section's string). */
int ae_sshkey_cipher_is_gcm(const uint8_t *cipher, size_t cipherlen);

#endif
