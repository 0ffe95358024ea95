/*
 * legacy.c -- the AES Crypt stream format, read (contract in legacy.h).
 *
 * Layout, after "AES" and the version byte (format/README.md, appendix
 * B, gives the whole of it):
 *   v0: mod16, IV, ciphertext, HMAC
 *   v1: reserved, IV, key block (48), HMAC(key block), ciphertext,
 *       mod16, HMAC
 *   v2: v1 with extensions after the reserved byte
 *   v3: v2 with a PBKDF2 iteration count before the IV, the key block's
 *       HMAC also over the version byte, PKCS#7 padding and no mod16.
 * The payload MAC is HMAC-SHA256 of the ciphertext alone.  The reader
 * holds back the trailer and the last block until the end, so only
 * blocks the MAC will cover reach the writer before it is checked, and
 * the last one (which carries the padding) only after.
 */
#include "config.h"
#include "legacy.h"
#include "common/bytes.h"
#include "crypto/hmac_sha256.h"
#include "crypto/pbkdf2.h"
#include "crypto/sha256.h"
#include "common/wipe.h"

#include <stdlib.h>
#include <string.h>

#define MAX_EXTENSIONS 1024
#define BUF_LEN (1u << 20)        /* ciphertext read at a time */
#define V02_ROUNDS 8192           /* SHA-256 rounds of versions 0-2 */

int
ae_legacy_sniff(const uint8_t *b, size_t n)
{
	return n >= 5 && memcmp(b, "AES", 3) == 0 && b[3] <= 3
	    && (b[3] == 0 ? b[4] < 16 : 1);
}

static int
read_exact(struct ae_reader *r, uint8_t *buf, size_t n, uint64_t *off,
    struct ae_diag *d)
{
	size_t got;
	int e;

	if ((e = r->read(r->ctx, buf, n, &got)) != AE_OK)
		return ae_fail(d, e, AE_AT_INPUT, "reading the header", 0,
		    *off);
	*off += got;
	if (got < n)
		return ae_fail(d, AE_ETRUNC, AE_AT_HEADER, "the AES Crypt "
		    "header is cut short", 0, *off);
	return AE_OK;
}

/* One extension of length len: keep CREATED_BY's contents. */
static void
take_extension(struct ae_legacy *lg, const uint8_t *x, size_t len)
{
	const uint8_t *nul = memchr(x, 0, len);
	size_t id, n;

	lg->extensions++;
	if (nul == NULL)
		return;
	id = (size_t)(nul - x);
	if (id != 10 || memcmp(x, "CREATED_BY", 10) != 0)
		return;
	n = len - id - 1;
	if (n > sizeof lg->creator - 1)
		n = sizeof lg->creator - 1;
	memcpy(lg->creator, nul + 1, n);
	lg->creator[n] = '\0';
}

static int
read_extensions(struct ae_reader *r, struct ae_legacy *lg, uint64_t *off,
    struct ae_diag *d)
{
	uint8_t *x = malloc(65535);
	uint8_t lb[2];
	size_t len;
	int e = AE_OK;

	if (x == NULL)
		return ae_fail(d, AE_ENOMEM, AE_AT_NONE, NULL, 0, 0);
	for (;;) {
		if ((e = read_exact(r, lb, 2, off, d)) != AE_OK)
			break;
		len = (size_t)lb[0] << 8 | lb[1];
		if (len == 0)
			break;
		if (lg->extensions >= MAX_EXTENSIONS) {
			e = ae_fail(d, AE_EFORMAT, AE_AT_HEADER, "the AES Crypt "
			    "header's extensions do not end", 0, *off);
			break;
		}
		if ((e = read_exact(r, x, len, off, d)) != AE_OK)
			break;
		take_extension(lg, x, len);
	}
	free(x);
	return e;
}

int
ae_legacy_read_header(struct ae_reader *r, struct ae_legacy *lg,
    struct ae_diag *d)
{
	uint8_t b[5], it[4];
	uint64_t off = 0;
	int e;

