#include "hmac_sha256.h"
#include "common/wipe.h"

#include <string.h>

void
ae_hmac_sha256_init(struct ae_hmac_sha256 *h, const void *key, size_t keylen)
{
	uint8_t k[AE_SHA256_BLOCK], pad[AE_SHA256_BLOCK];
	int i;

	memset(k, 0, sizeof k);
	if (keylen > AE_SHA256_BLOCK)
		ae_sha256(key, keylen, k);
	else if (keylen > 0)
		memcpy(k, key, keylen);
	for (i = 0; i < AE_SHA256_BLOCK; i++)
		pad[i] = k[i] ^ 0x36;
	ae_sha256_init(&h->inner);
	ae_sha256_update(&h->inner, pad, sizeof pad);
	for (i = 0; i < AE_SHA256_BLOCK; i++)
		pad[i] = k[i] ^ 0x5c;
	ae_sha256_init(&h->outer);
	ae_sha256_update(&h->outer, pad, sizeof pad);
	ae_wipe(k, sizeof k);
	ae_wipe(pad, sizeof pad);
}

void
ae_hmac_sha256_update(struct ae_hmac_sha256 *h, const void *p, size_t n)
{
	ae_sha256_update(&h->inner, p, n);
}

void
ae_hmac_sha256_final(struct ae_hmac_sha256 *h, uint8_t out[AE_SHA256_LEN])
{
	uint8_t ih[AE_SHA256_LEN];

	ae_sha256_final(&h->inner, ih);
	ae_sha256_update(&h->outer, ih, sizeof ih);
	ae_sha256_final(&h->outer, out);
	ae_wipe(ih, sizeof ih);
}

void
ae_hmac_sha256(const void *key, size_t keylen, const void *p, size_t n,
    uint8_t out[AE_SHA256_LEN])
{
	struct ae_hmac_sha256 h;

	ae_hmac_sha256_init(&h, key, keylen);
	ae_hmac_sha256_update(&h, p, n);
	ae_hmac_sha256_final(&h, out);
}
