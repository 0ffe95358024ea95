/*
 * x25519.h -- X25519 (RFC 7748) and the Ed25519-to-X25519 maps, for
 * public-key recipients.
 *
 * A thin layer over libsodium: curve arithmetic is not written here.
 * libsodium's X25519 is constant-time in the scalar.  Every function is
 * safe to call from any thread (libsodium is initialised once, here).
 */
#ifndef AE_X25519_H
#define AE_X25519_H

#include <stdint.h>

#define AE_X25519_LEN 32

/*
 * out = X25519(scalar, point).  Returns 0; AE_EINVAL if the result is
 * all zeros (point is of low order: the shared secret would be known to
 * anyone, so it MUST NOT be used); AE_ENOTSUP if libsodium cannot start.
 */
int ae_x25519(uint8_t out[AE_X25519_LEN], const uint8_t scalar[AE_X25519_LEN],
    const uint8_t point[AE_X25519_LEN]);

/*
 * Whether point (a public u-coordinate, as stored) is of low order:
 * X25519 of it with any scalar is all zeros, so ae_x25519 would refuse
 * it whatever the scalar.  Needs no secret, so a reader can refuse such
 * a point before it tries any key (spec 4.5).  The 7 such values below
 * 2^255 (RFC 7748's small-order points and their encodings past p), the
 * top bit ignored as X25519 ignores it.  Not constant-time: the input
 * is public.
 */
int ae_x25519_low_order(const uint8_t point[AE_X25519_LEN]);

/* pub = X25519(scalar, 9): the public key of a secret scalar.  0 or
 * AE_ENOTSUP. */
int ae_x25519_base(uint8_t pub[AE_X25519_LEN],
    const uint8_t scalar[AE_X25519_LEN]);

/* The X25519 public key of an Ed25519 public key (the birational map
 * u = (1 + y) / (1 - y)).  0, or AE_EINVAL if ed is not a valid point of
 * the prime-order group. */
int ae_ed25519_pk_to_x25519(uint8_t x[AE_X25519_LEN],
    const uint8_t ed[AE_X25519_LEN]);

/* The X25519 secret scalar of an Ed25519 private key given as its
 * 32-byte seed (the first half of SHA-512(seed), as Ed25519 uses it).
 * 0 or AE_ENOTSUP. */
int ae_ed25519_seed_to_x25519(uint8_t x[AE_X25519_LEN],
    const uint8_t seed[AE_X25519_LEN]);

/* The libsodium version in use ("1.0.18"), for --version. */
const char *ae_x25519_library_version(void);

#endif
