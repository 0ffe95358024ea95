/*
 * mlkem_pke.h -- K-PKE (FIPS 203, section 5) for ML-KEM-768: the
 * IND-CPA encryption scheme ML-KEM is built on.  Only crypto/mlkem.c
 * calls it; it is a file of its own because the standard makes it a
 * part of its own.
 */
#ifndef AE_MLKEM_PKE_H
#define AE_MLKEM_PKE_H

#include <stdint.h>

#include "mlkem_poly.h"

#define AE_MLKEM_K 3
#define AE_MLKEM_DU 10
#define AE_MLKEM_DV 4
#define AE_PKE_EK_LEN (AE_MLKEM_K * AE_MLKEM_POLY_BYTES + 32)   /* 1184 */
#define AE_PKE_DK_LEN (AE_MLKEM_K * AE_MLKEM_POLY_BYTES)        /* 1152 */
#define AE_PKE_CT_LEN (32 * (AE_MLKEM_DU * AE_MLKEM_K + AE_MLKEM_DV)) /* 1088 */

/* K-PKE.KeyGen (Algorithm 13) from the 32-byte seed d. */
void ae_pke_keygen(uint8_t ek[AE_PKE_EK_LEN], uint8_t dk[AE_PKE_DK_LEN],
    const uint8_t d[32]);

/*
 * K-PKE.Encrypt (Algorithm 14) of the 32-byte message m with the
 * randomness r.  ek must have passed the modulus check (ae_mlkem_encaps
 * does it).  Constant-time in m and r.
 */
void ae_pke_encrypt(uint8_t ct[AE_PKE_CT_LEN], const uint8_t ek[AE_PKE_EK_LEN],
    const uint8_t m[32], const uint8_t r[32]);

/* K-PKE.Decrypt (Algorithm 15).  Constant-time in dk and ct. */
void ae_pke_decrypt(uint8_t m[32], const uint8_t dk[AE_PKE_DK_LEN],
    const uint8_t ct[AE_PKE_CT_LEN]);

#endif
