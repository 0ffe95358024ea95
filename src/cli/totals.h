/*
 * totals.h -- --totals: what a run did, on standard error once it is
 * over, as GNU tar's --totals says it ("Total bytes written: N (...)"),
 * and for -c -g what went into this level: files new since the last
 * one, files changed, directories, and files left out as unchanged.
 *
 * New and changed are told apart by the last level's snapshot: a file
 * is new if its directory's dumpdir there does not name it (or the
 * directory itself is new).
 */
#ifndef AE_CLI_TOTALS_H
#define AE_CLI_TOTALS_H

#include <stddef.h>
#include <stdint.h>

#include "archive/snapshot.h"

struct totals {
	uint64_t files_new, files_changed, dirs, others, unchanged;
	char **set;                 /* "dir/name" of the last level's files */
	size_t cap;                 /* slots, a power of two; 0: no set */
};

/* Ready to count; with prev (not NULL), the names it lists are looked up
 * to tell new files from changed ones.  0, or -1 out of memory. */
int totals_init(struct totals *t, const struct ae_snapshot *prev);
void totals_free(struct totals *t);

/* A member written, by its path as walked (as snapshots name it) and
 * its tar type; a file left out as unchanged. */
void totals_member(struct totals *t, const char *walked, int type);
void totals_unchanged(struct totals *t);

/* "Total bytes written: N (1.0 MiB, 5.2 MiB/s)" (read: written 0) for n
 * bytes in wall_ns. */
void totals_bytes(int written, uint64_t n, uint64_t wall_ns);

/* -c -g: the second line, for this level. */
void totals_level(const struct totals *t, int level);

#endif
