/*
 * probe_cost.c -- what the incompressible-data probe costs and saves.
 *
 *   probe_cost FILE CODEC LEVEL [CHUNK]   (CODEC: zlib, libdeflate, zstd;
 *                                         CHUNK: 256K default, 8M zstd)
 *
 * Seals FILE chunk by chunk with the chunk coder, whose probe stores
 * chunks that look incompressible (a byte histogram and a look for
 * repeats, chunk.c), and compresses the same chunks three other ways:
 * with the codec alone, which always tries; with the probe aescrypt had
 * until issue 23 (32 slices of 2 KiB compressed by zlib at level 1, as
 * it was, rebuilt here with zlib), in front of the codec; and not at
 * all (-0, what the probe's time is measured against).  Prints each
 * size and CPU time, what the probe gives away in size, how many chunks
 * each probe stored, and the probe's cost as a share of the -0 run.
 * Run on a real tree (bench/peers.sh makes one), on one mixed with
 * compressed files, and on random data: the promise is "no more than
 * 0.2% larger than the old probe" on the first two, and "at most 10% of
 * the -0 time" on the last.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "container/chunk.h"
#include "container/deflate.h"
#include "container/zstd.h"
#include "crypto/gcm.h"

static double
cpu(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The old probe: 32 slices of 2 KiB, each compressed at zlib level 1
 * with a 2 KiB window; incompressible if none saves 1/64. */
static int
old_probe(z_stream *zs, const uint8_t *in, size_t len, uint8_t *scratch)
{
	size_t step = len / 32, i;

	if (len < 64 * 1024)
		return 0;
	for (i = 0; i < 32; i++) {
		const uint8_t *p = in + i * step + (step - 2048) / 2;

		deflateReset(zs);
		zs->next_in = (Bytef *)p;
		zs->avail_in = 2048;
		zs->next_out = scratch;
		zs->avail_out = 2048 - 2048 / 64;
		if (deflate(zs, Z_FINISH) == Z_STREAM_END)
			return 0;
	}
	return 1;
}

struct way {
	const char *name;
	size_t bytes;
	double cpu;
	unsigned long long stored;
};

int
main(int argc, char **argv)
{
	size_t cs, n, rl, k, total = 0;
	uint8_t *in, *rec, *out, key[32] = { 0 };
	struct ae_chunk_coder c, c0;
	struct ae_deflate z;
	struct ae_zstd zz;
	/* sizes of each way; CPU of the whole seal, but for the old probe,
	 * of the probe alone */
	struct way w[4] = { { .name = "new probe" }, { .name = "old probe" },
		{ .name = "no probe" }, { .name = "-0" } };
	z_stream zs;
	uint64_t i = 0;
	ae_gcm_ctx g;
	double t, t_new_probe = 0;
	volatile int sink = 0;      /* keeps the timed probes */
	FILE *f;
	int codec, engine = 0, lv;

	if (argc < 4 || (f = fopen(argv[1], "rb")) == NULL) {
		fprintf(stderr, "usage: probe_cost FILE zlib|libdeflate|zstd "
		    "LEVEL [CHUNK-KIB]\n");
		return 2;
	}
	codec = strcmp(argv[2], "zstd") == 0 ? AE_CODEC_ZSTD : AE_CODEC_DEFLATE;
	if (codec == AE_CODEC_DEFLATE)
		engine = strcmp(argv[2], "zlib") == 0 ? AE_DEFLATE_ZLIB :
		    AE_DEFLATE_LIBDEFLATE;
	lv = atoi(argv[3]);
	cs = argc > 4 ? (size_t)atoi(argv[4]) * 1024 :
	    codec == AE_CODEC_ZSTD ? 8 << 20 : 256 << 10;
	in = malloc(cs);
	rec = malloc(AE_RECORD_MAX(cs));
	out = malloc(cs);
	ae_gcm_init(&g, key);
	memset(&zs, 0, sizeof zs);
	memset(&z, 0, sizeof z);
	memset(&zz, 0, sizeof zz);
	if (in == NULL || rec == NULL || out == NULL
	    || ae_chunk_coder_init_seal(&c, cs, codec, engine, lv) != 0
	    || ae_chunk_coder_init_seal(&c0, cs, codec, engine, 0) != 0
	    || (codec == AE_CODEC_ZSTD ? ae_zstd_init_compress(&zz, lv) :
	    ae_deflate_init_compress(&z, engine, lv)) != 0
	    || deflateInit2(&zs, 1, Z_DEFLATED, -11, 5, Z_DEFAULT_STRATEGY)
	    != Z_OK) {
		fprintf(stderr, "probe_cost: cannot set up %s -%d\n", argv[2],
		    lv);
		return 2;
	}
	while ((n = fread(in, 1, cs, f)) > 0) {
		int final = n < cs, old, r;

		t = cpu();
		ae_chunk_seal(&c, &g, i, final, in, n, rec, &rl);
		w[0].cpu += cpu() - t;
		w[0].bytes += rl;
		/* ten calls in one timed span: a clock read costs about
		 * what one probe of a 256 KiB chunk does */
		t = cpu();
		for (r = 0; r < 10; r++)
			sink += ae_chunk_looks_random(in, n);
		t_new_probe += (cpu() - t) / 10;
		/* the codec alone, and the old probe in front of it */
		t = cpu();
		k = codec == AE_CODEC_ZSTD ? ae_zstd_compress(&zz, in, n, out,
		    n - 1) : ae_deflate_compress(&z, in, n, out, n - 1);
		w[2].cpu += cpu() - t;
		w[2].bytes += (k != 0 ? k : n) + AE_FRAME_LEN + AE_TAG_LEN;
		t = cpu();
		old = old_probe(&zs, in, n, out);
		w[1].cpu += cpu() - t;
		w[1].stored += old;
		w[1].bytes += (old || k == 0 ? n : k) + AE_FRAME_LEN
		    + AE_TAG_LEN;
		t = cpu();
		ae_chunk_seal(&c0, &g, i, final, in, n, rec, &rl);
		w[3].cpu += cpu() - t;
		w[3].bytes += rl;
		total += n;
		i++;
	}
	w[0].stored = c.probe_stored;
	printf("%s -%d, %zu KiB chunks, %zu bytes in %llu chunks:\n", argv[2],
	    lv, cs >> 10, total, (unsigned long long)i);
	for (k = 0; k < 4; k++)
		printf("  %-10s %12zu bytes (%+.3f%% against no probe)  "
		    "%6.2f CPU-s  %llu stored on the probe's word\n", w[k].name,
		    w[k].bytes, 100.0 * ((double)w[k].bytes - (double)w[2].bytes)
		    / (double)w[2].bytes, w[k].cpu, w[k].stored);
	printf("  the new probe alone: %.3f CPU-s, %.1f%% of the -0 run; the "
	    "old one %.3f CPU-s, %.1f%%; new against old in size: %+.3f%%\n",
	    t_new_probe, 100.0 * t_new_probe / w[3].cpu, w[1].cpu,
	    100.0 * w[1].cpu / w[3].cpu, 100.0 * ((double)w[0].bytes
	    - (double)w[1].bytes) / (double)w[1].bytes);
	ae_chunk_coder_free(&c);
	ae_chunk_coder_free(&c0);
	ae_deflate_free(&z);
	ae_zstd_free(&zz);
	deflateEnd(&zs);
	ae_gcm_wipe(&g);
	return 0;
}
