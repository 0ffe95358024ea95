/*
 * rsa.c -- RSAES-OAEP-SHA256 through libcrypto (contract in rsa.h).
 *
 * The key is handed to OpenSSL as parameters (OpenSSL 3's
 * EVP_PKEY_fromdata), not as a PEM or DER text, because an OpenSSH key
 * holds its numbers in its own framing, which recipient.c reads.
 */
#include "config.h"
#include "rsa.h"

#include <string.h>

#include "sha256.h"
#include "common/wipe.h"

#ifdef HAVE_RSA
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

int
ae_rsa_available(void)
{
	return 1;
}

const char *
ae_rsa_version(void)
{
	return OpenSSL_version(OPENSSL_VERSION);
}

/* A BIGNUM of the bytes (secure memory for a secret one).  NULL on
 * failure. */
static BIGNUM *
bn(const uint8_t *p, size_t n, int secret)
{
	BIGNUM *b = secret ? BN_secure_new() : BN_new();

	if (b == NULL)
		return NULL;
	if (secret)
		BN_set_flags(b, BN_FLG_CONSTTIME);
	if (BN_bin2bn(p, (int)n, b) == NULL) {
		BN_clear_free(b);
		return NULL;
	}
	return b;
}

/* Sizes the rest of the code relies on: a modulus of nlen bytes with
 * no leading zero byte, an odd exponent of at least 3. */
static int
public_ok(const struct ae_rsa_public *k)
{
	return k->nlen >= AE_RSA_MIN_BYTES && k->nlen <= AE_RSA_MAX_BYTES
	    && k->n[0] != 0 && k->elen >= 1 && k->elen <= AE_RSA_MAX_E_BYTES
	    && (k->e[k->elen - 1] & 1) && !(k->elen == 1 && k->e[0] < 3);
}

/*
 * The EVP_PKEY of k (public) or of priv (both halves, with the CRT
 * exponents d mod (p-1) and d mod (q-1) computed here).  0, AE_EINVAL or
 * AE_ENOMEM.
 */
static int
make_key(const struct ae_rsa_public *k, const struct ae_rsa_private *priv,
    EVP_PKEY **out)
{
	OSSL_PARAM_BLD *bld = NULL;
	OSSL_PARAM *params = NULL;
	EVP_PKEY_CTX *ctx = NULL;
	BN_CTX *bc = NULL;
	BIGNUM *n = NULL, *e = NULL, *d = NULL, *p = NULL, *q = NULL,
	    *iq = NULL, *dp = NULL, *dq = NULL, *t = NULL;
	int r = AE_ENOMEM;

	*out = NULL;
	if (!public_ok(k))
		return AE_EINVAL;
	if ((bld = OSSL_PARAM_BLD_new()) == NULL
	    || (n = bn(k->n, k->nlen, 0)) == NULL
	    || (e = bn(k->e, k->elen, 0)) == NULL
	    || !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, n)
	    || !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, e))
		goto out;
	if (priv != NULL) {
		if ((bc = BN_CTX_secure_new()) == NULL
		    || (d = bn(priv->d, priv->dlen, 1)) == NULL
		    || (p = bn(priv->p, priv->plen, 1)) == NULL
		    || (q = bn(priv->q, priv->qlen, 1)) == NULL
		    || (iq = bn(priv->iqmp, priv->iqmplen, 1)) == NULL
		    || (dp = BN_secure_new()) == NULL
		    || (dq = BN_secure_new()) == NULL
		    || (t = BN_secure_new()) == NULL)
			goto out;
		BN_set_flags(dp, BN_FLG_CONSTTIME);
		BN_set_flags(dq, BN_FLG_CONSTTIME);
		BN_set_flags(t, BN_FLG_CONSTTIME);
		r = AE_EINVAL;
		if (BN_is_zero(p) || BN_is_zero(q) || BN_is_one(p)
		    || BN_is_one(q))
			goto out;
		r = AE_ENOMEM;
		if (!BN_sub(t, p, BN_value_one()) || !BN_mod(dp, d, t, bc)
		    || !BN_sub(t, q, BN_value_one()) || !BN_mod(dq, d, t, bc)
		    || !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_D, d)
		    || !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_FACTOR1,
		    p)
		    || !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_FACTOR2,
		    q)
		    || !OSSL_PARAM_BLD_push_BN(bld,
		    OSSL_PKEY_PARAM_RSA_EXPONENT1, dp)
		    || !OSSL_PARAM_BLD_push_BN(bld,
		    OSSL_PKEY_PARAM_RSA_EXPONENT2, dq)
		    || !OSSL_PARAM_BLD_push_BN(bld,
		    OSSL_PKEY_PARAM_RSA_COEFFICIENT1, iq))
			goto out;
	}
	if ((params = OSSL_PARAM_BLD_to_param(bld)) == NULL
	    || (ctx = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL)) == NULL)
		goto out;
	r = AE_EINVAL;
	if (EVP_PKEY_fromdata_init(ctx) <= 0 || EVP_PKEY_fromdata(ctx, out,
	    priv != NULL ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, params) <= 0)
		goto out;
	r = AE_OK;
