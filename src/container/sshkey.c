/*
 * sshkey.c -- an OpenSSH private key's encrypted section, opened
 * (contract in sshkey.h).
 *
 * bcrypt_pbkdf(passphrase, salt, rounds) gives key || IV: 32 + 16 bytes
 * for aes256-ctr, 32 + 12 for aes256-gcm@openssh.com.  OpenSSH's CTR
 * counts over the whole 128-bit block, not GCM's last 32 bits, so the
 * keystream is made a block at a time here (a key's private section is
 * a few hundred bytes).  GCM has no associated data and its tag comes
 * after the section.
 */
#include "config.h"
#include "sshkey.h"
#include "crypto/aes_ct.h"
#include "crypto/bcrypt_pbkdf.h"
#include "crypto/gcm.h"
#include "crypto/wipe.h"
#include "common/bytes.h"

#include <string.h>

static int
is(const uint8_t *s, size_t n, const char *want)
{
	return n == strlen(want) && memcmp(s, want, n) == 0;
}

int
ae_sshkey_cipher_is_gcm(const uint8_t *cipher, size_t cipherlen)
{
	return is(cipher, cipherlen, "aes256-gcm@openssh.com");
}

/* AES-256-CTR with a 128-bit big-endian counter.  0 or AE_ENOMEM. */
static int
ctr128(const uint8_t key[32], uint8_t ctr[16], const uint8_t *in,
    uint8_t *out, size_t len)
{
	struct ae_aes_ct_key *k = ae_secret_alloc(sizeof *k);
	uint8_t ks[16];
	size_t i, n;
	int j;

	if (k == NULL)
		return AE_ENOMEM;
	ae_aes_ct_init(k, key);
	while (len > 0) {
		ae_aes_ct_encrypt_block(k, ctr, ks);
		n = len < 16 ? len : 16;
		for (i = 0; i < n; i++)
			out[i] = in[i] ^ ks[i];
		for (j = 15; j >= 0 && ++ctr[j] == 0; j--)
			;
		in += n;
		out += n;
		len -= n;
	}
	ae_wipe(ks, sizeof ks);
	ae_secret_free(k, sizeof *k);
	return AE_OK;
}

int
ae_sshkey_decrypt(const uint8_t *cipher, size_t cipherlen,
    const uint8_t *kdf, size_t kdflen, const uint8_t *opts, size_t optslen,
    const uint8_t *enc, size_t enclen, const uint8_t *tag,
    const uint8_t *pass, size_t passlen, uint8_t *out, struct ae_diag *d)
{
	uint8_t kiv[48];
	const uint8_t *salt;
	size_t saltlen, ivlen;
	uint32_t rounds;
	int gcm = ae_sshkey_cipher_is_gcm(cipher, cipherlen), r;

	if (!gcm && !is(cipher, cipherlen, "aes256-ctr"))
		return ae_fail(d, AE_ENOTSUP, AE_AT_NONE, "the OpenSSH key is "
		    "encrypted with a cipher other than aes256-ctr or "
		    "aes256-gcm@openssh.com", 0, 0);
	if (!is(kdf, kdflen, "bcrypt"))
		return ae_fail(d, AE_ENOTSUP, AE_AT_NONE, "the OpenSSH key uses "
		    "a KDF other than bcrypt", 0, 0);
	/* options: string salt, uint32 rounds */
	if (optslen < 4 || (saltlen = load_be32(opts)) > optslen - 4
	    || optslen - 4 - saltlen != 4 || saltlen == 0
	    || enclen == 0 || enclen % 16 != 0 || (gcm && tag == NULL))
		return ae_fail(d, AE_EFORMAT, AE_AT_NONE, "a malformed "
		    "OpenSSH private key", 0, 0);
	salt = opts + 4;
	rounds = load_be32(opts + 4 + saltlen);
	if (rounds == 0 || rounds > AE_SSHKEY_MAX_ROUNDS) {
		if (d != NULL) {
			d->have = rounds;
			d->limit = AE_SSHKEY_MAX_ROUNDS;
		}
		return ae_fail(d, rounds == 0 ? AE_EFORMAT : AE_ELIMIT,
		    AE_AT_NONE, "bcrypt KDF rounds out of range", 0, 0);
	}
	ivlen = gcm ? 12 : 16;
	if (ae_bcrypt_pbkdf(pass, passlen, salt, saltlen, rounds, kiv,
	    32 + ivlen) != 0)
		return ae_fail(d, AE_ENOMEM, AE_AT_NONE, NULL, 0, 0);
	if (gcm) {
		ae_gcm_ctx *g = ae_secret_alloc(sizeof *g);

		if (g == NULL) {
			ae_wipe(kiv, sizeof kiv);
			return ae_fail(d, AE_ENOMEM, AE_AT_NONE, NULL, 0, 0);
		}
		(void)ae_gcm_init(g, kiv);
		r = ae_gcm_open(g, kiv + 32, 12, NULL, 0, enc, enclen, tag, 16,
		    out);
		ae_gcm_wipe(g);
		ae_secret_free(g, sizeof *g);
		ae_wipe(kiv, sizeof kiv);
		if (r != 0)
			return ae_fail(d, AE_EKEY, AE_AT_NONE, "wrong passphrase "
			    "for the OpenSSH key", 0, 0);
		return AE_OK;
	}
	r = ctr128(kiv, kiv + 32, enc, out, enclen);
	ae_wipe(kiv, sizeof kiv);
	return r == AE_OK ? AE_OK : ae_fail(d, r, AE_AT_NONE, NULL, 0, 0);
}
