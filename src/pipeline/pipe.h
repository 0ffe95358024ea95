/*
 * pipe.h -- inside the pipeline (pipeline.c, queue.c, input.c): a run's
 * shared state, its jobs, and the calls its parts make on each other.
 * Not for outside the folder: pipeline.h is the pipeline's face.
 *
 * pipeline.c runs the threads (the reader's loops, the workers, the
 * ordered writer) and sets up and tears down; queue.c is the pool of
 * jobs, the work queue and the ring the writer reads (all under
 * pp->lock); input.c is what the reader reads (timed reads, the bytes
 * a search read ahead) and --salvage's search for the next record.
 * pipeline.c uses the other two, input.c uses queue.c: no loop.  This
 * header names the parameters (pipeline.h) without including them, so
 * pipeline.c, which includes it, is not included back.
 */
#ifndef AE_PIPELINE_PIPE_H
#define AE_PIPELINE_PIPE_H

#include <pthread.h>
#include <stddef.h>
#include <stdatomic.h>
#include <stdint.h>

#include "common/clock.h"
#include "common/error.h"
#include "container/chunk.h"
#include "container/format.h"
#include "container/recscan.h"

/*
 * Buffers are 64-byte aligned, and a record being read has its body (not
 * its frame) on the boundary: on the development machine (AMD Zen 5) the
 * kernel copies read(2) data into a 16-byte-aligned buffer at 1.4 GB/s
 * and into a 32- or 64-byte-aligned one at 6 GB/s.
 */
#define ALIGN 64
#define HUGE_PAGE ((size_t)2 << 20)
#define FRAME_AT (ALIGN - AE_FRAME_LEN)

/* Job buffers stay within AE_PIPE_BUDGET, whatever the thread count,
 * except that every worker gets a job up to AE_PIPE_BUDGET_MAX: zstd's
 * 8 MiB chunks (16 MiB a job, in and out) would otherwise leave two
 * workers, whatever the cores. */
#define AE_PIPE_BUDGET ((size_t)40 << 20)
#define AE_PIPE_BUDGET_MAX ((size_t)128 << 20)
/* The writer looks at `interrupt` at least this often (ms). */
#define WAIT_MS 100

enum job_kind { JOB_CHUNK, JOB_END };

struct job {
	struct job *next;           /* free list or work queue */
	enum job_kind kind;
	uint64_t seq;
	int final;
	int at_end;                 /* age: the input ends after this piece */
	int status;                 /* AE_OK, or the failure at this seq */
	int salvageable;            /* decode: a worker's failure (the
	                             * record's frame held, so the next
	                             * record is where it says) */
	/* decode: the record's number: seq, or, when renumbering (below),
	 * the number it authenticated under, which may be another (a record
	 * duplicated, dropped or moved); numbered: a failure whose number
	 * is known (with an index, the record at that offset) */
	uint64_t num;
	int numbered;
	struct ae_diag diag;
	uint64_t offset;            /* decode: container offset of the record */
	uint8_t *in;                /* encode: plaintext; decode: record,
	                             * whose frame starts at in + FRAME_AT */
	size_t in_len;
	uint8_t *out;               /* encode: record; decode: plaintext */
	size_t out_len;
	size_t in_hw, out_hw;       /* how much of in and out was ever
	                             * written: what pipe_free wipes (a
	                             * buffer's untouched pages stay so) */
	/* signed files (6.10): the record's SHA-512 (a worker's), and,
	 * decoding, the signature record read after it, if one was */
	uint8_t digest[AE_SIG_DIGEST_LEN];
	uint8_t sig[AE_SIG_RECORD_LEN];
	int has_sig;
};

/* *hw = max(*hw, n). */
static inline void
high_water(size_t *hw, size_t n)
{
	if (n > *hw)
		*hw = n;
}

struct ae_pipe_params;

struct pipe {
	const struct ae_pipe_params *p;
	int timed;                  /* p->timed: the clocks are read */
	int decode;
	size_t cs;
	struct ae_reader *in;

	pthread_mutex_t lock;
	pthread_cond_t free_cv;     /* a job was freed, or stop */
	pthread_cond_t work_cv;     /* work queued, reading over, or stop */
	pthread_cond_t done_cv;     /* a job finished, or stop */
	struct job *jobs;
	unsigned njobs;
	struct job *free_list;
	struct job *work_head, *work_tail;
	struct job **ring;
	int reading_over;           /* the reader has left */
	int writer_waits;           /* the writer sleeps, for seq writer_wants */
	uint64_t writer_wants;
	uint64_t fail_seq;          /* lowest failed seq, UINT64_MAX if none */
	int stop;                   /* hard stop */

	struct ae_chunk_coder *coders;
	unsigned nworkers;
	/* decode, --salvage without an index: bytes read while searching
	 * for the next record after a damaged frame, still to be read as
	 * records (at pend + pend_pos, pend_len of them) */
	uint8_t *pend;
	size_t pend_pos, pend_len, pend_cap;
	/* decode, --salvage with the payload key's inverse (dkey) and no
	 * index: a record is taken under whatever number it authenticates
	 * under (the writer keeps them in order), and a search starts
	 * right after the last record's frame, whose bytes (prev_len from
	 * prev_off) the reader keeps; the search's running sums (rs,
	 * set up at its first use) */
	int renumber;
	uint8_t *prev;
	enum { RS_NONE, RS_READY, RS_FAILED } rs_state;
	struct ae_recscan rs;
	size_t prev_len;
	uint64_t prev_off;
	/* the last number minus seq a worker or search found: the number
	 * the reader guesses for the records after (a guess only: a record
	 * that fails under it is looked up) */
	_Atomic int64_t num_delta;
	uint64_t read_ns, read_bytes;
	/* wall-clock waits (timed runs only; see ae_pipe_stats) */
	uint64_t read_wall_ns, reader_wait_ns, worker_wait_ns;
};

