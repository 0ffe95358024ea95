/*
 * benchmark.c -- aescrypt --benchmark (contract in benchmark.h).
 *
 * What it shows is the WinZip/7-Zip finding: with AES-NI, encryption is
 * nearly free next to compression; without it, encryption is a real
 * share of the cost.  So it measures, in memory, the real pipeline on
 * text-like and incompressible data, both directions: every cipher tier
 * at -0 and -6, and zstd (a fast codec, where the cipher's share is
 * larger); with =all, every level, the other DEFLATE engine and zstd
 * with every tier.  And the cipher alone, like `openssl speed -evp
 * aes-256-gcm`, for each tier.
 *
 * How the figures are made to repeat:
 *   - Every measurement ("cell") gets an equal share of what is left of
 *     the time budget; a cell with no time for its first trial is
 *     skipped, so --benchmark-time is kept to within a trial.
 *   - A warm-up trial first (not counted), which also sizes the trials:
 *     about a fifth of the cell's share each, from 1 MiB (four chunks,
 *     so every worker has two) to 64 MiB (the whole buffer).  8 MiB
 *     per run was too little to time a stage running at GB/s.
 *   - Then trials until the share is spent (at least one; a short
 *     budget gets fewer, and such a cell is marked "?").  Each rate is
 *     the median over the trials, with the min-max spread; a cell whose
 *     spread is over 10% of its median is marked "~": the machine was
 *     busy, or the stage is too fast to time in that share.
 *   - Stage rates come from the pipeline's per-thread CPU clocks, so
 *     they are what the stage costs, not what it waited.
 * The cipher alone seals and opens 16 KiB messages over a 1 MiB buffer
 * (it stays in cache), one thread, which is what openssl speed's largest
 * block size measures.
 */
#include "config.h"

#ifdef HAVE_MALLOPT
#include <malloc.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/io.h"
#include "container/deflate.h"
#include "container/format.h"
#include "container/zstd.h"
#include "crypto/cpu.h"
#include "crypto/gcm.h"
#include "crypto/random.h"
#include "common/wipe.h"
#include "pipeline/pipeline.h"
#include "benchmark.h"
#include "exitcode.h"
#include "msg.h"
#include "signals.h"

#define DATA_BYTES ((size_t)64 << 20)
#define TRIAL_MIN ((size_t)1 << 20)
#define FEW_TRIALS 3            /* fewer: no spread worth the name */
#define NOISY 0.10              /* spread over 10% of the median */
#define MAX_TRIALS 256
#define RAW_BUF ((size_t)1 << 20)
#define RAW_MSG ((size_t)16 << 10)

static const int levels[] = { 0, 1, 6, 9 };

/* The key of every measurement, and the IV of the cipher-alone loop: a
 * benchmark protects nothing. */
static const uint8_t BENCH_KEY[AE_GCM_KEY_LEN] = { 0x42 };
static const uint8_t RAW_IV[12];
#define NLEVELS 4

/* ---- the data ---- */

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

/* ---- statistics ---- */

struct spread {
	double median, min, max;
};

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static struct spread
spread_of(double *v, size_t n)
{
	struct spread s = { 0, 0, 0 };

	if (n == 0)
		return s;
	qsort(v, n, sizeof *v, cmp_double);
	s.min = v[0];
	s.max = v[n - 1];
	s.median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	return s;
}

static int
noisy(const struct spread *s)
{
	return s->median > 0 && (s->max - s->min) / s->median > NOISY;
}

static double
mbs(uint64_t bytes, uint64_t ns)
{
	return ns == 0 ? 0.0 : (double)bytes / 1e6 / ((double)ns / 1e9);
}

/* ---- the cells ---- */

enum { ENCRYPT, DECRYPT };

struct cell {
	int data;               /* 0 text, 1 random */
	int level, engine;      /* engine is resolved (deflate.h) */
	int codec;              /* AE_CODEC_* */
	unsigned log2;          /* its chunk size */
	enum ae_gcm_tier tier;
	int dir;
	size_t trials;
	struct spread zip, aes, total;  /* MB/s */
	double share_zip, share_aes, share_io;  /* of the CPU, sum 1 */
	double ratio;           /* record bytes / plaintext bytes */
	double ns_per_byte;     /* wall, of the floor's counted trial */
};

struct bench {
	uint8_t *data[2];         /* text, random: DATA_BYTES each */
	uint8_t *sealed[2];     /* per data: the last encryption, for decrypt */
	size_t sealed_len[2], sealed_cap[2];
	unsigned threads;
	unsigned log2;          /* DEFLATE's chunk size (each cell has its own) */
	uint64_t deadline;      /* wall ns */
	size_t left;            /* measurements still to run */
};

