/*
 * input.c -- what the pipeline's reader reads: timed reads, the bytes a
 * search read ahead, and --salvage's search for the next record after a
 * damaged frame, when no index says where it is (contracts in pipe.h).
 */
#include "config.h"
#include "pipe.h"
#include "pipeline.h"

#include <stdlib.h>
#include <string.h>

#include "common/wipe.h"

/* Read n bytes (fewer only at EOF) and account for them. */
int
ae_pipe_timed_read(struct pipe *pp, uint8_t *buf, size_t n, size_t *got)
{
	uint64_t t0 = pp->p->timed ? ae_thread_ns() : 0, w0 = wall(pp);
	int r = pp->in->read(pp->in->ctx, buf, n, got);

	if (pp->p->timed) {
		pp->read_ns += ae_thread_ns() - t0;
		pp->read_wall_ns += ae_wall_ns() - w0;
	}
	pp->read_bytes += *got;
	return r;
}

/* The reader's input: what a search read ahead first, then the input. */
int
ae_pipe_src_read(struct pipe *pp, uint8_t *buf, size_t n, size_t *got)
{
	size_t k = pp->pend_len < n ? pp->pend_len : n, more = 0;
	int r = AE_OK;

	if (k > 0) {
		/* (pend is NULL until a search read ahead) */
		memcpy(buf, pp->pend + pp->pend_pos, k);
		pp->pend_pos += k;
		pp->pend_len -= k;
	}
	if (k < n)
		r = ae_pipe_timed_read(pp, buf + k, n - k, &more);
	*got = k + more;
	return r;
}

const char *
ae_pipe_read_what(int err)
{
	return err == AE_EINTR ? "interrupted" : "reading input";
}


/* The least a record takes: a frame, one byte, a tag. */
#define MIN_RECORD (AE_FRAME_LEN + 1 + AE_TAG_LEN)

/* The search window: len bytes read from file offset base. */
struct window {
	uint8_t *b;
	size_t len, cap;
	uint64_t base;
};

/* What the search reads at a time when it needs more: a byte at a
 * time, as it once read, was a read(2) a byte of damage from a pipe
 * (1.3 s a MiB of zeros). */
#define SEARCH_READ (64 * 1024)

/*
 * Have need bytes at *q in w, sliding the window first (so that *q
 * becomes 0) if they would not fit.  What is missing is read in pieces
 * of SEARCH_READ where the window has room; what the search read and
 * did not use is read next as records (pp->pend).  1 if the bytes are
 * there, 0 at the end of the input, or a read error.
 */
static int
window_fill(struct pipe *pp, struct window *w, size_t *q, size_t need)
{
	size_t got, want;
	int r;

	if (*q + need > w->cap) {
		memmove(w->b, w->b + *q, w->len - *q);
		w->len -= *q;
		w->base += *q;
		*q = 0;
	}
	while (w->len < *q + need) {
		want = *q + need - w->len;
		if (want < SEARCH_READ)
			want = w->cap - w->len < SEARCH_READ ? w->cap - w->len :
			    SEARCH_READ;
		if ((r = ae_pipe_src_read(pp, w->b + w->len, want, &got))
		    != AE_OK)
			return r;
		if (got == 0)
			return 0;
		w->len += got;
	}
	return 1;
}

/* Report records seq .. upto-1 lost at offset off (a damaged frame and
 * what it hid), as a worker reports one that fails; the first carries
 * the bytes passed over (bytes), so that the stats, and the offset of
 * what follows, come out right.  0, or -1 if the run is stopping. */
static int
post_lost(struct pipe *pp, uint64_t seq, uint64_t upto, uint64_t off,
    const char *what, uint64_t bytes)
{
	struct job *j;

	for (; seq < upto; seq++) {
		if ((j = ae_pipe_get_free(pp)) == NULL)
			return -1;
		j->seq = seq;
		j->offset = off;
		j->in_len = (size_t)bytes;
		bytes = 0;
		ae_fail(&j->diag, AE_EFORMAT, AE_AT_CHUNK, what, seq, off);
		j->status = AE_EFORMAT;
		j->salvageable = 1;
		ae_pipe_post_done(pp, j);
	}
	return 0;
}

/*
 * --salvage with no index to say where records start (a pipe): the
 * frame at *off (its bytes in bad) cannot be followed.  Every later
 * byte is tried as the start of a record: a frame an encoder could have
 * written, then as many bytes as it says, which must authenticate under
 * a number from *seq on (as many numbers as records could fit in the
 * bytes passed over: ae_chunk_find_seq tries them all for the cost of
 * one pass over the record).  Nothing is taken from a record that does
 * not authenticate, and nothing inside the tar stream is searched.  The
 * records from *seq to the one found are reported lost; that one is
 * queued and reading goes on after it.  1 to go on (*seq, *off, *final
 * updated); 0 if the run ended (reported).
 */
