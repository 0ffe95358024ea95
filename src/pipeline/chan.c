/*
 * chan.c -- the in-process pipe (contract in chan.h).
 *
 * A rendezvous rather than a ring buffer: the writer's buffer is read in
 * place, so there is no second copy of plaintext to wipe and no sizing
 * decision to get wrong.  The price is that the writer waits for the
 * reader, which is what back-pressure needs anyway.
 */
#include "config.h"
#include "chan.h"

#include <string.h>

#include "common/error.h"

int
ae_chan_init(struct ae_chan *c)
{
	memset(c, 0, sizeof *c);
	if (pthread_mutex_init(&c->lock, NULL) != 0)
		return AE_ENOMEM;
	if (pthread_cond_init(&c->cond, NULL) != 0) {
		pthread_mutex_destroy(&c->lock);
		return AE_ENOMEM;
	}
	return AE_OK;
}

void
ae_chan_free(struct ae_chan *c)
{
	pthread_cond_destroy(&c->cond);
	pthread_mutex_destroy(&c->lock);
}

int
ae_chan_write(void *chan, const uint8_t *buf, size_t n)
{
	struct ae_chan *c = chan;
	int r = AE_OK;

	if (n == 0)
		return AE_OK;
	pthread_mutex_lock(&c->lock);
	if (c->rclosed) {
		pthread_mutex_unlock(&c->lock);
		return AE_EINTR;
	}
	c->buf = buf;
	c->left = n;
	pthread_cond_broadcast(&c->cond);
	while (c->left > 0 && !c->rclosed)
		pthread_cond_wait(&c->cond, &c->lock);
	if (c->left > 0)
		r = AE_EINTR;
	/* The reader must not touch buf once this returns. */
	c->buf = NULL;
	c->left = 0;
	pthread_mutex_unlock(&c->lock);
	return r;
}

void
ae_chan_close_write(struct ae_chan *c, int status)
{
	pthread_mutex_lock(&c->lock);
	c->wclosed = 1;
	c->wstatus = status;
	pthread_cond_broadcast(&c->cond);
	pthread_mutex_unlock(&c->lock);
}

int
ae_chan_read(void *chan, uint8_t *buf, size_t n, size_t *got)
{
	struct ae_chan *c = chan;
	size_t done = 0, k;
	int r = AE_OK;

	pthread_mutex_lock(&c->lock);
	while (done < n) {
		while (c->left == 0 && !c->wclosed)
			pthread_cond_wait(&c->cond, &c->lock);
		if (c->left == 0) {
			/* Closed and drained.  A short count means a clean
			 * end, so a failure is returned at once, not after
			 * the bytes that came before it. */
			r = c->wstatus;
			break;
		}
		k = c->left < n - done ? c->left : n - done;
		memcpy(buf + done, c->buf, k);
		c->buf += k;
		c->left -= k;
		c->bytes += k;
		done += k;
		if (c->left == 0)
			pthread_cond_broadcast(&c->cond);
	}
	pthread_mutex_unlock(&c->lock);
	*got = done;
	return r;
}

void
ae_chan_close_read(struct ae_chan *c)
{
	pthread_mutex_lock(&c->lock);
	c->rclosed = 1;
	pthread_cond_broadcast(&c->cond);
	pthread_mutex_unlock(&c->lock);
}
