/*
 * base64.h -- RFC 4648 base64 decoding, for OpenSSH keys (the
 * "ssh-ed25519 AAAA..." line and the body of an OpenSSH private key).
 */
#ifndef AE_BASE64_H
#define AE_BASE64_H

#include <stddef.h>
#include <stdint.h>

/*
 * Decode s[0, n) (the standard alphabet, '=' padding to a multiple of 4
 * or none; ASCII whitespace is skipped, as between PEM lines) into out
 * (cap bytes).  Returns 0 with *len set; -1 for a character outside the
 * alphabet, misplaced padding or a length that cannot be base64
 * (*bad: its offset), -2 if out is too small.
 */
int ae_base64_decode(const char *s, size_t n, uint8_t *out, size_t cap,
    size_t *len, size_t *bad);

#endif
