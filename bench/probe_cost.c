/*
 * probe_cost.c -- what the incompressible-data probe costs and saves.
 *
 *   probe_cost FILE ENGINE LEVEL     (ENGINE: 1 zlib, 2 libdeflate)
 *
 * Seals FILE chunk by chunk (256 KiB) with the chunk coder, whose probe
 * stores chunks that look incompressible, and compresses the same
 * chunks with the engine alone, which always tries; prints both sizes,
 * both CPU times and the size the probe gives away.  Run on a real tree
 * (bench/peers.sh makes one) and on one mixed with compressed files: the
 * probe's promise is "less than 0.2% larger" on both.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "container/chunk.h"
#include "container/deflate.h"
#include "crypto/gcm.h"

static double
cpu(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int
main(int argc, char **argv)
{
	size_t cs = 256 * 1024, n, rl, k, total = 0, with = 0, without = 0;
	uint8_t *in, *rec, *out, key[32] = { 0 };
	double t, t_with = 0, t_without = 0;
	struct ae_chunk_coder c;
	struct ae_deflate z;
	uint64_t i = 0;
	ae_gcm_ctx g;
	FILE *f;
	int e, lv;

	if (argc != 4 || (f = fopen(argv[1], "rb")) == NULL) {
		fprintf(stderr, "usage: probe_cost FILE ENGINE(1 zlib, 2 "
		    "libdeflate) LEVEL\n");
		return 2;
	}
	e = atoi(argv[2]);
	lv = atoi(argv[3]);
	in = malloc(cs);
	rec = malloc(AE_RECORD_MAX(cs));
	out = malloc(cs);
	ae_gcm_init(&g, key);
	if (in == NULL || rec == NULL || out == NULL
	    || ae_chunk_coder_init_seal(&c, cs, e, lv) != 0
	    || ae_deflate_init_compress(&z, e, lv) != 0) {
		fprintf(stderr, "probe_cost: cannot set up %d -%d\n", e, lv);
		return 2;
	}
	while ((n = fread(in, 1, cs, f)) > 0) {
		t = cpu();
		ae_chunk_seal(&c, &g, i++, n < cs, in, n, rec, &rl);
		t_with += cpu() - t;
		with += rl;
		t = cpu();
		k = ae_deflate_compress(&z, in, n, out, n - 1);
		t_without += cpu() - t;
		without += (k != 0 ? k : n) + AE_FRAME_LEN + AE_TAG_LEN;
		total += n;
	}
	printf("%s -%d, %zu bytes in %llu chunks: with the probe %zu bytes, "
	    "%.2f CPU-s (%llu chunks stored on its word); compressing every "
	    "chunk %zu bytes, %.2f CPU-s; the probe costs %+.3f%% in size, "
	    "%+.1f%% in time\n", ae_deflate_name(e), lv, total,
	    (unsigned long long)i, with, t_with,
	    (unsigned long long)c.probe_stored, without, t_without,
	    100.0 * ((double)with - (double)without) / (double)without,
	    100.0 * (t_with - t_without) / t_without);
	ae_chunk_coder_free(&c);
	ae_deflate_free(&z);
	ae_gcm_wipe(&g);
	return 0;
}