int
ae_pipe_resync(struct pipe *pp, const uint8_t bad[AE_FRAME_LEN], uint64_t *seq,
    uint64_t *off, int *final)
{
	struct window w = { NULL, 0, 0, *off };
	size_t q = 1, ctlen, reclen = 0;
	uint64_t found = 0;
	int r, fin = 0, comp, hit = 0;
	uint8_t *scratch = NULL;
	struct job *j;

	w.cap = 2 * (AE_FRAME_LEN + pp->cs + AE_TAG_LEN);
	if ((w.b = malloc(w.cap)) == NULL)
		goto oom;
	if (pp->p->dkey != NULL
	    && (scratch = ae_secret_alloc(pp->cs + 1)) == NULL)
		goto oom;
	memcpy(w.b, bad, AE_FRAME_LEN);
	w.len = AE_FRAME_LEN;
	for (;; q++) {
		if ((r = window_fill(pp, &w, &q, AE_FRAME_LEN)) <= 0)
			break;
		if (ae_chunk_frame(w.b + q, pp->cs, &fin, &comp, &ctlen, NULL)
		    != AE_OK || !ae_chunk_frame_plausible(fin, comp, ctlen,
		    pp->cs))
			continue;
		reclen = AE_FRAME_LEN + ctlen + AE_TAG_LEN;
		if ((r = window_fill(pp, &w, &q, reclen)) < 0)
			break;
		if (r == 0)
			continue;   /* too short for its length: not a record */
		if (scratch != NULL)
			r = ae_chunk_number(pp->p->key, pp->p->dkey, w.b + q,
			    w.b + q + AE_FRAME_LEN, ctlen, *seq, *seq + (w.base
			    + q - *off) / MIN_RECORD, scratch, &found);
		else
			r = ae_chunk_find_seq(pp->p->key, w.b + q, w.b + q +
			    AE_FRAME_LEN, ctlen, *seq, *seq + (w.base + q - *off)
			    / MIN_RECORD, &found);
		if (r == AE_ENOMEM)
			goto oom;
		if ((hit = r == AE_OK))
			break;
	}
	if (scratch != NULL)
		ae_secret_free(scratch, pp->cs + 1);
	scratch = NULL;
	if (!hit) {
		/* the input ended (or failed) before another record */
		free(w.b);
		if (post_lost(pp, *seq, *seq + 1, *off, "has a damaged frame, "
		    "and no record after it authenticates", w.base + w.len
		    - *off) != 0
		    || (j = ae_pipe_get_free(pp)) == NULL)
			return 0;
		j->seq = *seq + 1;
		if (r < 0)
			ae_pipe_post_error(pp, j, r, AE_AT_INPUT, ae_pipe_read_what(r),
			    w.base + w.len);
		else
			ae_pipe_post_error(pp, j, AE_ETRUNC, AE_AT_CHUNK, "is missing: "
			    "the input ends with no final chunk after the "
			    "damaged frame", w.base + w.len);
		return 0;
	}
	if (post_lost(pp, *seq, found, *off, found == *seq + 1 ? "has a "
	    "damaged frame" : "has a damaged frame, or was lost with one "
	    "before it", w.base + q - *off) != 0
	    || (j = ae_pipe_get_free(pp)) == NULL) {
		free(w.b);
		return 0;
	}
	/* the record found, as the main loop would have queued it */
	j->seq = found;
	j->offset = w.base + q;
	memcpy(j->in + FRAME_AT, w.b + q, reclen);
	high_water(&j->in_hw, FRAME_AT + reclen);
	j->final = fin;
	j->in_len = reclen;
	ae_pipe_push_work(pp, j);
	/* what the window holds after it is read next */
	if (w.len - q - reclen > pp->pend_cap) {
		uint8_t *t = realloc(pp->pend, w.len - q - reclen);

		if (t == NULL) {
			free(w.b);
			goto oom_noreport;
		}
		pp->pend = t;
		pp->pend_cap = w.len - q - reclen;
	}
	if (w.len - q - reclen > 0)
		memcpy(pp->pend, w.b + q + reclen, w.len - q - reclen);
	pp->pend_pos = 0;
	pp->pend_len = w.len - q - reclen;
	*seq = found + 1;
	*off = w.base + q + reclen;
	*final = fin;
	free(w.b);
	return 1;
oom:
	free(w.b);
	if (scratch != NULL)
		ae_secret_free(scratch, pp->cs + 1);
oom_noreport:
	if ((j = ae_pipe_get_free(pp)) != NULL) {
		j->seq = *seq;
		ae_pipe_post_error(pp, j, AE_ENOMEM, AE_AT_NONE, NULL, *off);
	}
	return 0;
}
