/*
 * sshkey.c -- an OpenSSH private key's encrypted section, opened
 * (contract in sshkey.h).
 *
 * bcrypt_pbkdf(passphrase, salt, rounds) gives key || IV: 32 + 16 bytes
 * for aes256-ctr and aes256-cbc, 32 + 12 for aes256-gcm@openssh.com, 64
 * for chacha20-poly1305@openssh.com (no IV: the nonce is a sequence
 * number, 0).  OpenSSH's CTR counts over the whole 128-bit block, not
 * GCM's last 32 bits, so the keystream is made a block at a time here (a
 * key's private section is a few hundred bytes).  GCM has no associated
 * data; its tag, and ChaCha20-Poly1305's, come after the section.  These
 * are OpenSSH's ciphers with 256-bit keys, this project's own code.  The
 * 128- and 192-bit AES ones and 3DES would need key schedules written
 * for them alone: they come from libcrypto (crypto/evp.h) instead, so a
 * build without it names them as not read.
 */
#include "config.h"
#include "sshkey.h"
#include "crypto/aes_ct.h"
#include "crypto/bcrypt_pbkdf.h"
#include "crypto/cbc.h"
#include "crypto/chachapoly.h"
#include "crypto/evp.h"
#include "crypto/gcm.h"
#include "common/wipe.h"
#include "common/bytes.h"

#include <string.h>

static int
is(const uint8_t *s, size_t n, const char *want)
{
	return n == strlen(want) && memcmp(s, want, n) == 0;
}

enum mode { CTR, CBC, GCM, CHACHAPOLY, EVP };

static const struct cipher {
	const char *name;
	enum mode mode;
	size_t keyiv;           /* bytes of bcrypt_pbkdf output */
	size_t block;           /* the section is whole blocks */
	size_t keylen;          /* EVP: the key's bytes, then the IV's */
	enum ae_evp_mode evp;
} ciphers[] = {
	{ "aes256-ctr", CTR, 32 + 16, 16, 32, AE_EVP_CTR },
	{ "aes256-cbc", CBC, 32 + 16, 16, 32, AE_EVP_CBC },
	{ "aes256-gcm@openssh.com", GCM, 32 + 12, 16, 32, AE_EVP_GCM },
	{ "chacha20-poly1305@openssh.com", CHACHAPOLY, 64, 8, 64, AE_EVP_CTR },
	/* from libcrypto */
	{ "aes128-ctr", EVP, 16 + 16, 16, 16, AE_EVP_CTR },
	{ "aes192-ctr", EVP, 24 + 16, 16, 24, AE_EVP_CTR },
	{ "aes128-cbc", EVP, 16 + 16, 16, 16, AE_EVP_CBC },
	{ "aes192-cbc", EVP, 24 + 16, 16, 24, AE_EVP_CBC },
	{ "aes128-gcm@openssh.com", EVP, 16 + 12, 16, 16, AE_EVP_GCM },
	{ "3des-cbc", EVP, 24 + 8, 8, 24, AE_EVP_3DES },
};

static const struct cipher *
find(const uint8_t *name, size_t n)
{
	size_t i;

	for (i = 0; i < sizeof ciphers / sizeof *ciphers; i++)
		if (is(name, n, ciphers[i].name))
			return &ciphers[i];
	return NULL;
}

int
ae_sshkey_supported(const uint8_t *cipher, size_t cipherlen,
    const uint8_t *kdf, size_t kdflen, struct ae_diag *d)
{
	const struct cipher *c = find(cipher, cipherlen);

	if (c == NULL)
		return ae_fail(d, AE_ENOTSUP, AE_AT_NONE, "the OpenSSH key is "
		    "encrypted with a cipher aescrypt does not read (it reads "
		    "OpenSSH's AES, 3DES and chacha20-poly1305 ciphers; "
		    "ssh-keygen -p -Z aes256-ctr -f KEY re-encrypts it)", 0, 0);
	if (c->mode == EVP && !ae_evp_available())
		return ae_fail(d, AE_ENOTSUP, AE_AT_NONE, "the OpenSSH key is "
		    "encrypted with a cipher this build does not read (its "
		    "128- and 192-bit AES and 3DES come from libcrypto; it "
		    "reads aes256-ctr, the default, aes256-cbc, aes256-gcm and "
		    "chacha20-poly1305; ssh-keygen -p -Z aes256-ctr -f KEY "
		    "re-encrypts it)", 0, 0);
	if (!is(kdf, kdflen, "bcrypt"))
		return ae_fail(d, AE_ENOTSUP, AE_AT_NONE, "the OpenSSH key uses "
		    "a KDF other than bcrypt", 0, 0);
	return AE_OK;
}

