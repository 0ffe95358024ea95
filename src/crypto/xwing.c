/*
 * xwing.c -- X-Wing, as draft-connolly-cfrg-xwing-kem (version 06 and
 * later) gives it: ss = SHA3-256(ss_M || ss_X || ct_X || pk_X || label).
 */
#include "xwing.h"

#include <string.h>

#include "common/error.h"
#include "sha3.h"
#include "common/wipe.h"
#include "x25519.h"

/* "\.//^\" */
static const uint8_t label[6] = { 0x5c, 0x2e, 0x2f, 0x2f, 0x5e, 0x5c };

static void combine(uint8_t ss[AE_XWING_SS_LEN], const uint8_t ss_m[32],
    const uint8_t ss_x[32], const uint8_t ct_x[32], const uint8_t pk_x[32])
{
	uint8_t in[4 * 32 + sizeof label];

	memcpy(in, ss_m, 32);
	memcpy(in + 32, ss_x, 32);
	memcpy(in + 64, ct_x, 32);
	memcpy(in + 96, pk_x, 32);
	memcpy(in + 128, label, sizeof label);
	ae_sha3_256(ss, in, sizeof in, NULL, 0);
	ae_wipe(in, sizeof in);
}

int ae_xwing_expand(struct ae_xwing_key *k, uint8_t *pk,
    const uint8_t seed[AE_XWING_SEED_LEN])
{
	uint8_t ex[96], ek[AE_MLKEM768_EK_LEN];
	int rc;

	ae_shake256(ex, sizeof ex, seed, AE_XWING_SEED_LEN, NULL, 0);
	ae_mlkem768_keygen(ek, k->dk_m, ex, ex + 32);
	memcpy(k->sk_x, ex + 64, 32);
	ae_wipe(ex, sizeof ex);
	rc = ae_x25519_base(k->pk_x, k->sk_x);
	if (rc == 0 && pk != NULL) {
		memcpy(pk, ek, sizeof ek);
		memcpy(pk + sizeof ek, k->pk_x, 32);
	}
	return rc;
}

int ae_xwing_encaps(uint8_t ct[AE_XWING_CT_LEN], uint8_t ss[AE_XWING_SS_LEN],
    const uint8_t pk[AE_XWING_PK_LEN], const uint8_t eseed[AE_XWING_ESEED_LEN])
{
	const uint8_t *pk_x = pk + AE_MLKEM768_EK_LEN;
	uint8_t *ct_x = ct + AE_MLKEM768_CT_LEN;
	uint8_t ss_m[32], ss_x[32];
	int rc;

	if ((rc = ae_x25519_base(ct_x, eseed + 32)) != 0)
		return rc;
	if ((rc = ae_x25519(ss_x, eseed + 32, pk_x)) != 0)
		return rc;
	if ((rc = ae_mlkem768_encaps(ct, ss_m, pk, eseed)) == 0)
		combine(ss, ss_m, ss_x, ct_x, pk_x);
	ae_wipe(ss_m, sizeof ss_m);
	ae_wipe(ss_x, sizeof ss_x);
	return rc;
}

int ae_xwing_decaps(uint8_t ss[AE_XWING_SS_LEN],
    const uint8_t ct[AE_XWING_CT_LEN], const struct ae_xwing_key *k)
{
	const uint8_t *ct_x = ct + AE_MLKEM768_CT_LEN;
	uint8_t ss_m[32], ss_x[32];
	int rc;

	if ((rc = ae_x25519(ss_x, k->sk_x, ct_x)) != 0)
		return rc;
	if ((rc = ae_mlkem768_decaps(ss_m, ct, k->dk_m)) == 0)
		combine(ss, ss_m, ss_x, ct_x, k->pk_x);
	ae_wipe(ss_m, sizeof ss_m);
	ae_wipe(ss_x, sizeof ss_x);
	return rc;
}
