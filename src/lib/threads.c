/*
 * threads.c -- the default worker count (contract in threads.h).
 */
#include "config.h"
#include "threads.h"

#include <unistd.h>

#include "pipeline/pipeline.h"

unsigned
ae_lib_default_threads(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (n < 1)
		return 1;
	return n > AE_PIPE_MAX_THREADS ? AE_PIPE_MAX_THREADS : (unsigned)n;
}