	memset(lg, 0, sizeof *lg);
	if ((e = read_exact(r, b, 5, &off, d)) != AE_OK)
		return e;
	if (!ae_legacy_sniff(b, 5))
		return ae_fail(d, AE_EFORMAT, AE_AT_HEADER, "not an AES Crypt "
		    "file", 0, 0);
	lg->version = b[3];
	lg->mod16 = b[4];
	if (lg->version >= 2 && (e = read_extensions(r, lg, &off, d)) != AE_OK)
		return e;
	if (lg->version == 3) {
		if ((e = read_exact(r, it, 4, &off, d)) != AE_OK)
			return e;
		lg->iterations = load_be32(it);
		if (lg->iterations == 0)
			return ae_fail(d, AE_EFORMAT, AE_AT_HEADER, "the AES "
			    "Crypt header asks for 0 KDF iterations", 0, off - 4);
	}
	if ((e = read_exact(r, lg->iv, 16, &off, d)) != AE_OK)
		return e;
	if (lg->version >= 1
	    && ((e = read_exact(r, lg->keyblock, 48, &off, d)) != AE_OK
	    || (e = read_exact(r, lg->keymac, 32, &off, d)) != AE_OK))
		return e;
	lg->header_len = off;
	return AE_OK;
}

/*
 * pass as UTF-16LE (what versions 0-2 hash); returns the length.  pass
 * is read as UTF-8 as RFC 3629 defines it: no overlong forms, no
 * surrogates (U+D800-DFFF), nothing above U+10FFFF.  A byte that does
 * not start such a sequence is taken as the code point of that byte, and
 * decoding goes on with the next byte (format/aes-crypt.md); AES Crypt
 * itself refused such passphrases, so no file depends on the choice,
 * but the rule is written down so that two readers agree.
 */
static size_t
utf16le(const uint8_t *p, size_t n, uint8_t *out)
{
	/* the smallest code point of a sequence of need + 1 bytes */
	static const uint32_t least[4] = { 0, 0x80, 0x800, 0x10000 };
	size_t i = 0, o = 0;

	while (i < n) {
		uint32_t c = p[i], need = 0, k, v;

		if (c >= 0xf0 && c < 0xf5)
			need = 3, v = c & 0x07;
		else if (c >= 0xe0 && c < 0xf0)
			need = 2, v = c & 0x0f;
		else if (c >= 0xc2 && c < 0xe0)
			need = 1, v = c & 0x1f;
		else
			v = c;
		if (need > 0 && i + need < n) {
			for (k = 1; k <= need; k++) {
				if ((p[i + k] & 0xc0) != 0x80)
					break;
				v = v << 6 | (p[i + k] & 0x3f);
			}
			if (k > need && v >= least[need] && v <= 0x10ffff
			    && (v < 0xd800 || v > 0xdfff)) {
				c = v;
				i += need;
			}
		}
		i++;
		if (c >= 0x10000) {
			c -= 0x10000;
			store_le16(out + o, (uint16_t)(0xd800 | c >> 10));
			store_le16(out + o + 2, (uint16_t)(0xdc00 | (c & 0x3ff)));
			o += 4;
		} else {
			store_le16(out + o, (uint16_t)c);
			o += 2;
		}
	}
	return o;
}

static int
derive(const struct ae_legacy *lg, const uint8_t *pass, size_t passlen,
    uint8_t key[32])
{
	struct ae_sha256 s;
	uint8_t *p16;
	size_t n16;
	int i;

	if (lg->version == 3)
		return ae_pbkdf2_sha512(pass, passlen, lg->iv, 16,
		    lg->iterations, key, 32);
	if ((p16 = ae_secret_alloc(2 * passlen + 4)) == NULL)
		return AE_ENOMEM;
	n16 = utf16le(pass, passlen, p16);
	memset(key, 0, 32);
	memcpy(key, lg->iv, 16);
	for (i = 0; i < V02_ROUNDS; i++) {
		ae_sha256_init(&s);
		ae_sha256_update(&s, key, 32);
		ae_sha256_update(&s, p16, n16);
		ae_sha256_final(&s, key);
	}
	ae_wipe(&s, sizeof s);
	ae_secret_free(p16, 2 * passlen + 4);
	return AE_OK;
}

int
ae_legacy_unlock(const struct ae_legacy *lg, const uint8_t *pass,
    size_t passlen, uint32_t max_iterations, struct ae_legacy_keys *k,
    struct ae_diag *d)
{
	struct ae_hmac_sha256 h;
	uint8_t key[32], mac[32], block[48], iv[16];
	struct ae_cbc_key *c = &k->cbc;
	int e;

