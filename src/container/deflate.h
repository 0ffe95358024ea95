/*
 * deflate.h -- the DEFLATE engine: one chunk compressed or decompressed
 * as a whole raw DEFLATE stream (RFC 1951; format/aescrypt-v1.md 6.4).
 *
 * Two engines make the same format: libdeflate (the default when
 * configure finds it: whole-buffer, about twice zlib's speed per chunk,
 * and a decompressor that takes the output bound, which is the bomb
 * limit) and zlib (always built; the fallback, and what
 * --without-libdeflate leaves).  Their outputs differ byte for byte but
 * either decodes the other's, as does any inflate.  A chunk is the whole
 * unit of work, so neither engine keeps state between chunks beyond its
 * reusable tables.
 *
 * Memory that holds plaintext (windows, match finders) is wiped when
 * freed, for both engines.
 */
#ifndef AE_DEFLATE_H
#define AE_DEFLATE_H

#include <stddef.h>
#include <stdint.h>

enum ae_deflate_engine {
	AE_DEFLATE_DEFAULT = 0,     /* libdeflate if built in, else zlib */
	AE_DEFLATE_ZLIB = 1,
	AE_DEFLATE_LIBDEFLATE = 2
};

/* The engine AE_DEFLATE_DEFAULT stands for. */
int ae_deflate_default_engine(void);

/* e itself, or the default engine for AE_DEFLATE_DEFAULT. */
int ae_deflate_resolve(int e);

/* Whether engine e is built in (AE_DEFLATE_DEFAULT always is).  1 or 0.
 * The functions below take AE_DEFLATE_DEFAULT wherever they take e. */
int ae_deflate_available(int e);

/* "zlib" or "libdeflate", and its version ("1.2.13", "1.14"). */
const char *ae_deflate_name(int e);
const char *ae_deflate_version(int e);

/* The highest level engine e offers (9 for zlib, 12 for libdeflate). */
int ae_deflate_max_level(int e);

struct ae_deflate {
	int engine;
	int level;          /* 1..max for a compressor, -1 to decompress */
	void *state;        /* the engine's own */
};

/*
 * A compressor at `level` (1 .. ae_deflate_max_level) or a decompressor.
 * Returns 0, AE_EINVAL (an engine not built in, a level out of range) or
 * AE_ENOMEM.  ae_deflate_free() releases either; it is safe on a zeroed
 * struct.
 */
int ae_deflate_init_compress(struct ae_deflate *z, int engine, int level);
int ae_deflate_init_decompress(struct ae_deflate *z, int engine);

void ae_deflate_free(struct ae_deflate *z);

/*
 * Compress in[0, len) into out, which has room for cap bytes.  Returns
 * the compressed length, or 0 if it needs more than cap bytes (the
 * caller passes cap = len - 1 to learn "only if smaller").
 */
size_t ae_deflate_compress(struct ae_deflate *z, const uint8_t *in,
    size_t len, uint8_t *out, size_t cap);

/*
 * Decompress in[0, n), which must be exactly one complete DEFLATE stream
 * and nothing after it, into out (room for cap bytes).  Returns 0 with
 * *outlen set, or -1 for bad data, an incomplete stream, bytes after
 * the final block, or more than cap bytes of output (a "bomb" fills at
 * most cap bytes before it is refused).
 */
int ae_deflate_decompress(struct ae_deflate *z, const uint8_t *in, size_t n,
    uint8_t *out, size_t cap, size_t *outlen);

#endif
