/*
 * scrypt.c -- scrypt through libsodium (contract in scrypt.h).
 */
#include "config.h"
#include "scrypt.h"

#include <errno.h>
#include <sodium.h>

#include "common/error.h"

int
ae_scrypt(const uint8_t *pass, size_t passlen, const uint8_t *salt,
    size_t saltlen, unsigned log_n, uint32_t r, uint32_t p, uint8_t *out,
    size_t outlen)
{
	if (log_n == 0 || log_n > AE_SCRYPT_LOG_N_MAX)
		return AE_EINVAL;
	if (sodium_init() < 0)
		return AE_ENOTSUP;
	errno = 0;
	if (crypto_pwhash_scryptsalsa208sha256_ll(pass, passlen, salt,
	    saltlen, (uint64_t)1 << log_n, r, p, out, outlen) != 0)
		return errno == ENOMEM ? AE_ENOMEM : AE_EINVAL;
	return AE_OK;
}
