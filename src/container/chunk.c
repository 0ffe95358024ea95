#include "config.h"
#include "chunk.h"

#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "common/clock.h"
#include "crypto/wipe.h"

/* The thread's CPU clock, read only when the coder is timed: it is a
 * system call, and --stats is the only reader of the figures. */
static uint64_t
now(const struct ae_chunk_coder *c)
{
	return c->timed ? ae_thread_ns() : 0;
}

/*
 * zlib's allocator, wiping on free: the deflate window and the inflate
 * window hold plaintext.  Each block carries its size in a 16-byte
 * header, which keeps the returned pointer as aligned as malloc's.
 */
#define ZHDR 16

static voidpf
zalloc_wipe(voidpf opaque, uInt items, uInt size)
{
	size_t n;
	unsigned char *p;

	(void)opaque;
	if (size != 0 && items > ((size_t)-1 - ZHDR) / size)
		return Z_NULL;
	n = (size_t)items * size;
	if ((p = malloc(ZHDR + n)) == NULL)
		return Z_NULL;
	memcpy(p, &n, sizeof n);
	return p + ZHDR;
}

static void
zfree_wipe(voidpf opaque, voidpf address)
{
	unsigned char *p = (unsigned char *)address - ZHDR;
	size_t n;

	(void)opaque;
	memcpy(&n, p, sizeof n);
	ae_wipe(p, ZHDR + n);
	free(p);
}

int
ae_chunk_coder_init_seal(struct ae_chunk_coder *c, size_t chunk_size,
    int level)
{
	memset(c, 0, sizeof *c);
	if (level < 0 || level > 9)
		return AE_EINVAL;
	c->level = level;
	c->chunk_size = chunk_size;
	if (level == 0)
		return AE_OK;
	c->z.zalloc = zalloc_wipe;
	c->z.zfree = zfree_wipe;
	/* Raw DEFLATE (negative window bits): no zlib header or Adler-32,
	 * as GCM already authenticates every byte. */
	if (deflateInit2(&c->z, level, Z_DEFLATED, -15, 8,
	    Z_DEFAULT_STRATEGY) != Z_OK)
		return AE_ENOMEM;
	c->zlive = 1;
	return AE_OK;
}

int
ae_chunk_coder_init_open(struct ae_chunk_coder *c, size_t chunk_size)
{
	memset(c, 0, sizeof *c);
	c->chunk_size = chunk_size;
	c->level = -1;
	c->z.zalloc = zalloc_wipe;
	c->z.zfree = zfree_wipe;
	if (inflateInit2(&c->z, -15) != Z_OK)
		return AE_ENOMEM;
	c->zlive = 1;
	return AE_OK;
}

void
ae_chunk_coder_free(struct ae_chunk_coder *c)
{
	if (c->zlive) {
		if (c->level < 0)
			inflateEnd(&c->z);
		else
			deflateEnd(&c->z);
	}
	memset(c, 0, sizeof *c);
}

void
ae_chunk_nonce(uint64_t index, int final, uint8_t nonce[AE_NONCE_LEN])
{
	/* 11 bytes of counter; the top three are always zero because the
	 * index is a uint64_t. */
	nonce[0] = nonce[1] = nonce[2] = 0;
	store_be64(nonce + 3, index);
	nonce[11] = final ? 1 : 0;
}

/* Try to deflate in into out (room for len - 1 bytes).  Returns the
 * compressed length, or 0 if it is not smaller (then store). */
static size_t
try_deflate(struct ae_chunk_coder *c, const uint8_t *in, size_t len,
    uint8_t *out)
{
	int zr;

	if (c->level == 0 || len < 2)
		return 0;
	if (deflateReset(&c->z) != Z_OK)
		return 0;
	c->z.next_in = (Bytef *)(uintptr_t)in;
	c->z.avail_in = (uInt)len;
	c->z.next_out = out;
	c->z.avail_out = (uInt)(len - 1);
	zr = deflate(&c->z, Z_FINISH);
	if (zr != Z_STREAM_END)
		return 0;       /* out of room: not smaller than stored */
	return len - 1 - c->z.avail_out;
}

