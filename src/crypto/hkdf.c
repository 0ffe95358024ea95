#include "hkdf.h"
#include "common/error.h"
#include "hmac_sha256.h"
#include "wipe.h"

#include <string.h>

void
hkdf_sha256_extract(const uint8_t *salt, size_t saltlen, const uint8_t *ikm,
    size_t ikmlen, uint8_t prk[SHA256_LEN])
{
	static const uint8_t zeros[SHA256_LEN];

	if (saltlen == 0)
		hmac_sha256(zeros, sizeof zeros, ikm, ikmlen, prk);
	else
		hmac_sha256(salt, saltlen, ikm, ikmlen, prk);
}

int
hkdf_sha256_expand(const uint8_t prk[SHA256_LEN], const uint8_t *info,
    size_t infolen, uint8_t *okm, size_t okmlen)
{
	uint8_t t[SHA256_LEN];
	size_t tlen = 0, done = 0;
	uint8_t i = 0;

	if (okmlen > 255 * SHA256_LEN)
		return AE_EINVAL;
	while (done < okmlen) {
		struct hmac_sha256 h;
		size_t take;

		i++;
		hmac_sha256_init(&h, prk, SHA256_LEN);
		hmac_sha256_update(&h, t, tlen);
		hmac_sha256_update(&h, info, infolen);
		hmac_sha256_update(&h, &i, 1);
		hmac_sha256_final(&h, t);
		tlen = SHA256_LEN;
		take = okmlen - done < SHA256_LEN ? okmlen - done : SHA256_LEN;
		memcpy(okm + done, t, take);
		done += take;
	}
	ae_wipe(t, sizeof t);
	return AE_OK;
}

int
hkdf_sha256(const uint8_t *salt, size_t saltlen, const uint8_t *ikm,
    size_t ikmlen, const uint8_t *info, size_t infolen, uint8_t *okm,
    size_t okmlen)
{
	uint8_t prk[SHA256_LEN];
	int err;

	hkdf_sha256_extract(salt, saltlen, ikm, ikmlen, prk);
	err = hkdf_sha256_expand(prk, info, infolen, okm, okmlen);
	ae_wipe(prk, sizeof prk);
	return err;
}
