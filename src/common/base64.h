/*
 * base64.h -- RFC 4648 base64, for OpenSSH keys (the "ssh-ed25519
 * AAAA..." line and the body of an OpenSSH private key) and signatures
 * (SSHSIG's armour, key fingerprints); and strictly, as age's header
 * and armor must be read.
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
 * Decode s[0, n) strictly, as age requires (RFC 4648 section 3.5's
 * canonical encoding): no whitespace or other character outside the
 * alphabet; with pad, '=' padding to a multiple of 4 and nothing else;
 * without it, no '=' at all and a length that is not 1 more than a
 * multiple of 4; and the unused bits of the last character zero.
 * Returns 0 with *len set, -1 for anything else, -2 if out (cap bytes)
 * is too small.
 */
int ae_base64_decode_strict(const char *s, size_t n, int pad, uint8_t *out,
    size_t cap, size_t *len);

/*
 * Encode in[0, n) into out (cap bytes, NUL-terminated), with '='
 * padding if pad (a fingerprint has none).  Returns the length without
 * the NUL, or 0 if out is too small.  For public data: its table
 * lookups are not constant-time.
 */
size_t ae_base64_encode(const uint8_t *in, size_t n, int pad, char *out,
    size_t cap);

#endif
