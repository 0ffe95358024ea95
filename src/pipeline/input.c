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


static int pend_prepend(struct pipe *pp, const uint8_t *b, size_t n);

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

/* Whether the run is over (an interrupt, a failure elsewhere). */
static int
stopping(struct pipe *pp)
{
	int stop;

	if (pp->p->interrupt != NULL && atomic_load(pp->p->interrupt))
		return 1;
	pthread_mutex_lock(&pp->lock);
	stop = pp->stop;
	pthread_mutex_unlock(&pp->lock);
	return stop;
}

static int take_any(struct pipe *pp, const struct window *w, size_t q,
    size_t ctlen, uint64_t *found);

/*
 * Step *q through w, reading on as needed, to the next place where a
 * record of this file starts (take_any): a frame an encoder could have
 * written, then as many bytes as it says, that authenticate.  1
 * (*found, *fin, *reclen set), 0 at the end of the input, a read error,
 * or AE_EINTR if the run is stopping.
 */
static int
scan(struct pipe *pp, struct window *w, size_t *q, uint64_t *found, int *fin,
    size_t *reclen)
{
	unsigned steps = 0;
	size_t ctlen;
	int r, comp;

	for (;; ++*q) {
		/* a search of bytes already read makes no read that would
		 * see an interrupt or the run's end: it looks itself */
		if (++steps % 4096 == 0 && stopping(pp))
			return AE_EINTR;
		if ((r = window_fill(pp, w, q, AE_FRAME_LEN)) <= 0)
			return r;
		if (ae_chunk_frame(w->b + *q, pp->cs, fin, &comp, &ctlen, NULL)
		    != AE_OK || !ae_chunk_frame_plausible(*fin, comp, ctlen,
		    pp->cs))
			continue;
		*reclen = AE_FRAME_LEN + ctlen + AE_TAG_LEN;
		if ((r = window_fill(pp, w, q, *reclen)) < 0)
			return r;
		if (r == 0)
			continue;   /* too short for its length: not a record */
		if (take_any(pp, w, *q, ctlen, found))
			return 1;
	}
}

/* n bytes read and not used, to be read next: before what an earlier
 * search left unread, if any.  0, or -1 (no memory). */
static int
pend_prepend(struct pipe *pp, const uint8_t *b, size_t n)
{
	size_t need = n + pp->pend_len;

	if (n == 0)
		return 0;
	if (need > pp->pend_cap) {
		uint8_t *t = realloc(pp->pend, need);

		if (t == NULL)
			return -1;
		pp->pend = t;
		pp->pend_cap = need;
	}
	memmove(pp->pend + n, pp->pend + pp->pend_pos, pp->pend_len);
	memcpy(pp->pend, b, n);
	pp->pend_pos = 0;
	pp->pend_len = need;
	return 0;
}

uint64_t
ae_pipe_number_bound(const struct pipe *pp, uint64_t off)
{
	uint64_t start = pp->p->offset;

	return pp->p->first_seq + (off > start ? off - start : 0) / MIN_RECORD;
}

int
ae_pipe_record_number(struct pipe *pp, const uint8_t *rec, size_t ctlen,
    uint64_t off, uint64_t *num)
{
	return ae_chunk_number(pp->p->key, pp->p->dkey, rec, rec + AE_FRAME_LEN,
	    ctlen, 0, ae_pipe_number_bound(pp, off), num) == AE_OK;
}

/* Post bytes [from, to) as passed over: a failure with no number, which
 * the writer turns into the records lost there, or into bytes skipped
 * (final: the input ended with them, no final record after).  0, or -1
 * if the run is stopping. */
static int
post_skip(struct pipe *pp, uint64_t *slot, uint64_t from, uint64_t to,
    int final, const char *what)
{
	struct job *j;

	if (to <= from)
		return 0;
	if ((j = ae_pipe_get_free(pp)) == NULL)
		return -1;
	j->seq = (*slot)++;
	j->num = j->seq;
	j->numbered = 0;
	j->offset = from;
	j->in_len = (size_t)(to - from);
	j->final = final;
	ae_fail(&j->diag, AE_EFORMAT, AE_AT_CHUNK, what, j->seq, from);
	j->diag.have = to - from;
	j->status = AE_EFORMAT;
	j->salvageable = 1;
	ae_pipe_post_done(pp, j);
	return 0;
}

/* The search's test: whether the record at w->b + q (frame, ctlen
 * bytes, tag) authenticates under any number it could have there, by
 * the running sums where they could be set up: 1 with *found, or 0. */
static int
take_any(struct pipe *pp, const struct window *w, size_t q, size_t ctlen,
    uint64_t *found)
{
	uint64_t at = w->base + q;

	if (pp->rs_state != RS_READY)
		return ae_pipe_record_number(pp, w->b + q, ctlen, at, found);
	return ae_recscan_number(&pp->rs, w->b, w->base, at, ctlen, 0,
	    ae_pipe_number_bound(pp, at), found) == AE_OK;
}

