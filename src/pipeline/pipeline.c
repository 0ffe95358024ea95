/*
 * pipeline.c -- the parallel chunk pipeline (contract in pipeline.h).
 *
 * Threads.  Three kinds, and only three.  One reader thread turns the
 * input into jobs: when encoding, a job is a chunk of plaintext; when
 * decoding, it is one record (frame, ciphertext, tag), which the reader
 * frames and bounds-checks itself so that a hostile length is refused
 * before anything is read.  N worker threads take jobs and do the
 * expensive part: deflate then seal, or open then inflate.  The calling
 * thread is the writer: it emits finished jobs strictly in sequence
 * order.  -j1 is this same code with one worker.
 *
 * Ordering.  Every job carries `seq`, its chunk index, assigned by the
 * reader alone; the nonce is made from seq and the final flag, so no
 * worker depends on another and none can choose a nonce.  The reader
 * reads one chunk ahead (as pigz does), so it knows which chunk is the
 * last before it hands it out.  Finished jobs land in a ring of slots
 * indexed by seq modulo the number of jobs; the writer waits for the
 * slot of the next seq.  There are never more jobs than slots, and the
 * writer frees them in order, so the live seqs always fit the ring.
 *
 * Back-pressure.  All jobs come from one pool, allocated up front and
 * sized 4N+2 (but within AE_PIPE_BUDGET bytes of buffers): enough that a
 * slow chunk holding up the writer does not soon leave the workers idle.  When the
 * pool is empty the reader waits; it is refilled only as the writer
 * finishes jobs.  So a slow writer slows the reader, and memory does not
 * depend on the size of the input.
 *
 * Errors.  A job can fail (a tag that does not verify, bad DEFLATE data)
 * and so can the reader (a read error, a truncated record, data after
 * the final record: it posts these as a failed job at the seq where the
 * problem is).  Failure is reported in seq order, so the message is the
 * one a one-chunk-at-a-time decoder would give: the lowest failing seq
 * is recorded, the reader stops, workers skip jobs past it, and the
 * writer writes everything before it and then reports it.  A writer
 * error, an interrupt or a lack of memory is a hard stop instead: every
 * thread leaves at its next check, and the cancel flag lets a reader
 * blocked on a stalled pipe give up (ae_fdio polls it).
 *
 * Shutdown.  The writer decides when the run is over (the end marker the
 * reader posts after the final chunk, or the first failure), sets the
 * stop flag, wakes everyone, and joins the threads before it returns;
 * buffers that held plaintext are wiped.  The threads block the
 * asynchronous signals, so a Ctrl-C reaches the calling thread, which
 * polls `interrupt` while it waits.
 */
#include "config.h"
#include "pipeline.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "container/chunk.h"
#include "common/clock.h"
#include "container/format.h"
#include "container/sigchain.h"
#include "common/wipe.h"
#include "pipe.h"

/* age's chunks are 64 KiB: a job takes this many, so that the threads'
 * hand-offs (a wake-up each way per job) are not the cost of a run. */
#define AGE_BATCH 16

struct worker_arg {
	struct pipe *pp;
	struct ae_chunk_coder *coder;
};

/* ---- the reader ---- */

/* Pieces of n bytes (the last shorter), each marked final (and at_end)
 * when the input ends after it: plaintext to seal, or an age file's
 * chunks to open. */
static void
read_plain(struct pipe *pp, size_t n)
{
	struct job *cur, *nxt = NULL, *end;
	uint64_t seq = 0, pos = 0;
	size_t got, ngot = 0;
	int r;

	if ((cur = ae_pipe_get_free(pp)) == NULL)
		return;
	cur->seq = 0;
	r = ae_pipe_timed_read(pp, cur->in, n, &got);
	high_water(&cur->in_hw, got);
	if (r != AE_OK) {
		ae_pipe_post_error(pp, cur, r, AE_AT_INPUT, ae_pipe_read_what(r), 0);
		return;
	}
	for (;;) {
		int final = got < n;

		cur->seq = seq;
		if (!final) {
			if ((nxt = ae_pipe_get_free(pp)) == NULL) {
				ae_pipe_put_free(pp, cur);
				return;
			}
			r = ae_pipe_timed_read(pp, nxt->in, n, &ngot);
			high_water(&nxt->in_hw, ngot);
			if (r != AE_OK) {
				ae_pipe_put_free(pp, nxt);
				ae_pipe_post_error(pp, cur, r, AE_AT_INPUT, ae_pipe_read_what(r),
				    pos + got);
				return;
			}
			final = ngot == 0;
			if (final) {
				ae_pipe_put_free(pp, nxt);
				nxt = NULL;
			}
		}
		if (!final && seq == UINT64_MAX) {
			ae_pipe_put_free(pp, nxt);
			ae_pipe_post_error(pp, cur, AE_ETOOBIG, AE_AT_CHUNK,
			    "would need a chunk counter past 2^64", pos);
			return;
		}
		cur->final = cur->at_end = final;
		cur->offset = pp->p->offset + pos;
		cur->in_len = got;
		ae_pipe_push_work(pp, cur);
		pos += got;
		if (final)
			break;
		seq++;
		cur = nxt;
		got = ngot;
	}
	if ((end = ae_pipe_get_free(pp)) != NULL) {
		end->kind = JOB_END;
		end->seq = seq + 1;
		ae_pipe_post_done(pp, end);
	}
}