/* One trial: n bytes of data (or the sealed records, to decrypt) through
 * the pipeline.  Fills st. */
static int
trial(struct bench *b, const ae_gcm_ctx *g, struct cell *c, size_t n,
    struct ae_pipe_stats *st)
{
	struct ae_pipe_params p;
	struct ae_memio out = { 0 }, back = { .discard = 1 };
	struct ae_memio src = { 0 };
	struct ae_reader rd = { ae_mem_read, &src, NULL };
	struct ae_writer wr;
	struct ae_diag d;
	int r;

	memset(&p, 0, sizeof p);
	p.key = g;
	p.chunk_log2 = c->log2;
	p.level = c->level;
	p.codec = c->codec;
	p.engine = c->engine;
	p.threads = b->threads;
	p.interrupt = &signals_stop;
	p.timed = 1;
	memset(st, 0, sizeof *st);
	if (c->dir == ENCRYPT) {
		/* Into the buffer of the last trial, which is big enough:
		 * growing one with realloc would time page faults. */
		src.src = b->data[c->data];
		src.len = n;
		out.dst = b->sealed[c->data];
		out.cap = b->sealed_cap[c->data];
		wr.write = ae_mem_write;
		wr.ctx = &out;
		r = ae_pipe_encode(&p, &rd, &wr, st, &d);
		b->sealed[c->data] = out.dst;
		b->sealed_cap[c->data] = out.cap;
		b->sealed_len[c->data] = r == AE_OK ? out.fill : 0;
	} else {
		src.src = b->sealed[c->data];
		src.len = b->sealed_len[c->data];
		wr.write = ae_mem_write;
		wr.ctx = &back;
		r = ae_pipe_decode(&p, &rd, &wr, st, &d);
	}
	return r;
}

/* This measurement's share of what is left of the budget, in ns; the
 * measurement is then no longer left to run. */
static uint64_t
next_share(struct bench *b)
{
	uint64_t now = ae_wall_ns(), share;

	share = b->deadline > now ? (b->deadline - now) / (b->left ? b->left :
	    1) : 0;
	b->left -= b->left > 0;
	return share;
}

/* The smallest trial: TRIAL_MIN, or two chunks where they are larger
 * (zstd's 8 MiB), so that both workers of a pair have one. */
static size_t
trial_min(const struct cell *c)
{
	size_t two = (size_t)2 << c->log2;

	return two > TRIAL_MIN ? (two < DATA_BYTES ? two : DATA_BYTES) :
	    TRIAL_MIN;
}

/* The cell's figures from its trials' stats (k of them). */
static void
cell_stats(struct cell *c, const struct ae_pipe_stats *st, size_t k)
{
	static double zip[MAX_TRIALS], aes[MAX_TRIALS], tot[MAX_TRIALS];
	uint64_t zip_ns = 0, aes_ns = 0, io_ns = 0, plain = 0, wire = 0;
	size_t i;

	for (i = 0; i < k; i++) {
		zip[i] = mbs(st[i].plain_bytes, st[i].zip_ns);
		aes[i] = mbs(st[i].aead_bytes, st[i].aead_ns);
		tot[i] = mbs(st[i].plain_bytes, st[i].wall_ns);
		zip_ns += st[i].zip_ns;
		aes_ns += st[i].aead_ns;
		io_ns += st[i].read_ns + st[i].write_ns;
		plain += st[i].plain_bytes;
		wire += st[i].wire_bytes;
	}
	c->trials = k;
	c->zip = spread_of(zip, k);
	c->aes = spread_of(aes, k);
	c->total = spread_of(tot, k);
	{
		double sum = (double)(zip_ns + aes_ns + io_ns);

		c->share_zip = sum > 0 ? (double)zip_ns / sum : 0;
		c->share_aes = sum > 0 ? (double)aes_ns / sum : 0;
		c->share_io = sum > 0 ? 1.0 - c->share_zip - c->share_aes : 0;
	}
	c->ratio = plain ? (double)wire / (double)plain : 0;
}

/*
 * The floor of one cell: a warm-up trial, then one counted trial of the
 * smallest size, which also gives the cost per byte that sizes the
 * trials of measure_more.  A decrypt cell reads what the encrypt cell
 * before it made.  Every cell runs this before any runs more, so the
 * run knows (and says) what the least it can take was.
 */
static int
measure_floor(struct bench *b, struct cell *c)
{
	struct ae_pipe_stats st;
	ae_gcm_ctx g;
	size_t lo = trial_min(c);
	int r;

	ae_gcm_init_tier(&g, BENCH_KEY, c->tier);
	if ((r = trial(b, &g, c, c->dir == ENCRYPT ? lo : 0, &st)) == AE_OK
	    && (r = trial(b, &g, c, c->dir == ENCRYPT ? lo : 0, &st))
	    == AE_OK) {
		cell_stats(c, &st, 1);
		c->ns_per_byte = (double)st.wall_ns / (double)lo;
	}
	ae_gcm_wipe(&g);
	return r;
}

