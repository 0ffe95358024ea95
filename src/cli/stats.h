/*
 * stats.h -- --stats: where the time of one run went, per stage, from
 * per-thread CPU clocks (the pipeline's) and the process clock (the KDF,
 * whose lanes run in libargon2's own threads).
 */
#ifndef AE_CLI_STATS_H
#define AE_CLI_STATS_H

#include <stdint.h>
#include <stdio.h>

#include "pipeline/pipeline.h"

struct run_stats {
	int decrypt;                /* 0: -e or -c, 1: -d, -t or -x */
	const char *mode;           /* "encrypt", "decrypt", "create",
	                             * "list" or "extract" */
	const char *tier;           /* cipher tier name */
	const char *engine;         /* DEFLATE engine name */
	int codec;                  /* the file's (enum ae_codec) */
	int no_codec;               /* an age file: none of aescrypt's */
	uint64_t in_bytes;          /* what was read: plaintext or container */
	uint64_t out_bytes;         /* what was written */
	uint64_t kdf_cpu_ns;        /* 0 when no passphrase slot was run */
	uint64_t kdf_wall_ns;
	uint64_t kdf_m_kib;
	uint64_t wall_ns;           /* the whole command */
	uint64_t process_cpu_ns;    /* the whole command, all threads */
	uint64_t peak_rss_kib;      /* getrusage's ru_maxrss */
	int archive;                /* -c, -t, -x: show the files stage */
	uint64_t files_ns;          /* the thread that walks and reads the
	                             * files (-c), or writes them (-x) or
	                             * lists them (-t) */
	uint64_t files_bytes;       /* the tar stream's bytes */
	struct ae_pipe_stats pipe;
};

/* Print s to fp as a table (json 0) or one JSON object (json 1). */
void stats_print(FILE *fp, const struct run_stats *s, int json);

#endif