/* Whether a signature record follows record seq (6.10). */
static int
sig_due(const struct ae_pipe_params *p, uint64_t seq, int final)
{
	if (final)
		return p->sig_last;
	return p->sig_intervals && AE_SIG_AFTER(seq, (uint64_t)1 << p->sig_log2);
}

/* Whether the index's record offsets can stand in for record seq's
 * frame (--salvage, with an index and an input that seeks). */
static int
by_index(const struct pipe *pp, uint64_t seq)
{
	const struct ae_pipe_params *p = pp->p;

	return p->salvage && p->rec_off != NULL && pp->in->seek != NULL
	    && seq < p->nrec && p->rec_off[seq] < p->rec_off[seq + 1];
}

static void read_end(struct pipe *pp, uint64_t seq, uint64_t off, int final);

static void
read_records(struct pipe *pp)
{
	uint64_t seq = pp->p->first_seq, off = pp->p->offset;
	uint64_t end = seq + pp->p->max_records;
	struct job *j;
	size_t got, ctlen;
	int r, final = 0, compressed;
	uint8_t *rec;

	while (!final && (pp->p->max_records == 0 || seq < end)) {
		if ((j = ae_pipe_get_free(pp)) == NULL)
			return;
		j->seq = seq;
		j->num = seq + (uint64_t)atomic_load(&pp->num_delta);
		j->offset = off;
		rec = j->in + FRAME_AT;
		r = ae_pipe_src_read(pp, rec, AE_FRAME_LEN, &got);
		high_water(&j->in_hw, FRAME_AT + got);
		if (r != AE_OK) {
			ae_pipe_post_error(pp, j, r, AE_AT_INPUT, ae_pipe_read_what(r), off);
			return;
		}
		if (got == 0) {
			ae_pipe_post_error(pp, j, AE_ETRUNC, AE_AT_CHUNK,
			    "is missing: the input ends with no final chunk", off);
			return;
		}
		if (got < AE_FRAME_LEN) {
			ae_pipe_post_error(pp, j, AE_ETRUNC, AE_AT_CHUNK, "is truncated",
			    off);
			return;
		}
		r = ae_chunk_frame(rec, pp->cs, &final, &compressed, &ctlen,
		    &j->diag);
		if (r != AE_OK && (pp->p->sign || pp->p->sig_skip)
		    && (rec[0] & ~AE_FLAG_FINAL) == AE_SIG_FLAG)
			/* (6.10: its place says it is no signature) */
			ae_fail(&j->diag, r, AE_AT_CHUNK, "is a signature record "
			    "where none belongs", 0, 0);
		if (by_index(pp, seq) && (r != AE_OK || final != (seq + 1 ==
		    pp->p->nrec) || AE_FRAME_LEN + ctlen + AE_TAG_LEN
		    != pp->p->rec_off[seq + 1] - pp->p->rec_off[seq])) {
			/* The frame is damaged, but the index says where
			 * the next record starts: report this one lost and
			 * go on there. */
			if (r == AE_OK)
				ae_fail(&j->diag, AE_EFORMAT, AE_AT_CHUNK,
				    "has a frame that does not match the index",
				    seq, off);
			j->diag.where = AE_AT_CHUNK;
			j->diag.index = seq;
			j->diag.offset = off;
			j->status = r != AE_OK ? r : AE_EFORMAT;
			j->salvageable = 1;
			j->final = seq + 1 == pp->p->nrec;
			j->in_len = (size_t)(pp->p->rec_off[seq + 1] - off);
			final = j->final;
			off = pp->p->rec_off[seq + 1];
			ae_pipe_post_done(pp, j);
			if ((r = pp->in->seek(pp->in->ctx, off)) != AE_OK) {
				if ((j = ae_pipe_get_free(pp)) == NULL)
					return;
				j->seq = seq + 1;
				ae_pipe_post_error(pp, j, r, AE_AT_INPUT, ae_pipe_read_what(r),
				    off);
				return;
			}
			seq++;
			continue;
		}
		if (pp->renumber && (r != AE_OK
		    || !ae_chunk_frame_plausible(final, compressed, ctlen,
		    pp->cs))) {
			if (!ae_pipe_search_bad_frame(pp, j, &seq, &off, &final))
				return;
			continue;
		}
		if (r != AE_OK) {
			ae_pipe_post_error(pp, j, r, AE_AT_CHUNK, j->diag.what, off);
			return;
		}
		r = ae_pipe_src_read(pp, rec + AE_FRAME_LEN, ctlen + AE_TAG_LEN,
		    &got);
		high_water(&j->in_hw, FRAME_AT + AE_FRAME_LEN + got);
		if (r != AE_OK) {
			ae_pipe_post_error(pp, j, r, AE_AT_INPUT, ae_pipe_read_what(r), off);
			return;
		}
		if (got < ctlen + AE_TAG_LEN) {
			ae_pipe_post_error(pp, j, AE_ETRUNC, AE_AT_CHUNK, "is truncated",
			    off);
			return;
		}
		j->final = final;
		j->in_len = AE_FRAME_LEN + ctlen + AE_TAG_LEN;
		if (pp->renumber && (r = ae_pipe_keep_record(pp, j, &seq, &off,
		    &final)) != 1) {
			if (r == 0)
				return;
			continue;
		}
		if ((pp->p->sign || pp->p->sig_skip)
		    && sig_due(pp->p, seq, final)) {
			/* 6.10: the signature record that must follow this
			 * one, read with it (the writer checks it) */
			r = ae_pipe_src_read(pp, j->sig, AE_SIG_RECORD_LEN, &got);
			if (r != AE_OK) {
				ae_pipe_post_error(pp, j, r, AE_AT_INPUT,
				    ae_pipe_read_what(r), off + j->in_len);
				return;
			}
			if (got < AE_SIG_RECORD_LEN) {
				ae_pipe_post_error(pp, j, AE_ETRUNC, AE_AT_CHUNK,
				    "is not followed by its signature: the input "
				    "ends there", off);
				return;
			}
			j->has_sig = 1;
		}
		ae_pipe_push_work(pp, j);
		off += j->in_len + (j->has_sig ? AE_SIG_RECORD_LEN : 0);
		seq++;
	}
	read_end(pp, seq, off, final);
}

