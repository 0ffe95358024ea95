/*
 * chachapoly.c -- chacha20-poly1305@openssh.com through libsodium
 * (contract in chachapoly.h).
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
