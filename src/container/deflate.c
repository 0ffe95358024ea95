/*
 * deflate.c -- the DEFLATE engine (contract in deflate.h).
 */
#include "config.h"
#include "deflate.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>
#ifdef HAVE_LIBDEFLATE
#include <libdeflate.h>
#endif

#include "common/error.h"
#include "common/wipe.h"

/*
 * One allocator for both engines, wiping on free: their windows and
 * match finders hold plaintext.  Each block carries its size in a
 * 16-byte header, which keeps the returned pointer as aligned as
 * malloc's.
 */
#define HDR 16

static void *
alloc_wipe(size_t n)
{
	unsigned char *p;

	if (n > (size_t)-1 - HDR || (p = malloc(HDR + n)) == NULL)
		return NULL;
	memcpy(p, &n, sizeof n);
	return p + HDR;
}

static void
free_wipe(void *q)
{
	unsigned char *p;
	size_t n;

	if (q == NULL)
		return;
	p = (unsigned char *)q - HDR;
	memcpy(&n, p, sizeof n);
	ae_wipe(p, HDR + n);
	free(p);
}

static voidpf
z_alloc(voidpf opaque, uInt items, uInt size)
{
	(void)opaque;
	if (size != 0 && items > ((size_t)-1 - HDR) / size)
		return Z_NULL;
	return alloc_wipe((size_t)items * size);
}

static void
z_free(voidpf opaque, voidpf address)
{
	(void)opaque;
	free_wipe(address);
}

/* A zeroed z_stream with the wiping allocator, or NULL. */
static z_stream *
new_zstream(void)
{
	z_stream *s = calloc(1, sizeof *s);

	if (s != NULL) {
		s->zalloc = z_alloc;
		s->zfree = z_free;
	}
	return s;
}

int
ae_deflate_default_engine(void)
{
#ifdef HAVE_LIBDEFLATE
	return AE_DEFLATE_LIBDEFLATE;
#else
	return AE_DEFLATE_ZLIB;
#endif
}

int
ae_deflate_resolve(int e)
{
	return e == AE_DEFLATE_DEFAULT ? ae_deflate_default_engine() : e;
}

int
ae_deflate_available(int e)
{
	e = ae_deflate_resolve(e);
	if (e == AE_DEFLATE_ZLIB)
		return 1;
#ifdef HAVE_LIBDEFLATE
	if (e == AE_DEFLATE_LIBDEFLATE)
		return 1;
#endif
	return 0;
}

const char *
ae_deflate_name(int e)
{
	e = ae_deflate_resolve(e);
	return e == AE_DEFLATE_LIBDEFLATE ? "libdeflate" : "zlib";
}

const char *
ae_deflate_version(int e)
{
	e = ae_deflate_resolve(e);
#ifdef HAVE_LIBDEFLATE
	if (e == AE_DEFLATE_LIBDEFLATE)
		return LIBDEFLATE_VERSION_STRING;
#endif
	if (e == AE_DEFLATE_ZLIB)
		return zlibVersion();
	return "not built in";
}

int
ae_deflate_max_level(int e)
{
	e = ae_deflate_resolve(e);
	return e == AE_DEFLATE_LIBDEFLATE ? 12 : 9;
}

#ifdef HAVE_LIBDEFLATE
/* libdeflate's allocator is global; set it once, before the first
 * compressor or decompressor, from whichever thread comes first. */
static pthread_once_t ld_once = PTHREAD_ONCE_INIT;

static void
ld_setup(void)
{
	libdeflate_set_memory_allocator(alloc_wipe, free_wipe);
}
#endif

