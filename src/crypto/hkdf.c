#include "hkdf.h"
#include "common/error.h"
#include "hmac_sha256.h"
#include "common/wipe.h"

#include <string.h>

void
ae_hkdf_sha256_extract(const uint8_t *salt, size_t saltlen, const uint8_t *ikm,
    size_t ikmlen, uint8_t prk[AE_SHA256_LEN])
{
	static const uint8_t zeros[AE_SHA256_LEN];

	if (saltlen == 0)
		ae_hmac_sha256(zeros, sizeof zeros, ikm, ikmlen, prk);
	else
		ae_hmac_sha256(salt, saltlen, ikm, ikmlen, prk);
}

int
ae_hkdf_sha256_expand(const uint8_t prk[AE_SHA256_LEN], const uint8_t *info,
    size_t infolen, uint8_t *okm, size_t okmlen)
{
	uint8_t t[AE_SHA256_LEN];
	size_t tlen = 0, done = 0;
	uint8_t i = 0;

	if (okmlen > 255 * AE_SHA256_LEN)
		return AE_EINVAL;
	while (done < okmlen) {
		struct ae_hmac_sha256 h;
		size_t take;

		i++;
		ae_hmac_sha256_init(&h, prk, AE_SHA256_LEN);
		ae_hmac_sha256_update(&h, t, tlen);
		ae_hmac_sha256_update(&h, info, infolen);
		ae_hmac_sha256_update(&h, &i, 1);
		ae_hmac_sha256_final(&h, t);
		tlen = AE_SHA256_LEN;
		take = okmlen - done < AE_SHA256_LEN ? okmlen - done : AE_SHA256_LEN;
		memcpy(okm + done, t, take);
		done += take;
	}
	ae_wipe(t, sizeof t);
	return AE_OK;
}

int
ae_hkdf_sha256(const uint8_t *salt, size_t saltlen, const uint8_t *ikm,
    size_t ikmlen, const uint8_t *info, size_t infolen, uint8_t *okm,
    size_t okmlen)
{
	uint8_t prk[AE_SHA256_LEN];
	int err;

	ae_hkdf_sha256_extract(salt, saltlen, ikm, ikmlen, prk);
	err = ae_hkdf_sha256_expand(prk, info, infolen, okm, okmlen);
	ae_wipe(prk, sizeof prk);
	return err;
}