/*
 * More trials for a cell, for its share of what is left of the budget,
 * if one fits: trials of a fifth of the share each (within [smallest,
 * DATA_BYTES]), until the share is spent.  They replace the floor's
 * single trial.  *ran says whether any ran (a decrypt cell runs only
 * after its encrypt cell did: it reads those records).
 */
static int
measure_more(struct bench *b, struct cell *c, size_t made, size_t *size)
{
	static struct ae_pipe_stats st[MAX_TRIALS];
	uint64_t share = next_share(b), t0;
	size_t lo = trial_min(c), n, k = 0;
	double want;
	ae_gcm_ctx g;
	int r = AE_OK;

	*size = 0;
	if (c->dir == ENCRYPT) {
		want = c->ns_per_byte > 0 ? (double)share / 5.0 /
		    c->ns_per_byte : (double)DATA_BYTES;
		n = want < (double)lo ? lo : want > (double)DATA_BYTES ?
		    DATA_BYTES : (size_t)want;
		n -= n % ((size_t)1 << c->log2);
		if (n < lo)
			n = lo;
		if (c->ns_per_byte * (double)n >= (double)share)
			return AE_OK;
	} else {
		/* the records of the encrypt cell's trials, n bytes of
		 * plaintext each, or none: nothing of this cell's to read */
		n = 0;
		if (made == 0 || c->ns_per_byte * (double)made
		    >= (double)share)
			return AE_OK;
	}
	ae_gcm_init_tier(&g, BENCH_KEY, c->tier);
	t0 = ae_wall_ns();
	do {
		if ((r = trial(b, &g, c, n, &st[k])) != AE_OK)
			break;
		k++;
	} while (k < MAX_TRIALS && ae_wall_ns() - t0 < share);
	if (r == AE_OK) {
		cell_stats(c, st, k);
		*size = c->dir == ENCRYPT ? n : made;
	}
	ae_gcm_wipe(&g);
	return r;
}

/* The cipher alone, one thread: 16 KiB messages over a 1 MiB buffer. */
struct raw {
	enum ae_gcm_tier tier;
	struct spread seal, open;
};

/* Seal RAW_BUF bytes of buf in place as RAW_MSG-byte messages, their
 * tags after them at buf + RAW_BUF. */
static void
seal_all(const ae_gcm_ctx *g, uint8_t *buf)
{
	size_t off, m;

	for (off = 0, m = 0; off < RAW_BUF; off += RAW_MSG, m++)
		ae_gcm_seal(g, RAW_IV, sizeof RAW_IV, NULL, 0, buf + off, RAW_MSG,
		    buf + off, buf + RAW_BUF + 16 * m);
}

static int
measure_raw(struct raw *rw, struct bench *b)
{
	static double s[MAX_TRIALS], o[MAX_TRIALS];
	uint8_t *buf = malloc(RAW_BUF + 16 * (RAW_BUF / RAW_MSG));
	uint64_t share, t0, t;
	size_t k = 0, off, m;
	ae_gcm_ctx g;
	int r = AE_OK;

	if (buf == NULL)
		return AE_ENOMEM;
	memset(buf, 0x5a, RAW_BUF);
	share = next_share(b);
	ae_gcm_init_tier(&g, BENCH_KEY, rw->tier);
	seal_all(&g, buf);          /* the warm-up */
	t0 = ae_wall_ns();
	do {
		/* Each pass: seal all, then open all (in place), timed
		 * apart; about 1 MiB each way. */
		int passes = 0;

		t = ae_thread_ns();
		do {
			seal_all(&g, buf);
			passes++;
		} while (ae_thread_ns() - t < 2000000);     /* >= 2 ms */
		s[k] = mbs((uint64_t)passes * RAW_BUF, ae_thread_ns() - t);
		/* open what the last pass sealed, then reseal for the next */
		t = ae_thread_ns();
		for (off = 0, m = 0; off < RAW_BUF; off += RAW_MSG, m++)
			if (ae_gcm_open(&g, RAW_IV, sizeof RAW_IV, NULL, 0, buf + off,
			    RAW_MSG,
			    buf + RAW_BUF + 16 * m, 16, buf + off) != AE_OK)
				r = AE_EAUTH;
		o[k] = mbs(RAW_BUF, ae_thread_ns() - t);
		seal_all(&g, buf);
		k++;
	} while (r == AE_OK && k < MAX_TRIALS && (k < FEW_TRIALS
	    || ae_wall_ns() - t0 < share));
	rw->seal = spread_of(s, k);
	rw->open = spread_of(o, k);
	ae_gcm_wipe(&g);
	free(buf);
	return r;
}

