/*
 * pbkdf2.c -- PBKDF2-HMAC-SHA512 (contract in pbkdf2.h).
 *
 * The HMAC state after the key is absorbed is computed once and copied
 * for every iteration, so each iteration costs two SHA-512 compressions
 * instead of four (AES Crypt 4 writes 300,000 iterations).
 */
#include "config.h"
#include "pbkdf2.h"
#include "common/bytes.h"
#include "common/error.h"
#include "common/wipe.h"

#include <sodium.h>
#include <string.h>

#define HLEN crypto_auth_hmacsha512_BYTES

int
ae_pbkdf2_sha512(const uint8_t *pass, size_t passlen, const uint8_t *salt,
    size_t saltlen, uint32_t iterations, uint8_t *out, size_t outlen)
{
	crypto_auth_hmacsha512_state keyed, st;
	uint8_t u[HLEN], t[HLEN], ctr[4];
	uint32_t block;
	size_t i, n;

	if (iterations == 0 || outlen == 0
	    || (uint64_t)outlen > (uint64_t)HLEN * 0xffffffffu)
		return AE_EINVAL;
	crypto_auth_hmacsha512_init(&keyed, pass, passlen);
	for (block = 1; outlen > 0; block++) {
		uint32_t it;

		store_be32(ctr, block);
		st = keyed;
		crypto_auth_hmacsha512_update(&st, salt, saltlen);
		crypto_auth_hmacsha512_update(&st, ctr, 4);
		crypto_auth_hmacsha512_final(&st, u);
		memcpy(t, u, HLEN);
		for (it = 1; it < iterations; it++) {
			st = keyed;
			crypto_auth_hmacsha512_update(&st, u, HLEN);
			crypto_auth_hmacsha512_final(&st, u);
			for (i = 0; i < HLEN; i++)
				t[i] ^= u[i];
		}
		n = outlen < HLEN ? outlen : HLEN;
		memcpy(out, t, n);
		out += n;
		outlen -= n;
	}
	ae_wipe(&keyed, sizeof keyed);
	ae_wipe(&st, sizeof st);
	ae_wipe(u, sizeof u);
	ae_wipe(t, sizeof t);
	return 0;
}
