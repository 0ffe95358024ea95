/*
 * salvage.h -- --salvage on -d and -x: what a damaged container still
 * holds.
 *
 * The library's reader, told to salvage (aescrypt_reader_set_salvage),
 * reports each chunk that fails to open instead of stopping, and puts
 * zeros in its place so that everything after a lost chunk stays at its
 * offset: a stream keeps its layout, and the tar reader keeps its block
 * grid and can step over a gap (tar.h, the gap callback).  This keeps
 * the list of what was lost, as ranges of the plaintext (each chunk but
 * the last holds exactly one chunk size of it, so the ranges are
 * exact).  Nothing unauthenticated is ever passed on: a lost chunk's
 * bytes are not used at all.
 */
#ifndef AE_CLI_SALVAGE_H
#define AE_CLI_SALVAGE_H

#include <pthread.h>
#include <stdint.h>

#include "common/error.h"

struct salvage_range {
	uint64_t seq;               /* the chunk */
	uint64_t start, end;        /* plaintext bytes; end UINT64_MAX: the
	                             * rest (the final chunk was lost) */
};

struct salvage {
	const char *name;           /* the input, for messages */
	uint64_t chunk;             /* the chunk size */
	int ready;                  /* salvage_init ran (salvage_free may be
	                             * called on a zeroed one) */
	pthread_mutex_t lock;       /* the decoder adds, the tar reader asks */
	struct salvage_range *lost;
	size_t nlost, cap;
	/* bytes passed over where no chunk was lost (junk between
	 * records, a record read twice): told, and damage all the same */
	size_t nskipped;
	uint64_t skipped_bytes;
};

void salvage_init(struct salvage *s, const char *name, unsigned chunk_log2);
void salvage_free(struct salvage *s);

/* The reader's salvage callback (aescrypt_reader_set_salvage; ctx is
 * the struct salvage): says which chunk was lost and why, and records
 * it.  Returns 0, or AE_ENOMEM if the loss cannot be recorded (a lost
 * chunk that went unlisted could let a damaged result pass as whole, so
 * the run ends). */
int salvage_lost(void *ctx, uint64_t seq, int final, const struct ae_diag *d);

/* Whether plaintext offset off lies in a lost range: 1 with *end its
 * end, or 0.  The tar reader's gap callback (ctx is the salvage). */
int salvage_gap(void *ctx, uint64_t off, uint64_t *end);

/* Whether [start, end) touches a lost range: 1 with *seq the first such
 * chunk, or 0. */
int salvage_overlaps(struct salvage *s, uint64_t start, uint64_t end,
    uint64_t *seq);

/* How many chunks were lost. */
size_t salvage_count(struct salvage *s);

/* Whether anything was lost or passed over: a run that did either is
 * not the file's whole payload (exit 4, the .damaged name). */
int salvage_damaged(struct salvage *s);

/* The summary: each lost range of the plaintext, as byte offsets. */
void salvage_report(struct salvage *s, const char *what);

#endif
