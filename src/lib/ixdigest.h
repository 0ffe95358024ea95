/*
 * ixdigest.h -- an archive's index held small, for a full read that
 * checks each member against it in order before writing it (-x).
 *
 * Each entry keeps where its member starts and a SHA-256 of its 6.8
 * fields (ixcheck.h's digest), 40 bytes, and its path front-coded
 * (only for the messages that name an entry): the index of a tree
 * 10,000 levels deep, 100 MB of names, takes under a megabyte so, and
 * that of 200,000 small files about 10 MB instead of 35.
 */
#ifndef AE_LIB_IXDIGEST_H
#define AE_LIB_IXDIGEST_H

#include <stddef.h>
#include <stdint.h>

#include "archive/tar_read.h"
#include "container/index.h"
#include "crypto/sha256.h"

struct ixdigest {
	uint64_t members, tar_end;  /* what the index's head says */
	size_t n, cap;              /* entries added */
	uint64_t *first;            /* per entry: where its member starts */
	uint8_t (*digest)[AE_SHA256_LEN];
	uint8_t *paths;             /* per entry: the bytes it shares with
	                             * the path before it, as a varint, then
	                             * its rest, length first */
	size_t plen, pcap;
	size_t *restart;            /* every 32nd entry's place in paths
	                             * (it shares nothing) */
	char *last, *name;          /* the path before; a path rebuilt */
	size_t lastlen;
};

void ae_ixdigest_init(struct ixdigest *x);
void ae_ixdigest_free(struct ixdigest *x);

/* Add entry e (the next, in order).  0, or -1 out of memory. */
int ae_ixdigest_add(struct ixdigest *x, const struct ae_index_member *e);

/* Every entry of a parsed index, and its head's counts.  0 or -1. */
int ae_ixdigest_from_index(struct ixdigest *x, const struct ae_index *ix);

/* Whether member m is entry k, field for field, and ends (by its size)
 * where entry k + 1 starts, or at the tar end after the last.  1 or 0. */
int ae_ixdigest_same(const struct ixdigest *x, size_t k,
    const struct ae_tar_member *m);

/* Entry k's path, valid until the next call; NULL out of memory. */
const char *ae_ixdigest_path(struct ixdigest *x, size_t k);

/*
 * The index's plaintext as it is decoded, an entry at a time, into an
 * ixdigest (its rules checked as ae_index_parse checks them): what has
 * not yet made a whole entry waits in carry.  _init: for x, a file
 * whose header is header_len bytes with chunks of 2^chunk_log2; then
 * index_offset and records (the footer's) before the first write; 0 or
 * AE_ENOMEM.  _write: an ae_writer's write (ctx the feed; a failure is
 * kept for _end, never returned).  _end: err is the decode's; the first
 * failure (x freed) or 0, with d.
 */
struct feed {
	struct ixdigest *x;
	struct ae_index_cursor cur;
	uint64_t header_len, index_offset, records;
	uint64_t sig_every;         /* a signed file's interval (6.10), or 0 */
	size_t chunk;
	int head;                   /* the head was read */
	uint8_t *carry;
	size_t len, cap;
	char *names;                /* one entry's names */
	int err;                    /* the first failure, with d */
	struct ae_diag d;
};
int ae_ixdigest_feed_init(struct feed *f, struct ixdigest *x,
    uint64_t header_len, unsigned chunk_log2, uint64_t sig_every);
int ae_ixdigest_feed_write(void *ctx, const uint8_t *b, size_t n);
int ae_ixdigest_feed_end(struct feed *f, int err, struct ae_diag *d);

#endif
