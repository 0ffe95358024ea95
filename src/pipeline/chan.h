/*
 * chan.h -- an in-process pipe: one thread writes bytes, another reads
 * them, through the ae_writer and ae_reader calls.
 *
 * Archives need it because the two halves of a job are written in
 * opposite styles: the pipeline pushes plaintext to a writer, while the
 * tar reader pulls from a reader (and for -c, the tree walk pushes a tar
 * stream while the pipeline pulls).  Each side runs in its own thread
 * and the channel joins them.
 *
 * It copies through a ring buffer of its own, so the writer can fill
 * ahead while the reader works (chan.c says why), and a writer that
 * gets ahead of the reader by the ring's size waits: memory does not
 * grow.  The ring is wiped when the channel is freed.  Either side can
 * end the exchange: the writer closes with a status that the reader
 * sees after the last byte; the reader closes when it wants no more,
 * and the writer's pending and later writes return AE_EINTR.
 */
#ifndef AE_CHAN_H
#define AE_CHAN_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "common/io.h"

/* The ring's size when ae_chan_init is given 0: four chunks of the
 * default size. */
#define AE_CHAN_CAP (1024 * 1024)

struct ae_chan {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	uint8_t *ring;
	size_t cap;
	size_t head, fill;      /* the bytes not yet taken */
	int rwait;              /* the reader sleeps on cond */
	size_t wneed;           /* the writer sleeps until this is free */
	int wclosed, wstatus;   /* the writer is done, with this status */
	int rclosed;            /* the reader wants no more */
	uint64_t bytes;         /* bytes that passed */
};

/* A channel with a ring of cap bytes (0: AE_CHAN_CAP).  0, or
 * AE_ENOMEM.  ae_chan_free wipes and frees it; it is safe on a channel
 * whose init failed, and twice. */
int ae_chan_init(struct ae_chan *c, size_t cap);
void ae_chan_free(struct ae_chan *c);

/*
 * The writer side (an ae_writer's write, ctx = the channel): blocks
 * until all n bytes are in the ring (not until the reader has taken
 * them).  Returns 0, or AE_EINTR if the reader has closed.
 */
int ae_chan_write(void *chan, const uint8_t *buf, size_t n);

/*
 * The writer is done: status 0 for a clean end of data, or an error code
 * the reader's next read returns once the bytes already written are
 * taken.  Call once.
 */
void ae_chan_close_write(struct ae_chan *c, int status);

/*
 * The reader side (an ae_reader's read): fills buf with n bytes, or
 * fewer only at a clean end.  Returns 0, or the writer's non-zero close
 * status once the bytes before it are taken (a failed stream has no
 * clean end, so a read that meets the failure returns it, not a short
 * count).
 */
int ae_chan_read(void *chan, uint8_t *buf, size_t n, size_t *got);

/* The reader is done: wake and fail the writer's writes. */
void ae_chan_close_read(struct ae_chan *c);

#endif