int
ae_chunk_seal(struct ae_chunk_coder *c, const gcm_ctx *key, uint64_t index,
    int final, const uint8_t *in, size_t len, uint8_t *rec, size_t *reclen)
{
	uint8_t nonce[AE_NONCE_LEN];
	uint8_t *ct = rec + AE_FRAME_LEN;
	size_t ctlen;
	int flags = final ? AE_FLAG_FINAL : 0;

	uint64_t t0, t1;

	if (len > c->chunk_size || (!final && len != c->chunk_size)
	    || (final && len == 0 && index != 0))
		return AE_EINVAL;
	t0 = now(c);
	ctlen = try_deflate(c, in, len, ct);
	t1 = now(c);
	c->zip_ns += t1 - t0;
	if (ctlen > 0) {
		flags |= AE_FLAG_DEFLATE;
		in = ct;        /* seal in place */
	} else {
		ctlen = len;
	}
	rec[0] = (uint8_t)flags;
	store_be32(rec + 1, (uint32_t)ctlen);
	ae_chunk_nonce(index, final, nonce);
	gcm_seal(key, nonce, sizeof nonce, rec, AE_FRAME_LEN, in, ctlen, ct,
	    ct + ctlen);
	c->aead_ns += now(c) - t1;
	c->aead_bytes += ctlen;
	*reclen = AE_FRAME_LEN + ctlen + AE_TAG_LEN;
	return AE_OK;
}

int
ae_chunk_frame(const uint8_t frame[AE_FRAME_LEN], size_t chunk_size,
    int *final, int *deflated, size_t *ctlen, struct ae_diag *d)
{
	uint32_t len = load_be32(frame + 1);

	if (frame[0] & ~AE_FLAGS_KNOWN)
		return ae_fail(d, AE_EFORMAT, AE_AT_CHUNK,
		    "has unknown flag bits", 0, 0);
	if (len > chunk_size)
		return ae_fail(d, AE_EFORMAT, AE_AT_CHUNK,
		    "has a length over the chunk size", 0, 0);
	*final = frame[0] & AE_FLAG_FINAL;
	*deflated = (frame[0] & AE_FLAG_DEFLATE) != 0;
	*ctlen = len;
	return AE_OK;
}

/* Inflate exactly one complete raw DEFLATE stream of n bytes into out
 * (room for the chunk size).  Returns the plaintext length or -1. */
static long
inflate_chunk(struct ae_chunk_coder *c, const uint8_t *in, size_t n,
    uint8_t *out)
{
	int zr;

	if (inflateReset(&c->z) != Z_OK)
		return -1;
	c->z.next_in = (Bytef *)(uintptr_t)in;
	c->z.avail_in = (uInt)n;
	c->z.next_out = out;
	c->z.avail_out = (uInt)c->chunk_size;
	/* The output bound is the chunk size, so a "bomb" can at most fill
	 * one chunk buffer before it is refused. */
	zr = inflate(&c->z, Z_FINISH);
	if (zr != Z_STREAM_END || c->z.avail_in != 0)
		return -1;
	return (long)(c->chunk_size - c->z.avail_out);
}

int
ae_chunk_open(struct ae_chunk_coder *c, const gcm_ctx *key, uint64_t index,
    const uint8_t frame[AE_FRAME_LEN], const uint8_t *body, size_t ctlen,
    uint8_t *scratch, uint8_t *out, size_t *outlen, struct ae_diag *d)
{
	uint8_t nonce[AE_NONCE_LEN];
	int final = 0, deflated = 0, r;
	size_t len, fl = 0;
	uint64_t t0, t1;

	r = ae_chunk_frame(frame, c->chunk_size, &final, &deflated, &fl, d);
	if (r != AE_OK || fl != ctlen) {
		if (d != NULL)
			d->index = index;
		return r != AE_OK ? r : AE_EINVAL;
	}
	ae_chunk_nonce(index, final, nonce);
	t0 = now(c);
	r = gcm_open(key, nonce, sizeof nonce, frame, AE_FRAME_LEN, body,
	    ctlen, body + ctlen, AE_TAG_LEN, deflated ? scratch : out);
	t1 = now(c);
	c->aead_ns += t1 - t0;
	c->aead_bytes += ctlen;
	if (r != AE_OK)
		return ae_fail(d, AE_EAUTH, AE_AT_CHUNK,
		    "failed authentication", index, 0);
	if (deflated) {
		long n = inflate_chunk(c, scratch, ctlen, out);

		c->zip_ns += now(c) - t1;
		if (n < 0)
			return ae_fail(d, AE_EFORMAT, AE_AT_CHUNK,
			    "holds bad or oversized DEFLATE data", index, 0);
		len = (size_t)n;
	} else {
		len = ctlen;
	}
	if (!final && len != c->chunk_size)
		return ae_fail(d, AE_EFORMAT, AE_AT_CHUNK,
		    "is a short chunk before the final one", index, 0);
	if (final && len == 0 && index != 0)
		return ae_fail(d, AE_EFORMAT, AE_AT_CHUNK,
		    "is an empty final chunk", index, 0);
	*outlen = len;
	return AE_OK;
}
