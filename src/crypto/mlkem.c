/*
 * mlkem.c -- ML-KEM-768: the Fujisaki-Okamoto transform over K-PKE,
 * with implicit rejection, as FIPS 203 section 6 gives it.
 *
 * dk = dk_pke || ek || H(ek) || z (Algorithm 16).
 */
#include "mlkem.h"

#include <string.h>

#include "common/error.h"
#include "sha3.h"
#include "common/wipe.h"

#define DK_EK (AE_PKE_DK_LEN)                   /* offset of ek in dk */
#define DK_H (DK_EK + AE_PKE_EK_LEN)            /* of H(ek) */
#define DK_Z (DK_H + 32)                        /* of z */

void ae_mlkem768_keygen(uint8_t ek[AE_MLKEM768_EK_LEN],
    uint8_t dk[AE_MLKEM768_DK_LEN], const uint8_t d[32], const uint8_t z[32])
{
	ae_pke_keygen(ek, dk, d);
	memcpy(dk + DK_EK, ek, AE_PKE_EK_LEN);
	ae_sha3_256(dk + DK_H, ek, AE_PKE_EK_LEN, NULL, 0);
	memcpy(dk + DK_Z, z, 32);
}

/* ByteEncode_12(ByteDecode_12(ek)) = ek exactly when every value is
 * below q.  ek is public: no need for constant time, but
 * ae_poly_frombytes_checked is anyway. */
int ae_mlkem768_check_ek(const uint8_t ek[AE_MLKEM768_EK_LEN])
{
	struct ae_poly t;
	int ok = 1;

	for (int i = 0; i < AE_MLKEM_K; i++)
		ok &= ae_poly_frombytes_checked(&t, ek + i * AE_MLKEM_POLY_BYTES);
	return ok;
}

int ae_mlkem768_encaps(uint8_t ct[AE_MLKEM768_CT_LEN],
    uint8_t ss[AE_MLKEM_SS_LEN], const uint8_t ek[AE_MLKEM768_EK_LEN],
    const uint8_t m[32])
{
	uint8_t h[32], kr[64];

	if (!ae_mlkem768_check_ek(ek))
		return AE_EINVAL;
	/* (K, r) = G(m || H(ek)) */
	ae_sha3_256(h, ek, AE_PKE_EK_LEN, NULL, 0);
	ae_sha3_512(kr, m, 32, h, 32);
	ae_pke_encrypt(ct, ek, m, kr + 32);
	memcpy(ss, kr, 32);
	ae_wipe(kr, sizeof kr);
	return 0;
}

int ae_mlkem768_decaps(uint8_t ss[AE_MLKEM_SS_LEN],
    const uint8_t ct[AE_MLKEM768_CT_LEN], const uint8_t dk[AE_MLKEM768_DK_LEN])
{
	uint8_t h[32], m[32], kr[64], reject[32];
	uint8_t ct2[AE_MLKEM768_CT_LEN];
	uint8_t diff = 0, keep;

	/* the hash check of 7.3: the key is public-derived, a branch is fine */
	ae_sha3_256(h, dk + DK_EK, AE_PKE_EK_LEN, NULL, 0);
	if (memcmp(h, dk + DK_H, 32) != 0)
		return AE_EINVAL;

	ae_pke_decrypt(m, dk, ct);
	ae_sha3_512(kr, m, 32, dk + DK_H, 32);          /* (K', r') */
	ae_shake256(reject, 32, dk + DK_Z, 32, ct, AE_MLKEM768_CT_LEN);
	ae_pke_encrypt(ct2, dk + DK_EK, m, kr + 32);

	/* K' if ct = ct', else K̄: an OR of all differences, folded to a
	 * mask without a branch (never a strcmp: CCTV's strcmp vectors
	 * catch a comparison that stops at a zero byte). */
	for (size_t i = 0; i < AE_MLKEM768_CT_LEN; i++)
		diff |= ct[i] ^ ct2[i];
	keep = (uint8_t)(((uint32_t)diff - 1) >> 8);   /* 0xff iff diff == 0 */
	for (int i = 0; i < 32; i++)
		ss[i] = (uint8_t)((kr[i] & keep) | (reject[i] & (uint8_t)~keep));

	ae_wipe(m, sizeof m);
	ae_wipe(kr, sizeof kr);
	ae_wipe(reject, sizeof reject);
	ae_wipe(ct2, sizeof ct2);
	return 0;
}
