/*
 * rcache.c -- a bounded, shared cache of records' plaintext, with
 * read-ahead (contract in rcache.h).
 *
 * One lock guards everything; what it guards is small (a hash of
 * record numbers, a list in order of use, a queue of records to read
 * ahead), and the only long thing done under it is the copy of one
 * record, which is what a hit costs anyway.  Opening a record, the
 * expensive part, is always done outside it.
 */
#include "config.h"
#include "rcache.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "common/wipe.h"

enum { EMPTY, HELD, FILLING };

struct ent {
	uint64_t rec;
	int state;
	unsigned pins;              /* readers it is lent to */
	int ahead;                  /* FILLING by a read-ahead thread (else
	                             * by a reader that missed it) */
	size_t len;
	size_t hw;                  /* the most bytes it ever held: what to
	                             * wipe at the end */
	uint8_t *p;                 /* chunk bytes */
	struct ent *prev, *next;    /* in order of use, newest first */
	struct ent *hnext;          /* in its hash bucket */
};

/* Where a stream of reads (a member's) last ended. */
#define STREAMS 32
struct stream {
	uint64_t key, next;
	int used;
};

struct ae_rcache {
	pthread_mutex_t lock;
	pthread_cond_t filled;      /* an entry left FILLING */
	pthread_cond_t work;        /* the queue grew, or stop */
	size_t chunk, n;
	uint8_t *mem;
	struct ent *e;
	struct ent **bucket;
	size_t nb;                  /* a power of two */
	struct ent lru;             /* the list's head: lru.next newest */
	struct stream st[STREAMS];
	uint64_t *q;                /* records to read ahead (a ring) */
	size_t qcap, qhead, qn;
	unsigned window;
	pthread_t *th;
	unsigned nth, want_th;      /* started, and to start at the first
	                             * read-ahead */
	int stop;
	ae_rcache_fill_fn fill;
	void *ctx;
	uint64_t hits, misses, ahead;
};

static size_t
bucket_of(const struct ae_rcache *c, uint64_t rec)
{
	return (size_t)((rec * 0x9e3779b97f4a7c15ull) >> 32) & (c->nb - 1);
}

static struct ent *
find(const struct ae_rcache *c, uint64_t rec)
{
	struct ent *e;

	for (e = c->bucket[bucket_of(c, rec)]; e != NULL; e = e->hnext)
		if (e->rec == rec)
			return e;
	return NULL;
}

static void
unhash(struct ae_rcache *c, struct ent *e)
{
	struct ent **pp = &c->bucket[bucket_of(c, e->rec)];

	while (*pp != NULL && *pp != e)
		pp = &(*pp)->hnext;
	if (*pp != NULL)
		*pp = e->hnext;
	e->hnext = NULL;
}

/* e moved to just after `at` in the list (at the head: the newest; after
 * the oldest: the oldest itself). */
static void
move_after(struct ent *e, struct ent *at)
{
	e->prev->next = e->next;
	e->next->prev = e->prev;
	e->prev = at;
	e->next = at->next;
	at->next->prev = e;
	at->next = e;
}

static void
to_front(struct ae_rcache *c, struct ent *e)
{
	move_after(e, &c->lru);
}

static void
to_back(struct ae_rcache *c, struct ent *e)
{
	if (c->lru.prev != e)
		move_after(e, c->lru.prev);
}

/* The least recently used entry that no one is filling or reading,
 * taken out of the hash and renamed rec (its state left to the caller);
 * NULL when every one is being filled or read. */
static struct ent *
take_oldest(struct ae_rcache *c, uint64_t rec)
{
	struct ent *e;

	for (e = c->lru.prev; e != &c->lru; e = e->prev)
		if (e->state != FILLING && e->pins == 0)
			break;
	if (e == &c->lru)
		return NULL;
	if (e->state == HELD)
		unhash(c, e);
	e->rec = rec;
	e->hnext = c->bucket[bucket_of(c, rec)];
	c->bucket[bucket_of(c, rec)] = e;
	to_front(c, e);
	return e;
}

/* An entry's bytes replaced by p[0, len): what was past len wiped. */
static void
fill_ent(struct ent *e, const uint8_t *p, size_t len)
{
	memcpy(e->p, p, len);
	if (e->len > len)
		ae_wipe(e->p + len, e->len - len);
	e->len = len;
	if (len > e->hw)
		e->hw = len;
	e->state = HELD;
}

/* The cache's memory, in huge pages where the system gives them: it is
 * touched a page at a time as it fills, and a fault for each 4 KiB page
 * costs more than the copies (a third of a sequential read's time on a
 * VM, measured). */
