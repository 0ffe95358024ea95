/*
 * hpke.c -- HPKE base mode, opened, for MLKEM768-X25519, HKDF-SHA256
 * and ChaCha20Poly1305 (contract in hpke.h).  RFC 9180's key schedule,
 * section 5.1, written from the RFC: with an X-Wing KEM the KEM's
 * shared secret is used as it is (draft-ietf-hpke-pq: no DHKEM
 * ExtractAndExpand), and the PSK and its id are empty.
 */
#include "config.h"
#include "hpke.h"

#include <string.h>

#include "chachapoly.h"
#include "common/error.h"
#include "common/wipe.h"
#include "hkdf.h"
#include "hmac_sha256.h"
#include "x25519.h"

/* suite_id = "HPKE" || I2OSP(kem_id, 2) || I2OSP(kdf_id, 2) ||
 * I2OSP(aead_id, 2) */
static const uint8_t suite_id[10] = { 'H', 'P', 'K', 'E', 0x64, 0x7a,
    0x00, 0x01, 0x00, 0x03 };

#define LABEL_MAX 64            /* "HPKE-v1" || suite_id || label */

/* LabeledExtract(salt, label, ikm) = Extract(salt, "HPKE-v1" ||
 * suite_id || label || ikm). */
static void
labeled_extract(const uint8_t *salt, size_t saltlen, const char *label,
    const uint8_t *ikm, size_t ikmlen, uint8_t prk[AE_SHA256_LEN])
{
	struct ae_hmac_sha256 h;
	uint8_t zeros[AE_SHA256_LEN] = { 0 };

	/* (HKDF-Extract is HMAC keyed by the salt, 32 zeros if empty; the
	 * labeled ikm is fed in pieces rather than copied) */
	if (saltlen == 0) {
		salt = zeros;
		saltlen = sizeof zeros;
	}
	ae_hmac_sha256_init(&h, salt, saltlen);
	ae_hmac_sha256_update(&h, (const uint8_t *)"HPKE-v1", 7);
	ae_hmac_sha256_update(&h, suite_id, sizeof suite_id);
	ae_hmac_sha256_update(&h, (const uint8_t *)label, strlen(label));
	ae_hmac_sha256_update(&h, ikm, ikmlen);
	ae_hmac_sha256_final(&h, prk);
}

/* LabeledExpand(prk, label, info, L) = Expand(prk, I2OSP(L, 2) ||
 * "HPKE-v1" || suite_id || label || info, L); info here is the key
 * schedule context, 65 bytes. */
static int
labeled_expand(const uint8_t prk[AE_SHA256_LEN], const char *label,
    const uint8_t *info, size_t infolen, uint8_t *out, size_t len)
{
	uint8_t buf[2 + 7 + sizeof suite_id + 16 + 65];
	size_t n = 0, ll = strlen(label);

	if (ll > 16 || infolen > 65)
		return AE_EINVAL;
	buf[0] = (uint8_t)(len >> 8);
	buf[1] = (uint8_t)len;
	n = 2;
	memcpy(buf + n, "HPKE-v1", 7);
	n += 7;
	memcpy(buf + n, suite_id, sizeof suite_id);
	n += sizeof suite_id;
	memcpy(buf + n, label, ll);
	n += ll;
	memcpy(buf + n, info, infolen);
	n += infolen;
	return ae_hkdf_sha256_expand(prk, buf, n, out, len);
}

int
ae_hpke_xwing_open(const struct ae_xwing_key *k,
    const uint8_t enc[AE_XWING_CT_LEN], const uint8_t *info, size_t infolen,
    const uint8_t *ct, size_t ctlen, uint8_t *pt)
{
	uint8_t ss[AE_XWING_SS_LEN], secret[AE_SHA256_LEN];
	uint8_t context[1 + 2 * AE_SHA256_LEN], key[32], nonce[12];
	int r;

	if (ctlen < AE_CHACHAPOLY_TAG_LEN)
		return AE_EINVAL;
	/* The ciphertext's X25519 half, last in enc (draft-ietf-hpke-pq,
	 * as X-Wing lays it out) */
	if (ae_x25519_low_order(enc + AE_XWING_CT_LEN - 32))
		return AE_EINVAL;
	if ((r = ae_xwing_decaps(ss, enc, k)) != AE_OK)
		return r;
	/* key_schedule_context = mode (0, base) || psk_id_hash ||
	 * info_hash */
	context[0] = 0;
	labeled_extract(NULL, 0, "psk_id_hash", NULL, 0, context + 1);
	labeled_extract(NULL, 0, "info_hash", info, infolen,
	    context + 1 + AE_SHA256_LEN);
	/* secret = LabeledExtract(shared_secret, "secret", psk = "") */
	labeled_extract(ss, sizeof ss, "secret", NULL, 0, secret);
	if ((r = labeled_expand(secret, "key", context, sizeof context, key,
	    sizeof key)) == AE_OK)
		r = labeled_expand(secret, "base_nonce", context,
		    sizeof context, nonce, sizeof nonce);
	/* sequence number 0: the nonce is base_nonce itself */
	if (r == AE_OK)
		r = ae_chacha20poly1305_open(key, nonce, ct, ctlen, pt);
	ae_wipe(ss, sizeof ss);
	ae_wipe(secret, sizeof secret);
	ae_wipe(key, sizeof key);
	ae_wipe(nonce, sizeof nonce);
	return r;
}
