/*
 * hmac_sha256.h -- HMAC-SHA-256 (RFC 2104, FIPS 198-1), incremental.
 */
#ifndef AE_HMAC_SHA256_H
#define AE_HMAC_SHA256_H

#include <stddef.h>
#include <stdint.h>

#include "sha256.h"

struct ae_hmac_sha256 {
	struct ae_sha256 inner;
	struct ae_sha256 outer;   /* already fed the outer padded key */
};

/* Start a MAC with a key of any length (keys over 64 bytes are hashed
 * first, as the RFC says).  The caller MUST finish or wipe h. */
void ae_hmac_sha256_init(struct ae_hmac_sha256 *h, const void *key, size_t keylen);
void ae_hmac_sha256_update(struct ae_hmac_sha256 *h, const void *p, size_t n);
/* Write the 32-byte MAC and wipe h. */
void ae_hmac_sha256_final(struct ae_hmac_sha256 *h, uint8_t out[AE_SHA256_LEN]);
/* One-shot MAC. */
void ae_hmac_sha256(const void *key, size_t keylen, const void *p, size_t n,
    uint8_t out[AE_SHA256_LEN]);

#endif
