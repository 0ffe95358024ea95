/*
 * test_pipeline.c -- whole payloads through the parallel pipeline, in
 * memory: every tier, 1 to 8 workers, sizes around chunk boundaries;
 * every truncation; a damaged chunk among many, reported as the same
 * chunk whatever the thread count; a failing writer; an interrupt while
 * the reader is stalled; and the stats adding up.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <unistd.h>

#include "check.h"
#include "container/format.h"
#include "container/zstd.h"
#include "crypto/gcm.h"
#include "common/io.h"
#include "pipeline/pipeline.h"

static uint64_t seed = 0x9a9e;
static const unsigned LOG2 = 16;
static int codec = AE_CODEC_DEFLATE;    /* of every pipeline made here */
#define CS ((size_t)1 << 16)

static struct ae_pipe_params
params(const ae_gcm_ctx *g, unsigned threads)
{
	struct ae_pipe_params p;

	memset(&p, 0, sizeof p);
	p.key = g;
	p.codec = codec;
	p.chunk_log2 = LOG2;
	p.level = 6;
	p.threads = threads;
	p.timed = 1;
	return p;
}

/* Encode data[0, n) into *enc (malloc'd; the caller frees enc->dst). */
static int
encode(const ae_gcm_ctx *g, unsigned threads, const uint8_t *data, size_t n,
    struct ae_memio *enc, struct ae_pipe_stats *st)
{
	struct ae_pipe_params p = params(g, threads);
	struct ae_memio src = { .src = data, .len = n };
	struct ae_reader rd = { ae_mem_read, &src, NULL };
	struct ae_writer wr = { ae_mem_write, enc };
	struct ae_diag d = { 0 };

	memset(enc, 0, sizeof *enc);
	memset(st, 0, sizeof *st);
	return ae_pipe_encode(&p, &rd, &wr, st, &d);
}

static int
decode(const ae_gcm_ctx *g, unsigned threads, const uint8_t *c, size_t n,
    struct ae_memio *dec, struct ae_pipe_stats *st, struct ae_diag *d)
{
	struct ae_pipe_params p = params(g, threads);
	struct ae_memio src = { .src = c, .len = n };
	struct ae_reader rd = { ae_mem_read, &src, NULL };
	struct ae_writer wr = { ae_mem_write, dec };

	memset(dec, 0, sizeof *dec);
	memset(st, 0, sizeof *st);
	memset(d, 0, sizeof *d);
	return ae_pipe_decode(&p, &rd, &wr, st, d);
}

static void
test_round_trips(const uint8_t *data, size_t maxn)
{
	size_t sizes[] = { 0, 1, CS - 1, CS, CS + 1, 3 * CS, 3 * CS + 5,
	    maxn };
	unsigned threads[] = { 1, 2, 3, 8 };
	uint8_t key[32];

	t_fill(&seed, key, 32);
	for (int t = 0; t < AE_GCM_TIER_COUNT; t++) {
		ae_gcm_ctx g;

		if (ae_gcm_init_tier(&g, key, (enum ae_gcm_tier)t) != AE_OK) {
			t_skip("a tier is not available here");
			continue;
		}
		for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++)
		for (size_t e = 0; e < 4; e++) {
			struct ae_memio enc, dec;
			struct ae_pipe_stats st, st2;
			struct ae_diag d;
			size_t n = sizes[k];
			unsigned te = threads[e], td = threads[3 - e];
			int r;

			r = encode(&g, te, data, n, &enc, &st);
			CHECK(r == AE_OK && st.plain_bytes == n
			    && st.wire_bytes == enc.fill, "encode tier %d n=%zu "
			    "j%u: %d", t, n, te, r);
			CHECK(st.chunks == (n == 0 ? 1 : (n + CS - 1) / CS),
			    "chunk count n=%zu", n);
			CHECK(st.threads >= 1 && st.threads <= te,
			    "threads run %u of %u", st.threads, te);
			r = decode(&g, td, enc.dst, enc.fill, &dec, &st2, &d);
			CHECK(r == AE_OK && dec.fill == n && (n == 0
			    || memcmp(dec.dst, data, n) == 0),
			    "decode tier %d n=%zu j%u: %d", t, n, td, r);
			CHECK(st2.plain_bytes == n && st2.wire_bytes == enc.fill
			    && st2.read_bytes == enc.fill
			    && st2.write_bytes == n, "decode byte counts");
			free(enc.dst);
			free(dec.dst);
		}
		ae_gcm_wipe(&g);
	}
}

/* Every truncation fails as truncated, and what was written is whole
 * chunks of the plaintext, with 1 and 4 workers. */
