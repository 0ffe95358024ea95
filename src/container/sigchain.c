/*
 * sigchain.c -- what a signed container signs (contract in sigchain.h).
 */
#include "config.h"
#include "sigchain.h"

#include <string.h>

#include "common/bytes.h"

#define DOMAIN "aescrypt-v1 signature"

void
ae_sigchain_init(struct ae_sigchain *c, const uint8_t *header, size_t len)
{
	memset(c, 0, sizeof *c);
	ae_sha256_init(&c->t);
	ae_sha256_update(&c->t, header, len);
}

void
ae_sigchain_digest(const uint8_t *rec, size_t n,
    uint8_t out[AE_SIG_DIGEST_LEN])
{
	ae_sha256(rec, n, out);
}

void
ae_sigchain_add(struct ae_sigchain *c, const uint8_t digest[AE_SIG_DIGEST_LEN])
{
	ae_sha256_update(&c->t, digest, AE_SIG_DIGEST_LEN);
}

size_t
ae_sigchain_tbs(const struct ae_sigchain *c, int last,
    uint8_t tbs[AE_SSHSIG_TBS_MAX])
{
	/* M = DOMAIN || 00 || u64(number) || u8(last) || SHA-256 of a
	 * copy of T; what is signed is SSHSIG's data over SHA-512(M) */
	uint8_t m[sizeof DOMAIN - 1 + 1 + 8 + 1 + AE_SHA256_LEN];
	uint8_t h[AE_SHA512_LEN];
	struct ae_sha256 t = c->t;
	struct ae_sha512 s;
	size_t at = sizeof DOMAIN - 1;

	memcpy(m, DOMAIN, at);
	m[at++] = 0;
	store_be64(m + at, c->next);
	at += 8;
	m[at++] = (uint8_t)(last != 0);
	ae_sha256_final(&t, m + at);
	ae_sha512_init(&s);
	ae_sha512_update(&s, m, sizeof m);
	ae_sha512_final(&s, h);
	return ae_sshsig_tbs(AE_SIG_NAMESPACE, h, tbs);
}

void
ae_sigchain_done(struct ae_sigchain *c)
{
	c->next++;
}

void
ae_sigchain_record(const uint8_t sig[AE_SIG_LEN], int last,
    uint8_t out[AE_SIG_RECORD_LEN])
{
	out[0] = AE_SIG_FLAG | (last ? AE_FLAG_FINAL : 0);
	store_be32(out + 1, AE_SIG_LEN);
	memcpy(out + 5, sig, AE_SIG_LEN);
}

int
ae_sigchain_check(struct ae_sigchain *c,
    const uint8_t rec[AE_SIG_RECORD_LEN], int last, const uint8_t pk[32],
    struct ae_diag *d)
{
	uint8_t tbs[AE_SSHSIG_TBS_MAX];
	size_t n;

	if (rec[0] != (AE_SIG_FLAG | (last ? AE_FLAG_FINAL : 0))
	    || load_be32(rec + 1) != AE_SIG_LEN)
		return ae_fail(d, AE_EFORMAT, AE_AT_NONE, last ? "is not "
		    "followed by the file's last signature" : "is not "
		    "followed by its signature record", 0, 0);
	n = ae_sigchain_tbs(c, last, tbs);
	if (ae_ed25519_verify(rec + 5, tbs, n, pk) != AE_OK)
		return ae_fail(d, AE_EAUTH, AE_AT_NONE, "is followed by a "
		    "signature that does not verify (the file was changed "
		    "after it was signed, or not signed by the key its "
		    "header names)", 0, 0);
	ae_sigchain_done(c);
	return AE_OK;
}