int
ae_deflate_init_compress(struct ae_deflate *z, int engine, int level)
{
	memset(z, 0, sizeof *z);
	if (!ae_deflate_available(engine) || level < 1
	    || level > ae_deflate_max_level(engine))
		return AE_EINVAL;
	z->engine = engine = ae_deflate_resolve(engine);
	z->level = level;
#ifdef HAVE_LIBDEFLATE
	if (engine == AE_DEFLATE_LIBDEFLATE) {
		pthread_once(&ld_once, ld_setup);
		z->state = libdeflate_alloc_compressor(level);
		return z->state != NULL ? AE_OK : AE_ENOMEM;
	}
#endif
	{
		z_stream *s = new_zstream();

		/* Raw DEFLATE (negative window bits): no zlib header or
		 * Adler-32, as GCM already authenticates every byte. */
		if (s == NULL || deflateInit2(s, level, Z_DEFLATED,
		    -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
			free(s);
			return AE_ENOMEM;
		}
		z->state = s;
	}
	return AE_OK;
}

int
ae_deflate_init_decompress(struct ae_deflate *z, int engine)
{
	memset(z, 0, sizeof *z);
	if (!ae_deflate_available(engine))
		return AE_EINVAL;
	z->engine = engine = ae_deflate_resolve(engine);
	z->level = -1;
#ifdef HAVE_LIBDEFLATE
	if (engine == AE_DEFLATE_LIBDEFLATE) {
		pthread_once(&ld_once, ld_setup);
		z->state = libdeflate_alloc_decompressor();
		return z->state != NULL ? AE_OK : AE_ENOMEM;
	}
#endif
	{
		z_stream *s = new_zstream();

		if (s == NULL || inflateInit2(s, -15) != Z_OK) {
			free(s);
			return AE_ENOMEM;
		}
		z->state = s;
	}
	return AE_OK;
}

void
ae_deflate_free(struct ae_deflate *z)
{
	if (z->state == NULL)
		return;
#ifdef HAVE_LIBDEFLATE
	if (z->engine == AE_DEFLATE_LIBDEFLATE) {
		if (z->level < 0)
			libdeflate_free_decompressor(z->state);
		else
			libdeflate_free_compressor(z->state);
		memset(z, 0, sizeof *z);
		return;
	}
#endif
	if (z->level < 0)
		inflateEnd(z->state);
	else
		deflateEnd(z->state);
	free(z->state);
	memset(z, 0, sizeof *z);
}

size_t
ae_deflate_compress(struct ae_deflate *z, const uint8_t *in, size_t len,
    uint8_t *out, size_t cap)
{
	z_stream *s;

	if (cap == 0)
		return 0;
#ifdef HAVE_LIBDEFLATE
	if (z->engine == AE_DEFLATE_LIBDEFLATE)
		return libdeflate_deflate_compress(z->state, in, len, out, cap);
#endif
	s = z->state;
	if (deflateReset(s) != Z_OK || len > UINT32_MAX || cap > UINT32_MAX)
		return 0;
	s->next_in = (Bytef *)(uintptr_t)in;
	s->avail_in = (uInt)len;
	s->next_out = out;
	s->avail_out = (uInt)cap;
	if (deflate(s, Z_FINISH) != Z_STREAM_END)
		return 0;       /* out of room */
	return cap - s->avail_out;
}

int
ae_deflate_decompress(struct ae_deflate *z, const uint8_t *in, size_t n,
    uint8_t *out, size_t cap, size_t *outlen)
{
	z_stream *s;

#ifdef HAVE_LIBDEFLATE
	if (z->engine == AE_DEFLATE_LIBDEFLATE) {
		size_t used = 0, got = 0;

		/* _ex tells how much input the stream took, so bytes after
		 * the final block are caught, as zlib's avail_in does. */
		if (libdeflate_deflate_decompress_ex(z->state, in, n, out, cap,
		    &used, &got) != LIBDEFLATE_SUCCESS || used != n)
			return -1;
		*outlen = got;
		return 0;
	}
#endif
	s = z->state;
	if (inflateReset(s) != Z_OK || n > UINT32_MAX || cap > UINT32_MAX)
		return -1;
	s->next_in = (Bytef *)(uintptr_t)in;
	s->avail_in = (uInt)n;
	s->next_out = out;
	s->avail_out = (uInt)cap;
	/* The output bound is cap, so a bomb can at most fill the buffer
	 * before it is refused. */
	if (inflate(s, Z_FINISH) != Z_STREAM_END || s->avail_in != 0)
		return -1;
	*outlen = cap - s->avail_out;
	return 0;
}