/* The final record must be the end: anything after it (garbage, a second
 * final record, an appended file) is refused, unless the caller reads on
 * (an index follows), or asked for a run of records that ends before the
 * final one.  The end job at seq (off: where the input is). */
static void
read_end(struct pipe *pp, uint64_t seq, uint64_t off, int final)
{
	struct job *j;
	size_t got;
	uint8_t extra;
	int r;

	if ((j = ae_pipe_get_free(pp)) == NULL)
		return;
	j->kind = JOB_END;
	j->seq = seq;
	if (!final || pp->p->trailer)
		ae_pipe_post_done(pp, j);
	else if ((r = ae_pipe_src_read(pp, &extra, 1, &got)) != AE_OK)
		ae_pipe_post_error(pp, j, r, AE_AT_INPUT, ae_pipe_read_what(r), off);
	else if (got != 0)
		ae_pipe_post_error(pp, j, AE_EFORMAT, AE_AT_INPUT,
		    "data after the final chunk", off);
	else
		ae_pipe_post_done(pp, j);
}

static void *
reader_main(void *arg)
{
	struct pipe *pp = arg;

	if (pp->p->age_key != NULL)
		read_plain(pp, AGE_BATCH * AE_AGE_RECORD);
	else if (pp->decode)
		read_records(pp);
	else
		read_plain(pp, pp->cs);
	pthread_mutex_lock(&pp->lock);
	pp->reading_over = 1;
	pthread_cond_broadcast(&pp->work_cv);
	pthread_mutex_unlock(&pp->lock);
	return NULL;
}

/* ---- the workers ---- */

/*
 * An age job: AGE_BATCH pieces of the input (the last job's may be
 * fewer and its last piece shorter), opened in order as one age reader
 * would: out gets the plaintext of those that opened (out_len), up to
 * the first failure, which is the job's status, or a final chunk with
 * input after it in the job.  j->final: the last one opened was the
 * final chunk (the writer holds it against the input's end).
 */
