/*
 * x25519.c -- X25519 through libsodium (contract in x25519.h).
 */
#include "config.h"
#include "x25519.h"

#include <string.h>

#include <sodium.h>

#include "common/error.h"
#include "common/wipe.h"

/* sodium_init is idempotent and thread-safe; < 0 only if it cannot
 * start (no random source). */
static int
ready(void)
{
	return sodium_init() >= 0;
}

int
ae_x25519(uint8_t out[AE_X25519_LEN], const uint8_t scalar[AE_X25519_LEN],
    const uint8_t point[AE_X25519_LEN])
{
	if (!ready())
		return AE_ENOTSUP;
	/* libsodium returns -1 for an all-zero result and checks it in
	 * constant time; that verdict is public. */
	int r = crypto_scalarmult(out, scalar, point);

	AE_DECLASSIFY(&r, sizeof r);
	if (r != 0) {
		ae_wipe(out, AE_X25519_LEN);
		return AE_EINVAL;
	}
	return AE_OK;
}

int
ae_x25519_low_order(const uint8_t point[AE_X25519_LEN])
{
	/* little-endian u-coordinates: 0, 1, the two points of order 8,
	 * p - 1, p and p + 1 */
	static const uint8_t small[7][AE_X25519_LEN] = {
		{ 0 },
		{ 1 },
		{ 0xe0, 0xeb, 0x7a, 0x7c, 0x3b, 0x41, 0xb8, 0xae, 0x16, 0x56,
		  0xe3, 0xfa, 0xf1, 0x9f, 0xc4, 0x6a, 0xda, 0x09, 0x8d, 0xeb,
		  0x9c, 0x32, 0xb1, 0xfd, 0x86, 0x62, 0x05, 0x16, 0x5f, 0x49,
		  0xb8, 0x00 },
		{ 0x5f, 0x9c, 0x95, 0xbc, 0xa3, 0x50, 0x8c, 0x24, 0xb1, 0xd0,
		  0xb1, 0x55, 0x9c, 0x83, 0xef, 0x5b, 0x04, 0x44, 0x5c, 0xc4,
		  0x58, 0x1c, 0x8e, 0x86, 0xd8, 0x22, 0x4e, 0xdd, 0xd0, 0x9f,
		  0x11, 0x57 },
		{ 0xec, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		  0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		  0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		  0xff, 0x7f },
		{ 0xed, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		  0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		  0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		  0xff, 0x7f },
		{ 0xee, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		  0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		  0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		  0xff, 0x7f },
	};
	size_t i;

	for (i = 0; i < 7; i++)
		if (memcmp(point, small[i], AE_X25519_LEN - 1) == 0
		    && (point[AE_X25519_LEN - 1] & 0x7f)
		    == small[i][AE_X25519_LEN - 1])
			return 1;
	return 0;
}

int
ae_x25519_base(uint8_t pub[AE_X25519_LEN], const uint8_t scalar[AE_X25519_LEN])
{
	if (!ready())
		return AE_ENOTSUP;
	return crypto_scalarmult_base(pub, scalar) == 0 ? AE_OK : AE_EINVAL;
}

int
ae_ed25519_pk_to_x25519(uint8_t x[AE_X25519_LEN],
    const uint8_t ed[AE_X25519_LEN])
{
	if (!ready())
		return AE_ENOTSUP;
	return crypto_sign_ed25519_pk_to_curve25519(x, ed) == 0 ? AE_OK :
	    AE_EINVAL;
}

int
ae_ed25519_seed_to_x25519(uint8_t x[AE_X25519_LEN],
    const uint8_t seed[AE_X25519_LEN])
{
	uint8_t pk[crypto_sign_ed25519_PUBLICKEYBYTES];
	uint8_t sk[crypto_sign_ed25519_SECRETKEYBYTES];
	int r;

	if (!ready())
		return AE_ENOTSUP;
	/* sk_to_curve25519 hashes the seed half of sk with SHA-512 and
	 * clamps, as Ed25519 itself derives its scalar. */
	crypto_sign_ed25519_seed_keypair(pk, sk, seed);
	r = crypto_sign_ed25519_sk_to_curve25519(x, sk);
	ae_wipe(sk, sizeof sk);
	return r == 0 ? AE_OK : AE_EINVAL;
}

const char *
ae_x25519_library_version(void)
{
	return sodium_version_string();
}
