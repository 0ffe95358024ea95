/*
 * writer.h -- the writer handle's insides, shared by the files that
 * implement its calls (not a contract for callers: that is aescrypt.h):
 * writer.c makes a container, writer_more.c holds the unstable part's
 * settings and figures.
 */
#ifndef AE_LIB_WRITER_H
#define AE_LIB_WRITER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#define AESCRYPT_STATIC_LINKING_ONLY
#include "aescrypt.h"
#include "container/header.h"
#include "container/index.h"
#include "container/kdf.h"
#include "container/sigchain.h"
#include "disk/reader.h"
#include "pipeline/chan.h"
#include "pipeline/pipeline.h"
#include "keyring.h"
#include "message.h"
#include "sink.h"

enum { W_NEW, W_OPEN, W_DONE };

struct aescrypt_writer {
	struct keyring keys;
	char msg[MESSAGE_MAX];
	int state, kind;
	int codec, level, index, chunk_set, engine, timed;
	unsigned threads, chunk_log2;
	const atomic_int *interrupt;    /* the caller's (unstable part) */
	atomic_int *ext_cancel;
	struct ae_diag diag;            /* the last failure's place, */
	int have_diag;                  /* if it had one */
	struct ae_kdf_params kdf;
	struct sink sink;
	struct ae_header h;
	ae_gcm_ctx g, ig;
	int have_keys;
	struct ae_pipe_params pp;
	struct ae_index_builder ib;
	struct ae_writer logged;        /* the sink, each record noted */
	struct ae_writer *out;          /* the pipeline's output: the sink
	                                 * or logged */
	/* the pipeline's thread and what it returned; a stream's starts
	 * with its first _write (aescrypt_writer_write_from runs the
	 * pipeline on the caller's thread instead) */
	struct ae_chan chan;
	struct ae_writer chanw;
	pthread_t thread;
	int chan_ok, started, joined, fed;
	atomic_int cancel;
	int perr;
	struct ae_diag pd;
	struct ae_pipe_stats pst;       /* the payload's run */
	aescrypt_progress_fn progress;
	void *progress_ctx;
	/* an archive: the walk that makes its tar stream */
	struct ae_dr_params dp;
	int walk_set;                   /* dp is the caller's (unstable
	                                 * part): its lead, its report */
	int (*caller_report)(void *ctx, const struct ae_dr_report *r);
	int (*caller_excluded)(void *ctx, const char *path);
	void *caller_ctx;
	struct ae_dr *walk;
	uint8_t lead[2 * AE_TAR_BLOCK]; /* the archive's global header */
	size_t lead_len;
	int partial;
	int walk_err;                   /* the walk's report asked to stop */
	int closed;                     /* _close succeeded */
	aescrypt_signer *signer;        /* signs the file (6.10), or NULL */
	struct ae_sigchain chain;       /* ... over what was written */
};

/* Keep the message for err with d (its place, for aescrypt_writer_diag)
 * or for what alone; err. */
int ae_lib_writer_fail(aescrypt_writer *w, int err, const struct ae_diag *d);
int ae_lib_writer_fail_plain(aescrypt_writer *w, int err, const char *what);

/* A setting or a key: only before _open (else AESCRYPT_ESTATE). */
int ae_lib_writer_before_open(aescrypt_writer *w);

/* After a step of the walk (err its result): an error ends the
 * writer, with the pipeline's failure if it had one, else the walk's;
 * err. */
int ae_lib_writer_walked(aescrypt_writer *w, int err);

/* The handle is open, for a stream (archive 0) or an archive (1). */
int ae_lib_writer_is_open(aescrypt_writer *w, int archive);

#endif