int
ae_pipe_search(struct pipe *pp, const uint8_t *head, size_t head_len,
    uint64_t head_off, uint64_t skip_from, uint64_t *slot, uint64_t *off,
    int *final)
{
	struct window w = { NULL, 0, 0, head_off };
	size_t q = 0, reclen = 0, rest;
	uint64_t found = 0, at;
	int r, fin = 0, hit;
	struct job *j;

	w.cap = head_len + 2 * (AE_FRAME_LEN + pp->cs + AE_TAG_LEN);
	if ((w.b = malloc(w.cap)) == NULL)
		goto oom;
	memcpy(w.b, head, head_len);
	w.len = head_len;
	/* (without the memory for the sums, each candidate costs a pass
	 * over its length, as it once did: slower, still right) */
	if (pp->rs_state == RS_NONE)
		pp->rs_state = ae_recscan_init(&pp->rs, pp->p->key, pp->p->dkey,
		    pp->cs) == AE_OK ? RS_READY : RS_FAILED;
	if (pp->rs_state == RS_READY)
		ae_recscan_reset(&pp->rs);
	r = scan(pp, &w, &q, &found, &fin, &reclen);
	hit = r == 1;
	if (!hit) {
		/* the input ended (or failed) before another record: what
		 * was passed over was the rest; a run whose last record was
		 * a final frame that failed ends as one whose final chunk
		 * failed */
		int was_final = skip_from < head_off && (head_off - skip_from)
		    == AE_FRAME_LEN && r == 0;

		at = w.base + w.len;
		free(w.b);
		if (post_skip(pp, slot, skip_from, at > skip_from ? at :
		    skip_from + 1, was_final, was_final ? "failed "
		    "authentication, and no record after it does" : "has a "
		    "damaged frame, and no record after it authenticates") != 0
		    || (j = ae_pipe_get_free(pp)) == NULL)
			return 0;
		j->seq = (*slot)++;
		if (r < 0)
			ae_pipe_post_error(pp, j, r, AE_AT_INPUT,
			    ae_pipe_read_what(r), at);
		else if (was_final) {
			j->kind = JOB_END;
			ae_pipe_post_done(pp, j);
		} else
			ae_pipe_post_error(pp, j, AE_ETRUNC, AE_AT_CHUNK, "is "
			    "missing: the input ends with no final chunk after "
			    "the damaged frame", at);
		return 0;
	}
	at = w.base + q;
	if (post_skip(pp, slot, skip_from, at, 0, "a damaged frame, or bytes "
	    "that are no record of this file") != 0
	    || (j = ae_pipe_get_free(pp)) == NULL) {
		free(w.b);
		return 0;
	}
	/* the record found, as the main loop would have queued it */
	j->seq = (*slot)++;
	j->num = found;
	j->offset = at;
	memcpy(j->in + FRAME_AT, w.b + q, reclen);
	high_water(&j->in_hw, FRAME_AT + reclen);
	memcpy(pp->prev, w.b + q, reclen);
	pp->prev_len = reclen;
	pp->prev_off = at;
	j->final = fin;
	j->in_len = reclen;
	ae_pipe_push_work(pp, j);
	/* what the window holds after it is read next */
	rest = w.len - q - reclen;
	if (pend_prepend(pp, w.b + q + reclen, rest) != 0) {
		free(w.b);
		goto oom;
	}
	*off = at + reclen;
	*final = fin;
	free(w.b);
	return 1;
oom:
	if ((j = ae_pipe_get_free(pp)) != NULL) {
		j->seq = (*slot)++;
		ae_pipe_post_error(pp, j, AE_ENOMEM, AE_AT_NONE, NULL, *off);
	}
	return 0;
}

int
ae_pipe_search_bad_frame(struct pipe *pp, struct job *j, uint64_t *slot,
    uint64_t *off, int *final)
{
	size_t body = pp->prev_len > AE_FRAME_LEN ? pp->prev_len - AE_FRAME_LEN
	    : 0;
	uint64_t from = body > 0 ? pp->prev_off + AE_FRAME_LEN : *off;

	/* the last record's body, then the bad frame, as the search's head:
	 * that record may have failed, its length with it (format 6.5) */
	memmove(pp->prev, pp->prev + pp->prev_len - body, body);
	memcpy(pp->prev + body, j->in + FRAME_AT, AE_FRAME_LEN);
	ae_pipe_put_free(pp, j);
	return ae_pipe_search(pp, pp->prev, body + AE_FRAME_LEN, from, *off,
	    slot, off, final);
}

int
ae_pipe_keep_record(struct pipe *pp, struct job *j, uint64_t *slot,
    uint64_t *off, int *final)
{
	const uint8_t *rec = j->in + FRAME_AT;
	size_t ctlen = j->in_len - AE_FRAME_LEN - AE_TAG_LEN;
	uint64_t n;

	if (*final) {
		/* The run ends at a final record: one that does not
		 * authenticate (a flag flipped, bytes that only look like a
		 * frame) is searched past instead. */
		if (!ae_pipe_record_number(pp, rec, ctlen, *off, &n)) {
			memcpy(pp->prev, rec + AE_FRAME_LEN, ctlen + AE_TAG_LEN);
			pp->prev_len = 0;
			ae_pipe_put_free(pp, j);
			*final = 0;
			return ae_pipe_search(pp, pp->prev, ctlen + AE_TAG_LEN,
			    *off + AE_FRAME_LEN, *off, slot, off, final) ? 2 : 0;
		}
		j->num = n;
	}
	/* (before a worker decrypts it) */
	memcpy(pp->prev, rec, j->in_len);
	pp->prev_len = j->in_len;
	pp->prev_off = *off;
	return 1;
}
