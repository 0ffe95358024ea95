/*
 * ghash_ct.h -- GHASH (GCM's universal hash) in portable, constant-time C.
 *
 * No per-key tables: multiplication in GF(2^128) uses integer multiplies
 * on operands with "holes" so that carries never reach a bit that is kept.
 */
#ifndef AE_GHASH_CT_H
#define AE_GHASH_CT_H

#include <stddef.h>
#include <stdint.h>

/* The hash key H = E(K, 0^128) and its powers H^1..H^4, as big-endian
 * 64-bit halves, plus their bit reversals.  Secret. */
struct ae_ghash_ct_key {
	uint64_t h[4][2];     /* h[i] = H^(i+1): [0] high half, [1] low half */
	uint64_t hr[4][2];    /* the same, each half bit-reversed */
	/* For the AVX2 path: 32-bit words of H^4..H^1 split into bit
	 * classes, one power per lane (see ghash_ct.c). */
	_Alignas(32) uint64_t hv[9][4][4];
};

/* Set up from H (16 bytes, GCM byte order).  The caller wipes k. */
void ae_ghash_ct_init(struct ae_ghash_ct_key *k, const uint8_t h[16]);

/*
 * y <- (y xor X1)*H ... over nblocks 16-byte blocks of in, the GHASH
 * update of SP 800-38D section 6.4.  y is in GCM byte order.
 */
void ae_ghash_ct_update(const struct ae_ghash_ct_key *k, uint8_t y[16],
    const uint8_t *in, size_t nblocks);

/*
 * Test hook: the same as ae_ghash_ct_update() but always on the portable
 * scalar code, so that a test can compare it with the AVX2 path the
 * dispatcher picks on this machine.
 */
void ae_ghash_ct_update_portable(const struct ae_ghash_ct_key *k, uint8_t y[16],
    const uint8_t *in, size_t nblocks);

/*
 * out <- x * y in GF(2^128), GCM's field and byte order (so x * H is one
 * GHASH step of x with a zero block).  For products by powers of H that
 * no key schedule holds (container/recscan.c).  Constant time; out may
 * be x or y.
 */
void ae_gf128_mul(uint8_t out[16], const uint8_t x[16], const uint8_t y[16]);

#endif
