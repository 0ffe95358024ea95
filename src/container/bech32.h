/*
 * bech32.h -- Bech32 (BIP-173), the text form of age's keys:
 * "age1..." recipients and "AGE-SECRET-KEY-1..." identities.
 *
 * As age uses it: the checksum constant is Bech32's (1, not Bech32m's),
 * and there is no 90-character limit.  A string must be all lower case
 * or all upper case; every character and the checksum are checked.
 * Both directions are constant-time in the data and the data characters
 * (an identity's text is its secret key).
 */
#ifndef AE_BECH32_H
#define AE_BECH32_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

/*
 * Encode data (len bytes) under the human-readable part hrp (lower
 * case) into out (cap bytes, NUL-terminated), in lower case.  Returns
 * the length, or 0 if it does not fit or hrp is not 1 to 83 printable
 * ASCII characters.
 */
size_t ae_bech32_encode(char *out, size_t cap, const char *hrp,
    const uint8_t *data, size_t len);

/*
 * Decode s (n characters; no NUL is looked for, so the length of a
 * secret string need not be found by reading it): its human-readable part, lower-cased, goes to hrp (hcap
 * bytes, NUL-terminated) and its data bytes to data (dcap bytes, *len
 * set).  Returns 0; or -1 with *bad set to the 0-based position of the
 * first offending character (one outside the charset, a mixed case, a
 * separator missing: the end of the string), or -2 if the checksum does
 * not match or the data's padding is not zero (*bad is then the length
 * of s), -3 if hrp or data does not fit its buffer, or -4 if s mixes
 * upper and lower case (*bad: the first character of the second case).
 */
int ae_bech32_decode(const char *s, size_t n, char *hrp, size_t hcap,
    uint8_t *data, size_t dcap, size_t *len, size_t *bad);

/*
 * A key of exactly keylen bytes (at most 2048) in Bech32 under hrp,
 * into key: age's key strings.  Returns 0, or AE_EFORMAT with d->what
 * saying why (a character outside the charset, a checksum mismatch,
 * mixed case, another prefix, another length) and d->offset where.
 */
int ae_bech32_key(const char *s, const char *hrp, uint8_t *key,
    size_t keylen, struct ae_diag *d);

#endif
