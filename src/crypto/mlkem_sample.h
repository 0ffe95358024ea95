/*
 * mlkem_sample.h -- ML-KEM's sampling (FIPS 203, 4.2.2): the public
 * matrix from its seed, and the secret and error polynomials from a
 * PRF.
 */
#ifndef AE_MLKEM_SAMPLE_H
#define AE_MLKEM_SAMPLE_H

#include <stdint.h>

#include "mlkem_poly.h"

/*
 * SampleNTT (Algorithm 7): the NTT-domain polynomial that SHAKE128 of
 * rho || j || i gives by rejection sampling.  Its branches depend on
 * the XOF's output, which is public (rho is part of the encapsulation
 * key); it reads as many XOF blocks as the rejections need.
 */
void ae_mlkem_sample_ntt(struct ae_poly *a, const uint8_t rho[32],
    uint8_t j, uint8_t i);

/*
 * SamplePolyCBD_2 (Algorithm 8) of PRF_2(s, b) = SHAKE256(s || b, 128)
 * (4.1): a polynomial with coefficients in [-2, 2] mod q.  Constant-time
 * in s.  (ML-KEM-768 has eta1 = eta2 = 2, so only eta 2 is written.)
 */
void ae_mlkem_sample_cbd2(struct ae_poly *a, const uint8_t s[32], uint8_t b);

#endif