/* The wall clock, read only on timed runs. */
static inline uint64_t
wall(const struct pipe *pp)
{
	return pp->timed ? ae_wall_ns() : 0;
}

/* ---- queue.c (each takes pp->lock) ---- */

/* A free job for the reader, or NULL if the run is stopping. */
struct job *ae_pipe_get_free(struct pipe *pp);
/* j back to the pool, unused. */
void ae_pipe_put_free(struct pipe *pp, struct job *j);
/* j to the workers. */
void ae_pipe_push_work(struct pipe *pp, struct job *j);
/* The next job for a worker, or NULL when there will be no more (jobs
 * past a known failure go back to the pool). */
struct job *ae_pipe_pop_work(struct pipe *pp);
/* A finished (or failed) job to the writer. */
void ae_pipe_post_done(struct pipe *pp, struct job *j);
/* j posted as the failure at its seq. */
void ae_pipe_post_error(struct pipe *pp, struct job *j, int err,
    enum ae_where where, const char *what, uint64_t offset);

/* ---- order.c: --salvage's record order at the writer ---- */

/* Bytes passed over with no number (renumbering), kept until the next
 * record says whether records were lost there. */
struct passed {
	int have, final;
	int search;                 /* a search's, not a worker's failure */
	uint64_t search_off;        /* where the first search's bytes start */
	uint64_t bytes, off;
	struct ae_diag d;
};

struct order {
	uint64_t next;              /* the next record's number */
	struct passed pa;
};

/* What the writer does with a job after ae_pipe_order. */
enum { ORDER_WRITE = 0, ORDER_PASSED = 1, ORDER_LOST = 2 };

void ae_pipe_order_init(struct order *o, uint64_t first);
/*
 * Job j, in seq order, under --salvage: records are kept in their
 * numbers' order (one read before is passed over, the numbers skipped
 * to a later one are told lost), bytes with no number are held, and a
 * numbered failure is told lost.  ORDER_PASSED or ORDER_LOST: j is
 * done with; ORDER_WRITE: the writer goes on with j as without
 * salvage (write it, end the run at JOB_END, or fail with its
 * status); or the error damaged() returned.
 */
int ae_pipe_order(struct pipe *pp, struct order *o, struct job *j);

/* ---- input.c ---- */

/* n bytes of the input (fewer only at its end), counted and timed. */
int ae_pipe_timed_read(struct pipe *pp, uint8_t *buf, size_t n, size_t *got);
/* The reader's input: what a search read ahead first, then the input. */
int ae_pipe_src_read(struct pipe *pp, uint8_t *buf, size_t n, size_t *got);
/* What a failed read was doing, for its message. */
const char *ae_pipe_read_what(int err);
/*
 * --salvage with no index, after the frame at *off (bad) cannot be
 * followed: find the next record by its tag, report what lay between as
 * lost, queue the record found.  1 to go on (*seq, *off, *final
 * updated); 0 if the run ended (reported).
 */
/*
 * The same when renumbering: the search starts at the first byte of
 * head (head_len bytes from file offset head_off: what follows the last
 * record's frame, and the bad bytes), then reads on.  Every record that
 * authenticates, under any number a record could have there (format
 * 6.5), ends it: the bytes from skip_from to it are posted as passed
 * over (a failure with no number: the writer decides what was lost),
 * then the record, under its number.  *slot is the next job's seq.  1
 * to go on (*slot, *off, *final updated); 0 if the run ended (posted).
 */
int ae_pipe_search(struct pipe *pp, const uint8_t *head, size_t head_len,
    uint64_t head_off, uint64_t skip_from, uint64_t *slot, uint64_t *off,
    int *final);
/* Renumbering, the reader's two steps (read_records):
 * _search_bad_frame, after j's frame at *off cannot be followed: the
 * search from right after the last record's frame (j given back); 1 to
 * go on, 0 if the run ended.  _keep_record, for j read whole at *off:
 * a final one must authenticate, else it is searched past (j given
 * back; 2 to go on, 0 if the run ended); 1: j is kept as the last
 * record, to be queued. */
int ae_pipe_search_bad_frame(struct pipe *pp, struct job *j, uint64_t *slot,
    uint64_t *off, int *final);
int ae_pipe_keep_record(struct pipe *pp, struct job *j, uint64_t *slot,
    uint64_t *off, int *final);
/* The highest number a record at file offset off could have: as many
 * records as could stand before it, at the shortest record's bytes
 * each (6.5). */
uint64_t ae_pipe_number_bound(const struct pipe *pp, uint64_t off);
/* Whether the record at rec (frame, then ctlen bytes and the tag, at
 * file offset off) authenticates under a number it could have there
 * (renumbering): 1 with *num, or 0. */
int ae_pipe_record_number(struct pipe *pp, const uint8_t *rec, size_t ctlen,
    uint64_t off, uint64_t *num);

#endif