out:
	/* the secret numbers were built from BN_secure_new()s, so the
	 * builder put them in OpenSSL's secure block, which this frees
	 * with OPENSSL_secure_clear_free */
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(bld);
	EVP_PKEY_CTX_free(ctx);
	BN_CTX_free(bc);
	BN_free(n);
	BN_free(e);
	BN_clear_free(d);
	BN_clear_free(p);
	BN_clear_free(q);
	BN_clear_free(iq);
	BN_clear_free(dp);
	BN_clear_free(dq);
	BN_clear_free(t);
	return r;
}

/* A context for key's encryption or decryption with the given padding
 * (OAEP with SHA-256 and label, or none).  NULL on failure. */
static EVP_PKEY_CTX *
op_ctx(EVP_PKEY *key, int decrypt, int oaep, const uint8_t *label,
    size_t labellen)
{
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL);
	unsigned char *l = NULL;

	if (c == NULL)
		return NULL;
	if ((decrypt ? EVP_PKEY_decrypt_init(c) : EVP_PKEY_encrypt_init(c))
	    <= 0)
		goto fail;
	if (!oaep)
		return EVP_PKEY_CTX_set_rsa_padding(c, RSA_NO_PADDING) > 0 ?
		    c : (EVP_PKEY_CTX_free(c), NULL);
	if (EVP_PKEY_CTX_set_rsa_padding(c, RSA_PKCS1_OAEP_PADDING) <= 0
	    || EVP_PKEY_CTX_set_rsa_oaep_md(c, EVP_sha256()) <= 0
	    || EVP_PKEY_CTX_set_rsa_mgf1_md(c, EVP_sha256()) <= 0)
		goto fail;
	if (labellen > 0) {
		/* set0 takes ownership of an OPENSSL_malloc'd copy */
		if ((l = OPENSSL_memdup(label, labellen)) == NULL)
			goto fail;
		if (EVP_PKEY_CTX_set0_rsa_oaep_label(c, l, (int)labellen)
		    <= 0) {
			OPENSSL_free(l);
			goto fail;
		}
	}
	return c;
fail:
	EVP_PKEY_CTX_free(c);
	return NULL;
}

/* out[0..k->nlen) = the raw RSA of in (oaep 0) or OAEP of m (oaep 1). */
static int
encrypt(const struct ae_rsa_public *k, int oaep, const uint8_t *label,
    size_t labellen, const uint8_t *in, size_t inlen, uint8_t *out)
{
	EVP_PKEY *key;
	EVP_PKEY_CTX *c;
	size_t outlen = k->nlen;
	int r = make_key(k, NULL, &key);

	if (r != AE_OK)
		return r;
	if ((c = op_ctx(key, 0, oaep, label, labellen)) == NULL) {
		EVP_PKEY_free(key);
		return AE_ENOMEM;
	}
	r = EVP_PKEY_encrypt(c, out, &outlen, in, inlen) > 0
	    && outlen == k->nlen ? AE_OK : AE_EINVAL;
	EVP_PKEY_CTX_free(c);
	EVP_PKEY_free(key);
	return r;
}

