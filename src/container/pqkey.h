/*
 * pqkey.h -- the mlkem768x25519 recipient (format/aescrypt-v1.md 4.8):
 * its key strings, which are age 1.3's, and its slot secret.
 * recipient.c wraps these in its recipient and identity types.
 *
 *   public key   "age1pq1..."             the 1,216-byte X-Wing public
 *                                         key in Bech32 under "age1pq"
 *   private key  "AGE-SECRET-KEY-PQ-1..." the 32-byte X-Wing seed under
 *                                         "age-secret-key-pq-"
 */
#ifndef AE_PQKEY_H
#define AE_PQKEY_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "crypto/xwing.h"
#include "format.h"

#define AE_PQ_RECIPIENT_PREFIX "age1pq1"
#define AE_PQ_IDENTITY_PREFIX "AGE-SECRET-KEY-PQ-"

/* Parse "age1pq1..." into pk.  0; AE_EFORMAT (d says why and where);
 * AE_EINVAL if the key's ML-KEM half fails FIPS 203's check (7.2) or
 * its X25519 half is of low order: no slot could be made for it. */
int ae_pq_public_parse(const char *s, uint8_t pk[AE_XWING_PK_LEN],
    struct ae_diag *d);
/* "age1pq1..." into out (cap bytes); its length, or 0 if it does not
 * fit. */
size_t ae_pq_public_format(const uint8_t pk[AE_XWING_PK_LEN], char *out,
    size_t cap);
/* pk's tag: the first 4 bytes of SHA-256(pk). */
void ae_pq_tag(const uint8_t pk[AE_XWING_PK_LEN], uint8_t tag[AE_SSH_TAG_LEN]);

/* Parse "AGE-SECRET-KEY-PQ-1..." (either case, not mixed) into seed.
 * 0 or AE_EFORMAT. */
int ae_pq_seed_parse(const char *s, uint8_t seed[AE_XWING_SEED_LEN],
    struct ae_diag *d);
/* The seed's text in lower case (the caller upper-cases it, as age
 * writes it); its length, or 0 if it does not fit. */
size_t ae_pq_seed_format(const uint8_t seed[AE_XWING_SEED_LEN], char *out,
    size_t cap);

/* A slot's ciphertext to pk with the 64 bytes of randomness eseed, and
 * its slot secret S.  0; AE_EINVAL for a key X-Wing refuses. */
int ae_pq_slot_make(uint8_t ct[AE_PQ_CT_LEN],
    const uint8_t pk[AE_XWING_PK_LEN], const uint8_t eseed[64], uint8_t S[32]);

/* The slot secret that key k (whose public key is pk) gives for the
 * ciphertext ct: 0, or AE_EFORMAT if ct's X25519 half is of low order.
 * A ciphertext for another key gives an unrelated S (implicit
 * rejection), which fails the slot's wrap MAC as a wrong key does. */
int ae_pq_slot_open(const uint8_t ct[AE_PQ_CT_LEN],
    const struct ae_xwing_key *k, const uint8_t pk[AE_XWING_PK_LEN],
    uint8_t S[32]);

#endif
