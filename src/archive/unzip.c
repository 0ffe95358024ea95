/*
 * unzip.c -- a compressed tar stream read as plain tar (contracts in
 * unzip.h): zlib's inflate for gzip, libzstd's streaming decoder for
 * zstd.  What is decompressed here was authenticated before it came
 * (an age payload): a bomb only costs time, as the tar reader's
 * --max-size and the disk's room bound what it makes.
 */
#include "config.h"
#include "unzip.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#ifdef HAVE_ZSTD
#include <zstd.h>
#endif

#include "common/wipe.h"

#define IN_CAP 65536

struct ae_unzip {
	struct ae_reader *src;
	int kind;
	uint8_t in[IN_CAP];
	size_t ipos, ilen;
	int ieof;
	uint64_t in_bytes;
	z_stream z;
	int z_init, z_member_done;
#ifdef HAVE_ZSTD
	ZSTD_DStream *zs;
	size_t zs_last;             /* ZSTD_decompressStream's last hint:
	                             * 0 when a frame just ended */
#endif
	const char *what;
};

const char *
ae_unzip_name(int kind)
{
	switch (kind) {
	case AE_UNZIP_GZIP: return "gzip";
	case AE_UNZIP_ZSTD: return "zstd";
	case AE_UNZIP_XZ: return "xz";
	case AE_UNZIP_BZIP2: return "bzip2";
	default: return "none";
	}
}

/* Refill in (what is left moved to its start).  0 or src's error. */
static int
refill(struct ae_unzip *u)
{
	size_t got;
	int r;

	if (u->ieof)
		return AE_OK;
	if (u->ipos > 0) {
		memmove(u->in, u->in + u->ipos, u->ilen - u->ipos);
		u->ilen -= u->ipos;
		u->ipos = 0;
	}
	if (u->ilen == IN_CAP)
		return AE_OK;
	if ((r = u->src->read(u->src->ctx, u->in + u->ilen, IN_CAP - u->ilen,
	    &got)) != AE_OK)
		return r;
	if (got == 0)
		u->ieof = 1;
	u->ilen += got;
	u->in_bytes += got;
	return AE_OK;
}

static int
corrupt(struct ae_unzip *u, const char *what)
{
	u->what = what;
	return AE_EFORMAT;
}

/* gzip: members one after another, as gzip -d reads them. */
static int
gzip_read(struct ae_unzip *u, uint8_t *buf, size_t n, size_t *got)
{
	int r, zr;

	while (*got < n) {
		if (u->ipos == u->ilen) {
			if ((r = refill(u)) != AE_OK)
				return r;
			if (u->ipos == u->ilen) {
				if (!u->z_member_done)
					return corrupt(u, "its gzip stream ends "
					    "inside a member: it was cut short "
					    "before it was encrypted");
				return AE_OK;
			}
		}
		if (u->z_member_done) {
			/* another member follows */
			if (inflateReset(&u->z) != Z_OK)
				return corrupt(u, "its gzip stream cannot "
				    "be read on");
			u->z_member_done = 0;
		}
		u->z.next_in = u->in + u->ipos;
		u->z.avail_in = (uInt)(u->ilen - u->ipos);
		u->z.next_out = buf + *got;
		u->z.avail_out = (uInt)(n - *got);
		zr = inflate(&u->z, Z_NO_FLUSH);
		u->ipos = u->ilen - u->z.avail_in;
		*got = n - u->z.avail_out;
		if (zr == Z_STREAM_END)
			u->z_member_done = 1;
		else if (zr == Z_BUF_ERROR && u->z.avail_in > 0)
			return corrupt(u, "its gzip stream is corrupt");
		else if (zr != Z_OK && zr != Z_BUF_ERROR)
			return corrupt(u, zr == Z_DATA_ERROR ? "its gzip stream "
			    "is corrupt (a bad block or checksum)" :
			    zr == Z_MEM_ERROR ? "out of memory inflating "
			    "gzip data" : "its gzip stream is corrupt");
	}
	return AE_OK;
}