/* ---- output ---- */

static const char *data_name[2] = { "text", "random" };

/* What compressed the cell: a DEFLATE engine's name, or "zstd". */
static const char *
coder_name(const struct cell *c)
{
	return c->level == 0 ? "none" : c->codec == AE_CODEC_ZSTD ? "zstd" :
	    ae_deflate_name(c->engine);
}

static void
cell_level(const struct cell *c, char *buf, size_t n)
{
	if (c->level == 0)
		snprintf(buf, n, "-0");
	else
		snprintf(buf, n, "-%d %s", c->level, coder_name(c));
}

/* "1234.5" with a "~" when noisy, "?" when there were too few trials
 * to tell; "-" when not applicable */
static void
rate_text(char *buf, size_t n, const struct spread *s, size_t trials,
    int na)
{
	if (na || s->median <= 0)
		snprintf(buf, n, "%10s", "-");
	else
		snprintf(buf, n, "%9.1f%c", s->median, trials < FEW_TRIALS ?
		    '?' : noisy(s) ? '~' : ' ');
}

static void
print_table(const struct cell *cells, size_t nc, int dir)
{
	size_t i;

	printf("%s  (zip = %s)\n", dir == ENCRYPT ? "encrypt" : "decrypt",
	    dir == ENCRYPT ? "compress" : "decompress");
	/* 80 columns: the fastest trial, the min-max spread and the trial
	 * count are in --benchmark=json and csv */
	printf("%-6s %-13s %-12s %10s %10s %10s %6s %5s\n", "data",
	    "level", "cipher", "zip MB/s", "aes MB/s", "total", "aes %",
	    dir == ENCRYPT ? "ratio" : "");
	for (i = 0; i < nc; i++) {
		const struct cell *c = &cells[i];
		char lv[32], z[16], a[16], t[16], ratio[16];

		if (c->dir != dir)
			continue;
		cell_level(c, lv, sizeof lv);
		rate_text(z, sizeof z, &c->zip, c->trials, c->level == 0);
		rate_text(a, sizeof a, &c->aes, c->trials, 0);
		rate_text(t, sizeof t, &c->total, c->trials, 0);
		if (dir == ENCRYPT)
			snprintf(ratio, sizeof ratio, " %5.3f", c->ratio);
		else
			ratio[0] = '\0';
		printf("%-6s %-13s %-12s %s %s %s %5.1f%%%s\n",
		    data_name[c->data], lv, ae_gcm_tier_name(c->tier), z, a, t,
		    100.0 * c->share_aes, ratio);
	}
}

/*
 * The picture: for text, encrypting, each level with each tier, one
 * codec (with DEFLATE, the default engine), a bar of the CPU split into
 * compress (#), encrypt (=) and the rest (. : reading, writing, the
 * pipeline).  -0 is drawn once, with the first codec.
 */
static void
print_chart(const struct cell *cells, size_t nc, int codec, int engine)
{
	const int width = 30;   /* the line within 80 columns */
	size_t i;

	printf("Where the CPU goes, encrypting text with %s\n"
	    "(# compress, = AES-GCM, . I/O and the rest):\n",
	    codec == AE_CODEC_ZSTD ? "zstd" : ae_deflate_name(engine));
	for (i = 0; i < nc; i++) {
		const struct cell *c = &cells[i];
		char bar[64];
		int z, a, k;

		if (c->dir != ENCRYPT || c->data != 0)
			continue;
		if (c->level == 0 ? codec != AE_CODEC_DEFLATE :
		    c->codec != codec || (codec == AE_CODEC_DEFLATE
		    && c->engine != engine))
			continue;
		z = (int)(c->share_zip * width + 0.5);
		a = (int)(c->share_aes * width + 0.5);
		if (a == 0 && c->share_aes > 0)
			a = 1;      /* too small to draw is not zero */
		if (z + a > width)
			z = width - a;
		for (k = 0; k < width; k++)
			bar[k] = k < z ? '#' : k < z + a ? '=' : '.';
		bar[width] = '\0';
		/* the table's marks: ~ a wide spread, ? too few trials */
		printf("  -%d %-12s |%s| AES %5.1f%% %8.1f MB/s%s\n",
		    c->level, ae_gcm_tier_name(c->tier), bar,
		    100.0 * c->share_aes, c->total.median,
		    c->trials < FEW_TRIALS ? " ?" : noisy(&c->total) ? " ~" :
		    "");
	}
	printf("\n");
}

static void
json_spread(const char *key, const struct spread *s)
{
	printf("\"%s\":{\"median\":%.3f,\"min\":%.3f,\"max\":%.3f}", key,
	    s->median, s->min, s->max);
}

