/*
 * codec.h -- the payload's codecs as rows of one table (format 6.4):
 * what a codec is called, which chunk sizes it takes, whether this
 * build has it, and how a chunk coder compresses and decompresses with
 * it.  A new codec is a row here and the file that wraps its library;
 * chunk.c, the library and the command take everything else from the
 * row.
 */
#ifndef AE_CODEC_H
#define AE_CODEC_H

#include <stddef.h>
#include <stdint.h>

#include "deflate.h"
#include "zstd.h"

/* A coder's state, whichever codec it runs. */
union ae_codec_state {
	struct ae_deflate zip;
	struct ae_zstd zstd;
};

struct ae_codec_ops {
	int id;                     /* enum ae_codec: the payload type's bits
	                             * 4-6 */
	const char *name;           /* "deflate", "zstd": --info, --stats,
	                             * the library's names */
	const char *title;          /* "DEFLATE", "zstd": in sentences */
	const char *option;         /* how -c asks for it: "the default",
	                             * "--zstd" */
	const char *unzip;          /* what reading does: "inflate",
	                             * "decompress" (--stats) */
	int engines;                /* it has DEFLATE's engines (deflate.h) */
	const char *bad_data;       /* a chunk that does not decompress:
	                             * "holds bad or oversized ... data" */
	unsigned chunk_log2_default, chunk_log2_max;
	int (*available)(void);     /* this build has it: 1 or 0 */
	/* The version of the library behind it (with DEFLATE engine
	 * engine), or "none". */
	const char *(*version)(int engine);
	/* The highest level with DEFLATE engine engine (the others ignore
	 * it). */
	int (*max_level)(int engine);
	/* A compressor at level 1 .. max_level, or a decompressor for
	 * chunks of 2^chunk_log2 bytes: 0, AE_EINVAL, AE_ENOTSUP or
	 * AE_ENOMEM. */
	int (*init_compress)(union ae_codec_state *s, int engine, int level);
	int (*init_decompress)(union ae_codec_state *s, int engine,
	    unsigned chunk_log2);
	/* in[0, len) compressed into out (cap bytes): its length, or 0 if
	 * it does not fit. */
	size_t (*compress)(union ae_codec_state *s, const uint8_t *in,
	    size_t len, uint8_t *out, size_t cap);
	/* in[0, n) decompressed into out (at most cap bytes, *got): 0, or
	 * -1 for bad data or more than cap bytes. */
	int (*decompress)(union ae_codec_state *s, const uint8_t *in,
	    size_t n, uint8_t *out, size_t cap, size_t *got);
	void (*free)(union ae_codec_state *s);
};

/* The row of codec id, or NULL for an id the format does not define. */
const struct ae_codec_ops *ae_codec_get(int id);

/* The row named name ("deflate", "zstd"), or NULL. */
const struct ae_codec_ops *ae_codec_by_name(const char *name);

#endif
