/*
 * salvage.c -- what a damaged container still holds (contract in
 * salvage.h).
 */
#include "config.h"
#include "salvage.h"

#define AESCRYPT_STATIC_LINKING_ONLY
#include "aescrypt.h"

#include <stdlib.h>
#include <string.h>

#include "common/grow.h"
#include "msg.h"

void
salvage_init(struct salvage *s, const char *name, unsigned chunk_log2)
{
	memset(s, 0, sizeof *s);
	s->name = name;
	s->chunk = (uint64_t)1 << chunk_log2;
	pthread_mutex_init(&s->lock, NULL);
	s->ready = 1;
}

void
salvage_free(struct salvage *s)
{
	if (!s->ready)
		return;
	free(s->lost);
	s->lost = NULL;
	pthread_mutex_destroy(&s->lock);
	s->ready = 0;
}

int
salvage_lost(void *ctx, uint64_t seq, int final, const struct ae_diag *d)
{
	struct salvage *s = ctx;
	struct salvage_range r = { seq, seq * s->chunk,
	    final ? UINT64_MAX : (seq + 1) * s->chunk };
	int e = AE_OK;

	if (seq == AESCRYPT_NO_RECORD) {
		/* bytes passed over, no chunk lost: still damage (exit 4) */
		msg_error("%s: %llu bytes at offset %llu passed over (%s); no "
		    "chunk was lost for them", s->name, d->have, d->offset,
		    d->what != NULL ? d->what : "no record of this file");
		pthread_mutex_lock(&s->lock);
		s->nskipped++;
		s->skipped_bytes += d->have;
		pthread_mutex_unlock(&s->lock);
		return AE_OK;
	}

	msg_error("%s: chunk %llu at offset %llu %s; %s", s->name,
	    (unsigned long long)seq, d->offset, d->what != NULL ? d->what :
	    "failed", final ? "it was the final chunk: the end of the data "
	    "is lost" : "its bytes are lost, and the rest is read on");
	pthread_mutex_lock(&s->lock);
	/* (out of memory: the range is not kept, as below) */
	(void)ae_grow(&s->lost, &s->cap, s->nlost + 1, sizeof *s->lost, 16, 0);
	if (s->nlost < s->cap)
		s->lost[s->nlost++] = r;
	else
		e = AE_ENOMEM;
	pthread_mutex_unlock(&s->lock);
	return e;
}

/* The first lost range that [start, end) touches, or NULL.  Under the
 * lock. */
static const struct salvage_range *
touched(const struct salvage *s, uint64_t start, uint64_t end)
{
	size_t i;

	for (i = 0; i < s->nlost; i++)
		if (start < s->lost[i].end && s->lost[i].start < end)
			return &s->lost[i];
	return NULL;
}

int
salvage_gap(void *ctx, uint64_t off, uint64_t *end)
{
	struct salvage *s = ctx;
	const struct salvage_range *r;

	pthread_mutex_lock(&s->lock);
	if ((r = touched(s, off, off + 1)) != NULL)
		*end = r->end;
	pthread_mutex_unlock(&s->lock);
	return r != NULL;
}

int
salvage_overlaps(struct salvage *s, uint64_t start, uint64_t end,
    uint64_t *seq)
{
	const struct salvage_range *r;

	pthread_mutex_lock(&s->lock);
	if ((r = touched(s, start, end)) != NULL)
		*seq = r->seq;
	pthread_mutex_unlock(&s->lock);
	return r != NULL;
}

int
salvage_damaged(struct salvage *s)
{
	int n;

	pthread_mutex_lock(&s->lock);
	n = s->nlost > 0 || s->nskipped > 0;
	pthread_mutex_unlock(&s->lock);
	return n;
}

size_t
salvage_count(struct salvage *s)
{
	size_t n;

	pthread_mutex_lock(&s->lock);
	n = s->nlost;
	pthread_mutex_unlock(&s->lock);
	return n;
}

void
salvage_report(struct salvage *s, const char *what)
{
	size_t i;

	pthread_mutex_lock(&s->lock);
	for (i = 0; i < s->nlost; i++) {
		if (s->lost[i].end == UINT64_MAX)
			msg_error("%s: lost: %s bytes %llu to the end (chunk "
			    "%llu)", s->name, what,
			    (unsigned long long)s->lost[i].start,
			    (unsigned long long)s->lost[i].seq);
		else
			msg_error("%s: lost: %s bytes %llu to %llu (chunk "
			    "%llu)", s->name, what,
			    (unsigned long long)s->lost[i].start,
			    (unsigned long long)s->lost[i].end - 1,
			    (unsigned long long)s->lost[i].seq);
	}
	pthread_mutex_unlock(&s->lock);
}
