/*
 * agestream.c -- an age file's payload, a chunk at a time (contracts in
 * agestream.h).
 */
#include "config.h"
#include "agestream.h"

#include <string.h>

#include "crypto/chachapoly.h"
#include "crypto/hkdf.h"

void
ae_age_payload_key(uint8_t key[32],
    const uint8_t file_key[AE_AGE_FILE_KEY_LEN],
    const uint8_t nonce[AE_AGE_NONCE_LEN])
{
	(void)ae_hkdf_sha256(nonce, AE_AGE_NONCE_LEN, file_key,
	    AE_AGE_FILE_KEY_LEN, (const uint8_t *)"payload", 7, key, 32);
}

/* The chunk nonce: an 11-byte big-endian counter, then the final flag. */
static int
open_as(const uint8_t key[32], uint64_t seq, int final, const uint8_t *rec,
    size_t len, uint8_t *out)
{
	uint8_t nonce[12] = { 0 };
	int i;

	for (i = 0; i < 8; i++)
		nonce[10 - i] = (uint8_t)(seq >> (8 * i));
	nonce[11] = final ? 1 : 0;
	return ae_chacha20poly1305_open(key, nonce, rec, len, out);
}

int
ae_age_chunk_open(const uint8_t key[32], uint64_t seq, const uint8_t *rec,
    size_t len, uint8_t *out, size_t *outlen, int *final, struct ae_diag *d)
{
	int r;

	*outlen = 0;
	*final = 0;
	if (len > AE_AGE_RECORD)
		return ae_fail(d, AE_EINVAL, AE_AT_CHUNK, "is too long", seq, 0);
	if (len < AE_AGE_RECORD) {
		if (len < 16)
			return ae_fail(d, AE_ETRUNC, AE_AT_CHUNK, len == 0 ?
			    "is missing: the payload ends with no final chunk"
			    : "is truncated: shorter than its tag", seq, 0);
		if (len == 16 && seq > 0)
			return ae_fail(d, AE_EFORMAT, AE_AT_CHUNK, "is an empty "
			    "final chunk, which only an empty payload may have",
			    seq, 0);
		if ((r = open_as(key, seq, 1, rec, len, out)) != AE_OK)
			return ae_fail(d, r, AE_AT_CHUNK, r == AE_EAUTH ?
			    "failed authentication" : "could not be opened",
			    seq, 0);
		*final = 1;
		*outlen = len - 16;
		return AE_OK;
	}
	if ((r = open_as(key, seq, 0, rec, len, out)) == AE_EAUTH) {
		if ((r = open_as(key, seq, 1, rec, len, out)) == AE_OK)
			*final = 1;
	}
	if (r != AE_OK)
		return ae_fail(d, r, AE_AT_CHUNK, r == AE_EAUTH ?
		    "failed authentication" : "could not be opened", seq, 0);
	*outlen = AE_AGE_CHUNK;
	return AE_OK;
}
