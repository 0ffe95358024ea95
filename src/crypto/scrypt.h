/*
 * scrypt.h -- scrypt (RFC 7914), as age's passphrase stanzas use it:
 * libsodium's crypto_pwhash_scryptsalsa208sha256_ll, by N, r and p.
 * Nothing of it is written here.
 */
#ifndef AE_SCRYPT_H
#define AE_SCRYPT_H

#include <stddef.h>
#include <stdint.h>

/* The largest log2(N) this wrapper runs at all (N * r * 128 bytes of
 * memory: 2^30 * 1 KiB is 1 TiB); callers set their own, lower caps. */
#define AE_SCRYPT_LOG_N_MAX 30

/*
 * out[0..outlen) = scrypt(pass, salt, N = 2^log_n, r, p).  Returns 0;
 * AE_EINVAL for log_n of 0 or over AE_SCRYPT_LOG_N_MAX; AE_ENOMEM when
 * its memory cannot be had; AE_ENOTSUP if libsodium cannot start.  The
 * caller wipes out.
 */
int ae_scrypt(const uint8_t *pass, size_t passlen, const uint8_t *salt,
    size_t saltlen, unsigned log_n, uint32_t r, uint32_t p, uint8_t *out,
    size_t outlen);

#endif