static void
print_json(const struct bench *b, const struct cell *cells, size_t nc,
    const struct raw *raws, size_t nr, double budget, double elapsed,
    double floor_s, size_t more, size_t skipped, int all)
{
	size_t i;

	printf("{\"threads\":%u,\"chunk_kib\":%u,\"set\":\"%s\","
	    "\"time_budget_s\":%.3f,\"elapsed_s\":%.3f,\"floor_s\":%.3f,"
	    "\"cells_with_more_trials\":%zu,\"cells_skipped\":%zu,"
	    "\"cipher_alone\":[", b->threads, (1u << b->log2) / 1024,
	    all ? "all" : "default", budget, elapsed, floor_s, more, skipped);
	for (i = 0; i < nr; i++) {
		printf("%s{\"tier\":\"%s\",", i ? "," : "",
		    ae_gcm_tier_name(raws[i].tier));
		json_spread("seal_mb_s", &raws[i].seal);
		printf(",");
		json_spread("open_mb_s", &raws[i].open);
		printf("}");
	}
	printf("],\"cells\":[");
	for (i = 0; i < nc; i++) {
		const struct cell *c = &cells[i];

		printf("%s{\"data\":\"%s\",\"direction\":\"%s\",\"level\":%d,"
		    "\"codec\":\"%s\",\"engine\":\"%s\",\"chunk_kib\":%u,"
		    "\"tier\":\"%s\",\"trials\":%zu,",
		    i ? "," : "", data_name[c->data], c->dir == ENCRYPT ?
		    "encrypt" : "decrypt", c->level, c->level == 0 ? "none" :
		    c->codec == AE_CODEC_ZSTD ? "zstd" : "deflate",
		    coder_name(c), (1u << c->log2) / 1024,
		    ae_gcm_tier_name(c->tier), c->trials);
		/* -0 stores: no compression stage ran, and a rate of
		 * nothing over no time is not a figure */
		if (c->level == 0)
			printf("\"zip_mb_s\":null");
		else
			json_spread("zip_mb_s", &c->zip);
		printf(",");
		json_spread("aes_mb_s", &c->aes);
		printf(",");
		json_spread("total_mb_s", &c->total);
		printf(",\"noisy\":%s,\"shares\":{\"compress\":%.4f,"
		    "\"encrypt\":%.4f,\"io\":%.4f},\"ratio\":%.4f}",
		    noisy(&c->total) || c->trials < FEW_TRIALS ? "true" :
		    "false", c->share_zip,
		    c->share_aes, c->share_io, c->ratio);
	}
	printf("]}\n");
}

static void
print_csv(const struct cell *cells, size_t nc, const struct raw *raws,
    size_t nr)
{
	size_t i;

	printf("kind,data,direction,level,engine,tier,trials,zip_mb_s,"
	    "aes_mb_s,total_mb_s,total_min,total_max,share_compress,"
	    "share_encrypt,share_io,ratio\n");
	for (i = 0; i < nr; i++)
		printf("cipher,,seal,,,%s,,,%.1f,,%.1f,%.1f,,,,\n"
		    "cipher,,open,,,%s,,,%.1f,,%.1f,%.1f,,,,\n",
		    ae_gcm_tier_name(raws[i].tier), raws[i].seal.median,
		    raws[i].seal.min, raws[i].seal.max,
		    ae_gcm_tier_name(raws[i].tier), raws[i].open.median,
		    raws[i].open.min, raws[i].open.max);
	for (i = 0; i < nc; i++) {
		const struct cell *c = &cells[i];

		printf("pipeline,%s,%s,%d,%s,%s,%zu,%.1f,%.1f,%.1f,%.1f,%.1f,"
		    "%.4f,%.4f,%.4f,%.4f\n", data_name[c->data],
		    c->dir == ENCRYPT ? "encrypt" : "decrypt", c->level,
		    coder_name(c), ae_gcm_tier_name(c->tier), c->trials,
		    c->zip.median,
		    c->aes.median, c->total.median, c->total.min,
		    c->total.max, c->share_zip, c->share_aes, c->share_io,
		    c->ratio);
	}
}

/* head then text, wrapped at spaces to 80 columns, indented under
 * head. */
static void
print_wrapped(const char *head, const char *text)
{
	size_t col = strlen(head), ind = col, w;

	fputs(head, stdout);
	while (*text != '\0') {
		w = strcspn(text, " ");
		if (col > ind && col + 1 + w > 80) {
			printf("\n%*s", (int)ind, "");
			col = ind;
		} else if (col > ind) {
			putchar(' ');
			col++;
		}
		fwrite(text, 1, w, stdout);
		col += w;
		text += w;
		while (*text == ' ')
			text++;
	}
	putchar('\n');
}

