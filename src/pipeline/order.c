/*
 * order.c -- --salvage's record order at the writer (contract in
 * pipe.h): records kept in their numbers' order, what was passed over
 * held until the next record says whether records were lost there, and
 * each loss told through damaged() (pipeline.h).
 */
#include "config.h"
#include "pipe.h"
#include "pipeline.h"

#include <string.h>

void
ae_pipe_order_init(struct order *o, uint64_t first)
{
	memset(o, 0, sizeof *o);
	o->next = first;
}

static void
passed_add(struct passed *pa, const struct job *j)
{
	if (!pa->have) {
		pa->d = j->diag;
		pa->off = j->offset;
		pa->bytes = 0;
		pa->search = 0;
	}
	/* (a search's bytes carry their count; ae_pipe_search) */
	if (j->diag.have != 0 && !pa->search)
		pa->search_off = j->offset;
	pa->search |= j->diag.have != 0;
	pa->have = 1;
	pa->bytes += j->in_len;
	pa->final = j->final;
}

/* What was passed over, told as bytes skipped (no record lost there). */
static int
passed_tell(struct pipe *pp, struct passed *pa)
{
	struct ae_diag d;

	if (!pa->have)
		return AE_OK;
	d = pa->d;
	d.offset = pa->off;
	d.have = pa->bytes;
	pa->have = 0;
	return pp->p->damaged(pp->p->damaged_ctx, AE_PIPE_NO_RECORD, 0, &d);
}

/* The records from *next to num (not included; num is the record at
 * file offset at) were lost: each told, the first with why (what was
 * passed over there), the others as missing; or, where none was, what
 * was passed over as bytes. */
static int
lost_before(struct pipe *pp, struct passed *pa, uint64_t *next, uint64_t num,
    uint64_t at)
{
	struct ae_diag d;
	int r, passed = pa->have, search = pa->have && pa->search, first = 1;
	int framed = 0;

	if (*next >= num)
		return passed_tell(pp, pa);
	for (; *next < num; ++*next, first = 0) {
		if (passed && first && !(search && pa->d.have != 0)) {
			d = pa->d;      /* (a worker's: failed authentication) */
		} else if (search) {
			d = pa->d;
			d.what = !framed ? "has a damaged frame" : "was lost "
			    "with it: it lay in the bytes passed over from the "
			    "damaged frame here to the next record";
			d.offset = pa->search_off;
			framed = 1;
		} else {
			memset(&d, 0, sizeof d);
			d.where = AE_AT_CHUNK;
			d.what = "is missing: the record here is a later one "
			    "(one removed, or moved)";
			d.offset = at;
		}
		if (passed && first && !search)
			d.offset = pa->off;
		pa->have = 0;
		d.index = *next;
		if ((r = pp->p->damaged(pp->p->damaged_ctx, *next, 0, &d))
		    != AE_OK)
			return r;
	}
	return AE_OK;
}


/* A record read before (a duplicate, or moved back): passed over, told. */
static int
read_before(struct pipe *pp, struct order *o, const struct job *j)
{
	struct ae_diag dd;
	int r;

	memset(&dd, 0, sizeof dd);
	dd.where = AE_AT_CHUNK;
	dd.what = "a record read before: duplicated, or moved";
	dd.index = j->num;
	dd.offset = j->offset;
	dd.have = j->in_len;
	if ((r = passed_tell(pp, &o->pa)) != AE_OK)
		return r;
	return pp->p->damaged(pp->p->damaged_ctx, AE_PIPE_NO_RECORD, 0, &dd);
}

int
ae_pipe_order(struct pipe *pp, struct order *o, struct job *j)
{
	struct passed *pa = &o->pa;
	int r;

	if (j->status != AE_OK && j->salvageable && !j->numbered) {
		/* bytes, not a record: the next record says what they
		 * cost */
		passed_add(pa, j);
		return ORDER_PASSED;
	}
	if (j->status != AE_OK && j->salvageable) {
		/* a record lost whose number is known */
		if (j->num < o->next)
			return (r = passed_tell(pp, pa)) != AE_OK ? r :
			    ORDER_PASSED;
		if ((r = lost_before(pp, pa, &o->next, j->num, j->offset))
		    != AE_OK || (r = pp->p->damaged(pp->p->damaged_ctx,
		    j->num, j->final, &j->diag)) != AE_OK)
			return r;
		o->next = j->num + 1;
		return ORDER_LOST;
	}
	if (j->status != AE_OK) {
		/* the run ends: what was passed over stood for the record
		 * that would have come next */
		if (!pa->have)
			return ORDER_WRITE;
		pa->have = 0;
		return (r = pp->p->damaged(pp->p->damaged_ctx, o->next, 0,
		    &pa->d)) != AE_OK ? r : ORDER_WRITE;
	}
	if (j->kind == JOB_END) {
		/* a final frame that failed, and nothing after it
		 * authenticated: the final chunk is lost */
		r = !pa->have ? AE_OK : pa->final ? pp->p->damaged(
		    pp->p->damaged_ctx, o->next, 1, &pa->d) :
		    passed_tell(pp, pa);
		return r != AE_OK ? r : ORDER_WRITE;
	}
	if (j->num < o->next)
		return (r = read_before(pp, o, j)) != AE_OK ? r : ORDER_PASSED;
	if ((r = lost_before(pp, pa, &o->next, j->num, j->offset)) != AE_OK)
		return r;
	o->next = j->num + 1;
	return ORDER_WRITE;
}
