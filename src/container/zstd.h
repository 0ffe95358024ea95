/*
 * zstd.h -- the zstd codec: one chunk compressed or decompressed as one
 * whole zstd frame (RFC 8878; format/aescrypt-v1.md 6.4).
 *
 * libzstd compresses a whole buffer and decompresses into a buffer of a
 * given size, failing (never growing) when the data would fill more: the
 * output bound is the chunk size, which is the bomb limit, as with
 * libdeflate.  A frame's window is held to the chunk size too, and a
 * record holds exactly one frame (not a skippable one), with nothing
 * after it.  Memory that holds plaintext (the compressor's tables and
 * window, the decompressor's) is wiped when freed.
 *
 * A build without libzstd (./configure --without-zstd) has this file's
 * functions but no codec: ae_zstd_available() says 0 and the init
 * functions return AE_ENOTSUP.
 */
#ifndef AE_ZSTD_H
#define AE_ZSTD_H

#include <stddef.h>
#include <stdint.h>

/* Whether the zstd codec is built in.  1 or 0. */
int ae_zstd_available(void);

/* libzstd's version ("1.5.4"), or "none". */
const char *ae_zstd_version(void);

/*
 * zstd's own level for aescrypt's level 1..9, which means "fast to small"
 * with either codec.  Chosen on a tar of /usr/include and /usr/share/doc
 * in 8 MiB chunks (the man page gives the figures): 1 1, 2 2, 3 and 4 3,
 * 5 and 6 4, 7 5, 8 6, 9 9.  -1 for a level out of range.
 */
int ae_zstd_level(int level);

struct ae_zstd {
	void *cctx;         /* ZSTD_CCtx, compressing */
	void *dctx;         /* ZSTD_DCtx, decompressing */
};

/*
 * A compressor at aescrypt level 1..9 (mapped by ae_zstd_level), or a
 * decompressor for chunks of 2^chunk_log2 bytes (which bounds the
 * window it accepts).  0, AE_EINVAL (a level out of range), AE_ENOTSUP
 * (no zstd in this build) or AE_ENOMEM.  ae_zstd_free() releases either
 * and is safe on a zeroed struct.
 */
int ae_zstd_init_compress(struct ae_zstd *z, int level);
int ae_zstd_init_decompress(struct ae_zstd *z, unsigned chunk_log2);
void ae_zstd_free(struct ae_zstd *z);

/*
 * Compress in[0, len) into one frame in out (room for cap bytes).
 * Returns its length, or 0 if it needs more than cap bytes.
 */
size_t ae_zstd_compress(struct ae_zstd *z, const uint8_t *in, size_t len,
    uint8_t *out, size_t cap);

/*
 * Decompress in[0, n), which must be exactly one zstd frame (its magic
 * 28 B5 2F FD, not a skippable frame) and nothing after it, with a
 * window no larger than the chunk size, into out (room for cap bytes).
 * Returns 0 with *outlen set, or -1 for anything else, including more
 * than cap bytes of output.
 */
int ae_zstd_decompress(struct ae_zstd *z, const uint8_t *in, size_t n,
    uint8_t *out, size_t cap, size_t *outlen);

#endif
