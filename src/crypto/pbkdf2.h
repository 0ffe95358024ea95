/*
 * pbkdf2.h -- PBKDF2 with HMAC-SHA512 (RFC 8018 section 5.2).
 *
 * Read-side only: the AES Crypt stream format's version 3 derives its
 * key this way.  New files made by aescrypt use Argon2id (kdf.h).
 */
#ifndef AE_PBKDF2_H
#define AE_PBKDF2_H

#include <stddef.h>
#include <stdint.h>

/*
 * out[0..outlen) = PBKDF2-HMAC-SHA512(pass, salt, iterations).  Returns
 * 0, or AE_EINVAL if iterations is 0 or outlen is 0 or over 64 * 2^32.
 * HMAC-SHA512 is libsodium's; the caller wipes pass and out.
 */
int ae_pbkdf2_sha512(const uint8_t *pass, size_t passlen,
    const uint8_t *salt, size_t saltlen, uint32_t iterations,
    uint8_t *out, size_t outlen);

#endif
