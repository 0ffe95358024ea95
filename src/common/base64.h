/*
 * base64.h -- RFC 4648 base64, for OpenSSH keys (the "ssh-ed25519
 * AAAA..." line and the body of an OpenSSH private key) and signatures
 * (SSHSIG's armour, key fingerprints).
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

/*
 * Encode in[0, n) into out (cap bytes, NUL-terminated), with '='
 * padding if pad (a fingerprint has none).  Returns the length without
 * the NUL, or 0 if out is too small.  For public data: its table
 * lookups are not constant-time.
 */
size_t ae_base64_encode(const uint8_t *in, size_t n, int pad, char *out,
    size_t cap);

#endif
