/*
 * queue.c -- the pipeline's pool of jobs, its work queue and the ring
 * the writer reads, all under pp->lock (contracts in pipe.h).
 */
#include "config.h"
#include "pipe.h"
#include "pipeline.h"

#include <string.h>

/* A free job for the reader, or NULL if the run is stopping. */
struct job *
ae_pipe_get_free(struct pipe *pp)
{
	struct job *j = NULL;
	uint64_t w0 = wall(pp);

	pthread_mutex_lock(&pp->lock);
	while (pp->free_list == NULL && !pp->stop
	    && pp->fail_seq == UINT64_MAX)
		pthread_cond_wait(&pp->free_cv, &pp->lock);
	pp->reader_wait_ns += wall(pp) - w0;
	if (!pp->stop && pp->fail_seq == UINT64_MAX) {
		j = pp->free_list;
		pp->free_list = j->next;
	}
	pthread_mutex_unlock(&pp->lock);
	if (j != NULL) {
		j->next = NULL;
		j->kind = JOB_CHUNK;
		j->final = 0;
		j->status = AE_OK;
		j->salvageable = 0;
		j->num = 0;
		j->numbered = 1;
		j->has_sig = 0;
		memset(&j->diag, 0, sizeof j->diag);
		j->in_len = j->out_len = 0;
	}
	return j;
}

void
ae_pipe_put_free(struct pipe *pp, struct job *j)
{
	pthread_mutex_lock(&pp->lock);
	j->next = pp->free_list;
	pp->free_list = j;
	pthread_cond_signal(&pp->free_cv);
	pthread_mutex_unlock(&pp->lock);
}

void
ae_pipe_push_work(struct pipe *pp, struct job *j)
{
	pthread_mutex_lock(&pp->lock);
	j->next = NULL;
	if (pp->work_tail != NULL)
		pp->work_tail->next = j;
	else
		pp->work_head = j;
	pp->work_tail = j;
	pthread_cond_signal(&pp->work_cv);
	pthread_mutex_unlock(&pp->lock);
}

/* The next job for a worker, or NULL when there will be no more.  Jobs
 * past a known failure are not worth doing: they go back to the pool. */
struct job *
ae_pipe_pop_work(struct pipe *pp)
{
	struct job *j;

	pthread_mutex_lock(&pp->lock);
	for (;;) {
		uint64_t w0 = wall(pp);

		while (pp->work_head == NULL && !pp->stop
		    && !pp->reading_over)
			pthread_cond_wait(&pp->work_cv, &pp->lock);
		pp->worker_wait_ns += wall(pp) - w0;
		j = pp->work_head;
		if (pp->stop || j == NULL) {
			j = NULL;
			break;
		}
		pp->work_head = j->next;
		if (pp->work_head == NULL)
			pp->work_tail = NULL;
		if (j->seq < pp->fail_seq)
			break;
		j->next = pp->free_list;
		pp->free_list = j;
		pthread_cond_signal(&pp->free_cv);
	}
	pthread_mutex_unlock(&pp->lock);
	return j;
}

/* Hand a finished (or failed) job to the writer. */
void
ae_pipe_post_done(struct pipe *pp, struct job *j)
{
	pthread_mutex_lock(&pp->lock);
	pp->ring[j->seq % pp->njobs] = j;
	/* With salvage, a chunk that fails to open stops nothing: the
	 * writer reports it and goes on (pipeline.h). */
	if (j->status != AE_OK && j->seq < pp->fail_seq
	    && !(pp->p->salvage && j->salvageable)) {
		pp->fail_seq = j->seq;
		/* the reader may be waiting for a job it no longer needs */
		pthread_cond_broadcast(&pp->free_cv);
	}
	/* Wake the writer only for the job it is waiting for: waking it
	 * for one it cannot write yet costs a context switch for nothing. */
	if (pp->writer_waits && pp->writer_wants == j->seq)
		pthread_cond_signal(&pp->done_cv);
	pthread_mutex_unlock(&pp->lock);
}

/* Post j as the failure at its seq. */
void
ae_pipe_post_error(struct pipe *pp, struct job *j, int err, enum ae_where where,
    const char *what, uint64_t offset)
{
	ae_fail(&j->diag, err, where, what, j->seq, offset);
	j->status = err;
	ae_pipe_post_done(pp, j);
}
