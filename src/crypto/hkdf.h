/*
 * hkdf.h -- HKDF-SHA-256 (RFC 5869).
 */
#ifndef AE_HKDF_H
#define AE_HKDF_H

#include <stddef.h>
#include <stdint.h>

#include "sha256.h"

/* HKDF-Extract: prk = HMAC(salt, ikm).  An empty salt means 32 zeros. */
void ae_hkdf_sha256_extract(const uint8_t *salt, size_t saltlen,
    const uint8_t *ikm, size_t ikmlen, uint8_t prk[AE_SHA256_LEN]);

/*
 * HKDF-Expand: okmlen bytes from prk and info.
 * Returns 0, or AE_EINVAL if okmlen > 255 * 32.
 */
int ae_hkdf_sha256_expand(const uint8_t prk[AE_SHA256_LEN], const uint8_t *info,
    size_t infolen, uint8_t *okm, size_t okmlen);

/* Extract then expand; the intermediate PRK is wiped.  Returns as
 * ae_hkdf_sha256_expand(). */
int ae_hkdf_sha256(const uint8_t *salt, size_t saltlen, const uint8_t *ikm,
    size_t ikmlen, const uint8_t *info, size_t infolen, uint8_t *okm,
    size_t okmlen);

#endif
