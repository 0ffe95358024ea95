/*
 * clock.h -- the clocks --stats and --benchmark measure with.
 *
 * Per-thread CPU time is what makes the stage split honest: each thread
 * times only its own work, so a stage's figure is CPU it really used,
 * not wall time shared with other threads.
 */
#ifndef AE_CLOCK_H
#define AE_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t
ae_clock_ns(clockid_t id)
{
	struct timespec ts;

	if (clock_gettime(id, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* CPU time of the calling thread. */
static inline uint64_t
ae_thread_ns(void)
{
	return ae_clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

/* CPU time of the whole process (all threads, including ones a library
 * such as libargon2 starts). */
static inline uint64_t
ae_process_ns(void)
{
	return ae_clock_ns(CLOCK_PROCESS_CPUTIME_ID);
}

/* Wall-clock time, monotonic. */
static inline uint64_t
ae_wall_ns(void)
{
	return ae_clock_ns(CLOCK_MONOTONIC);
}

#endif
