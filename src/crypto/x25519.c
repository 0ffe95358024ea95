/*
 * x25519.c -- X25519 through libsodium (contract in x25519.h).
 */
#include "config.h"
#include "x25519.h"

#include <sodium.h>

#include "common/error.h"
#include "wipe.h"

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
