/*
 * sshkey.h -- the encrypted private section of an OpenSSH private key
 * (OpenSSH's PROTOCOL.key): the "bcrypt" KDF with aes256-ctr (what
 * ssh-keygen -N writes), aes256-cbc, aes256-gcm@openssh.com or
 * chacha20-poly1305@openssh.com (ssh-keygen -Z).
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
 * options and, for a cipher with a tag (ae_sshkey_cipher_has_tag), the
 * 16 bytes after the string (tag; NULL otherwise).  Returns 0;
 * AE_ENOTSUP for another cipher or KDF (d->what says which it reads);
 * AE_EFORMAT for malformed options or a length that is not whole
 * blocks; AE_ELIMIT for rounds over the cap; AE_EKEY when the tag fails
 * (a wrong passphrase).  For aes256-ctr and aes256-cbc nothing can tell
 * a wrong passphrase here: the caller checks the private section's two
 * check words.  The caller wipes out.
 */
int ae_sshkey_decrypt(const uint8_t *cipher, size_t cipherlen,
    const uint8_t *kdf, size_t kdflen, const uint8_t *opts, size_t optslen,
    const uint8_t *enc, size_t enclen, const uint8_t *tag,
    const uint8_t *pass, size_t passlen, uint8_t *out, struct ae_diag *d);

/* Whether this code reads the cipher and KDF (asked before a
 * passphrase is: no one should type one for a key that cannot open).
 * 0, or AE_ENOTSUP with d->what saying what it reads. */
int ae_sshkey_supported(const uint8_t *cipher, size_t cipherlen,
    const uint8_t *kdf, size_t kdflen, struct ae_diag *d);

/* Whether the cipher (aes256-gcm@openssh.com,
 * chacha20-poly1305@openssh.com) has a 16-byte tag after the private
 * section's string. */
int ae_sshkey_cipher_has_tag(const uint8_t *cipher, size_t cipherlen);

#endif
