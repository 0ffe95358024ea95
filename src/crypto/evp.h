/*
 * evp.h -- ciphers this project does not implement, from OpenSSL's
 * libcrypto: to open private keys other tools protect with them
 * (OpenSSH's aes128 and aes192: CTR, CBC, GCM; and 3des-cbc), and
 * ChaCha20-Poly1305 for age's payload, where libcrypto's assembly is 4
 * times libsodium's speed here (4.0 GB/s against 1.0 on one core, a
 * 64 KiB chunk).  Never used for the container, whose AES-256 is
 * crypto/gcm.h's and cbc.h's.
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
	AE_EVP_3DES,    /* 3DES-EDE in CBC, an 8-byte IV, no padding */
	AE_EVP_CHACHAPOLY /* RFC 8439's AEAD: a 32-byte key, a 12-byte
	                 * nonce, a 16-byte tag, no AAD */
};

/* Whether this build has these ciphers (libcrypto).  1 or 0. */
int ae_evp_available(void);

/*
 * out[0..n) = the decryption of in[0..n) under key (keylen bytes: 16 or
 * 24 for AES, 24 for 3DES, 32 for ChaCha20-Poly1305) and iv; for GCM
 * and ChaCha20-Poly1305, tag (16 bytes) is checked and nothing is
 * released when it fails (out, written before the check, is wiped).  n is whole blocks for CBC.
 * Returns 0; AE_EKEY when the GCM tag fails; AE_ENOTSUP without
 * libcrypto; AE_EINVAL for lengths libcrypto refuses; AE_ENOMEM.
 * (AE_EKEY for a ChaCha20-Poly1305 tag too: the caller says AE_EAUTH.)
 */
int ae_evp_decrypt(enum ae_evp_mode mode, const uint8_t *key, size_t keylen,
    const uint8_t *iv, const uint8_t *in, size_t n, const uint8_t *tag,
    uint8_t *out);

#endif
