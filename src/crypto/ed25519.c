/*
 * ed25519.c -- Ed25519 and SHA-512 through libsodium (contract in
 * ed25519.h).
 */
#include "config.h"
#include "ed25519.h"

#include "common/error.h"
#include "common/wipe.h"

/* sodium_init is idempotent and thread-safe; < 0 only if it cannot
 * start. */
static int
ready(void)
{
	return sodium_init() >= 0;
}

int
ae_ed25519_public(uint8_t pk[AE_ED25519_PK_LEN],
    const uint8_t seed[AE_ED25519_SEED_LEN])
{
	uint8_t sk[crypto_sign_SECRETKEYBYTES];

	if (!ready())
		return AE_ENOTSUP;
	crypto_sign_seed_keypair(pk, sk, seed);
	ae_wipe(sk, sizeof sk);
	return AE_OK;
}

int
ae_ed25519_sign(uint8_t sig[AE_ED25519_SIG_LEN], const uint8_t *m,
    size_t n, const uint8_t seed[AE_ED25519_SEED_LEN])
{
	uint8_t pk[crypto_sign_PUBLICKEYBYTES], sk[crypto_sign_SECRETKEYBYTES];

	if (!ready())
		return AE_ENOTSUP;
	/* (libsodium's secret key is the seed and the public key; it is
	 * rebuilt for each signature, which costs one scalar
	 * multiplication: signatures here are few) */
	crypto_sign_seed_keypair(pk, sk, seed);
	crypto_sign_detached(sig, NULL, m, n, sk);
	ae_wipe(sk, sizeof sk);
	return AE_OK;
}

int
ae_ed25519_verify(const uint8_t sig[AE_ED25519_SIG_LEN],
    const uint8_t *m, size_t n, const uint8_t pk[AE_ED25519_PK_LEN])
{
	if (!ready())
		return AE_ENOTSUP;
	return crypto_sign_verify_detached(sig, m, n, pk) == 0 ? AE_OK
	    : AE_EAUTH;
}

void
ae_sha512_init(struct ae_sha512 *h)
{
	crypto_hash_sha512_init(&h->s);
}

void
ae_sha512_update(struct ae_sha512 *h, const void *p, size_t n)
{
	crypto_hash_sha512_update(&h->s, p, n);
}

void
ae_sha512_final(struct ae_sha512 *h, uint8_t out[AE_SHA512_LEN])
{
	crypto_hash_sha512_final(&h->s, out);
	ae_wipe(h, sizeof *h);
}
