/*
 * evp.c -- libcrypto's block ciphers, for keys other tools protect
 * (contract in evp.h).
 */
#include "config.h"
#include "evp.h"

#include "common/wipe.h"

#ifdef HAVE_RSA
#include <openssl/evp.h>

int
ae_evp_available(void)
{
	return 1;
}

static const EVP_CIPHER *
cipher_of(enum ae_evp_mode mode, size_t keylen)
{
	switch (mode) {
	case AE_EVP_CTR:
		return keylen == 16 ? EVP_aes_128_ctr() : keylen == 24 ?
		    EVP_aes_192_ctr() : NULL;
	case AE_EVP_CBC:
		return keylen == 16 ? EVP_aes_128_cbc() : keylen == 24 ?
		    EVP_aes_192_cbc() : NULL;
	case AE_EVP_GCM:
		return keylen == 16 ? EVP_aes_128_gcm() : keylen == 24 ?
		    EVP_aes_192_gcm() : NULL;
	case AE_EVP_3DES:
		return keylen == 24 ? EVP_des_ede3_cbc() : NULL;
	case AE_EVP_CHACHAPOLY:
		return keylen == 32 ? EVP_chacha20_poly1305() : NULL;
	}
	return NULL;
}

int
ae_evp_decrypt(enum ae_evp_mode mode, const uint8_t *key, size_t keylen,
    const uint8_t *iv, const uint8_t *in, size_t n, const uint8_t *tag,
    uint8_t *out)
{
	const EVP_CIPHER *c = cipher_of(mode, keylen);
	EVP_CIPHER_CTX *x;
	int len = 0, fin = 0, r = AE_EINVAL;

	if (c == NULL || n > (size_t)INT32_MAX)
		return AE_EINVAL;
	if ((x = EVP_CIPHER_CTX_new()) == NULL)
		return AE_ENOMEM;
	if (EVP_DecryptInit_ex(x, c, NULL, NULL, NULL) != 1
	    || (mode == AE_EVP_GCM && EVP_CIPHER_CTX_ctrl(x,
	    EVP_CTRL_GCM_SET_IVLEN, 12, NULL) != 1)
	    || EVP_DecryptInit_ex(x, NULL, NULL, key, iv) != 1
	    || EVP_CIPHER_CTX_set_padding(x, 0) != 1)
		goto out;
	if ((mode == AE_EVP_GCM || mode == AE_EVP_CHACHAPOLY)
	    && EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, 16, (void *)tag)
	    != 1)
		goto out;
	if (EVP_DecryptUpdate(x, out, &len, in, (int)n) != 1)
		goto out;
	if (EVP_DecryptFinal_ex(x, out + len, &fin) != 1) {
		/* an AEAD's tag did not verify; release nothing */
		ae_wipe(out, n);
		r = mode == AE_EVP_GCM || mode == AE_EVP_CHACHAPOLY ? AE_EKEY :
		    AE_EINVAL;
		goto out;
	}
	r = (size_t)len + (size_t)fin == n ? AE_OK : AE_EINVAL;
out:
	EVP_CIPHER_CTX_free(x);
	return r;
}

#else /* !HAVE_RSA */

int
ae_evp_available(void)
{
	return 0;
}

int
ae_evp_decrypt(enum ae_evp_mode mode, const uint8_t *key, size_t keylen,
    const uint8_t *iv, const uint8_t *in, size_t n, const uint8_t *tag,
    uint8_t *out)
{
	(void)mode; (void)key; (void)keylen; (void)iv; (void)in; (void)n;
	(void)tag; (void)out;
	return AE_ENOTSUP;
}

#endif /* HAVE_RSA */
