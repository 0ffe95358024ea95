/*
 * progress.h -- the one-line progress display on a terminal.
 *
 * Shown when standard error is a terminal (or --progress forces it; -q
 * turns it off) and only once a job has run for a second: bytes done,
 * the rate, the time elapsed, and, when the total is known, the share
 * and an ETA; for archives, the member being worked on.  The pipeline's
 * writer drives it (ae_pipe_params.progress), at most ten redraws a
 * second, so it costs nothing measurable.  Messages printed while it is
 * up erase it first (msg.c calls progress_hide), so lines never mix.
 */
#ifndef AE_CLI_PROGRESS_H
#define AE_CLI_PROGRESS_H

#include <stdint.h>

/* Which count the display follows. */
enum progress_count {
	PROGRESS_PLAIN,     /* payload bytes: -e, -c (input side) */
	PROGRESS_WIRE       /* container bytes: -d, -t, -x */
};

/*
 * Start the display for this run: on (0 or 1, from the options and the
 * terminal test), total bytes of the counted side if known (0 if not),
 * and base, bytes already counted before the payload (the header).
 */
void progress_start(int on, enum progress_count count, uint64_t total,
    uint64_t base);

/* A pipeline progress callback (ctx is unused). */
void progress_tick(void *ctx, uint64_t plain_bytes, uint64_t wire_bytes);

/* The member being archived or extracted now (any thread). */
void progress_member(const char *name);

/* Raise the total later (for -c, once the tree has been measured). */
void progress_total(uint64_t total);

/* Erase the line if it is shown (before printing a message). */
void progress_hide(void);

/* The run is over: erase the line for good. */
void progress_stop(void);

/* Whether a progress display is wanted: --progress (1), -q (0), or the
 * default (-1: if standard error is a terminal). */
int progress_wanted(int opt);

#endif