static void
test_truncations(const ae_gcm_ctx *g, const uint8_t *data)
{
	struct ae_memio enc, dec;
	struct ae_pipe_stats st;
	struct ae_diag d;
	size_t n = 3 * CS + 5, cut;
	int r;

	encode(g, 2, data, n, &enc, &st);
	for (cut = 0; cut < enc.fill; cut += (cut < 64 ? 1 : 997)) {
		for (unsigned j = 1; j <= 4; j += 3) {
			r = decode(g, j, enc.dst, cut, &dec, &st, &d);
			CHECK(r == AE_ETRUNC, "cut at %zu j%u: %d", cut, j, r);
			CHECK(dec.fill % CS == 0 && (dec.fill == 0
			    || memcmp(dec.dst, data, dec.fill) == 0),
			    "cut at %zu wrote a partial chunk", cut);
			free(dec.dst);
		}
	}
	free(enc.dst);
}

/* Damage chunk 25 of 50 (and, separately, 25 and 40): every thread
 * count reports chunk 25 at its offset, after writing chunks 0..24. */
static void
test_damage(const ae_gcm_ctx *g, const uint8_t *data)
{
	struct ae_memio enc, dec;
	struct ae_pipe_stats st;
	struct ae_diag d;
	size_t n = 50 * CS - 7, off25, off40;
	unsigned j;
	int r;

	/* Stored (random) data so records are the same size: chunk i
	 * starts at i * (CS + 21). */
	encode(g, 3, data, n, &enc, &st);
	CHECK(enc.fill == n + 50 * 21, "50 stored chunks");
	off25 = 25 * (CS + 21);
	off40 = 40 * (CS + 21);
	for (int variant = 0; variant < 2; variant++) {
		enc.dst[off25 + 100] ^= 0x20;
		if (variant)
			enc.dst[off40 + 7] ^= 0x01;
		for (j = 1; j <= 8; j++) {
			r = decode(g, j, enc.dst, enc.fill, &dec, &st, &d);
			CHECK(r == AE_EAUTH && d.where == AE_AT_CHUNK
			    && d.index == 25 && d.offset == off25,
			    "j%u variant %d: %d chunk %llu at %llu", j, variant,
			    r, d.index, d.offset);
			CHECK(dec.fill == 25 * CS && memcmp(dec.dst, data,
			    dec.fill) == 0, "j%u wrote %zu bytes before chunk 25",
			    j, dec.fill);
			free(dec.dst);
		}
		enc.dst[off25 + 100] ^= 0x20;
		if (variant)
			enc.dst[off40 + 7] ^= 0x01;
	}
	/* A frame with a bad length at chunk 30, found by the reader, and a
	 * tag failure at chunk 10, found by a worker: chunk 10 comes first. */
	enc.dst[30 * (CS + 21) + 1] = 0x7f;
	enc.dst[10 * (CS + 21) + 50] ^= 1;
	for (j = 1; j <= 8; j *= 2) {
		r = decode(g, j, enc.dst, enc.fill, &dec, &st, &d);
		CHECK(r == AE_EAUTH && d.index == 10, "reader and worker "
		    "failures in order, j%u: %d at %llu", j, r, d.index);
		free(dec.dst);
	}
	enc.dst[10 * (CS + 21) + 50] ^= 1;
	for (j = 1; j <= 8; j *= 2) {
		r = decode(g, j, enc.dst, enc.fill, &dec, &st, &d);
		CHECK(r == AE_EFORMAT && d.index == 30
		    && strstr(d.what, "length") != NULL,
		    "reader's frame check, j%u: %d at %llu", j, r, d.index);
		free(dec.dst);
	}
	free(enc.dst);
}

/* A writer that fails after k calls. */
struct failing {
	int left;
};

static int
fail_write(void *ctx, const uint8_t *buf, size_t n)
{
	struct failing *f = ctx;

	(void)buf;
	(void)n;
	if (f->left-- <= 0) {
		errno = EPIPE;
		return AE_EIO;
	}
	return AE_OK;
}

static void
test_writer_failure(const ae_gcm_ctx *g, const uint8_t *data)
{
	for (unsigned j = 1; j <= 8; j *= 2) {
		struct ae_pipe_params p = params(g, j);
		struct ae_memio src = { .src = data, .len = 20 * CS };
		struct failing f = { 3 };
		struct ae_reader rd = { ae_mem_read, &src, NULL };
		struct ae_writer wr = { fail_write, &f };
		struct ae_pipe_stats st = { 0 };
		struct ae_diag d = { 0 };
		atomic_int cancel;
		int r;

		atomic_init(&cancel, 0);
		p.cancel = &cancel;
		r = ae_pipe_encode(&p, &rd, &wr, &st, &d);
		CHECK(r == AE_EIO && d.where == AE_AT_OUTPUT
		    && d.sys_errno == EPIPE && st.chunks == 3,
		    "writer failure j%u: %d after %llu chunks", j, r,
		    (unsigned long long)st.chunks);
		CHECK(atomic_load(&cancel) == 1, "cancel raised on failure");
	}
}