static int
age_open(struct pipe *pp, struct job *j)
{
	uint64_t seq = j->seq * AGE_BATCH;
	size_t off = 0, n, got;
	int r;

	j->out_len = 0;
	j->final = 0;
	do {
		n = j->in_len - off < AE_AGE_RECORD ? j->in_len - off :
		    AE_AGE_RECORD;
		r = ae_age_chunk_open(pp->p->age_key, seq, j->in + off, n,
		    j->out + j->out_len, &got, &j->final, &j->diag);
		if (r != AE_OK) {
			j->diag.offset = j->offset + off;
			return r;
		}
		j->out_len += got;
		off += n;
		if (j->final && off < j->in_len)
			return ae_fail(&j->diag, AE_EFORMAT, AE_AT_CHUNK, "is the "
			    "final chunk, and data follows it", seq,
			    j->offset + off - n);
		seq++;
	} while (off < j->in_len);
	return AE_OK;
}

/*
 * Renumbering (pipe.h): a record that fails under the number guessed
 * for it is looked up (ae_chunk_number), and opened again under the
 * number it authenticates under, if it has one.  It was decrypted out
 * of place (into keep), so its ciphertext is still there to look up.
 */
static int
open_renumbered(struct worker_arg *w, struct job *j, uint8_t *keep)
{
	struct pipe *pp = w->pp;
	size_t ctlen = j->in_len - AE_FRAME_LEN - AE_TAG_LEN;
	uint8_t *rec = j->in + FRAME_AT;
	uint64_t n;
	int r;

	r = ae_chunk_open(w->coder, pp->p->key, j->num, rec, rec + AE_FRAME_LEN,
	    ctlen, keep, j->out, &j->out_len, &j->diag);
	if (r != AE_EAUTH || ae_chunk_number(pp->p->key, pp->p->dkey, rec,
	    rec + AE_FRAME_LEN, ctlen, 0, ae_pipe_number_bound(pp, j->offset),
	    &n) != AE_OK || n == j->num)
		return r;
	j->num = n;
	atomic_store(&pp->num_delta, (int64_t)(n - j->seq));
	memset(&j->diag, 0, sizeof j->diag);
	return ae_chunk_open(w->coder, pp->p->key, n, rec, rec + AE_FRAME_LEN,
	    ctlen, keep, j->out, &j->out_len, &j->diag);
}

static void *
worker_main(void *arg)
{
	struct worker_arg *w = arg;
	struct pipe *pp = w->pp;
	const ae_gcm_ctx *key = pp->p->key;
	uint8_t *keep = NULL;
	struct job *j;
	int r;

	if (pp->renumber)
		keep = ae_secret_alloc(pp->cs + AE_TAG_LEN);
	while ((j = ae_pipe_pop_work(pp)) != NULL) {
		if (pp->p->age_key != NULL) {
			uint64_t t0 = pp->timed ? ae_thread_ns() : 0;

			r = age_open(pp, j);
			if (pp->timed)
				w->coder->aead_ns += ae_thread_ns() - t0;
			w->coder->aead_bytes += j->in_len;
			high_water(&j->out_hw, j->out_len);
		} else if (pp->decode) {
			size_t ctlen = j->in_len - AE_FRAME_LEN - AE_TAG_LEN;
			uint8_t *rec = j->in + FRAME_AT;

			/* (hashed as read: it is decrypted in place) */
			if (pp->p->sign)
				ae_sigchain_digest(rec, j->in_len, j->digest);
			/* Decrypt in place in the record, inflate to out. */
			if (keep != NULL)
				r = open_renumbered(w, j, keep);
			else
				r = ae_chunk_open(w->coder, key, j->num, rec,
				    rec + AE_FRAME_LEN, ctlen, rec + AE_FRAME_LEN,
				    j->out, &j->out_len, &j->diag);
			/* (a failed inflate may have filled out) */
			high_water(&j->out_hw, r == AE_OK ? j->out_len :
			    pp->cs);
			if (r != AE_OK) {
				j->diag.offset = j->offset;
				j->salvageable = 1;
				/* renumbering: a record that authenticated under
				 * no number is bytes, not a record lost */
				j->numbered = !(pp->renumber && r == AE_EAUTH);
				/* (out may hold unauthenticated bytes of a
				 * failed inflate: never handed on) */
				j->out_len = 0;
			}
		} else {
			r = ae_chunk_seal(w->coder, key, j->seq, j->final,
			    j->in, j->in_len, j->out, &j->out_len);
			/* (a compression that did not pay may have written
			 * up to in_len bytes before the record) */
			high_water(&j->out_hw, AE_RECORD_MAX(j->in_len));
			if (r != AE_OK)
				ae_fail(&j->diag, r, AE_AT_CHUNK,
				    "could not be sealed", j->seq, 0);
			else if (pp->p->sign)
				ae_sigchain_digest(j->out, j->out_len,
				    j->digest);
		}
		j->status = r;
		ae_pipe_post_done(pp, j);
	}
	if (keep != NULL)
		ae_secret_free(keep, pp->cs + AE_TAG_LEN);
	return NULL;
}