	memset(k, 0, sizeof *k);
	if (lg->version == 3 && lg->iterations > max_iterations) {
		if (d != NULL) {
			d->have = lg->iterations;
			d->limit = max_iterations;
		}
		return ae_fail(d, AE_ELIMIT, AE_AT_HEADER, "KDF iterations "
		    "over the limit", 0, 0);
	}
	if ((e = derive(lg, pass, passlen, key)) != AE_OK)
		return ae_fail(d, e, AE_AT_NONE, NULL, 0, 0);
	if (lg->version == 0) {
		ae_cbc_init(c, key);
		memcpy(k->iv, lg->iv, 16);
		memcpy(k->mackey, key, 32);
		ae_wipe(key, sizeof key);
		return AE_OK;
	}
	ae_hmac_sha256_init(&h, key, 32);
	ae_hmac_sha256_update(&h, lg->keyblock, 48);
	if (lg->version == 3)
		ae_hmac_sha256_update(&h, "\x03", 1);
	ae_hmac_sha256_final(&h, mac);
	ae_wipe(&h, sizeof h);
	if (!ae_ct_equal(mac, lg->keymac, 32)) {
		ae_wipe(key, sizeof key);
		return ae_fail(d, AE_EKEY, AE_AT_HEADER, "wrong passphrase (or "
		    "a damaged key block)", 0, 0);
	}
	/* The key block: session IV and key, CBC under the derived key. */
	ae_cbc_init(c, key);
	memcpy(iv, lg->iv, 16);
	ae_cbc_decrypt(c, iv, lg->keyblock, block, 3);
	ae_cbc_wipe(c);
	ae_cbc_init(c, block + 16);
	memcpy(k->iv, block, 16);
	memcpy(k->mackey, block + 16, 32);
	ae_wipe(block, sizeof block);
	ae_wipe(key, sizeof key);
	return AE_OK;
}

/* MAC (and unless verifying, decrypt and write) n bytes of buf; iv
 * follows the chain either way, for the last block's padding. */
static int
body(struct ae_legacy_keys *k, uint8_t iv[16], struct ae_hmac_sha256 *h,
    uint8_t *buf, size_t n, struct ae_writer *w, int flags, uint64_t *plain)
{
	int e;

	ae_hmac_sha256_update(h, buf, n);
	if (n == 0)
		return AE_OK;
	if (flags & AE_LEGACY_VERIFY) {
		memcpy(iv, buf + n - 16, 16);
		return AE_OK;
	}
	ae_cbc_decrypt(&k->cbc, iv, buf, buf, n / 16);
	if ((e = w->write(w->ctx, buf, n)) != AE_OK)
		return e;
	*plain += n;
	return AE_OK;
}

/* What follows the ciphertext: the MAC, after v1-2's length byte. */
static size_t
trailer_len(const struct ae_legacy *lg)
{
	return lg->version == 1 || lg->version == 2 ? 33 : 32;
}

/* The last block, after the MAC: how many of its bytes are data. */
static int
last_len(const struct ae_legacy *lg, const uint8_t *last, uint8_t mod,
    size_t *n)
{
	unsigned pad, i, bad = 0;

	if (lg->version != 3) {
		*n = (mod & 0x0f) == 0 ? 16 : (mod & 0x0f);
		return AE_OK;
	}
	pad = last[15];
	if (pad == 0 || pad > 16)
		return AE_EFORMAT;
	for (i = 16 - pad; i < 16; i++)
		bad |= last[i] ^ pad;
	if (bad)
		return AE_EFORMAT;
	*n = 16 - pad;
	return AE_OK;
}

static int
finish(const struct ae_legacy *lg, struct ae_legacy_keys *k, uint8_t iv[16],
    struct ae_hmac_sha256 *h, uint8_t *buf, size_t fill, uint64_t at,
    struct ae_writer *w, int flags, uint64_t *plain, struct ae_diag *d)
{
	size_t tail = trailer_len(lg);
	size_t nb, keep;
	uint8_t mac[32];
	int e;