/*
 * The cipher in the pipeline against the cipher alone, from this run's
 * figures: at -0 on text, encrypting, with the default tier, the aes
 * rate is the same AES-GCM on the pipeline's chunks, and the total also
 * pays for the copies in and out (the I/O share).  Printed as
 * measured, every run: short trials can show far less than the cipher
 * alone (they time page faults), and the reader should see which.
 */
static void
print_gap(const struct cell *cells, size_t nc, const struct raw *raws,
    size_t nr)
{
	enum ae_gcm_tier t = ae_gcm_default_tier();
	const struct cell *c = NULL;
	const struct raw *r = NULL;
	size_t i;
	char line[512];

	for (i = 0; i < nc && c == NULL; i++)
		if (cells[i].level == 0 && cells[i].data == 0
		    && cells[i].dir == ENCRYPT && cells[i].tier == t)
			c = &cells[i];
	for (i = 0; i < nr && r == NULL; i++)
		if (raws[i].tier == t)
			r = &raws[i];
	if (c == NULL || r == NULL || c->aes.median <= 0)
		return;
	snprintf(line, sizeof line, "At -0 (text, %s) AES-GCM ran at %.0f "
	    "MB/s of its CPU time in the pipeline, against %.0f MB/s alone "
	    "(%.0f%%)%s; the total, %.0f MB/s, also pays for copying every "
	    "byte in and out and keeping the chunks in order: I/O and the "
	    "rest took %.0f%% of the CPU.", ae_gcm_tier_name(t),
	    c->aes.median, r->seal.median, 100.0 * c->aes.median /
	    r->seal.median, c->trials < FEW_TRIALS || noisy(&c->aes) ?
	    " (a noisy or short measurement)" : "", c->total.median,
	    100.0 * c->share_io);
	printf("\n");
	print_wrapped("", line);
}

/* The text output: the charts on a terminal, the cipher alone, the
 * tables. */
static void
print_text(const struct cell *cells, size_t nc, const struct raw *raws,
    size_t nr, int tty, int engine)
{
	size_t i;

	if (tty) {
		print_chart(cells, nc, AE_CODEC_DEFLATE, engine);
		if (ae_zstd_available())
			print_chart(cells, nc, AE_CODEC_ZSTD, engine);
	}
	printf("The cipher alone (one thread, 16 KiB messages over a 1 MiB "
	    "buffer, in cache;\ncompare: openssl speed -evp aes-256-gcm):\n");
	for (i = 0; i < nr; i++) {
		char s[16], o[16];

		rate_text(s, sizeof s, &raws[i].seal, FEW_TRIALS, 0);
		rate_text(o, sizeof o, &raws[i].open, FEW_TRIALS, 0);
		printf("  %-13s seal %s MB/s   open %s MB/s\n",
		    ae_gcm_tier_name(raws[i].tier), s, o);
	}
	printf("\nThe pipeline on %zu MiB trials at most: zip = MB of "
	    "plaintext per CPU-second\nof compressing or decompressing; aes = "
	    "MB sealed or opened per CPU-second\nof AES-GCM; total = MB of "
	    "plaintext per wall-clock second, all threads;\naes %% = AES-GCM's "
	    "share of the CPU (with compression and I/O).\nMedians over the "
	    "trials; ~ marks a spread (min-max) over 10%% of the median,\n? "
	    "fewer than 3 trials (a longer --benchmark-time gives more).  The\n"
	    "fastest trial (on a shared machine the total that repeats best), "
	    "the\nmin-max spread and the trial counts are in --benchmark=json "
	    "and csv.\n\n",
	    DATA_BYTES >> 20);
	print_table(cells, nc, ENCRYPT);
	print_gap(cells, nc, raws, nr);
	printf("\n");
	print_table(cells, nc, DECRYPT);
}

/* What runs: the threads, the chunk sizes, the CPU and the codecs. */
static void
print_intro(const struct bench *b, double seconds, unsigned zstd_log2,
    int engine, int other, size_t ncells)
{
	char feat[256];

	ae_cpu_describe(feat, sizeof feat);
	{
		/* a busy machine makes every figure here noise: say so first */
		double load[1];
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);

		if (getloadavg(load, 1) == 1 && cpus > 0 && load[0] > (double)cpus)
			msg_warn("load average %.1f over %ld CPUs: the "
			    "figures will be noisy", load[0], cpus);
	}
	printf("aescrypt --benchmark: %u worker thread%s, %u KiB chunks, in "
	    "memory\n", b->threads, b->threads == 1 ? "" : "s",
	    (1u << b->log2) / 1024);
	/* the budget is kept: what did not fit is said at the end */
	printf("time: %.1f s at most, and a trial: each of the %zu pipeline "
	    "measurements\nfirst takes a warm-up and one trial (said at the "
	    "end)\n", seconds, ncells);
	print_wrapped("cpu features: ", feat);
	printf("deflate engines: %s %s (default)", ae_deflate_name(engine),
	    ae_deflate_version(engine));
	if (other >= 0)
		printf(", %s %s", ae_deflate_name(other),
		    ae_deflate_version(other));
	if (ae_zstd_available())
		printf("\nzstd: %s, %u KiB chunks", ae_zstd_version(),
		    (1u << zstd_log2) / 1024);
	else
		printf("\nzstd: not in this build");
	printf("\n\n");
	fflush(stdout);
}

