/*
 * bcrypt_pbkdf.c -- OpenSSH's bcrypt_pbkdf (contract in bcrypt_pbkdf.h).
 *
 * bcrypt_hash(P, S): Blowfish's state is set up from the digits of pi
 * (blowfish_pi.h), then keyed with S and P (the expensive "EksBlowfish"
 * setup: 64 rounds alternating S and P), and the 32-byte text
 * "OxychromaticBlowfishSwatDynamite" is encrypted 64 times; the words
 * come out little-endian.  bcrypt_pbkdf runs it as PBKDF2's PRF with
 * P = SHA-512(pass) and S = SHA-512(salt || counter), then spreads
 * the output blocks across the key byte by byte ("stride"), so every
 * output byte depends on every block.  Written from OpenBSD's
 * description and man page; checked against ssh-keygen's keys.
 */
#include "config.h"
#include "bcrypt_pbkdf.h"
#include "common/bytes.h"
#include "common/error.h"
#include "common/wipe.h"

#include <sodium.h>
#include <string.h>

#include "blowfish_pi.h"

struct bf {
	uint32_t p[18];
	uint32_t s[4][256];
};

#define BF_F(b, x) ((((b)->s[0][(x) >> 24] + (b)->s[1][((x) >> 16) & 0xff]) \
	^ (b)->s[2][((x) >> 8) & 0xff]) + (b)->s[3][(x) & 0xff])

static void
bf_encipher(const struct bf *b, uint32_t *xl, uint32_t *xr)
{
	uint32_t l = *xl, r = *xr, t;
	int i;

	for (i = 0; i < 16; i++) {
		l ^= b->p[i];
		r ^= BF_F(b, l);
		t = l;
		l = r;
		r = t;
	}
	t = l;
	l = r;
	r = t;
	r ^= b->p[16];
	l ^= b->p[17];
	*xl = l;
	*xr = r;
}

/* The next 32 bits of data, big-endian, cycling through it. */
static uint32_t
stream_word(const uint8_t *data, size_t len, size_t *j)
{
	uint32_t w = 0;
	int i;

	for (i = 0; i < 4; i++) {
		if (*j >= len)
			*j = 0;
		w = w << 8 | data[(*j)++];
	}
	return w;
}

/* Blowfish's key schedule with a salt (EksBlowfish's ExpandKey); with
 * salt NULL, the plain one (expand0). */
static void
bf_expand(struct bf *b, const uint8_t *salt, size_t saltlen,
    const uint8_t *key, size_t keylen)
{
	uint32_t l = 0, r = 0;
	size_t j = 0, js = 0;
	int i, k;

	for (i = 0; i < 18; i++)
		b->p[i] ^= stream_word(key, keylen, &j);
	for (i = 0; i < 18; i += 2) {
		if (salt != NULL) {
			l ^= stream_word(salt, saltlen, &js);
			r ^= stream_word(salt, saltlen, &js);
		}
		bf_encipher(b, &l, &r);
		b->p[i] = l;
		b->p[i + 1] = r;
	}
	for (i = 0; i < 4; i++)
		for (k = 0; k < 256; k += 2) {
			if (salt != NULL) {
				l ^= stream_word(salt, saltlen, &js);
				r ^= stream_word(salt, saltlen, &js);
			}
			bf_encipher(b, &l, &r);
			b->s[i][k] = l;
			b->s[i][k + 1] = r;
		}
}

#define HASH_LEN 32

static void
bcrypt_hash(struct bf *b, const uint8_t sha2pass[64],
    const uint8_t sha2salt[64], uint8_t out[HASH_LEN])
{
	static const char text[] = "OxychromaticBlowfishSwatDynamite";
	uint32_t cdata[HASH_LEN / 4];
	size_t j = 0;
	int i, k;

	memcpy(b->p, bf_init_p, sizeof b->p);
	memcpy(b->s, bf_init_s, sizeof b->s);
	bf_expand(b, sha2salt, 64, sha2pass, 64);
	for (i = 0; i < 64; i++) {
		bf_expand(b, NULL, 0, sha2salt, 64);
		bf_expand(b, NULL, 0, sha2pass, 64);
	}
	for (i = 0; i < HASH_LEN / 4; i++)
		cdata[i] = stream_word((const uint8_t *)text, HASH_LEN, &j);
	for (k = 0; k < 64; k++)
		for (i = 0; i < HASH_LEN / 4; i += 2)
			bf_encipher(b, &cdata[i], &cdata[i + 1]);
	for (i = 0; i < HASH_LEN / 4; i++)
		store_le32(out + 4 * i, cdata[i]);
	ae_wipe(cdata, sizeof cdata);
}

int
ae_bcrypt_pbkdf(const uint8_t *pass, size_t passlen, const uint8_t *salt,
    size_t saltlen, unsigned rounds, uint8_t *key, size_t keylen)
{
	uint8_t sha2pass[64], sha2salt[64], out[HASH_LEN], tmp[HASH_LEN], cnt[4];
	crypto_hash_sha512_state h;
	size_t stride, amt, i, origlen = keylen;
	uint32_t count;
	unsigned r;
	struct bf *b;

	if (rounds < 1 || keylen == 0 || keylen > HASH_LEN * HASH_LEN
	    || (b = ae_secret_alloc(sizeof *b)) == NULL)
		return AE_EINVAL;
	stride = (keylen + HASH_LEN - 1) / HASH_LEN;
	amt = (keylen + stride - 1) / stride;
	crypto_hash_sha512(sha2pass, pass, passlen);
	for (count = 1; keylen > 0; count++) {
		store_be32(cnt, count);
		crypto_hash_sha512_init(&h);
		crypto_hash_sha512_update(&h, salt, saltlen);
		crypto_hash_sha512_update(&h, cnt, 4);
		crypto_hash_sha512_final(&h, sha2salt);
		bcrypt_hash(b, sha2pass, sha2salt, tmp);
		memcpy(out, tmp, sizeof out);
		for (r = 1; r < rounds; r++) {
			crypto_hash_sha512(sha2salt, tmp, sizeof tmp);
			bcrypt_hash(b, sha2pass, sha2salt, tmp);
			for (i = 0; i < sizeof out; i++)
				out[i] ^= tmp[i];
		}
		/* spread the block over the key, one byte per stride */
		if (amt > keylen)
			amt = keylen;
		for (i = 0; i < amt; i++) {
			size_t dest = i * stride + (count - 1);

			if (dest >= origlen)
				break;
			key[dest] = out[i];
		}
		keylen -= i;
	}
	ae_wipe(sha2pass, sizeof sha2pass);
	ae_wipe(sha2salt, sizeof sha2salt);
	ae_wipe(out, sizeof out);
	ae_wipe(tmp, sizeof tmp);
	ae_wipe(&h, sizeof h);
	ae_secret_free(b, sizeof *b);
	return 0;
}