#ifdef HAVE_ZSTD
/* zstd: frames one after another, as zstd -d reads them. */
static int
zstd_read(struct ae_unzip *u, uint8_t *buf, size_t n, size_t *got)
{
	ZSTD_inBuffer in;
	ZSTD_outBuffer out;
	size_t zr;
	int r;

	while (*got < n) {
		if (u->ipos == u->ilen) {
			if ((r = refill(u)) != AE_OK)
				return r;
			if (u->ipos == u->ilen) {
				if (u->zs_last != 0)
					return corrupt(u, "its zstd stream ends "
					    "inside a frame: it was cut short "
					    "before it was encrypted");
				return AE_OK;
			}
		}
		in.src = u->in + u->ipos;
		in.size = u->ilen - u->ipos;
		in.pos = 0;
		out.dst = buf + *got;
		out.size = n - *got;
		out.pos = 0;
		zr = ZSTD_decompressStream(u->zs, &out, &in);
		u->ipos += in.pos;
		*got += out.pos;
		if (ZSTD_isError(zr))
			return corrupt(u, "its zstd stream is corrupt");
		u->zs_last = zr;
	}
	return AE_OK;
}
#endif

static int
unzip_read(void *ctx, uint8_t *buf, size_t n, size_t *got)
{
	struct ae_unzip *u = ctx;
	size_t k;
	int r;

	*got = 0;
	switch (u->kind) {
	case AE_UNZIP_GZIP:
		return gzip_read(u, buf, n, got);
#ifdef HAVE_ZSTD
	case AE_UNZIP_ZSTD:
		return zstd_read(u, buf, n, got);
#endif
	default:
		break;
	}
	/* none: what was buffered, then src */
	while (*got < n) {
		if (u->ipos == u->ilen) {
			if (u->ieof)
				break;
			u->ipos = u->ilen = 0;
			if ((r = refill(u)) != AE_OK)
				return r;
			continue;
		}
		k = u->ilen - u->ipos;
		if (k > n - *got)
			k = n - *got;
		memcpy(buf + *got, u->in + u->ipos, k);
		u->ipos += k;
		*got += k;
	}
	return AE_OK;
}

int
ae_unzip_open(struct ae_unzip **out, struct ae_reader *src, int *kind)
{
	struct ae_unzip *u;
	int r;

	*out = NULL;
	*kind = AE_UNZIP_NONE;
	if ((u = calloc(1, sizeof *u)) == NULL)
		return AE_ENOMEM;
	u->src = src;
	/* enough for every magic: read until 6 bytes or the end */
	while (u->ilen < 6 && !u->ieof)
		if ((r = refill(u)) != AE_OK) {
			free(u);
			return r;
		}
	if (u->ilen >= 2 && u->in[0] == 0x1f && u->in[1] == 0x8b)
		u->kind = AE_UNZIP_GZIP;
	else if (u->ilen >= 4 && memcmp(u->in, "\x28\xb5\x2f\xfd", 4) == 0)
		u->kind = AE_UNZIP_ZSTD;
	else if (u->ilen >= 6 && memcmp(u->in, "\xfd" "7zXZ\0", 6) == 0)
		u->kind = AE_UNZIP_XZ;
	else if (u->ilen >= 3 && memcmp(u->in, "BZh", 3) == 0)
		u->kind = AE_UNZIP_BZIP2;
	*kind = u->kind;
	r = AE_OK;
	if (u->kind == AE_UNZIP_GZIP) {
		/* 15 + 16: a gzip wrapper, the largest window */
		if (inflateInit2(&u->z, 15 + 16) != Z_OK)
			r = AE_ENOMEM;
		else
			u->z_init = 1;
	} else if (u->kind == AE_UNZIP_ZSTD) {
#ifdef HAVE_ZSTD
		if ((u->zs = ZSTD_createDStream()) == NULL
		    || ZSTD_isError(ZSTD_initDStream(u->zs)))
			r = AE_ENOMEM;
#else
		r = AE_ENOTSUP;
#endif
	} else if (u->kind != AE_UNZIP_NONE)
		r = AE_ENOTSUP;
	if (r != AE_OK) {
		ae_unzip_free(u);
		return r;
	}
	*out = u;
	return AE_OK;
}

void
ae_unzip_free(struct ae_unzip *u)
{
	if (u == NULL)
		return;
	if (u->z_init)
		inflateEnd(&u->z);
#ifdef HAVE_ZSTD
	ZSTD_freeDStream(u->zs);
#endif
	/* (plaintext, when it was not compressed: wiped) */
	ae_wipe(u->in, sizeof u->in);
	free(u);
}

void
ae_unzip_reader(struct ae_unzip *u, struct ae_reader *out)
{
	out->read = unzip_read;
	out->ctx = u;
	out->seek = NULL;
}

const char *
ae_unzip_what(const struct ae_unzip *u)
{
	return u != NULL ? u->what : NULL;
}

uint64_t
ae_unzip_in_bytes(const struct ae_unzip *u)
{
	return u != NULL ? u->in_bytes : 0;
}
