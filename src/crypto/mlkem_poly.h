/*
 * mlkem_poly.h -- ML-KEM's ring arithmetic (FIPS 203, sections 4.2.1,
 * 4.3 and 4.2.1's encodings): polynomials of Z_q[X]/(X^256 + 1), q =
 * 3329, their NTT, products in the NTT domain, and the byte encodings
 * and compression the KEM puts on the wire.
 *
 * Every coefficient is kept fully reduced, in [0, q).  Nothing here
 * branches on or indexes by a coefficient, and no division is done at
 * run time: reductions multiply by a precomputed reciprocal.  So every
 * function is constant-time in its polynomials, secret or not.
 */
#ifndef AE_MLKEM_POLY_H
#define AE_MLKEM_POLY_H

#include <stdint.h>

#define AE_MLKEM_N 256
#define AE_MLKEM_Q 3329
/* ByteEncode_12 of one polynomial */
#define AE_MLKEM_POLY_BYTES 384

struct ae_poly {
	uint16_t c[AE_MLKEM_N];
};

/* r = a + b, r = a - b (r may be a or b). */
void ae_poly_add(struct ae_poly *r, const struct ae_poly *a,
    const struct ae_poly *b);
void ae_poly_sub(struct ae_poly *r, const struct ae_poly *a,
    const struct ae_poly *b);

/* In place: NTT (Algorithm 9) and its inverse (Algorithm 10, with the
 * final multiplication by 128^-1). */
void ae_poly_ntt(struct ae_poly *f);
void ae_poly_invntt(struct ae_poly *f);

/* r += a * b in the NTT domain (MultiplyNTTs, Algorithm 11, added to
 * r: the inner products of the KEM are sums of such products). */
void ae_poly_basemul_acc(struct ae_poly *r, const struct ae_poly *a,
    const struct ae_poly *b);

/* ByteEncode_d and ByteDecode_d (Algorithms 5 and 6) for d in 1..12:
 * 32 * d bytes.  Decode with d = 12 reduces each value mod q, as the
 * standard's ByteDecode_12 does; ae_poly_frombytes_checked reports
 * instead whether every value was already below q (the encapsulation
 * key's modulus check, FIPS 203 7.2): 1 if so, 0 if not. */
void ae_poly_tobytes(uint8_t *out, const struct ae_poly *a, unsigned d);
void ae_poly_frombytes(struct ae_poly *a, const uint8_t *in, unsigned d);
int ae_poly_frombytes_checked(struct ae_poly *a, const uint8_t *in);

/* In place: Compress_d and Decompress_d (4.2.1) of every coefficient,
 * d in 1..11. */
void ae_poly_compress(struct ae_poly *a, unsigned d);
void ae_poly_decompress(struct ae_poly *a, unsigned d);

/* The reduction and compression of one value, for the unit test, which
 * checks them against plain division over their whole input range:
 * ae_mlkem_reduce(x) = x mod q for x < 2^31; ae_mlkem_compress(x, d) =
 * round(2^d x / q) mod 2^d for x < q. */
uint16_t ae_mlkem_reduce(uint32_t x);
uint16_t ae_mlkem_compress(uint16_t x, unsigned d);

#endif
