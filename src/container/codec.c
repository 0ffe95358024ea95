/*
 * codec.c -- the codec table (contract in codec.h): each row wraps its
 * library's file (deflate.c, zstd.c) in the table's signatures.
 */
#include "config.h"
#include "codec.h"

#include <string.h>

#include "common/error.h"
#include "format.h"

/* ---- DEFLATE (libdeflate or zlib, by engine) ---- */

static int
deflate_available(void)
{
	return 1;       /* zlib is always there */
}

static int
deflate_init_compress(union ae_codec_state *s, int engine, int level)
{
	return ae_deflate_init_compress(&s->zip, engine, level);
}

static int
deflate_init_decompress(union ae_codec_state *s, int engine,
    unsigned chunk_log2)
{
	(void)chunk_log2;
	return ae_deflate_init_decompress(&s->zip, engine);
}

static size_t
deflate_compress(union ae_codec_state *s, const uint8_t *in, size_t len,
    uint8_t *out, size_t cap)
{
	return ae_deflate_compress(&s->zip, in, len, out, cap);
}

static int
deflate_decompress(union ae_codec_state *s, const uint8_t *in, size_t n,
    uint8_t *out, size_t cap, size_t *got)
{
	return ae_deflate_decompress(&s->zip, in, n, out, cap, got);
}

static void
deflate_free(union ae_codec_state *s)
{
	ae_deflate_free(&s->zip);
}

/* ---- zstd ---- */

static const char *
zstd_version(int engine)
{
	(void)engine;
	return ae_zstd_version();
}

static int
zstd_max_level(int engine)
{
	(void)engine;
	return 9;       /* aescrypt's levels, mapped by ae_zstd_level */
}

static int
zstd_init_compress(union ae_codec_state *s, int engine, int level)
{
	(void)engine;
	return ae_zstd_init_compress(&s->zstd, level);
}

static int
zstd_init_decompress(union ae_codec_state *s, int engine, unsigned chunk_log2)
{
	(void)engine;
	return ae_zstd_init_decompress(&s->zstd, chunk_log2);
}

static size_t
zstd_compress(union ae_codec_state *s, const uint8_t *in, size_t len,
    uint8_t *out, size_t cap)
{
	return ae_zstd_compress(&s->zstd, in, len, out, cap);
}

static int
zstd_decompress(union ae_codec_state *s, const uint8_t *in, size_t n,
    uint8_t *out, size_t cap, size_t *got)
{
	return ae_zstd_decompress(&s->zstd, in, n, out, cap, got);
}

static void
zstd_free(union ae_codec_state *s)
{
	ae_zstd_free(&s->zstd);
}

/* ---- the table ---- */

static const struct ae_codec_ops codecs[] = {
	{ AE_CODEC_DEFLATE, "deflate", "DEFLATE", "the default", "inflate", 1,
	    "holds bad or oversized DEFLATE data",
	    AE_CHUNK_LOG2_DEFAULT, AE_CHUNK_LOG2_MAX_DEFLATE, deflate_available,
	    ae_deflate_version, ae_deflate_max_level, deflate_init_compress,
	    deflate_init_decompress, deflate_compress, deflate_decompress,
	    deflate_free },
	{ AE_CODEC_ZSTD, "zstd", "zstd", "--zstd", "decompress", 0,
	    "holds bad or oversized zstd data",
	    AE_CHUNK_LOG2_ZSTD, AE_CHUNK_LOG2_MAX, ae_zstd_available,
	    zstd_version, zstd_max_level, zstd_init_compress, zstd_init_decompress,
	    zstd_compress, zstd_decompress, zstd_free },
};

const struct ae_codec_ops *
ae_codec_get(int id)
{
	size_t i;

	for (i = 0; i < sizeof codecs / sizeof *codecs; i++)
		if (codecs[i].id == id)
			return &codecs[i];
	return NULL;
}

const struct ae_codec_ops *
ae_codec_by_name(const char *name)
{
	size_t i;

	for (i = 0; name != NULL && i < sizeof codecs / sizeof *codecs; i++)
		if (strcmp(codecs[i].name, name) == 0)
			return &codecs[i];
	return NULL;
}