/* ---- the run ---- */

/* Cells nc and nc + 1 from the model m (data, level, codec, engine,
 * log2, tier): encrypting, then decrypting what that made. */
static size_t
add_pair(struct cell *cells, size_t nc, const struct cell *m)
{
	int dir;

	for (dir = ENCRYPT; dir <= DECRYPT; dir++) {
		struct cell *c = &cells[nc++];

		*c = *m;
		c->dir = dir;
	}
	return nc;
}

/* Per data and level: every tier with the default engine, the other
 * engine, every tier with zstd. */
#define MAX_CELLS (2 * 2 * NLEVELS * (2 * AE_GCM_TIER_COUNT + 1))

/* The cells, in the order they are printed: per data and level, every
 * tier with the default engine, then the other engine on the default
 * tier, then zstd (not at -0, which stores whatever the codec) with
 * every tier. */
static size_t
plan_cells(struct cell *cells, int engine, int other, unsigned log2,
    unsigned zstd_log2, int all)
{
	struct cell m;
	size_t nc = 0;
	int d, l, t;

	for (d = 0; d < 2; d++)
		for (l = 0; l < NLEVELS; l++) {
			/* the default set: -0 and -6, and zstd at -6 on the
			 * default tier */
			if (!all && levels[l] != 0 && levels[l] != 6)
				continue;
			memset(&m, 0, sizeof m);
			m.data = d;
			m.level = levels[l];
			m.codec = AE_CODEC_DEFLATE;
			m.engine = engine;
			m.log2 = log2;
			for (t = AE_GCM_TIER_COUNT - 1; t >= 0; t--)
				if (ae_gcm_tier_available((enum ae_gcm_tier)t)) {
					m.tier = (enum ae_gcm_tier)t;
					nc = add_pair(cells, nc, &m);
				}
			if (levels[l] == 0)
				continue;
			m.tier = ae_gcm_default_tier();
			if (other >= 0 && all) {
				m.engine = other;
				nc = add_pair(cells, nc, &m);
			}
			if (!ae_zstd_available())
				continue;
			m.codec = AE_CODEC_ZSTD;
			m.engine = engine;
			m.log2 = zstd_log2;
			if (!all) {
				m.tier = ae_gcm_default_tier();
				nc = add_pair(cells, nc, &m);
				continue;
			}
			for (t = AE_GCM_TIER_COUNT - 1; t >= 0; t--)
				if (ae_gcm_tier_available((enum ae_gcm_tier)t)) {
					m.tier = (enum ae_gcm_tier)t;
					nc = add_pair(cells, nc, &m);
				}
		}
	return nc;
}