int
ae_sshkey_cipher_has_tag(const uint8_t *cipher, size_t cipherlen)
{
	const struct cipher *c = find(cipher, cipherlen);

	return c != NULL && (c->mode == GCM || c->mode == CHACHAPOLY
	    || (c->mode == EVP && c->evp == AE_EVP_GCM));
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

/* An AEAD open's result as the caller sees it: a tag that fails is a
 * wrong passphrase (AE_EKEY). */
static int
opened(int r, struct ae_diag *d)
{
	if (r == AE_EAUTH)
		return ae_fail(d, AE_EKEY, AE_AT_NONE, "wrong passphrase for the "
		    "OpenSSH key", 0, 0);
	return r == AE_OK ? AE_OK : ae_fail(d, r, AE_AT_NONE, NULL, 0, 0);
}

int
ae_sshkey_decrypt(const uint8_t *cipher, size_t cipherlen,
    const uint8_t *kdf, size_t kdflen, const uint8_t *opts, size_t optslen,
    const uint8_t *enc, size_t enclen, const uint8_t *tag,
    const uint8_t *pass, size_t passlen, uint8_t *out, struct ae_diag *d)
{
	uint8_t kiv[64];
	const uint8_t *salt;
	size_t saltlen;
	uint32_t rounds;
	const struct cipher *c = find(cipher, cipherlen);
	int r;

	if ((r = ae_sshkey_supported(cipher, cipherlen, kdf, kdflen, d))
	    != AE_OK)
		return r;
	/* options: string salt, uint32 rounds */
	if (optslen < 4 || (saltlen = load_be32(opts)) > optslen - 4
	    || optslen - 4 - saltlen != 4 || saltlen == 0
	    || enclen == 0 || enclen % c->block != 0
	    || (ae_sshkey_cipher_has_tag(cipher, cipherlen) && tag == NULL))
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
	if (ae_bcrypt_pbkdf(pass, passlen, salt, saltlen, rounds, kiv,
	    c->keyiv) != 0)
		return ae_fail(d, AE_ENOMEM, AE_AT_NONE, NULL, 0, 0);
	if (c->mode == EVP) {
		/* (a wrong passphrase shows in the check words, but for GCM,
		 * whose tag fails) */
		r = ae_evp_decrypt(c->evp, kiv, c->keylen, kiv + c->keylen, enc,
		    enclen, tag, out);
		ae_wipe(kiv, sizeof kiv);
		return opened(r == AE_EKEY ? AE_EAUTH : r, d);
	}
	if (c->mode == CHACHAPOLY) {
		r = ae_ssh_chachapoly_open(kiv, enc, enclen, tag, out);
		ae_wipe(kiv, sizeof kiv);
		return opened(r, d);
	}
	if (c->mode == CBC) {
		struct ae_cbc_key *k = ae_secret_alloc(sizeof *k);

		if (k == NULL) {
			ae_wipe(kiv, sizeof kiv);
			return ae_fail(d, AE_ENOMEM, AE_AT_NONE, NULL, 0, 0);
		}
		/* a wrong passphrase shows in the check words, as for CTR */
		ae_cbc_init(k, kiv);
		ae_cbc_decrypt(k, kiv + 32, enc, out, enclen / 16);
		ae_cbc_wipe(k);
		ae_secret_free(k, sizeof *k);
		ae_wipe(kiv, sizeof kiv);
		return AE_OK;
	}
	if (c->mode == GCM) {
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
