/*
 * benchmark.c -- aescrypt --benchmark.
 *
 * For each kind of data (text-like and incompressible), each level of
 * 0, 1, 6 and 9 with each DEFLATE engine built in (level 0 stores, so
 * it has no engine), and each cipher tier (the hardware one this CPU
 * would use, then the portable one --no-hw forces), the real pipeline
 * encrypts a buffer in memory, then decrypts the result, as many times
 * as fit its share of the time.  The stage times are the pipeline's own
 * per-thread CPU clocks, so the "aes %" column is the part of the work
 * that was encryption: the figure WinZip's and 7-Zip's benchmarks made
 * famous, that with AES-NI encryption is nearly free next to
 * compression, and without it is not.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "container/deflate.h"
#include "crypto/cpu.h"
#include "crypto/gcm.h"
#include "common/io.h"
#include "pipeline/pipeline.h"
#include "crypto/random.h"
#include "crypto/wipe.h"
#include "benchmark.h"
#include "exitcode.h"
#include "msg.h"
#include "signals.h"

#define DATA_BYTES ((size_t)8 << 20)

static const int levels[] = { 0, 1, 6, 9 };
#define NLEVELS 4

/* A small generator, so the text is the same on every run. */
static uint64_t
next_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
	return z ^ (z >> 31);
}

/*
 * Text-like data: words from a vocabulary of 2,000 made-up words, drawn
 * with a skewed (roughly Zipf) distribution, in sentences and lines.
 * It compresses about as well as English prose (3-4x at level 6).
 */
static void
make_text(uint8_t *buf, size_t n)
{
	static const char cons[] = "bcdfghjklmnprstvwz";
	static const char vow[] = "aeiou";
	char words[2000][12];
	uint64_t s = 42;
	size_t pos = 0, line = 0;
	int i, k;

	for (i = 0; i < 2000; i++) {
		int len = 2 + (int)(next_rand(&s) % 8);
		for (k = 0; k < len; k++)
			words[i][k] = k % 2 ? vow[next_rand(&s) % 5] :
			    cons[next_rand(&s) % 18];
		words[i][len] = '\0';
	}
	while (pos < n) {
		/* min of three uniform draws: small indexes are common */
		uint64_t a = next_rand(&s) % 2000, b = next_rand(&s) % 2000,
		    c = next_rand(&s) % 2000;
		const char *w = words[a < b ? (a < c ? a : c) : (b < c ? b : c)];
		size_t wl = strlen(w);

		for (k = 0; k < (int)wl && pos < n; k++)
			buf[pos++] = (uint8_t)w[k];
		line += wl + 1;
		if (pos < n)
			buf[pos++] = next_rand(&s) % 12 == 0 ? '.' :
			    line > 70 ? '\n' : ' ';
		if (buf[pos - 1] == '\n')
			line = 0;
	}
}

struct cell {
	double zip_mbs, aead_mbs, total_mbs, aead_share;
	double ratio;
};

static double
mbs(uint64_t bytes, uint64_t ns)
{
	return ns == 0 ? 0.0 : (double)bytes / 1e6 / ((double)ns / 1e9);
}

static void
to_cell(const struct ae_pipe_stats *st, uint64_t plain, struct cell *c)
{
	c->zip_mbs = mbs(plain, st->zip_ns);
	c->aead_mbs = mbs(st->aead_bytes, st->aead_ns);
	c->total_mbs = mbs(plain, st->wall_ns);
	c->aead_share = st->zip_ns + st->aead_ns == 0 ? 0.0 :
	    100.0 * (double)st->aead_ns / (double)(st->zip_ns + st->aead_ns);
	c->ratio = plain == 0 ? 0.0 : (double)st->wire_bytes / (double)plain;
}

/*
 * Encrypt data, then decrypt the result, each repeated until `slice`
 * seconds have passed (at least once).  Returns an AE_E* code.
 */
static int
measure(const gcm_ctx *g, const uint8_t *data, size_t n, int level,
    int engine, unsigned threads, unsigned log2, double slice,
    struct cell *enc, struct cell *dec)
{
	struct ae_pipe_params p;
	struct ae_pipe_stats sum, st;
	struct ae_memio out = { 0 }, back = { .discard = 1 };
	struct ae_diag d;
	uint64_t plain, limit = (uint64_t)(slice * 1e9), t0;
	int r = AE_OK, dir;

	memset(&p, 0, sizeof p);
	p.key = g;
	p.chunk_log2 = log2;
	p.level = level;
	p.engine = engine;
	p.threads = threads;
	p.interrupt = &signals_stop;
	p.timed = 1;
	for (dir = 0; dir < 2 && r == AE_OK; dir++) {
		memset(&sum, 0, sizeof sum);
		plain = 0;
		t0 = ae_wall_ns();
		do {
			struct ae_memio src = { .src = dir ? out.dst : data,
			    .len = dir ? out.fill : n };
			struct ae_reader rd = { ae_mem_read, &src };
			struct ae_writer wr = { ae_mem_write,
			    dir ? (void *)&back : (void *)&out };

			memset(&st, 0, sizeof st);
			if (dir == 0)
				out.fill = 0;
			r = dir ? ae_pipe_decode(&p, &rd, &wr, &st, &d) :
			    ae_pipe_encode(&p, &rd, &wr, &st, &d);
			if (r != AE_OK)
				break;
			sum.zip_ns += st.zip_ns;
			sum.aead_ns += st.aead_ns;
			sum.aead_bytes += st.aead_bytes;
			sum.wall_ns += st.wall_ns;
			sum.wire_bytes += st.wire_bytes;
			plain += n;
		} while (ae_wall_ns() - t0 < limit);
		to_cell(&sum, plain, dir ? dec : enc);
	}
	free(out.dst);
	return r;
}

