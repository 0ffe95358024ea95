/*
 * pqkey.c -- mlkem768x25519 keys and slots (contract in pqkey.h).
 *
 * S = HKDF(ss, SHA-256(pk), "aescrypt-v1 mlkem768x25519"), with ss the
 * X-Wing shared secret: the salt binds the slot to the whole public key
 * (X-Wing's combiner binds only the X25519 half; ML-KEM binds its own
 * through its ciphertext).
 */
#include "config.h"
#include "pqkey.h"

#include <string.h>

#include "bech32.h"
#include "crypto/hkdf.h"
#include "crypto/sha256.h"
#include "common/wipe.h"
#include "crypto/x25519.h"

#define HRP_PQ_RECIPIENT "age1pq"
#define HRP_PQ_IDENTITY "age-secret-key-pq-"

_Static_assert(AE_PQ_CT_LEN == AE_XWING_CT_LEN,
    "format.h's ciphertext length is X-Wing's");

int ae_pq_public_parse(const char *s, uint8_t pk[AE_XWING_PK_LEN],
    struct ae_diag *d)
{
	int e;

	if ((e = ae_bech32_key(s, HRP_PQ_RECIPIENT, pk, AE_XWING_PK_LEN, d))
	    != AE_OK)
		return e;
	/* The checks an encapsulation makes, now, so that a bad key is
	 * refused where the user gave it. */
	if (ae_x25519_low_order(pk + AE_MLKEM768_EK_LEN)
	    || !ae_mlkem768_check_ek(pk))
		return ae_fail(d, AE_EINVAL, AE_AT_NONE, "not a usable "
		    "ML-KEM-768 + X25519 public key", 0, strlen(s));
	return AE_OK;
}

size_t ae_pq_public_format(const uint8_t pk[AE_XWING_PK_LEN], char *out,
    size_t cap)
{
	return ae_bech32_encode(out, cap, HRP_PQ_RECIPIENT, pk, AE_XWING_PK_LEN);
}

void ae_pq_tag(const uint8_t pk[AE_XWING_PK_LEN], uint8_t tag[AE_SSH_TAG_LEN])
{
	uint8_t h[AE_SHA256_LEN];

	ae_sha256(pk, AE_XWING_PK_LEN, h);
	memcpy(tag, h, AE_SSH_TAG_LEN);
}

int ae_pq_seed_parse(const char *s, uint8_t seed[AE_XWING_SEED_LEN],
    struct ae_diag *d)
{
	return ae_bech32_key(s, HRP_PQ_IDENTITY, seed, AE_XWING_SEED_LEN, d);
}

size_t ae_pq_seed_format(const uint8_t seed[AE_XWING_SEED_LEN], char *out,
    size_t cap)
{
	return ae_bech32_encode(out, cap, HRP_PQ_IDENTITY, seed,
	    AE_XWING_SEED_LEN);
}

static void slot_secret(const uint8_t pk[AE_XWING_PK_LEN],
    const uint8_t ss[32], uint8_t S[32])
{
	uint8_t h[AE_SHA256_LEN];

	ae_sha256(pk, AE_XWING_PK_LEN, h);
	ae_hkdf_sha256(h, sizeof h, ss, 32,
	    (const uint8_t *)AE_LABEL_MLKEM768X25519,
	    sizeof AE_LABEL_MLKEM768X25519 - 1, S, 32);
}

int ae_pq_slot_make(uint8_t ct[AE_PQ_CT_LEN],
    const uint8_t pk[AE_XWING_PK_LEN], const uint8_t eseed[64], uint8_t S[32])
{
	uint8_t ss[32];
	int e;

	if ((e = ae_xwing_encaps(ct, ss, pk, eseed)) == AE_OK)
		slot_secret(pk, ss, S);
	ae_wipe(ss, sizeof ss);
	return e;
}

int ae_pq_slot_open(const uint8_t ct[AE_PQ_CT_LEN],
    const struct ae_xwing_key *k, const uint8_t pk[AE_XWING_PK_LEN],
    uint8_t S[32])
{
	uint8_t ss[32];
	int e = ae_xwing_decaps(ss, ct, k);

	if (e == AE_EINVAL)
		e = AE_EFORMAT;         /* a low-order X25519 half */
	if (e == AE_OK)
		slot_secret(pk, ss, S);
	ae_wipe(ss, sizeof ss);
	return e;
}
