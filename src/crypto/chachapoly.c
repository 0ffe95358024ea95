/*
 * chachapoly.c -- chacha20-poly1305@openssh.com and RFC 8439's AEAD,
 * opened through libsodium (contracts in chachapoly.h).
 */
#include "config.h"
#include "chachapoly.h"

#include <sodium.h>

#include "common/error.h"
#include "common/wipe.h"
#include "evp.h"

int
ae_ssh_chachapoly_open(const uint8_t key[64], const uint8_t *in,
    size_t len, const uint8_t tag[16], uint8_t *out)
{
	static const uint8_t nonce[8];          /* sequence number 0 */
	uint8_t polykey[32] = { 0 };
	int ok;

	if (sodium_init() < 0)
		return AE_ENOTSUP;
	/* block 0 of the main key's stream is the Poly1305 key */
	crypto_stream_chacha20_xor(polykey, polykey, sizeof polykey, nonce,
	    key);
	ok = crypto_onetimeauth_poly1305_verify(tag, in, len, polykey) == 0;
	ae_wipe(polykey, sizeof polykey);
	if (!ok)
		return AE_EAUTH;
	crypto_stream_chacha20_xor_ic(out, in, len, nonce, 1, key);
	return AE_OK;
}

static int force_sodium;

void
ae_chacha20poly1305_force_sodium(int on)
{
	force_sodium = on;
}

int
ae_chacha20poly1305_open(const uint8_t key[32], const uint8_t nonce[12],
    const uint8_t *in, size_t len, uint8_t *out)
{
	if (len < AE_CHACHAPOLY_TAG_LEN)
		return AE_EINVAL;
	if (ae_evp_available() && !force_sodium) {
		/* libcrypto's, 4 times as fast here (evp.h); its plaintext
		 * is wiped unless the tag verifies */
		int r = ae_evp_decrypt(AE_EVP_CHACHAPOLY, key, 32, nonce, in,
		    len - AE_CHACHAPOLY_TAG_LEN, in + len -
		    AE_CHACHAPOLY_TAG_LEN, out);

		return r == AE_EKEY ? AE_EAUTH : r;
	}
	if (sodium_init() < 0)
		return AE_ENOTSUP;
	/* (the detached form checks the tag before it decrypts anything) */
	if (crypto_aead_chacha20poly1305_ietf_decrypt_detached(out, NULL, in,
	    len - AE_CHACHAPOLY_TAG_LEN, in + len - AE_CHACHAPOLY_TAG_LEN,
	    NULL, 0, nonce, key) != 0)
		return AE_EAUTH;
	return AE_OK;
}
