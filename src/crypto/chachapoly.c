/*
 * chachapoly.c -- chacha20-poly1305@openssh.com and RFC 8439's AEAD,
 * opened through libsodium (contracts in chachapoly.h).
 */
#include "config.h"
#include "chachapoly.h"

#include <sodium.h>

#include "common/error.h"
#include "common/wipe.h"

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

int
ae_chacha20poly1305_open(const uint8_t key[32], const uint8_t nonce[12],
    const uint8_t *in, size_t len, uint8_t *out)
{
	if (len < AE_CHACHAPOLY_TAG_LEN)
		return AE_EINVAL;
	if (sodium_init() < 0)
		return AE_ENOTSUP;
	/* (the detached form checks the tag before it decrypts anything) */
	if (crypto_aead_chacha20poly1305_ietf_decrypt_detached(out, NULL, in,
	    len - AE_CHACHAPOLY_TAG_LEN, in + len - AE_CHACHAPOLY_TAG_LEN,
	    NULL, 0, nonce, key) != 0)
		return AE_EAUTH;
	return AE_OK;
}
