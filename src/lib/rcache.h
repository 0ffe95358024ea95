/*
 * rcache.h -- a bounded cache of records' plaintext, shared by the
 * threads of one reader's random access (access.c), with read-ahead:
 * records asked for in the background by a few threads of its own.
 *
 * A record is put in only once it was opened and authenticated whole,
 * so what the cache gives back is what the record opened to.  An entry
 * is lent to a reader, and never reused while lent, so an eviction can
 * never pull bytes from under a reader.  Least recently used goes
 * first.  Every entry is wiped when it is reused and when the cache is
 * freed: it holds plaintext.
 */
#ifndef AE_LIB_RCACHE_H
#define AE_LIB_RCACHE_H

#include <stddef.h>
#include <stdint.h>

struct ae_rcache;

/* Open record i into out (chunk bytes of room; *len its length): the
 * read-ahead's work, straight into the place the cache holds for it.
 * Called on a read-ahead thread; 0, or non-zero for a failure, which is
 * dropped (the read that needs the record opens it itself, and meets
 * the failure there). */
typedef int (*ae_rcache_fill_fn)(void *ctx, uint64_t i, uint8_t *out,
    size_t *len);

/* A cache of at most bytes (whole chunks of chunk bytes: at least two)
 * with `ahead` read-ahead threads (0: none) that call fill, started at
 * the first read-ahead (so that the process may fork between: a fork
 * takes no thread along).  NULL out of memory. */
struct ae_rcache *ae_rcache_new(uint64_t bytes, size_t chunk,
    unsigned ahead, ae_rcache_fill_fn fill, void *ctx);

/* Stop the read-ahead threads, waiting for what they run (again: a
 * no-op).  NULL is ignored. */
void ae_rcache_stop(struct ae_rcache *c);

/* Stop, then wipe and free.  NULL is ignored. */
void ae_rcache_free(struct ae_rcache *c);

/* Record i's plaintext lent (*p, *len; kept in the cache until
 * ae_rcache_unpin gives it back): 1; or 0 if it is not held, and then the caller opens it and
 * gives it with ae_rcache_put, or says it failed with ae_rcache_drop:
 * other threads that ask for it meanwhile wait, so a record is opened
 * once however many ask for it at once. */
int ae_rcache_get(struct ae_rcache *c, uint64_t i, const uint8_t **p,
    size_t *len);
void ae_rcache_unpin(struct ae_rcache *c, uint64_t i);

/* Record i's plaintext (p, len at most chunk), authenticated, into the
 * cache, in the place of the least recently used. */
void ae_rcache_put(struct ae_rcache *c, uint64_t i, const uint8_t *p,
    size_t len);

/* Opening record i (after ae_rcache_get said 0) failed: those waiting
 * for it are let go, each to open it and meet the failure itself. */
void ae_rcache_drop(struct ae_rcache *c, uint64_t i);

/* A read of records [first, last] was made: where it continues one
 * that ended at first - 1 or first (a stream), records last + 1 on
 * (up to the window, and below `records`) are asked for in the
 * background.  key tells streams apart (a member's number). */
void ae_rcache_read(struct ae_rcache *c, uint64_t key, uint64_t first,
    uint64_t last, uint64_t records);

/* Hits, misses and records read ahead so far. */
void ae_rcache_figures(struct ae_rcache *c, uint64_t *hits,
    uint64_t *misses, uint64_t *ahead);

#endif
