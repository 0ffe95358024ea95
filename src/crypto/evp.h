/*
 * evp.h -- block ciphers this project does not implement, from OpenSSL's
 * libcrypto, to open private keys other tools protect with them:
 * OpenSSH's aes128 and aes192 (CTR, CBC, GCM) and 3des-cbc.  Never used
 * for the container, whose AES-256 is crypto/gcm.h's and cbc.h's.
 *
 * A thin layer, as rsa.h is: no cipher arithmetic is written here, and
 * a build without libcrypto keeps the interface and returns AE_ENOTSUP.
 */
#ifndef AE_EVP_H
#define AE_EVP_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

enum ae_evp_mode {
	AE_EVP_CTR,     /* AES, a 128-bit big-endian counter (OpenSSH's) */
	AE_EVP_CBC,     /* AES, no padding */
	AE_EVP_GCM,     /* AES, a 12-byte IV, a 16-byte tag, no AAD */
	AE_EVP_3DES     /* 3DES-EDE in CBC, an 8-byte IV, no padding */
};

/* Whether this build has these ciphers (libcrypto).  1 or 0. */
int ae_evp_available(void);

/*
 * out[0..n) = the decryption of in[0..n) under key (keylen bytes: 16 or
 * 24 for AES, 24 for 3DES) and iv; for GCM, tag (16 bytes) is checked
 * and nothing is released when it fails.  n is whole blocks for CBC.
 * Returns 0; AE_EKEY when the GCM tag fails; AE_ENOTSUP without
 * libcrypto; AE_EINVAL for lengths libcrypto refuses; AE_ENOMEM.
 */
int ae_evp_decrypt(enum ae_evp_mode mode, const uint8_t *key, size_t keylen,
    const uint8_t *iv, const uint8_t *in, size_t n, const uint8_t *tag,
    uint8_t *out);

#endif
