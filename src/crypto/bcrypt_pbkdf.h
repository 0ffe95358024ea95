/*
 * bcrypt_pbkdf.h -- OpenSSH's bcrypt_pbkdf, the KDF of passphrase-
 * protected OpenSSH private keys (ssh-keygen's "bcrypt" KDF).
 *
 * PBKDF2's structure with SHA-512 and, as the PRF, bcrypt's expensive
 * Blowfish key schedule (OpenBSD's bcrypt_pbkdf(3)).  Read-side only:
 * aescrypt opens such keys; it makes none.
 */
#ifndef AE_BCRYPT_PBKDF_H
#define AE_BCRYPT_PBKDF_H

#include <stddef.h>
#include <stdint.h>

/*
 * out[0..outlen) from pass, salt and rounds, as OpenSSH computes it
 * (outlen up to 1024, rounds at least 1).  Returns 0, or AE_EINVAL.
 * SHA-512 is libsodium's.  Blowfish's S-box lookups are indexed by
 * secret-derived data, as in every bcrypt: the cost is meant to be
 * paid by an attacker, and a local timing observer of this step is out
 * of scope, as it is for ssh-keygen.
 */
int ae_bcrypt_pbkdf(const uint8_t *pass, size_t passlen, const uint8_t *salt,
    size_t saltlen, unsigned rounds, uint8_t *out, size_t outlen);

#endif