/* A reader that hands out one chunk, then blocks until cancelled, as a
 * stalled pipe would; the interrupt must still end the run. */
struct stalled {
	int calls;
	const atomic_int *cancel;
};

static int
stall_read(void *ctx, uint8_t *buf, size_t n, size_t *got)
{
	struct stalled *s = ctx;

	if (s->calls++ == 0) {
		memset(buf, 'a', n);
		*got = n;
		return AE_OK;
	}
	while (!atomic_load(s->cancel))
		usleep(1000);
	*got = 0;
	return AE_EINTR;
}

static atomic_int interrupt_flag;

static void *
raise_later(void *arg)
{
	(void)arg;
	usleep(200000);
	atomic_store(&interrupt_flag, 1);
	return NULL;
}

static void
test_interrupt(const ae_gcm_ctx *g)
{
	struct ae_pipe_params p = params(g, 2);
	struct ae_memio out = { .discard = 1 };
	struct ae_writer wr = { ae_mem_write, &out };
	struct ae_pipe_stats st = { 0 };
	struct ae_diag d = { 0 };
	atomic_int cancel;
	struct stalled s = { 0, &cancel };
	struct ae_reader rd = { stall_read, &s, NULL };
	pthread_t t;
	int r;

	atomic_init(&cancel, 0);
	atomic_init(&interrupt_flag, 0);
	p.interrupt = &interrupt_flag;
	p.cancel = &cancel;
	pthread_create(&t, NULL, raise_later, NULL);
	r = ae_pipe_encode(&p, &rd, &wr, &st, &d);
	pthread_join(t, NULL);
	CHECK(r == AE_EINTR, "interrupt ends a stalled run: %d", r);
	CHECK(st.chunks == 0, "nothing written: the first chunk's "
	    "read-ahead never finished (%llu)", (unsigned long long)st.chunks);
}

static void
test_params(const ae_gcm_ctx *g)
{
	struct ae_memio src = { 0 }, out = { .discard = 1 };
	struct ae_reader rd = { ae_mem_read, &src, NULL };
	struct ae_writer wr = { ae_mem_write, &out };
	struct ae_pipe_stats st = { 0 };
	struct ae_pipe_params p;

	p = params(g, 0);
	CHECK(ae_pipe_encode(&p, &rd, &wr, &st, NULL) == AE_EINVAL, "0 threads");
	p = params(g, AE_PIPE_MAX_THREADS + 1);
	CHECK(ae_pipe_encode(&p, &rd, &wr, &st, NULL) == AE_EINVAL,
	    "too many threads");
	p = params(g, 1);
	p.chunk_log2 = 23;
	CHECK(ae_pipe_decode(&p, &rd, &wr, &st, NULL) == AE_EINVAL,
	    "chunk size out of range");
	p.codec = AE_CODEC_ZSTD;        /* zstd allows 8 MiB, not 16 */
	p.chunk_log2 = 24;
	CHECK(ae_pipe_decode(&p, &rd, &wr, &st, NULL) == AE_EINVAL,
	    "chunk size out of range for zstd");
	p.codec = 2;
	p.chunk_log2 = 16;
	CHECK(ae_pipe_decode(&p, &rd, &wr, &st, NULL) == AE_EINVAL,
	    "codec 2");
	/* The memory budget caps workers at large chunks. */
	p = params(g, 64);
	p.chunk_log2 = 22;
	src.len = 0;
	CHECK(ae_pipe_encode(&p, &rd, &wr, &st, NULL) == AE_OK
	    && st.threads < 64, "4 MiB chunks: %u workers", st.threads);
}

int
main(void)
{
	size_t maxn = 9 * CS + 333;
	uint8_t *data = malloc(50 * CS), key[32];
	ae_gcm_ctx g;

	t_fill(&seed, data, 50 * CS);
	/* half compressible, so both record kinds occur */
	memset(data + maxn / 2, 'z', maxn - maxn / 2);
	test_round_trips(data, maxn);
	if (ae_zstd_available()) {
		/* the same with the zstd codec */
		codec = AE_CODEC_ZSTD;
		test_round_trips(data, maxn);
		codec = AE_CODEC_DEFLATE;
	}
	t_fill(&seed, data, 50 * CS);
	t_fill(&seed, key, 32);
	ae_gcm_init(&g, key);
	test_truncations(&g, data);
	codec = AE_CODEC_ZSTD;
	if (ae_zstd_available())
		test_damage(&g, data);
	codec = AE_CODEC_DEFLATE;
	test_damage(&g, data);
	test_writer_failure(&g, data);
	test_interrupt(&g);
	test_params(&g);
	ae_gcm_wipe(&g);
	free(data);
	return t_finish("test_pipeline");
}