/* ---- set-up, the writer, tear-down ---- */

/* The sizes of a job's buffers, rounded up for aligned_alloc. */
static size_t
round_up(size_t n)
{
	return (n + ALIGN - 1) / ALIGN * ALIGN;
}

static size_t
in_size(const struct pipe *pp)
{
	return round_up(pp->decode ? FRAME_AT + AE_RECORD_MAX(pp->cs) :
	    pp->cs);
}

static size_t
out_size(const struct pipe *pp)
{
	return round_up(pp->decode ? pp->cs : AE_RECORD_MAX(pp->cs));
}

/*
 * A job buffer.  One of 2 MiB or more (zstd's 8 MiB chunks) is aligned
 * to 2 MiB and asks for transparent huge pages: the pool's 64 MiB were
 * otherwise 16k page faults on first touch, which cost 0.1 s of a 0.2 s
 * -d here (where faults are dear, as in many VMs).  Only a hint: with
 * THP off, it changes nothing.
 */
static void *
job_alloc(size_t n)
{
	void *p;

	if (n < HUGE_PAGE)
		return aligned_alloc(ALIGN, n);
	n = (n + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	p = aligned_alloc(HUGE_PAGE, n);
#ifdef HAVE_MADV_HUGEPAGE
	if (p != NULL)
		(void)madvise(p, n, MADV_HUGEPAGE);
#endif
	return p;
}

static void
pipe_free(struct pipe *pp)
{
	unsigned i;

	if (pp->jobs != NULL) {
		for (i = 0; i < pp->njobs; i++) {
			/* Plaintext lives in `in` when encoding and in `out`
			 * when decoding; wipe both, as far as they were
			 * written (wiping pages never touched would only
			 * fault them in: 64 MiB of them with 8 MiB chunks) */
			if (pp->jobs[i].in != NULL)
				ae_wipe(pp->jobs[i].in, pp->jobs[i].in_hw);
			if (pp->jobs[i].out != NULL)
				ae_wipe(pp->jobs[i].out, pp->jobs[i].out_hw);
			free(pp->jobs[i].in);
			free(pp->jobs[i].out);
		}
	}
	if (pp->coders != NULL)
		for (i = 0; i < pp->nworkers; i++)
			ae_chunk_coder_free(&pp->coders[i]);
	free(pp->coders);
	free(pp->jobs);
	free(pp->ring);
	free(pp->pend);
	if (pp->prev != NULL) {
		/* (ciphertext, but the search copies plaintext-free bytes
		 * only; wiped as the job buffers are) */
		ae_wipe(pp->prev, AE_RECORD_MAX(pp->cs));
		free(pp->prev);
	}
	if (pp->rs_state != RS_NONE)
		ae_recscan_free(&pp->rs);
}

static int
pipe_init(struct pipe *pp, const struct ae_pipe_params *p, int decode,
    struct ae_reader *in)
{
	size_t per_job, max_jobs;
	unsigned i, n;

	memset(pp, 0, sizeof *pp);
	if (p->age_key != NULL && (!decode || p->codec != 0
	    || p->chunk_log2 != AE_CHUNK_LOG2_MIN || p->sign || p->sig_skip
	    || p->salvage || p->trailer))
		return AE_EINVAL;
	if (p->chunk_log2 < AE_CHUNK_LOG2_MIN || p->codec < 0
	    || p->codec > AE_CODEC_MAX
	    || p->chunk_log2 > AE_CHUNK_LOG2_MAX_FOR(p->codec) || p->threads < 1
	    || p->threads > AE_PIPE_MAX_THREADS
	    || (p->key == NULL && p->age_key == NULL)
	    || (p->sign && (p->signed_fn == NULL || p->salvage
	    || p->sig_log2 > AE_SIG_LOG2_MAX)))
		return AE_EINVAL;
	pp->p = p;
	pp->timed = p->timed;
	pp->decode = decode;
	pp->in = in;
	pp->cs = (size_t)1 << p->chunk_log2;
	if (p->age_key != NULL)
		/* (a job's input is AGE_BATCH pieces; its output fits in
		 * the same room) */
		pp->cs = AGE_BATCH * AE_AGE_RECORD;
	pp->fail_seq = UINT64_MAX;
	pp->renumber = decode && p->salvage && p->rec_off == NULL
	    && p->age_key == NULL;
	if (pp->renumber && p->dkey == NULL)
		return AE_EINVAL;   /* (pipeline.h: the search needs it) */
	if (pp->renumber
	    && (pp->prev = malloc(AE_RECORD_MAX(pp->cs))) == NULL)
		return AE_ENOMEM;

	/* 4N+2 jobs: each worker busy, and three times as many again queued
	 * or waiting for their turn to be written behind a slow one, plus
	 * the reader's two (current and read-ahead).  Fewer if the budget
	 * says so, but N+2 (one a worker) while the larger budget allows;
	 * never fewer than 4, and never more workers than can have a
	 * job. */
	per_job = in_size(pp) + out_size(pp);
	max_jobs = AE_PIPE_BUDGET / per_job;
	n = 4 * p->threads + 2;
	if (n > max_jobs) {
		size_t most = AE_PIPE_BUDGET_MAX / per_job;

		n = (unsigned)max_jobs;
		if (n < p->threads + 2)
			n = p->threads + 2 < most ? p->threads + 2 :
			    (unsigned)most;
		if (n < 4)
			n = 4;
	}
	pp->njobs = n;
	pp->nworkers = p->threads < n - 2 ? p->threads : n - 2;

	pp->jobs = calloc(n, sizeof *pp->jobs);
	pp->ring = calloc(n, sizeof *pp->ring);
	pp->coders = calloc(pp->nworkers, sizeof *pp->coders);
	if (pp->jobs == NULL || pp->ring == NULL || pp->coders == NULL)
		return AE_ENOMEM;
	for (i = 0; i < n; i++) {
		struct job *j = &pp->jobs[i];

		j->in = job_alloc(in_size(pp));
		j->out = job_alloc(out_size(pp));
		if (j->in == NULL || j->out == NULL)
			return AE_ENOMEM;
		/* One side of every job is plaintext. */
		ae_nodump(j->in, in_size(pp));
		ae_nodump(j->out, out_size(pp));
		j->next = pp->free_list;
		pp->free_list = j;
	}
	for (i = 0; i < pp->nworkers; i++) {
		int r = decode ? ae_chunk_coder_init_open(&pp->coders[i],
		    pp->cs, p->codec, p->engine) :
		    ae_chunk_coder_init_seal(&pp->coders[i], pp->cs, p->codec,
		    p->engine, p->level);
		if (r != AE_OK) {
			pp->nworkers = i;   /* free only those made */
			return r;
		}
		pp->coders[i].timed = p->timed;
	}
	return AE_OK;
}

/* Wait for the job with this seq; NULL on a hard stop or interrupt. */
static struct job *
wait_for(struct pipe *pp, uint64_t seq, int *interrupted)
{
	struct job **slot = &pp->ring[seq % pp->njobs];
	struct job *j = NULL;

	pthread_mutex_lock(&pp->lock);
	for (;;) {
		if (pp->p->interrupt != NULL && atomic_load(pp->p->interrupt)) {
			*interrupted = 1;
			break;
		}
		if (pp->stop)
			break;
		if (*slot != NULL && (*slot)->seq == seq) {
			j = *slot;
			*slot = NULL;
			break;
		}
		{
			struct timespec ts;

			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_nsec += WAIT_MS * 1000000L;
			if (ts.tv_nsec >= 1000000000L) {
				ts.tv_sec++;
				ts.tv_nsec -= 1000000000L;
			}
			pp->writer_waits = 1;
			pp->writer_wants = seq;
			pthread_cond_timedwait(&pp->done_cv, &pp->lock, &ts);
			pp->writer_waits = 0;
		}
	}
	pthread_mutex_unlock(&pp->lock);
	return j;
}

static int
write_all(struct pipe *pp, struct ae_writer *out, struct ae_pipe_stats *st,
    struct ae_diag *d)
{
	uint64_t seq = pp->decode ? pp->p->first_seq : 0, t0, w0;
	struct order ord;
	int interrupted = 0, r;
	struct job *j;

	ae_pipe_order_init(&ord, seq);

	for (;;) {
		/* Only an interrupt ends the wait without a job: the writer
		 * is the one that sets `stop`. */
		w0 = wall(pp);
		j = wait_for(pp, seq, &interrupted);
		st->writer_wait_ns += wall(pp) - w0;
		if (j == NULL)
			return ae_fail(d, AE_EINTR, AE_AT_NONE, "interrupted",
			    seq, 0);
		if (pp->p->salvage && (r = ae_pipe_order(pp, &ord, j)) != ORDER_WRITE) {
			/* passed over, or a lost chunk told (order.c) */
			if (r >= 0) {
				st->wire_bytes += j->in_len;
				st->records += r == ORDER_LOST;
			}
			ae_pipe_put_free(pp, j);
			if (r < 0)
				return ae_fail(d, r, r == AE_ENOMEM ? AE_AT_NONE :
				    AE_AT_OUTPUT, "writing output", seq,
				    st->write_bytes);
			seq++;      /* (after a final one: the end marker) */
			continue;
		}
		if (j->status != AE_OK) {
			/* age: the chunks of the job before its failure
			 * authenticated, and age would give them */
			if (pp->p->age_key != NULL && j->out_len > 0
			    && (r = out->write(out->ctx, j->out, j->out_len))
			    != AE_OK) {
				ae_pipe_put_free(pp, j);
				return ae_fail(d, r, AE_AT_OUTPUT, r == AE_EINTR ?
				    "interrupted" : "writing output", seq,
				    st->write_bytes);
			}
			if (pp->p->age_key != NULL)
				st->plain_bytes += j->out_len;
			if (d != NULL)
				*d = j->diag;
			return j->status;
		}
		if (j->kind == JOB_END) {
			ae_pipe_put_free(pp, j);
			return AE_OK;
		}
		t0 = pp->p->timed ? ae_thread_ns() : 0;
		w0 = wall(pp);
		r = out->write(out->ctx, j->out, j->out_len);
		if (pp->p->timed) {
			st->write_ns += ae_thread_ns() - t0;
			st->write_wall_ns += ae_wall_ns() - w0;
		}
		if (r != AE_OK)
			return ae_fail(d, r, AE_AT_OUTPUT, r == AE_EINTR ?
			    "interrupted" : "writing output", seq,
			    st->write_bytes);
		st->write_bytes += j->out_len;
		st->plain_bytes += pp->decode ? j->out_len : j->in_len;
		/* (a signature record read after it counts as wire) */
		st->wire_bytes += pp->decode ? j->in_len + (j->has_sig
		    ? AE_SIG_RECORD_LEN : 0) : j->out_len;
		if (pp->p->age_key != NULL) {
			/* (an age job is up to AGE_BATCH chunks) */
			uint64_t n = j->in_len <= AE_AGE_RECORD ? 1 :
			    (j->in_len + AE_AGE_RECORD - 1) / AE_AGE_RECORD;

			st->chunks += n;
			st->records += n;
		} else {
			st->chunks++;
			st->records++;
		}
		if (pp->p->age_key != NULL && j->final != j->at_end) {
			/* age: the chunk's plaintext authenticated and is
			 * given, then the run ends, as age's reader ends */
			uint64_t last = (seq + 1) * AGE_BATCH - 1;

			if (j->in_len < AGE_BATCH * AE_AGE_RECORD)
				last = seq * AGE_BATCH + (j->in_len - 1) /
				    AE_AGE_RECORD;
			r = j->final ? ae_fail(d, AE_EFORMAT, AE_AT_CHUNK,
			    "is the final chunk, and data follows it", last,
			    j->offset + (last - seq * AGE_BATCH) *
			    AE_AGE_RECORD) : ae_fail(d, AE_ETRUNC, AE_AT_CHUNK,
			    "ends the input and is not the final chunk: the "
			    "file is truncated", last, j->offset + (last -
			    seq * AGE_BATCH) * AE_AGE_RECORD);
			ae_pipe_put_free(pp, j);
			return r;
		}
		if (pp->p->sign && (r = pp->p->signed_fn(pp->p->signed_ctx,
		    j->seq, j->final, j->digest, j->has_sig ? j->sig : NULL,
		    sig_due(pp->p, j->seq, j->final), j->offset + j->in_len
		    + (j->has_sig ? AE_SIG_RECORD_LEN : 0), d)) != AE_OK) {
			/* (decoding, the record the signature follows is
			 * named; encoding, what failed is the signer's) */
			if (d != NULL && pp->decode) {
				if (d->where == AE_AT_NONE)
					d->where = AE_AT_CHUNK;
				d->index = seq;
				d->offset = j->offset;
			}
			ae_pipe_put_free(pp, j);
			return r;
		}
		ae_pipe_put_free(pp, j);
		seq++;
		if (pp->p->progress != NULL)
			pp->p->progress(pp->p->progress_ctx, st->plain_bytes,
			    st->wire_bytes);
	}
}

static int
run(const struct ae_pipe_params *p, int decode, struct ae_reader *in,
    struct ae_writer *out, struct ae_pipe_stats *st, struct ae_diag *d)
{
	struct pipe pp;
	struct worker_arg *wa = NULL;
	pthread_t reader, *workers = NULL;
	unsigned started = 0, i;
	int r, reader_started = 0;
	sigset_t block, old;
	uint64_t t0 = ae_wall_ns();

	if ((r = pipe_init(&pp, p, decode, in)) != AE_OK) {
		pipe_free(&pp);
		return r;
	}
	workers = calloc(pp.nworkers, sizeof *workers);
	wa = calloc(pp.nworkers, sizeof *wa);
	if (workers == NULL || wa == NULL) {
		free(workers);
		free(wa);
		pipe_free(&pp);
		return AE_ENOMEM;
	}
	pthread_mutex_init(&pp.lock, NULL);
	pthread_cond_init(&pp.free_cv, NULL);
	pthread_cond_init(&pp.work_cv, NULL);
	pthread_cond_init(&pp.done_cv, NULL);

	/* The threads inherit a mask that blocks the signals a user or a
	 * pipe sends, so those reach the calling thread. */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigaddset(&block, SIGQUIT);
	sigaddset(&block, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	r = AE_OK;
	if (pthread_create(&reader, NULL, reader_main, &pp) == 0)
		reader_started = 1;
	else
		r = AE_ENOMEM;
	for (i = 0; r == AE_OK && i < pp.nworkers; i++) {
		wa[i].pp = &pp;
		wa[i].coder = &pp.coders[i];
		if (pthread_create(&workers[i], NULL, worker_main, &wa[i]) != 0)
			r = AE_ENOMEM;
		else
			started++;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);

	if (r == AE_OK && started > 0)
		r = write_all(&pp, out, st, d);
	else
		ae_fail(d, r, AE_AT_NONE, "starting threads", 0, 0);

	/* Over, one way or the other: stop everyone and wait for them. */
	pthread_mutex_lock(&pp.lock);
	pp.stop = 1;
	pthread_cond_broadcast(&pp.free_cv);
	pthread_cond_broadcast(&pp.work_cv);
	pthread_cond_broadcast(&pp.done_cv);
	pthread_mutex_unlock(&pp.lock);
	if (r != AE_OK && p->cancel != NULL)
		atomic_store(p->cancel, 1);
	if (reader_started)
		pthread_join(reader, NULL);
	for (i = 0; i < started; i++)
		pthread_join(workers[i], NULL);

	st->read_ns += pp.read_ns;
	st->read_bytes += pp.read_bytes;
	st->read_wall_ns += pp.read_wall_ns;
	st->reader_wait_ns += pp.reader_wait_ns;
	st->worker_wait_ns += pp.worker_wait_ns;
	for (i = 0; i < pp.nworkers; i++) {
		st->zip_ns += pp.coders[i].zip_ns;
		st->aead_ns += pp.coders[i].aead_ns;
		st->aead_bytes += pp.coders[i].aead_bytes;
		st->probe_stored += pp.coders[i].probe_stored;
	}
	st->threads = started;
	st->wall_ns += ae_wall_ns() - t0;

	pthread_cond_destroy(&pp.free_cv);
	pthread_cond_destroy(&pp.work_cv);
	pthread_cond_destroy(&pp.done_cv);
	pthread_mutex_destroy(&pp.lock);
	free(workers);
	free(wa);
	pipe_free(&pp);
	return r;
}

int
ae_pipe_encode(const struct ae_pipe_params *p, struct ae_reader *in,
    struct ae_writer *out, struct ae_pipe_stats *st, struct ae_diag *d)
{
	return run(p, 0, in, out, st, d);
}

int
ae_pipe_decode(const struct ae_pipe_params *p, struct ae_reader *in,
    struct ae_writer *out, struct ae_pipe_stats *st, struct ae_diag *d)
{
	return run(p, 1, in, out, st, d);
}