	if (fill < tail || (fill - tail) % 16 != 0
	    || (lg->version == 3 && fill - tail < 16))
		return ae_fail(d, AE_ETRUNC, AE_AT_INPUT, "the file is cut short "
		    "(or damaged): it does not end in a whole block and the MAC",
		    0, at + fill);
	nb = fill - tail;
	/* all but the last block go out before the MAC is known */
	if (nb > 16
	    && (e = body(k, iv, h, buf, nb - 16, w, flags, plain)) != AE_OK)
		return ae_fail(d, e, AE_AT_OUTPUT, "writing output", 0, 0);
	ae_hmac_sha256_update(h, buf + (nb > 16 ? nb - 16 : 0), nb > 16 ? 16 : nb);
	ae_hmac_sha256_final(h, mac);
	if (!ae_ct_equal(mac, buf + fill - 32, 32))
		return ae_fail(d, AE_EAUTH, AE_AT_INPUT, lg->version == 0 ?
		    "failed authentication: a wrong passphrase, or the file is "
		    "damaged (version 0 files cannot tell which)" :
		    "failed authentication: the file is damaged or cut short",
		    0, at + nb);
	if (nb == 0)
		return AE_OK;
	/* the padding is checked in a verifying pass too (--test) */
	ae_cbc_decrypt(&k->cbc, iv, buf + nb - 16, buf + nb - 16, 1);
	if (last_len(lg, buf + nb - 16, lg->version == 0 ? lg->mod16 : buf[nb],
	    &keep) != AE_OK)
		return ae_fail(d, AE_EFORMAT, AE_AT_INPUT, "the padding is not "
		    "valid (though the MAC is)", 0, at + nb - 16);
	if (flags & AE_LEGACY_VERIFY || keep == 0)
		return AE_OK;
	if ((e = w->write(w->ctx, buf + nb - 16, keep)) != AE_OK)
		return ae_fail(d, e, AE_AT_OUTPUT, "writing output", 0, 0);
	*plain += keep;
	return AE_OK;
}

int
ae_legacy_decrypt(const struct ae_legacy *lg, struct ae_legacy_keys *k,
    struct ae_reader *r, struct ae_writer *w, int flags, uint64_t *plain,
    uint64_t *cipher, struct ae_diag *d)
{
	const size_t hold = 33 + 16, cap = BUF_LEN + hold;
	struct ae_hmac_sha256 h;
	uint64_t at = lg->header_len, p0 = 0, c0 = 0;
	uint8_t *buf = ae_secret_alloc(cap), iv[16];
	size_t fill = 0, got, n;
	int e = AE_OK;

	if (plain == NULL)
		plain = &p0;
	if (cipher == NULL)
		cipher = &c0;
	*plain = *cipher = 0;
	if (buf == NULL)
		return ae_fail(d, AE_ENOMEM, AE_AT_NONE, NULL, 0, 0);
	ae_hmac_sha256_init(&h, k->mackey, 32);
	memcpy(iv, k->iv, 16);     /* k stays as it was, for a second pass */
	for (;;) {
		if ((e = r->read(r->ctx, buf + fill, cap - fill, &got)) != AE_OK) {
			e = ae_fail(d, e, AE_AT_INPUT, "reading input", 0,
			    at + fill);
			break;
		}
		*cipher += got;
		fill += got;
		if (fill < cap) {          /* a short read: the end */
			e = finish(lg, k, iv, &h, buf, fill, at, w, flags, plain,
			    d);
			break;
		}
		n = (fill - hold) / 16 * 16;
		if ((e = body(k, iv, &h, buf, n, w, flags, plain)) != AE_OK) {
			e = ae_fail(d, e, AE_AT_OUTPUT, "writing output", 0, 0);
			break;
		}
		memmove(buf, buf + n, fill - n);
		fill -= n;
		at += n;
	}
	/* what was read past the ciphertext was the trailer */
	if (e == AE_OK)
		*cipher -= trailer_len(lg);
	ae_wipe(&h, sizeof h);
	ae_wipe(iv, sizeof iv);
	ae_secret_free(buf, cap);
	return e;
}

void
ae_legacy_keys_wipe(struct ae_legacy_keys *k)
{
	ae_wipe(k, sizeof *k);
}
