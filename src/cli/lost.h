/*
 * lost.h -- what -t and -x --salvage say of the members: which were
 * read whole, which were lost and are named, which were never reached,
 * and which came from a search for headers after a lost chunk.
 *
 * With an index (a regular file), every member is known by name before
 * the payload is read: the tar reader steps over a lost chunk to the
 * next member the index names (tar_read.h, resync), and at the end
 * every selected member that was not read whole is named, with why.
 * Without one (a pipe, --no-index, an archive without an index), a lost
 * chunk's members cannot all be named, and the members found after it
 * by searching for a header block are uncertain: such a block may lie
 * inside another member's data (a stored .tar), so a member found so is
 * said to be (and the disk writer never lets it replace what exists,
 * writer.h: a member made earlier in the run included).  The summary says which of these it was, and
 * "everything else was read whole" only when that is so.
 */
#ifndef AE_CLI_LOST_H
#define AE_CLI_LOST_H

#include <stddef.h>
#include <stdint.h>

#include "archive/tar_read.h"
#include "members.h"
#include "salvage.h"

#define LOST_FIRST 5     /* members found by searching named without -v */

struct ixview;

struct lost {
	struct salvage *sv;         /* the lost chunks */
	const struct ixview *ix;    /* the index, or NULL */
	int listing;                /* -t, not -x */
	unsigned char *state;       /* per index entry: 0 unseen, or its
	                             * enum lost_outcome */
	size_t whole, named, skipped;   /* counts by outcome */
	size_t found;               /* of the whole, found by a search */
	int rescanned;              /* some member came from a search */
	int verbose;                /* -v: each member found by a search is
	                             * named as it is met; else a count and
	                             * the first few, in the summary */
	size_t searched;            /* members found by a search */
	char *first[LOST_FIRST];    /* ... the first of them, by name */
};

/* What became of a member. */
enum lost_outcome {
	LOST_WHOLE = 1,             /* read whole (and made, with -x) */
	LOST_NAMED,                 /* it touched a lost chunk, or the
	                             * stream ended in it: named as lost */
	LOST_SKIPPED,               /* whole, but not made for another
	                             * reason, which was said */
	LOST_LEFT                   /* left out as if not selected
	                             * (--strip-components): not counted */
};

/* Start, for a run over sv's losses, with the index ix (or NULL);
 * listing: for -t, else -x.  0 or -1 out of memory. */
int lost_init(struct lost *l, struct salvage *sv, const struct ixview *ix,
    int listing);
void lost_free(struct lost *l);

/* The tar reader's resync (tar_read.h) for l's index: tr.resync_ctx is
 * the index. */
int lost_resync(void *ix, uint64_t off, uint64_t *to);

/*
 * Before member m is read: whether to pass it over, having said why and
 * counted it (a member right after a lost chunk, whose extended header
 * may have been in it), and what to say of one found by a search.  1 to
 * pass over, 0 to read it.
 */
int lost_pass_over(struct lost *l, const struct ae_tar_member *m);

/* What became of member m (once each member; lost_name does it for
 * LOST_NAMED). */
void lost_done(struct lost *l, const struct ae_tar_member *m,
    enum lost_outcome how);

/* Member m touched a lost chunk: name it (with where), and count it. */
void lost_name(struct lost *l, const struct ae_tar_member *m);

/*
 * The summary, once the payload is read or the run stopped: the lost
 * ranges; where it stopped (stopped_at, the tar stream bytes read, or
 * UINT64_MAX if the payload was read to its end); with an index, every
 * selected member (sel, as -t and -x select them) not otherwise
 * accounted for, by name (lost, or never reached); then one line of
 * counts, which says "everything else was read whole" only when that is
 * known.  end_lost: the stream ended in a lost chunk.
 */
void lost_summary(struct lost *l, struct members *sel, int end_lost,
    uint64_t stopped_at);

#endif
