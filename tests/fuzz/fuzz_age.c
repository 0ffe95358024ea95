/*
 * fuzz_age.c -- an age file, the whole reading path of the library's
 * aescrypt_age: detection (armored or not), the header and its stanzas,
 * the key from a fixed X25519 identity and the passphrase "password"
 * (CCTV's: the seeds are its test files, so mutations get past the
 * stanzas and the MAC to the payload) under a work factor cap of 12,
 * and then the first byte's bit 0: the payload decrypted to memory on
 * two threads, or read as a raw run (the tar stream, gzip or zstd
 * decompressed on the way) as -t and -x read it.  Whatever happens:
 * only documented statuses, a failure with words; the plaintext is
 * never longer than the input; a raw read gives no more than asked.
 */
#include "config.h"

#define AESCRYPT_STATIC_LINKING_ONLY
#include "aescrypt.h"

#include <string.h>

#include "common/error.h"
#include "fuzz.h"

struct src {
	const uint8_t *p;
	size_t len, pos;
};

static int
src_read(void *ctx, void *buf, size_t n, size_t *got)
{
	struct src *s = ctx;

	*got = s->len - s->pos < n ? s->len - s->pos : n;
	memcpy(buf, s->p + s->pos, *got);
	s->pos += *got;
	return 0;
}

static int
count(void *ctx, const void *buf, size_t n)
{
	(void)buf;
	*(uint64_t *)ctx += n;
	return 0;
}

static int
documented(int e)
{
	return e == AE_OK || e == AE_EFORMAT || e == AE_ETRUNC
	    || e == AE_EAUTH || e == AE_EKEY || e == AE_ELIMIT
	    || e == AE_ENOTSUP || e == AE_ENOMEM;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *id =
	    "AGE-SECRET-KEY-1EGTZVFFV20835NWYV6270LXYVK2VKNX2MMDKWYKLMGR48UAWX40Q2P2LM0";
	struct src s;
	struct aescrypt_source src = { src_read, NULL, 0, &s };
	struct ae_diag d;
	aescrypt_keys *k;
	aescrypt_age *a;
	uint64_t out = 0, bytes = 0;
	uint8_t buf[4096];
	size_t got;
	int e, raw;

	if (size < 1)
		return 0;
	raw = data[0] & 1;
	s.p = data + 1;
	s.len = size - 1;
	s.pos = 0;
	if ((a = aescrypt_age_new()) == NULL
	    || (k = aescrypt_keys_new()) == NULL) {
		aescrypt_age_free(a);
		return 0;
	}
	FUZZ_ASSERT(aescrypt_keys_add_age_identity(k, id, &d) == AE_OK);
	(void)aescrypt_age_set_threads(a, 2);
	e = aescrypt_age_open(a, &src, &d);
	FUZZ_ASSERT(documented(e));
	if (e != AE_OK) {
		FUZZ_ASSERT(d.what != NULL);
		goto out;
	}
	e = aescrypt_age_unlock(a, k, "password", 8, 12, &d);
	FUZZ_ASSERT(documented(e));
	if (e != AE_OK) {
		FUZZ_ASSERT(d.what != NULL);
		goto out;
	}
	if (!raw) {
		e = aescrypt_age_decrypt_to(a, count, &out, &d);
		FUZZ_ASSERT(documented(e) && out <= s.len);
		FUZZ_ASSERT(e == AE_OK || d.what != NULL);
		goto out;
	}
	if ((e = aescrypt_age_raw_start(a, &d)) == AE_OK)
		while ((e = aescrypt_age_raw_read(a, buf, sizeof buf, &got))
		    == AE_OK && got > 0)
			FUZZ_ASSERT(got <= sizeof buf);
	e = aescrypt_age_raw_end(a, 0, &bytes, &d);
	FUZZ_ASSERT(documented(e) && bytes <= s.len);
out:
	aescrypt_age_free(a);
	aescrypt_keys_free(k);
	return 0;
}
