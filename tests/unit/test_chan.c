/*
 * test_chan.c -- the in-process pipe (pipeline/chan.h) the archive
 * commands run on: bytes in order through rings smaller than a write,
 * a writer's failure seen by the reader after the bytes before it, and
 * a reader that leaves releasing a blocked writer.
 *
 * Sizes are what each case proves, not more: a 1-byte ring hands every
 * byte over with a wake-up of each thread, so it carries a few thousand
 * bytes (every write size and wrap offset is met many times over); the
 * larger rings carry 100,000.  It was 100 kB through every ring, 11 s
 * of mostly kernel time.
 */
#include "config.h"

#include <pthread.h>

#include "pipeline/chan.h"
#include "check.h"
#include "common/error.h"

#define BIG 100000
#define SMALL 3000

struct feeder {
	struct ae_chan *c;
	const uint8_t *data;
	size_t n;
	int close_status;
	int write_rc;       /* the first failing write's code */
};

static void *
feed(void *arg)
{
	struct feeder *f = arg;
	size_t pos = 0, k = 1;
	int r = AE_OK;

	/* Writes of growing, odd sizes, so reads straddle them. */
	while (pos < f->n && r == AE_OK) {
		if (k > f->n - pos)
			k = f->n - pos;
		r = ae_chan_write(f->c, f->data + pos, k);
		pos += k;
		k = k * 3 + 1;
	}
	f->write_rc = r;
	ae_chan_close_write(f->c, f->close_status);
	return NULL;
}

static uint8_t data[BIG], got[BIG + 10];

/* A clean run of n bytes through a ring of cap (0: the default), read
 * k at a time: every byte, in order, then a short count, then 0. */
static void
clean_run(size_t cap, size_t n, size_t k)
{
	struct ae_chan c;
	struct feeder f;
	pthread_t t;
	size_t pos = 0, got_n;
	int r;

	CHECK(ae_chan_init(&c, cap) == AE_OK, "init");
	f = (struct feeder){ &c, data, n, AE_OK, 0 };
	CHECK(pthread_create(&t, NULL, feed, &f) == 0, "thread");
	do {
		r = ae_chan_read(&c, got + pos, k, &got_n);
		pos += got_n;
	} while (r == AE_OK && got_n == k);
	CHECK(r == AE_OK && pos == n, "clean: r=%d pos=%zu of %zu", r, pos, n);
	CHECK_MEM(got, data, n, "clean: bytes differ (k=%zu, ring %zu)", k,
	    cap);
	r = ae_chan_read(&c, got, k, &got_n);
	CHECK(r == AE_OK && got_n == 0, "read after the end");
	pthread_join(t, NULL);
	CHECK(f.write_rc == AE_OK && c.bytes == n, "counts");
	ae_chan_free(&c);
}

int
main(void)
{
	static const size_t caps[4] = { 1, 7, 4096, 0 };
	struct ae_chan c;
	struct feeder f;
	pthread_t t;
	size_t i, pos, n;
	int r;

	for (i = 0; i < sizeof data; i++)
		data[i] = (uint8_t)(i * 131 + (i >> 8));

	/* Rings smaller than a write, of odd sizes (so copies wrap at
	 * every offset), and the default; reads of 1 byte and of sizes
	 * that straddle the writes. */
	for (i = 0; i < 4 * 4; i++)
		clean_run(caps[i / 4], caps[i / 4] != 0 && caps[i / 4] < 64 ?
		    SMALL : BIG, 1 + (i % 4) * 1366);

	/* A writer that fails: the reader gets the bytes, then the error,
	 * never a short count that looks like a clean end. */
	CHECK(ae_chan_init(&c, 1000) == AE_OK, "init");
	f = (struct feeder){ &c, data, 5000, AE_EAUTH, 0 };
	pthread_create(&t, NULL, feed, &f);
	pos = 0;
	do {
		r = ae_chan_read(&c, got + pos, 4096, &n);
		pos += n;
	} while (r == AE_OK && n == 4096);
	CHECK(r == AE_EAUTH, "failed writer: r=%d (pos %zu)", r, pos);
	CHECK(pos <= 5000, "failed writer: %zu bytes", pos);
	CHECK_MEM(got, data, pos, "failed writer: the bytes before differ");
	pthread_join(t, NULL);
	ae_chan_free(&c);

	/* A reader that leaves: the writer, blocked on a full ring, is
	 * released. */
	CHECK(ae_chan_init(&c, 4096) == AE_OK, "init");
	f = (struct feeder){ &c, data, sizeof data, AE_OK, 0 };
	pthread_create(&t, NULL, feed, &f);
	r = ae_chan_read(&c, got, 10, &n);
	CHECK(r == AE_OK && n == 10, "first read");
	ae_chan_close_read(&c);
	pthread_join(t, NULL);
	CHECK(f.write_rc == AE_EINTR, "writer after reader left: %d",
	    f.write_rc);
	ae_chan_free(&c);
	ae_chan_free(&c);       /* twice is safe */
	return t_finish("test_chan");
}