int
ae_rsa_oaep_encrypt(const struct ae_rsa_public *k, const uint8_t *label,
    size_t labellen, const uint8_t *m, size_t mlen, uint8_t *out)
{
	return encrypt(k, 1, label, labellen, m, mlen, out);
}

int
ae_rsa_oaep_decrypt(const struct ae_rsa_private *k, const uint8_t *label,
    size_t labellen, const uint8_t *c, size_t clen, uint8_t *m, size_t mcap,
    size_t *mlen)
{
	EVP_PKEY *key;
	EVP_PKEY_CTX *x;
	uint8_t *buf;
	size_t n;
	int r = make_key(&k->pub, k, &key);

	*mlen = 0;
	if (r != AE_OK)
		return r;
	if (clen != k->pub.nlen) {
		EVP_PKEY_free(key);
		return AE_EKEY;
	}
	if ((buf = ae_secret_alloc(clen)) == NULL
	    || (x = op_ctx(key, 1, 1, label, labellen)) == NULL) {
		if (buf != NULL)
			ae_secret_free(buf, clen);
		EVP_PKEY_free(key);
		return AE_ENOMEM;
	}
	n = clen;
	r = AE_EKEY;
	if (EVP_PKEY_decrypt(x, buf, &n, c, clen) > 0 && n <= mcap) {
		memcpy(m, buf, n);
		*mlen = n;
		r = AE_OK;
	}
	ae_secret_free(buf, clen);
	EVP_PKEY_CTX_free(x);
	EVP_PKEY_free(key);
	return r;
}

/* No passphrase for an encrypted PEM key: reading it fails. */
static int
no_passphrase(char *buf, int size, int rw, void *u)
{
	(void)buf; (void)size; (void)rw; (void)u;
	return -1;
}

/* One parameter of pk into out (at most cap bytes).  0 or -1. */
static int
get_number(EVP_PKEY *pk, const char *name, uint8_t *out, size_t cap,
    size_t *len)
{
	BIGNUM *b = NULL;
	int n, r = -1;

	if (EVP_PKEY_get_bn_param(pk, name, &b) > 0
	    && (n = BN_num_bytes(b)) > 0 && (size_t)n <= cap) {
		*len = (size_t)BN_bn2bin(b, out);
		r = 0;
	}
	BN_clear_free(b);
	return r;
}

int
ae_rsa_from_pem(const char *text, size_t len, struct ae_rsa_numbers *k)
{
	BIO *bio;
	EVP_PKEY *pk;
	struct ae_rsa_public pub;
	int r = AE_OK;

	if (len > (size_t)INT32_MAX
	    || (bio = BIO_new_mem_buf(text, (int)len)) == NULL)
		return AE_ENOMEM;
	pk = PEM_read_bio_PrivateKey(bio, NULL, no_passphrase, NULL);
	BIO_free(bio);
	if (pk == NULL)
		return AE_EFORMAT;
	if (!EVP_PKEY_is_a(pk, "RSA"))
		r = AE_ENOTSUP;
	else if (get_number(pk, OSSL_PKEY_PARAM_RSA_N, k->n, sizeof k->n,
	    &k->nlen) != 0
	    || get_number(pk, OSSL_PKEY_PARAM_RSA_E, k->e, sizeof k->e,
	    &k->elen) != 0)
		r = AE_EINVAL;
	else if (get_number(pk, OSSL_PKEY_PARAM_RSA_D, k->d, sizeof k->d,
	    &k->dlen) != 0
	    || get_number(pk, OSSL_PKEY_PARAM_RSA_FACTOR1, k->p, sizeof k->p,
	    &k->plen) != 0
	    || get_number(pk, OSSL_PKEY_PARAM_RSA_FACTOR2, k->q, sizeof k->q,
	    &k->qlen) != 0
	    || get_number(pk, OSSL_PKEY_PARAM_RSA_COEFFICIENT1, k->iqmp,
	    sizeof k->iqmp, &k->iqmplen) != 0)
		r = AE_EFORMAT;     /* (a key without its CRT numbers) */
	EVP_PKEY_free(pk);
	if (r == AE_OK) {
		pub.n = k->n;
		pub.nlen = k->nlen;
		pub.e = k->e;
		pub.elen = k->elen;
		if (!public_ok(&pub))
			r = AE_EINVAL;
	}
	if (r != AE_OK)
		ae_wipe(k, sizeof *k);
	return r;
}

