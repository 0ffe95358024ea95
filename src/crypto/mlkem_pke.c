/*
 * mlkem_pke.c -- K-PKE for k = 3, eta1 = eta2 = 2, du = 10, dv = 4.
 *
 * The matrix is sampled one entry at a time as the products need it, so
 * no more than one of its nine polynomials is held at once; every
 * polynomial that came from a secret is wiped before return.
 */
#include "mlkem_pke.h"

#include <string.h>

#include "mlkem_sample.h"
#include "sha3.h"
#include "common/wipe.h"

#define K AE_MLKEM_K

/* r = sum over j of Â[i][j] * v[j] (or, transposed, Â[j][i] * v[j]) in
 * the NTT domain, where Â[i][j] = SampleNTT(rho || j || i). */
static void matrix_row(struct ae_poly *r, const uint8_t rho[32], int i,
    const struct ae_poly v[K], int transposed)
{
	struct ae_poly a;

	memset(r, 0, sizeof *r);
	for (int j = 0; j < K; j++) {
		if (transposed)
			ae_mlkem_sample_ntt(&a, rho, (uint8_t)i, (uint8_t)j);
		else
			ae_mlkem_sample_ntt(&a, rho, (uint8_t)j, (uint8_t)i);
		ae_poly_basemul_acc(r, &a, &v[j]);
	}
}

void ae_pke_keygen(uint8_t ek[AE_PKE_EK_LEN], uint8_t dk[AE_PKE_DK_LEN],
    const uint8_t d[32])
{
	uint8_t g[64], kbyte = K;
	const uint8_t *rho = g, *sigma = g + 32;
	struct ae_poly s[K], e, t;
	uint8_t n = 0;

	ae_sha3_512(g, d, 32, &kbyte, 1);   /* (rho, sigma) = G(d || k) */
	for (int i = 0; i < K; i++) {
		ae_mlkem_sample_cbd2(&s[i], sigma, n++);
		ae_poly_ntt(&s[i]);
	}
	for (int i = 0; i < K; i++) {
		/* e's N runs on from s's, as the standard counts */
		ae_mlkem_sample_cbd2(&e, sigma, n++);
		ae_poly_ntt(&e);
		matrix_row(&t, rho, i, s, 0);
		ae_poly_add(&t, &t, &e);
		ae_poly_tobytes(ek + i * AE_MLKEM_POLY_BYTES, &t, 12);
		ae_poly_tobytes(dk + i * AE_MLKEM_POLY_BYTES, &s[i], 12);
	}
	memcpy(ek + K * AE_MLKEM_POLY_BYTES, rho, 32);
	ae_wipe(g, sizeof g);
	ae_wipe(s, sizeof s);
	ae_wipe(&e, sizeof e);
}

void ae_pke_encrypt(uint8_t ct[AE_PKE_CT_LEN], const uint8_t ek[AE_PKE_EK_LEN],
    const uint8_t m[32], const uint8_t r[32])
{
	const uint8_t *rho = ek + K * AE_MLKEM_POLY_BYTES;
	struct ae_poly y[K], u, e, v, t;
	uint8_t n = 0;

	for (int i = 0; i < K; i++) {
		ae_mlkem_sample_cbd2(&y[i], r, n++);
		ae_poly_ntt(&y[i]);
	}
	for (int i = 0; i < K; i++) {
		/* u = NTT^-1(Â^T ∘ ŷ) + e1 */
		ae_mlkem_sample_cbd2(&e, r, n++);
		matrix_row(&u, rho, i, y, 1);
		ae_poly_invntt(&u);
		ae_poly_add(&u, &u, &e);
		ae_poly_compress(&u, AE_MLKEM_DU);
		ae_poly_tobytes(ct + i * 32 * AE_MLKEM_DU, &u, AE_MLKEM_DU);
	}
	/* v = NTT^-1(t̂^T ∘ ŷ) + e2 + Decompress_1(m) */
	memset(&v, 0, sizeof v);
	for (int j = 0; j < K; j++) {
		ae_poly_frombytes(&t, ek + j * AE_MLKEM_POLY_BYTES, 12);
		ae_poly_basemul_acc(&v, &t, &y[j]);
	}
	ae_poly_invntt(&v);
	ae_mlkem_sample_cbd2(&e, r, n);
	ae_poly_add(&v, &v, &e);
	ae_poly_frombytes(&t, m, 1);
	ae_poly_decompress(&t, 1);
	ae_poly_add(&v, &v, &t);
	ae_poly_compress(&v, AE_MLKEM_DV);
	ae_poly_tobytes(ct + K * 32 * AE_MLKEM_DU, &v, AE_MLKEM_DV);
	ae_wipe(y, sizeof y);
	ae_wipe(&u, sizeof u);
	ae_wipe(&e, sizeof e);
	ae_wipe(&v, sizeof v);
	ae_wipe(&t, sizeof t);
}

void ae_pke_decrypt(uint8_t m[32], const uint8_t dk[AE_PKE_DK_LEN],
    const uint8_t ct[AE_PKE_CT_LEN])
{
	struct ae_poly u, s, w, v;

	/* w = v' - NTT^-1(ŝ^T ∘ NTT(u')) */
	memset(&w, 0, sizeof w);
	for (int i = 0; i < K; i++) {
		ae_poly_frombytes(&u, ct + i * 32 * AE_MLKEM_DU, AE_MLKEM_DU);
		ae_poly_decompress(&u, AE_MLKEM_DU);
		ae_poly_ntt(&u);
		ae_poly_frombytes(&s, dk + i * AE_MLKEM_POLY_BYTES, 12);
		ae_poly_basemul_acc(&w, &s, &u);
	}
	ae_poly_invntt(&w);
	ae_poly_frombytes(&v, ct + K * 32 * AE_MLKEM_DU, AE_MLKEM_DV);
	ae_poly_decompress(&v, AE_MLKEM_DV);
	ae_poly_sub(&w, &v, &w);
	ae_poly_compress(&w, 1);
	ae_poly_tobytes(m, &w, 1);
	ae_wipe(&u, sizeof u);
	ae_wipe(&s, sizeof s);
	ae_wipe(&w, sizeof w);
	ae_wipe(&v, sizeof v);
}