static void *
big_alloc(size_t n)
{
	void *p;

	if (posix_memalign(&p, (size_t)2 << 20, n) != 0)
		return NULL;
#ifdef MADV_HUGEPAGE
	(void)madvise(p, n, MADV_HUGEPAGE);
#endif
	return p;
}

static void *
ahead_main(void *arg)
{
	struct ae_rcache *c = arg;
	struct ent *e;
	uint64_t rec;
	size_t len, old;
	int ok;

	pthread_mutex_lock(&c->lock);
	for (;;) {
		while (!c->stop && c->qn == 0)
			pthread_cond_wait(&c->work, &c->lock);
		if (c->stop)
			break;
		rec = c->q[c->qhead];
		c->qhead = (c->qhead + 1) % c->qcap;
		c->qn--;
		if (find(c, rec) != NULL || (e = take_oldest(c, rec)) == NULL)
			continue;
		e->state = FILLING;
		e->ahead = 1;
		old = e->len;
		e->len = 0;
		pthread_mutex_unlock(&c->lock);
		/* (the entry is this thread's while FILLING: no one else
		 * reads or writes its bytes) */
		ok = c->fill(c->ctx, rec, e->p, &len) == 0;
		pthread_mutex_lock(&c->lock);
		if (ok) {
			/* (what it held before, past the new bytes) */
			if (old > len)
				ae_wipe(e->p + len, old - len);
			e->len = len;
			if (len > e->hw)
				e->hw = len;
			e->state = HELD;
			c->ahead++;
		} else {
			/* the read that needs it meets why */
			ae_wipe(e->p, c->chunk);
			unhash(c, e);
			e->state = EMPTY;
			to_back(c, e);
		}
		pthread_cond_broadcast(&c->filled);
	}
	pthread_mutex_unlock(&c->lock);
	return NULL;
}

struct ae_rcache *
ae_rcache_new(uint64_t bytes, size_t chunk, unsigned ahead,
    ae_rcache_fill_fn fill, void *ctx)
{
	struct ae_rcache *c = calloc(1, sizeof *c);
	size_t i;

	if (c == NULL)
		return NULL;
	c->chunk = chunk;
	c->n = bytes / chunk < 2 ? 2 : (size_t)(bytes / chunk);
	/* read-ahead never holds more than half of the cache, so that it
	 * cannot push out what is being read now */
	if (ahead > c->n / 4)
		ahead = (unsigned)(c->n / 4);
	/* a window of 16 records a thread (4 MiB at 256 KiB): with less,
	 * the threads sat idle between a reader's requests (a quarter of
	 * the time, measured with 4 records: a 1 GiB cat 20% slower) */
	c->window = ahead > 0 ? 16 * ahead : 0;
	if (c->window > c->n / 2)
		c->window = (unsigned)(c->n / 2);
	c->fill = fill;
	c->ctx = ctx;
	for (c->nb = 4; c->nb < 2 * c->n; c->nb *= 2)
		;
	c->qcap = c->window > 0 ? 4 * c->window : 1;
	if (c->n > SIZE_MAX / chunk
	    || (c->mem = big_alloc(c->n * chunk)) == NULL
	    || (c->e = calloc(c->n, sizeof *c->e)) == NULL
	    || (c->bucket = calloc(c->nb, sizeof *c->bucket)) == NULL
	    || (c->q = calloc(c->qcap, sizeof *c->q)) == NULL
	    || (ahead > 0 && (c->th = calloc(ahead, sizeof *c->th)) == NULL)) {
		free(c->mem);
		free(c->e);
		free(c->bucket);
		free(c->q);
		free(c);
		return NULL;
	}
	ae_nodump(c->mem, c->n * chunk);
	c->lru.next = c->lru.prev = &c->lru;
	for (i = 0; i < c->n; i++) {
		c->e[i].p = c->mem + i * chunk;
		c->e[i].next = &c->lru;
		c->e[i].prev = c->lru.prev;
		c->lru.prev->next = &c->e[i];
		c->lru.prev = &c->e[i];
	}
	pthread_mutex_init(&c->lock, NULL);
	pthread_cond_init(&c->filled, NULL);
	pthread_cond_init(&c->work, NULL);
	/* (the threads start at the first read-ahead, not here: the
	 * process may fork once the index is read, and a fork takes no
	 * thread along -- the mount goes to the background so) */
	c->want_th = ahead;
	return c;
}

void
ae_rcache_stop(struct ae_rcache *c)
{
	unsigned i;

	if (c == NULL)
		return;
	pthread_mutex_lock(&c->lock);
	c->stop = 1;
	pthread_cond_broadcast(&c->work);
	pthread_mutex_unlock(&c->lock);
	for (i = 0; i < c->nth; i++)
		pthread_join(c->th[i], NULL);
	c->nth = 0;
}