#else /* !HAVE_RSA */

int
ae_rsa_from_pem(const char *text, size_t len, struct ae_rsa_numbers *k)
{
	(void)text; (void)len; (void)k;
	return AE_ENOTSUP;
}

int
ae_rsa_available(void)
{
	return 0;
}

const char *
ae_rsa_version(void)
{
	return NULL;
}

int
ae_rsa_oaep_encrypt(const struct ae_rsa_public *k, const uint8_t *label,
    size_t labellen, const uint8_t *m, size_t mlen, uint8_t *out)
{
	(void)k; (void)label; (void)labellen; (void)m; (void)mlen; (void)out;
	return AE_ENOTSUP;
}

int
ae_rsa_oaep_decrypt(const struct ae_rsa_private *k, const uint8_t *label,
    size_t labellen, const uint8_t *c, size_t clen, uint8_t *m, size_t mcap,
    size_t *mlen)
{
	(void)k; (void)label; (void)labellen; (void)c; (void)clen; (void)m;
	(void)mcap;
	*mlen = 0;
	return AE_ENOTSUP;
}

#endif /* HAVE_RSA */

/* MGF1 with SHA-256 (RFC 8017 B.2.1), XORed into out[0..n). */
static void
mgf1_xor(const uint8_t *seed, size_t seedlen, uint8_t *out, size_t n)
{
	struct ae_sha256 s;
	uint8_t h[AE_SHA256_LEN], ctr[4];
	uint32_t i;
	size_t off = 0, j;

	for (i = 0; off < n; i++) {
		ctr[0] = (uint8_t)(i >> 24);
		ctr[1] = (uint8_t)(i >> 16);
		ctr[2] = (uint8_t)(i >> 8);
		ctr[3] = (uint8_t)i;
		ae_sha256_init(&s);
		ae_sha256_update(&s, seed, seedlen);
		ae_sha256_update(&s, ctr, 4);
		ae_sha256_final(&s, h);
		for (j = 0; j < AE_SHA256_LEN && off < n; j++)
			out[off++] ^= h[j];
	}
	ae_wipe(h, sizeof h);
}

int
ae_rsa_oaep_encrypt_with(const struct ae_rsa_public *k,
    const uint8_t *label, size_t labellen, const uint8_t *m, size_t mlen,
    const uint8_t seed[32], uint8_t *out)
{
	uint8_t em[AE_RSA_MAX_BYTES];
	size_t kl = k->nlen, h = AE_SHA256_LEN, dbl;
	int r;

	if (!ae_rsa_available())
		return AE_ENOTSUP;
	if (kl < AE_RSA_MIN_BYTES || kl > AE_RSA_MAX_BYTES
	    || mlen > kl - 2 * h - 2)
		return AE_EINVAL;
	/* EM = 0x00 || maskedSeed || maskedDB, DB = lHash || PS || 01 || M
	 * (RFC 8017 7.1.1 step 2) */
	dbl = kl - h - 1;
	memset(em, 0, kl);
	ae_sha256(label, labellen, em + 1 + h);
	em[kl - mlen - 1] = 0x01;
	memcpy(em + kl - mlen, m, mlen);
	memcpy(em + 1, seed, h);
	mgf1_xor(seed, h, em + 1 + h, dbl);
	mgf1_xor(em + 1 + h, dbl, em + 1, h);
#ifdef HAVE_RSA
	r = encrypt(k, 0, NULL, 0, em, kl, out);
#else
	r = AE_ENOTSUP;
	(void)out;
#endif
	ae_wipe(em, sizeof em);
	return r;
}
