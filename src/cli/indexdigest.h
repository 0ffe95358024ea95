/*
 * indexdigest.h -- an archive's index held small, for a full read that
 * checks each member against it in order before writing it (-x).
 *
 * Each entry keeps where its member starts and a SHA-256 of its 6.8
 * fields (indexcheck.h's digest), 40 bytes, and its path front-coded
 * (only for the messages that name an entry): the index of a tree
 * 10,000 levels deep, 100 MB of names, takes under a megabyte so, and
 * that of 200,000 small files about 10 MB instead of 35.
 */
#ifndef AE_CLI_INDEXDIGEST_H
#define AE_CLI_INDEXDIGEST_H

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

void ixdigest_init(struct ixdigest *x);
void ixdigest_free(struct ixdigest *x);

/* Add entry e (the next, in order).  0, or -1 out of memory. */
int ixdigest_add(struct ixdigest *x, const struct ae_index_member *e);

/* Every entry of a parsed index, and its head's counts.  0 or -1. */
int ixdigest_from_index(struct ixdigest *x, const struct ae_index *ix);

/* Whether member m is entry k, field for field, and ends (by its size)
 * where entry k + 1 starts, or at the tar end after the last.  1 or 0. */
int ixdigest_same(const struct ixdigest *x, size_t k,
    const struct ae_tar_member *m);

/* Entry k's path, valid until the next call; NULL out of memory. */
const char *ixdigest_path(struct ixdigest *x, size_t k);

#endif