void
ae_rcache_free(struct ae_rcache *c)
{
	size_t i;

	if (c == NULL)
		return;
	ae_rcache_stop(c);
	pthread_mutex_destroy(&c->lock);
	pthread_cond_destroy(&c->filled);
	pthread_cond_destroy(&c->work);
	/* only what was written: wiping the rest would fault in (and
	 * zero) every page of a cache that was mostly never used */
	for (i = 0; i < c->n; i++)
		if (c->e[i].hw > 0)
			ae_wipe(c->e[i].p, c->e[i].hw);
	free(c->mem);
	free(c->e);
	free(c->bucket);
	free(c->q);
	free(c->th);
	free(c);
}

int
ae_rcache_get(struct ae_rcache *c, uint64_t i, const uint8_t **p,
    size_t *len)
{
	struct ent *e;
	int hit = 0;

	pthread_mutex_lock(&c->lock);
	while ((e = find(c, i)) != NULL && e->state == FILLING)
		pthread_cond_wait(&c->filled, &c->lock);
	if (e != NULL) {
		e->pins++;
		*p = e->p;
		*len = e->len;
		to_front(c, e);
		c->hits++;
		hit = 1;
	} else {
		/* the caller's to open: others wait for it */
		if ((e = take_oldest(c, i)) != NULL) {
			e->state = FILLING;
			e->ahead = 0;
		}
		c->misses++;
	}
	pthread_mutex_unlock(&c->lock);
	return hit;
}

void
ae_rcache_unpin(struct ae_rcache *c, uint64_t i)
{
	struct ent *e;

	pthread_mutex_lock(&c->lock);
	if ((e = find(c, i)) != NULL && e->pins > 0)
		e->pins--;
	pthread_mutex_unlock(&c->lock);
}

void
ae_rcache_drop(struct ae_rcache *c, uint64_t i)
{
	struct ent *e;

	pthread_mutex_lock(&c->lock);
	if ((e = find(c, i)) != NULL && e->state == FILLING && !e->ahead) {
		unhash(c, e);
		e->state = EMPTY;
		to_back(c, e);
		pthread_cond_broadcast(&c->filled);
	}
	pthread_mutex_unlock(&c->lock);
}

void
ae_rcache_put(struct ae_rcache *c, uint64_t i, const uint8_t *p, size_t len)
{
	struct ent *e;

	if (len > c->chunk)
		return;
	pthread_mutex_lock(&c->lock);
	if ((e = find(c, i)) != NULL) {
		/* the caller's claim (a read-ahead thread fills its own) */
		if (e->state == FILLING && !e->ahead) {
			fill_ent(e, p, len);
			pthread_cond_broadcast(&c->filled);
		}
		to_front(c, e);
	} else if ((e = take_oldest(c, i)) != NULL) {
		/* (an entry taken from the hash was HELD: its tail is
		 * wiped by fill_ent; an EMPTY one holds nothing) */
		fill_ent(e, p, len);
	}
	pthread_mutex_unlock(&c->lock);
}

void
ae_rcache_read(struct ae_rcache *c, uint64_t key, uint64_t first,
    uint64_t last, uint64_t records)
{
	struct stream *s;
	uint64_t k, end;
	size_t j;
	int seq, queued = 0;

	if (c->window == 0)
		return;
	pthread_mutex_lock(&c->lock);
	if (c->nth < c->want_th && !c->stop) {
		while (c->nth < c->want_th && pthread_create(&c->th[c->nth],
		    NULL, ahead_main, c) == 0)
			c->nth++;
		if (c->nth == 0)
			c->window = 0;  /* no thread to read ahead */
		c->want_th = c->nth;
	}
	s = &c->st[key % STREAMS];
	seq = s->used && s->key == key && (first == s->next
	    || first + 1 == s->next);
	s->used = 1;
	s->key = key;
	s->next = last + 1;
	end = last + c->window < records ? last + c->window : records - 1;
	for (k = last + 1; seq && k <= end && c->qn < c->qcap; k++) {
		if (find(c, k) != NULL)
			continue;
		for (j = 0; j < c->qn; j++)
			if (c->q[(c->qhead + j) % c->qcap] == k)
				break;
		if (j < c->qn)
			continue;
		c->q[(c->qhead + c->qn) % c->qcap] = k;
		c->qn++;
		queued = 1;
	}
	if (queued)
		pthread_cond_broadcast(&c->work);
	pthread_mutex_unlock(&c->lock);
}

void
ae_rcache_figures(struct ae_rcache *c, uint64_t *hits, uint64_t *misses,
    uint64_t *ahead)
{
	pthread_mutex_lock(&c->lock);
	*hits = c->hits;
	*misses = c->misses;
	*ahead = c->ahead;
	pthread_mutex_unlock(&c->lock);
}
