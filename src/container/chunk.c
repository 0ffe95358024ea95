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

int
ae_chunk_coder_init_seal(struct ae_chunk_coder *c, size_t chunk_size,
    int engine, int level)
{
	int r;

	memset(c, 0, sizeof *c);
	if (!ae_deflate_available(engine) || level < 0
	    || level > ae_deflate_max_level(engine))
		return AE_EINVAL;
	c->level = level;
	c->chunk_size = chunk_size;
	if (level == 0)
		return AE_OK;
	if ((r = ae_deflate_init_compress(&c->zip, engine, level)) != AE_OK
	    || (r = ae_deflate_init_probe(&c->probe, engine)) != AE_OK) {
		ae_chunk_coder_free(c);
		return r;
	}
	return AE_OK;
}

int
ae_chunk_coder_init_open(struct ae_chunk_coder *c, size_t chunk_size,
    int engine)
{
	memset(c, 0, sizeof *c);
	c->chunk_size = chunk_size;
	c->level = -1;
	return ae_deflate_init_decompress(&c->zip, engine);
}

void
ae_chunk_coder_free(struct ae_chunk_coder *c)
{
	ae_deflate_free(&c->zip);
	ae_deflate_free(&c->probe);
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

/*
 * The incompressible-data probe.  PROBES slices of PROBE_LEN bytes,
 * spread evenly over a chunk, are compressed at the fastest level; if
 * not one of them saves 1/PROBE_SAVE of its size, the chunk is
 * stored without a full compression.  One compressible slice is enough
 * to compress the whole chunk, so data that mixes compressed and plain
 * parts (a tar of photos and their sidecar text) loses almost nothing;
 * bench/probe_cost measures it (here: +0.035% in size on a tree of
 * /usr/include and /usr/share/doc, +0.063% on one mixed with .gz, .so
 * and random files).  Chunks smaller than
 * PROBE_MIN are always compressed in full: the probe would not pay.
 */
#define PROBES 32
#define PROBE_LEN 2048
#define PROBE_SAVE 64           /* a slice must save 1/64 (1.6%) */
#define PROBE_MIN (64 * 1024)

static int
looks_incompressible(struct ae_chunk_coder *c, const uint8_t *in, size_t len,
    uint8_t *scratch)
{
	size_t step = len / PROBES, i;

	if (len < PROBE_MIN)
		return 0;
	for (i = 0; i < PROBES; i++) {
		const uint8_t *p = in + i * step + (step - PROBE_LEN) / 2;
		size_t n = ae_deflate_compress(&c->probe, p, PROBE_LEN, scratch,
		    PROBE_LEN - PROBE_LEN / PROBE_SAVE);

		if (n > 0)
			return 0;       /* this slice compresses */
	}
	return 1;
}

/* Deflate in into out (room for len - 1 bytes).  Returns the compressed
 * length, or 0 if it is not smaller (then store). */
static size_t
try_deflate(struct ae_chunk_coder *c, const uint8_t *in, size_t len,
    uint8_t *out)
{
	if (c->level == 0 || len < 2)
		return 0;
	/* out has room for a chunk; the probe's output fits in its
	 * first PROBE_LEN bytes. */
	if (looks_incompressible(c, in, len, out)) {
		c->probe_stored++;
		return 0;
	}
	return ae_deflate_compress(&c->zip, in, len, out, len - 1);
}

int
ae_chunk_seal(struct ae_chunk_coder *c, const ae_gcm_ctx *key, uint64_t index,
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
	ae_gcm_seal(key, nonce, sizeof nonce, rec, AE_FRAME_LEN, in, ctlen, ct,
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
	size_t got;

	/* The output bound is the chunk size, so a "bomb" can at most fill
	 * one chunk buffer before it is refused. */
	if (ae_deflate_decompress(&c->zip, in, n, out, c->chunk_size, &got)
	    != 0)
		return -1;
	return (long)got;
}

int
ae_chunk_open(struct ae_chunk_coder *c, const ae_gcm_ctx *key, uint64_t index,
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
	r = ae_gcm_open(key, nonce, sizeof nonce, frame, AE_FRAME_LEN, body,
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