static void
rate(char *buf, size_t size, double v)
{
	if (v <= 0.0)
		snprintf(buf, size, "%9s", "-");
	else
		snprintf(buf, size, "%9.1f", v);
}

/* One row of the tables: a level with an engine, and a cipher tier. */
struct config {
	int level, engine;
	enum gcm_tier tier;
};

#define MAX_CONFIGS (NLEVELS * 2 * 2)

static void
print_row(const char *data, const struct config *k, const struct cell *c,
    int show_ratio)
{
	char z[16], a[16], t[16], lv[24];

	/* Level 0 never calls deflate: there is no zip rate to show. */
	rate(z, sizeof z, k->level == 0 ? 0.0 : c->zip_mbs);
	rate(a, sizeof a, c->aead_mbs);
	rate(t, sizeof t, c->total_mbs);
	snprintf(lv, sizeof lv, "-%d %s", k->level, k->level == 0 ? "" :
	    ae_deflate_name(k->engine));
	printf("%-6s %-13s %-13s %s %s %s %6.1f%%", data, lv,
	    gcm_tier_name(k->tier), z, a, t, c->aead_share);
	if (show_ratio)
		printf("  %6.3f", c->ratio);
	printf("\n");
}

int
benchmark_run(double seconds, unsigned threads, unsigned chunk_log2)
{
	enum gcm_tier tiers[2];
	int engines[2], ntiers = 0, nengines = 0, nk = 0, d, l, e, t, i;
	int r = AE_OK;
	struct config k[MAX_CONFIGS];
	struct cell enc[2][MAX_CONFIGS], dec[2][MAX_CONFIGS];
	uint8_t *data[2], key[32];
	char feat[256];
	double slice;

	tiers[ntiers++] = gcm_default_tier();
	if (tiers[0] != GCM_TIER_SOFT)
		tiers[ntiers++] = GCM_TIER_SOFT;
	engines[nengines++] = ae_deflate_default_engine();
	if (ae_deflate_available(AE_DEFLATE_ZLIB)
	    && engines[0] != AE_DEFLATE_ZLIB)
		engines[nengines++] = AE_DEFLATE_ZLIB;
	for (l = 0; l < NLEVELS; l++)
		for (e = 0; e < (levels[l] == 0 ? 1 : nengines); e++)
			for (t = 0; t < ntiers; t++) {
				k[nk].level = levels[l];
				k[nk].engine = engines[e];
				k[nk].tier = tiers[t];
				nk++;
			}
	data[0] = malloc(DATA_BYTES);
	data[1] = malloc(DATA_BYTES);
	if (data[0] == NULL || data[1] == NULL) {
		free(data[0]);
		free(data[1]);
		msg_error("out of memory");
		return EXIT_SYSTEM;
	}
	make_text(data[0], DATA_BYTES);
	if (ae_random(data[1], DATA_BYTES) != AE_OK
	    || ae_random(key, sizeof key) != AE_OK) {
		msg_error("the system random number generator failed");
		free(data[0]);
		free(data[1]);
		return EXIT_SYSTEM;
	}
	cpu_describe(feat, sizeof feat);
	printf("aescrypt --benchmark: %u worker thread%s, %u KiB chunks, "
	    "%zu MiB of each kind of data per run\n", threads,
	    threads == 1 ? "" : "s", (1u << chunk_log2) / 1024,
	    DATA_BYTES >> 20);
	printf("cpu features: %s\n", feat);
	printf("deflate engines: %s %s", ae_deflate_name(engines[0]),
	    ae_deflate_version(engines[0]));
	if (nengines > 1)
		printf(", %s %s", ae_deflate_name(engines[1]),
		    ae_deflate_version(engines[1]));
	printf("\nzip: MB of plaintext per CPU-second of deflate or inflate; "
	    "aes: MB sealed or\nopened per CPU-second of AES-GCM; total: MB "
	    "of plaintext per wall-clock second,\nall threads; aes %%: "
	    "AES-GCM's share of the zip + aes CPU time.\n\n");
	fflush(stdout);

	/* two kinds of data, two directions */
	slice = seconds / (4.0 * nk);
	for (d = 0; d < 2 && r == AE_OK; d++)
		for (i = 0; i < nk && r == AE_OK; i++) {
			gcm_ctx g;

			gcm_init_tier(&g, key, k[i].tier);
			r = measure(&g, data[d], DATA_BYTES, k[i].level,
			    k[i].engine, threads, chunk_log2, slice, &enc[d][i],
			    &dec[d][i]);
			gcm_wipe(&g);
		}
	ae_wipe(key, sizeof key);
	free(data[0]);
	free(data[1]);
	if (r != AE_OK) {
		if (r == AE_EINTR)
			return msg_interrupted();
		msg_error("benchmark: %s", ae_strerror(r));
		return EXIT_SYSTEM;
	}

	printf("encrypt  (zip = deflate)\n");
	printf("%-6s %-13s %-13s %9s %9s %9s %7s  %6s\n", "data", "level",
	    "cipher", "zip", "aes", "total", "aes %", "ratio");
	for (d = 0; d < 2; d++)
		for (i = 0; i < nk; i++)
			print_row(d ? "random" : "text", &k[i], &enc[d][i], 1);
	printf("\ndecrypt  (zip = inflate)\n");
	printf("%-6s %-13s %-13s %9s %9s %9s %7s\n", "data", "level", "cipher",
	    "zip", "aes", "total", "aes %");
	for (d = 0; d < 2; d++)
		for (i = 0; i < nk; i++)
			print_row(d ? "random" : "text", &k[i], &dec[d][i], 0);
	return EXIT_OK;
}
