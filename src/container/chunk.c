#include "config.h"
#include "chunk.h"

#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "common/clock.h"
#include "common/wipe.h"

/* The thread's CPU clock, read only when the coder is timed: it is a
 * system call, and --stats is the only reader of the figures. */
static uint64_t
now(const struct ae_chunk_coder *c)
{
	return c->timed ? ae_thread_ns() : 0;
}

/* log2 of a power of two. */
static unsigned
log2_of(size_t n)
{
	unsigned k = 0;

	while (((size_t)1 << k) < n)
		k++;
	return k;
}

int
ae_chunk_coder_init_seal(struct ae_chunk_coder *c, size_t chunk_size,
    int codec, int engine, int level)
{
	const struct ae_codec_ops *cx = ae_codec_get(codec);
	int r;

	memset(c, 0, sizeof *c);
	c->codec = codec;
	if (cx == NULL)
		return AE_EINVAL;
	if (codec == AE_CODEC_DEFLATE && !ae_deflate_available(engine))
		return AE_EINVAL;
	if (level < 0 || level > cx->max_level(engine))
		return AE_EINVAL;
	c->cx = cx;
	c->level = level;
	c->chunk_size = chunk_size;
	if (level == 0)
		return AE_OK;
	if ((r = cx->init_compress(&c->st, engine, level)) != AE_OK)
		ae_chunk_coder_free(c);
	return r;
}

int
ae_chunk_coder_init_open(struct ae_chunk_coder *c, size_t chunk_size,
    int codec, int engine)
{
	const struct ae_codec_ops *cx = ae_codec_get(codec);

	memset(c, 0, sizeof *c);
	c->codec = codec;
	c->chunk_size = chunk_size;
	c->level = -1;
	if (cx == NULL)
		return AE_EINVAL;
	c->cx = cx;
	return cx->init_decompress(&c->st, engine, log2_of(chunk_size));
}

