/*
 * zstd.c -- the zstd codec (contract in zstd.h).
 */
#include "config.h"
#include "zstd.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "common/error.h"
#include "common/wipe.h"

#ifdef HAVE_ZSTD
#define ZSTD_STATIC_LINKING_ONLY    /* ZSTD_createCCtx_advanced */
#include <zstd.h>
#endif

int
ae_zstd_level(int level)
{
	static const int map[10] = { -1, 1, 2, 3, 3, 4, 4, 5, 6, 9 };

	return level >= 1 && level <= 9 ? map[level] : -1;
}

#ifdef HAVE_ZSTD

int
ae_zstd_available(void)
{
	return 1;
}

const char *
ae_zstd_version(void)
{
	return ZSTD_versionString();
}

/*
 * libzstd's memory, through an allocator that remembers each block's
 * size in front of it, so that the block (which may hold plaintext: the
 * window, the match tables' positions and hashes of it) is wiped before
 * it is freed.
 */
#define HEAD 64             /* keeps the block 64-byte aligned */
#define HUGE_PAGE ((size_t)2 << 20)

static void *
wiped_alloc(void *opaque, size_t n)
{
	size_t align = n >= HUGE_PAGE ? HUGE_PAGE : HEAD;
	uint8_t *p;

	(void)opaque;
	if (n > SIZE_MAX - HEAD - align || (p = aligned_alloc(align,
	    (n + HEAD + align - 1) / align * align)) == NULL)
		return NULL;
#ifdef HAVE_MADV_HUGEPAGE
	/* The window and match tables of 8 MiB chunks: huge pages spare
	 * thousands of page faults and TLB misses (pipeline.c's job_alloc
	 * says what that saved) */
	if (align == HUGE_PAGE)
		(void)madvise(p, (n + HEAD + align - 1) / align * align,
		    MADV_HUGEPAGE);
#endif
	memcpy(p, &n, sizeof n);
	return p + HEAD;
}

static void
wiped_free(void *opaque, void *addr)
{
	uint8_t *p;
	size_t n;

	(void)opaque;
	if (addr == NULL)
		return;
	p = (uint8_t *)addr - HEAD;
	memcpy(&n, p, sizeof n);
	ae_wipe(addr, n);
	free(p);
}

static const ZSTD_customMem wiped = { wiped_alloc, wiped_free, NULL };

int
ae_zstd_init_compress(struct ae_zstd *z, int level)
{
	int zl = ae_zstd_level(level);

	memset(z, 0, sizeof *z);
	if (zl < 0)
		return AE_EINVAL;
	if ((z->cctx = ZSTD_createCCtx_advanced(wiped)) == NULL)
		return AE_ENOMEM;
	/* The frame holds its content size (so a reader knows it from the
	 * header) and no checksum: GCM has authenticated every byte. */
	if (ZSTD_isError(ZSTD_CCtx_setParameter(z->cctx,
	    ZSTD_c_compressionLevel, zl))
	    || ZSTD_isError(ZSTD_CCtx_setParameter(z->cctx,
	    ZSTD_c_checksumFlag, 0))
	    || ZSTD_isError(ZSTD_CCtx_setParameter(z->cctx,
	    ZSTD_c_contentSizeFlag, 1))) {
		ae_zstd_free(z);
		return AE_ENOMEM;
	}
	return AE_OK;
}

int
ae_zstd_init_decompress(struct ae_zstd *z, unsigned chunk_log2)
{
	memset(z, 0, sizeof *z);
	if ((z->dctx = ZSTD_createDCtx_advanced(wiped)) == NULL)
		return AE_ENOMEM;
	/* (The streaming API's cap; one-shot decoding, which is all this
	 * does, checks the window against the output below.) */
	if (ZSTD_isError(ZSTD_DCtx_setParameter(z->dctx, ZSTD_d_windowLogMax,
	    (int)chunk_log2))) {
		ae_zstd_free(z);
		return AE_ENOMEM;
	}
	return AE_OK;
}

void
ae_zstd_free(struct ae_zstd *z)
{
	ZSTD_freeCCtx(z->cctx);
	ZSTD_freeDCtx(z->dctx);
	memset(z, 0, sizeof *z);
}

size_t
ae_zstd_compress(struct ae_zstd *z, const uint8_t *in, size_t len,
    uint8_t *out, size_t cap)
{
	size_t r;
	int wlog = 10;      /* (ZSTD_WINDOWLOG_MIN) */

	/* The window is the whole chunk: the level's own (2 MiB at levels
	 * 3 to 6) lost every match further back in it (format 6.6: 5%
	 * on the locale+doc tree, at no cost in time).  A window no
	 * smaller than the content makes a single-segment frame, whose
	 * window is its content size: within the chunk, as a decoder
	 * requires.  (Long-distance matching saved 1% more there, for 10%
	 * more CPU: not taken.) */
	while (wlog < 30 && ((size_t)1 << wlog) < len)
		wlog++;
	if (ZSTD_isError(ZSTD_CCtx_setParameter(z->cctx, ZSTD_c_windowLog,
	    wlog)))
		return 0;
	r = ZSTD_compress2(z->cctx, out, cap, in, len);

	return ZSTD_isError(r) ? 0 : r;
}

int
ae_zstd_decompress(struct ae_zstd *z, const uint8_t *in, size_t n,
    uint8_t *out, size_t cap, size_t *outlen)
{
	static const uint8_t magic[4] = { 0x28, 0xb5, 0x2f, 0xfd };
	ZSTD_frameHeader fh;
	size_t r;

	/* one zstd frame (not a skippable one), and nothing after it, whose
	 * window is no larger than the output (one-shot decoding needs no
	 * window buffer, but the format says what a record may hold) */
	if (n < sizeof magic || memcmp(in, magic, sizeof magic) != 0
	    || ZSTD_getFrameHeader(&fh, in, n) != 0
	    || fh.frameType != ZSTD_frame || fh.windowSize > cap
	    || ZSTD_findFrameCompressedSize(in, n) != n)
		return -1;
	r = ZSTD_decompressDCtx(z->dctx, out, cap, in, n);
	if (ZSTD_isError(r))
		return -1;
	*outlen = r;
	return 0;
}

#else /* !HAVE_ZSTD */

int
ae_zstd_available(void)
{
	return 0;
}

const char *
ae_zstd_version(void)
{
	return "none";
}

int
ae_zstd_init_compress(struct ae_zstd *z, int level)
{
	memset(z, 0, sizeof *z);
	return ae_zstd_level(level) < 0 ? AE_EINVAL : AE_ENOTSUP;
}

int
ae_zstd_init_decompress(struct ae_zstd *z, unsigned chunk_log2)
{
	(void)chunk_log2;
	memset(z, 0, sizeof *z);
	return AE_ENOTSUP;
}

void
ae_zstd_free(struct ae_zstd *z)
{
	memset(z, 0, sizeof *z);
}

size_t
ae_zstd_compress(struct ae_zstd *z, const uint8_t *in, size_t len,
    uint8_t *out, size_t cap)
{
	(void)z, (void)in, (void)len, (void)out, (void)cap;
	return 0;
}

int
ae_zstd_decompress(struct ae_zstd *z, const uint8_t *in, size_t n,
    uint8_t *out, size_t cap, size_t *outlen)
{
	(void)z, (void)in, (void)n, (void)out, (void)cap, (void)outlen;
	return -1;
}

#endif
