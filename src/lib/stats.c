/*
 * stats.c -- a pipeline's costs for the caller (contract in stats.h).
 */
#include "config.h"
#include "stats.h"

#include <string.h>

void
ae_lib_stats_of(const struct ae_pipe_stats *p, struct aescrypt_stats *st)
{
	memset(st, 0, sizeof *st);
	st->plain_bytes = p->plain_bytes;
	st->wire_bytes = p->wire_bytes;
	st->records = p->records != 0 ? p->records : p->chunks;
	st->zip_ns = p->zip_ns;
	st->aead_ns = p->aead_ns;
	st->wall_ns = p->wall_ns;
	st->threads = p->threads;
}
