/*
 * hpke.h -- HPKE (RFC 9180), the receiver's side of base mode, for the
 * one suite age's "mlkem768x25519" stanzas use (age 1.3, C2SP age.md):
 * the KEM MLKEM768-X25519 of draft-ietf-hpke-pq (X-Wing, crypto/xwing.h;
 * KEM id 0x647a), the KDF HKDF-SHA256 (0x0001) and the AEAD
 * ChaCha20Poly1305 (0x0003).  Only the first message of a context is
 * opened (sequence number 0), which is all age sends.
 */
#ifndef AE_HPKE_H
#define AE_HPKE_H

#include <stddef.h>
#include <stdint.h>

#include "xwing.h"

/*
 * pt = OpenBase(enc, skR = k, info, aad = "", ct) for the first message
 * (ct's last 16 bytes are the tag; pt gets ctlen - 16 bytes).  Returns
 * 0; AE_EAUTH when ct does not open (a ciphertext for another key:
 * the KEM's implicit rejection gives a wrong secret, not an error);
 * AE_EINVAL for ctlen < 16 or an enc whose X25519 half is of low order
 * (the X25519 secret would be all zeros, which HPKE's KEM refuses);
 * AE_ENOTSUP if libsodium cannot start.  Every secret on the way is
 * wiped.
 */
int ae_hpke_xwing_open(const struct ae_xwing_key *k,
    const uint8_t enc[AE_XWING_CT_LEN], const uint8_t *info, size_t infolen,
    const uint8_t *ct, size_t ctlen, uint8_t *pt);

#endif