void
ae_chunk_coder_free(struct ae_chunk_coder *c)
{
	if (c->cx != NULL)
		c->cx->free(&c->st);
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
 * The incompressible-data probe.  A slice of SLICE bytes every SPACING
 * bytes (1/128 of the chunk, spread over all of it) has its distinct
 * byte values counted.  32 random bytes hold about 30 distinct values (and
 * fewer than 22 about once in 10^12 slices); a slice of text, code,
 * tables or anything else DEFLATE or zstd can shrink holds far fewer,
 * as does one that repeats itself.  One such slice is enough to
 * compress the whole chunk, so a chunk that mixes compressed and plain
 * parts loses almost nothing.  It costs one bitmap update a sampled
 * byte: memory speed.  Chunks smaller than PROBE_MIN are always
 * compressed: the probe would not pay.  bench/probe_cost measures its
 * cost and what it gives away against the probe before it (32 slices
 * of 2 KiB compressed at zlib's level 1, some 300 times the CPU): a
 * slice every 2 KiB cost 10% of a -0 run on random data and gave away
 * 0.01% on real trees; every 4 KiB, 5% and 0.04-0.08%.
 */
#define SPACING 4096
#define SLICE 32
#define FEW 21                  /* at most this many distinct: plain */
#define PROBE_MIN (64 * 1024)

int
ae_chunk_looks_random(const uint8_t *in, size_t len)
{
	size_t i, k;

	if (len < PROBE_MIN)
		return 0;
	for (i = 0; i + SPACING <= len; i += SPACING) {
		/* mid-spacing, and in one cache line when in is aligned */
		const uint8_t *p = in + i + SPACING / 2;
		uint64_t seen[4] = { 0, 0, 0, 0 };
		unsigned distinct;

		for (k = 0; k < SLICE; k++)
			seen[p[k] >> 6] |= (uint64_t)1 << (p[k] & 63);
		distinct = (unsigned)(__builtin_popcountll(seen[0])
		    + __builtin_popcountll(seen[1])
		    + __builtin_popcountll(seen[2])
		    + __builtin_popcountll(seen[3]));
		if (distinct <= FEW)
			return 0;
	}
	return 1;
}

/* Compress in into out (room for len - 1 bytes) with the coder's codec.
 * Returns the compressed length, or 0 if it is not smaller (then
 * store). */
static size_t
try_compress(struct ae_chunk_coder *c, const uint8_t *in, size_t len,
    uint8_t *out)
{
	if (c->level == 0 || len < 2)
		return 0;
	if (ae_chunk_looks_random(in, len)) {
		c->probe_stored++;
		return 0;
	}
	return c->cx->compress(&c->st, in, len, out, len - 1);
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
	ctlen = try_compress(c, in, len, ct);
	t1 = now(c);
	c->zip_ns += t1 - t0;
	if (ctlen > 0) {
		flags |= AE_FLAG_COMPRESSED;
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
    int *final, int *compressed, size_t *ctlen, struct ae_diag *d)
{
	uint32_t len = load_be32(frame + 1);

	if (frame[0] & ~AE_FLAGS_KNOWN)
		return ae_fail(d, AE_EFORMAT, AE_AT_CHUNK,
		    "has unknown flag bits", 0, 0);
	if (len > chunk_size)
		return ae_fail(d, AE_EFORMAT, AE_AT_CHUNK,
		    "has a length over the chunk size", 0, 0);
	*final = frame[0] & AE_FLAG_FINAL;
	*compressed = (frame[0] & AE_FLAG_COMPRESSED) != 0;
	*ctlen = len;
	return AE_OK;
}

int
ae_chunk_frame_plausible(int final, int compressed, size_t ctlen,
    size_t chunk_size)
{
	if (final)
		return 1;
	return compressed ? ctlen > 0 : ctlen == chunk_size;
}

int
ae_chunk_number_of(const struct ae_cbc_key *dkey, int final,
    const uint8_t ghash[AE_TAG_LEN], const uint8_t tag[AE_TAG_LEN],
    uint64_t lo, uint64_t hi, uint64_t *found)
{
	uint8_t iv[AE_TAG_LEN] = { 0 }, t[AE_TAG_LEN], j0[AE_TAG_LEN];
	unsigned diff;
	uint64_t n;
	size_t i;
	int ok;

	/* E(J0(n)) would be the tag XOR GHASH; the block cipher's inverse
	 * gives J0(n) = nonce(n) || 00000001 back, and n with it.  A
	 * record from elsewhere, or none, decrypts to a block of no such
	 * form but by a chance of 2^-63, and to a number in lo..hi by
	 * (hi - lo + 1) in 2^127: what trying each number costs, without
	 * the trying. */
	for (i = 0; i < AE_TAG_LEN; i++)
		t[i] = ghash[i] ^ tag[i];
	ae_cbc_decrypt(dkey, iv, t, j0, 1);
	diff = (unsigned)(j0[0] | j0[1] | j0[2] | (j0[11] ^ (final ? 1 : 0))
	    | j0[12] | j0[13] | j0[14] | (j0[15] ^ 1));
	n = load_be64(j0 + 3);
	ok = (diff == 0) & (n - lo <= hi - lo) & (n >= lo);
	AE_DECLASSIFY(&ok, sizeof ok);
	if (ok)
		*found = n;
	ae_wipe(t, sizeof t);
	ae_wipe(j0, sizeof j0);
	ae_wipe(iv, sizeof iv);
	return ok ? AE_OK : AE_EAUTH;
}

void
ae_chunk_lens(uint8_t lens[16], size_t ctlen)
{
	store_be64(lens, (uint64_t)AE_FRAME_LEN * 8);
	store_be64(lens + 8, (uint64_t)ctlen * 8);
}

int
ae_chunk_number(const ae_gcm_ctx *key, const struct ae_cbc_key *dkey,
    const uint8_t frame[AE_FRAME_LEN], const uint8_t *body, size_t ctlen,
    uint64_t lo, uint64_t hi, uint64_t *found)
{
	uint8_t y[AE_TAG_LEN] = { 0 }, b[16];
	size_t full = ctlen / 16, rest = ctlen % 16;
	int r;

	/* GHASH(frame, body), GCM's padding and length block: the record
	 * as sealed under any number, less that number's E(J0) */
	memset(b, 0, sizeof b);
	memcpy(b, frame, AE_FRAME_LEN);
	ae_gcm_ghash(key, y, b, 1);
	ae_gcm_ghash(key, y, body, full);
	if (rest > 0) {
		memset(b, 0, sizeof b);
		memcpy(b, body + 16 * full, rest);
		ae_gcm_ghash(key, y, b, 1);
	}
	ae_chunk_lens(b, ctlen);
	ae_gcm_ghash(key, y, b, 1);
	r = ae_chunk_number_of(dkey, frame[0] & AE_FLAG_FINAL, y, body + ctlen,
	    lo, hi, found);
	ae_wipe(y, sizeof y);
	ae_wipe(b, sizeof b);
	return r;
}

/* Decompress exactly one complete DEFLATE stream or zstd frame of n
 * bytes into out (room for the chunk size).  Returns the plaintext
 * length or -1. */
static long
decompress_chunk(struct ae_chunk_coder *c, const uint8_t *in, size_t n,
    uint8_t *out)
{
	size_t got;
	int r;

	/* The output bound is the chunk size, so a "bomb" can at most fill
	 * one chunk buffer before it is refused. */
	r = c->cx->decompress(&c->st, in, n, out, c->chunk_size, &got);
	return r != 0 ? -1 : (long)got;
}

int
ae_chunk_open(struct ae_chunk_coder *c, const ae_gcm_ctx *key, uint64_t index,
    const uint8_t frame[AE_FRAME_LEN], const uint8_t *body, size_t ctlen,
    uint8_t *scratch, uint8_t *out, size_t *outlen, struct ae_diag *d)
{
	uint8_t nonce[AE_NONCE_LEN];
	int final = 0, compressed = 0, r;
	size_t len, fl = 0;
	uint64_t t0, t1;

	r = ae_chunk_frame(frame, c->chunk_size, &final, &compressed, &fl, d);
	if (r != AE_OK || fl != ctlen) {
		if (d != NULL)
			d->index = index;
		return r != AE_OK ? r : AE_EINVAL;
	}
	ae_chunk_nonce(index, final, nonce);
	t0 = now(c);
	r = ae_gcm_open(key, nonce, sizeof nonce, frame, AE_FRAME_LEN, body,
	    ctlen, body + ctlen, AE_TAG_LEN, compressed ? scratch : out);
	t1 = now(c);
	c->aead_ns += t1 - t0;
	c->aead_bytes += ctlen;
	if (r != AE_OK)
		return ae_fail(d, AE_EAUTH, AE_AT_CHUNK,
		    "failed authentication", index, 0);
	if (compressed) {
		long n = decompress_chunk(c, scratch, ctlen, out);

		c->zip_ns += now(c) - t1;
		if (n < 0)
			return ae_fail(d, AE_EFORMAT, AE_AT_CHUNK,
			    c->cx->bad_data, index, 0);
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
