/*
 * mlkem.h -- ML-KEM-768 (FIPS 203), the post-quantum half of X-Wing
 * (crypto/xwing.h).
 *
 * The deterministic ("internal") forms of section 6, with the
 * randomness passed in: the caller draws it (crypto/random.h), and the
 * known-answer tests pass their own.  The input checks of section 7
 * are here, so no caller can skip them.
 *
 * Constant-time: no branch, address or division depends on d, z, m,
 * the decapsulation key's secret parts or the ciphertext; decapsulation
 * compares the ciphertexts and selects its result (implicit rejection)
 * without a branch.
 */
#ifndef AE_MLKEM_H
#define AE_MLKEM_H

#include <stdint.h>

#include "mlkem_pke.h"

#define AE_MLKEM768_EK_LEN AE_PKE_EK_LEN                      /* 1184 */
#define AE_MLKEM768_DK_LEN (AE_PKE_DK_LEN + AE_PKE_EK_LEN + 64) /* 2400 */
#define AE_MLKEM768_CT_LEN AE_PKE_CT_LEN                      /* 1088 */
#define AE_MLKEM_SS_LEN 32

/* ML-KEM.KeyGen_internal (Algorithm 16) from the seeds d and z.  The
 * caller wipes dk after use. */
void ae_mlkem768_keygen(uint8_t ek[AE_MLKEM768_EK_LEN],
    uint8_t dk[AE_MLKEM768_DK_LEN], const uint8_t d[32], const uint8_t z[32]);

/* The encapsulation key check of 7.2: every 12-bit coefficient of ek
 * below q.  1 if ek passes, 0 if not. */
int ae_mlkem768_check_ek(const uint8_t ek[AE_MLKEM768_EK_LEN]);

/*
 * ML-KEM.Encaps_internal (Algorithm 17) with the message m, after the
 * encapsulation key check of 7.2 (every coefficient below q).  Returns
 * 0, or AE_EINVAL if ek fails the check (nothing is written then).
 */
int ae_mlkem768_encaps(uint8_t ct[AE_MLKEM768_CT_LEN],
    uint8_t ss[AE_MLKEM_SS_LEN], const uint8_t ek[AE_MLKEM768_EK_LEN],
    const uint8_t m[32]);

/*
 * ML-KEM.Decaps_internal (Algorithm 18), after the decapsulation key
 * check of 7.3 (its stored hash of ek is H(ek)).  A ciphertext that was
 * not made for dk gives the implicit-rejection secret J(z || ct), a
 * value that opens nothing, in the same time as a good one.  Returns 0,
 * or AE_EINVAL if dk fails the check.
 */
int ae_mlkem768_decaps(uint8_t ss[AE_MLKEM_SS_LEN],
    const uint8_t ct[AE_MLKEM768_CT_LEN], const uint8_t dk[AE_MLKEM768_DK_LEN]);

#endif
