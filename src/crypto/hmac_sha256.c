#include "hmac_sha256.h"
#include "wipe.h"

#include <string.h>

void
hmac_sha256_init(struct hmac_sha256 *h, const void *key, size_t keylen)
{
	uint8_t k[SHA256_BLOCK], pad[SHA256_BLOCK];
	int i;

	memset(k, 0, sizeof k);
	if (keylen > SHA256_BLOCK)
		sha256(key, keylen, k);
	else if (keylen > 0)
		memcpy(k, key, keylen);
	for (i = 0; i < SHA256_BLOCK; i++)
		pad[i] = k[i] ^ 0x36;
	sha256_init(&h->inner);
	sha256_update(&h->inner, pad, sizeof pad);
	for (i = 0; i < SHA256_BLOCK; i++)
		pad[i] = k[i] ^ 0x5c;
	sha256_init(&h->outer);
	sha256_update(&h->outer, pad, sizeof pad);
	ae_wipe(k, sizeof k);
	ae_wipe(pad, sizeof pad);
}

void
hmac_sha256_update(struct hmac_sha256 *h, const void *p, size_t n)
{
	sha256_update(&h->inner, p, n);
}

void
hmac_sha256_final(struct hmac_sha256 *h, uint8_t out[SHA256_LEN])
{
	uint8_t ih[SHA256_LEN];

	sha256_final(&h->inner, ih);
	sha256_update(&h->outer, ih, sizeof ih);
	sha256_final(&h->outer, out);
	ae_wipe(ih, sizeof ih);
}

void
hmac_sha256(const void *key, size_t keylen, const void *p, size_t n,
    uint8_t out[SHA256_LEN])
{
	struct hmac_sha256 h;

	hmac_sha256_init(&h, key, keylen);
	hmac_sha256_update(&h, p, n);
	hmac_sha256_final(&h, out);
}