int
benchmark_run(double seconds, unsigned threads, unsigned chunk_log2,
    unsigned zstd_log2, enum bench_format format, int all, int tty)
{
	struct cell cells[MAX_CELLS];
	struct raw raws[AE_GCM_TIER_COUNT];
	struct bench b;
	size_t nc, nr = 0, i;
	unsigned least = chunk_log2 < zstd_log2 ? chunk_log2 : zstd_log2;
	int engine = ae_deflate_default_engine(), other = -1, d, t;
	int r = AE_OK;
	uint64_t w0 = ae_wall_ns(), floor_end = 0;
	size_t more = 0;            /* cells that ran more than the floor */
	size_t skipped = 0;         /* cells the budget had no time for */

#ifdef HAVE_MALLOPT
	/* Every trial builds a pipeline, whose buffers glibc would mmap
	 * and give back, so each trial faulted them in again (a third of
	 * the CPU here; AES-GCM at -0 ran at 290 MB/s).  A real run faults
	 * its one pipeline's once: keeping freed memory measures that. */
	mallopt(M_MMAP_THRESHOLD, 256 << 20);
	mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
	if (engine != AE_DEFLATE_ZLIB)
		other = AE_DEFLATE_ZLIB;
	nc = plan_cells(cells, engine, other, chunk_log2, zstd_log2, all);
	for (t = AE_GCM_TIER_COUNT - 1; t >= 0; t--)
		if (ae_gcm_tier_available((enum ae_gcm_tier)t))
			raws[nr++].tier = (enum ae_gcm_tier)t;

	/* The data, and room for the records of a whole buffer, touched
	 * once so that no trial times the page faults. */
	memset(&b, 0, sizeof b);
	for (d = 0; d < 2; d++) {
		b.sealed_cap[d] = DATA_BYTES + ((DATA_BYTES >> least) + 1)
		    * 32 + 4096;
		b.data[d] = malloc(DATA_BYTES);
		b.sealed[d] = malloc(b.sealed_cap[d]);
		if (b.data[d] == NULL || b.sealed[d] == NULL)
			r = AE_ENOMEM;
		else
			memset(b.sealed[d], 0, b.sealed_cap[d]);
	}
	if (r == AE_OK) {
		make_text(b.data[0], DATA_BYTES);
		if (ae_random(b.data[1], DATA_BYTES) != AE_OK)
			r = AE_EIO;
	}
	b.threads = threads;
	b.log2 = chunk_log2;
	b.left = nc + nr;
	b.deadline = w0 + (uint64_t)(seconds * 1e9);

	if (format == BENCH_TEXT && r == AE_OK)
		print_intro(&b, seconds, zstd_log2, engine, other, nc);
	for (i = 0; i < nr && r == AE_OK; i++)
		r = measure_raw(&raws[i], &b);
	/* The floor first: every cell's warm-up and one trial.  What is
	 * left of the budget then goes to more trials, cell by cell. */
	/* The process's first pipeline trials are slow whatever they
	 * measure: on the machine this was written on the first cell's
	 * AES ran at a tenth of its rate, its own warm-up trial
	 * notwithstanding, and at its full rate after this (the cause,
	 * first use of the heap or the threads, was not pinned down).  So
	 * a copy of the first cell runs once, uncounted, before any
	 * cell. */
	if (nc > 0 && r == AE_OK) {
		struct cell w = cells[0];

		r = measure_floor(&b, &w);
	}
	for (i = 0; i < nc && r == AE_OK; i++) {
		/* the budget is kept: a pair with no time left is skipped
		 * and counted, not measured late; but one pair always runs
		 * (two trials of 1 MiB), so every run shows a figure */
		if (i >= 2 && cells[i].dir == ENCRYPT
		    && ae_wall_ns() >= b.deadline)
			break;
		r = measure_floor(&b, &cells[i]);
	}
	skipped = nc - i;
	nc = i;
	floor_end = ae_wall_ns();
	b.left = nc;
	for (i = 0; i + 1 < nc && r == AE_OK; i += 2) {
		size_t made = 0, read = 0;

		r = measure_more(&b, &cells[i], 0, &made);
		if (r == AE_OK)
			r = measure_more(&b, &cells[i + 1], made, &read);
		more += (made > 0) + (read > 0);
	}
	for (d = 0; d < 2; d++) {
		free(b.sealed[d]);
		free(b.data[d]);
	}
	if (r != AE_OK) {
		if (r == AE_EINTR)
			return msg_interrupted();
		if (r == AE_EIO)
			msg_error("the system random number generator failed");
		else
			msg_error("benchmark: %s", ae_strerror(r));
		return EXIT_SYSTEM;
	}

	if (format == BENCH_JSON) {
		print_json(&b, cells, nc, raws, nr, seconds,
		    (double)(ae_wall_ns() - w0) / 1e9,
		    (double)(floor_end - w0) / 1e9, more, skipped, all);
		return EXIT_OK;
	}
	if (format == BENCH_CSV) {
		print_csv(cells, nc, raws, nr);
		return EXIT_OK;
	}
	print_text(cells, nc, raws, nr, tty, engine);
	{
		double secs = (double)(ae_wall_ns() - w0) / 1e9;
		double fl = (double)(floor_end - w0) / 1e9;
		char end[640], sk[160] = "";

		if (skipped > 0)
			snprintf(sk, sizeof sk, " %zu more measurements had no "
			    "time left for their first trial and were skipped "
			    "(a longer --benchmark-time runs them).", skipped);
		/* counted, not assumed: a share may fit no trial */
		snprintf(end, sizeof end, "%.1f s in all (budget %.1f s).  The "
		    "floor, %.1f s, was the data, the cipher alone and a "
		    "warm-up and one trial of each of the %zu pipeline "
		    "measurements; %zu of them had more trials from the rest "
		    "of the budget%s.%s%s", secs, seconds, fl, nc, more,
		    more < nc ? ", the others that one (marked ?)" : "", sk,
		    all ? "" : "  --benchmark=all measures every level, "
		    "both DEFLATE engines and zstd with every tier.");
		printf("\n");
		print_wrapped("", end);
	}
	return EXIT_OK;
}
