/*
 * sink.h -- where a writer's container goes: the caller's callback, a
 * descriptor, or a path (a temp file beside it, moved into place only
 * by ae_lib_sink_commit), all as one ae_writer.
 */
#ifndef AE_LIB_SINK_H
#define AE_LIB_SINK_H

#include "aescrypt.h"
#include "common/io.h"
#include "disk/outfile.h"

struct sink {
	struct ae_writer w;         /* write here (the pipeline's thread) */
	aescrypt_write_fn fn;
	void *ctx;
	struct ae_fdio fo;
	struct ae_outfile of;
	int have_of;                /* of is open: commit or abort it */
};

/* Set s up; 0, or (ae_lib_sink_path) ae_outfile_open's errors with d. */
void ae_lib_sink_callback(struct sink *s, aescrypt_write_fn fn, void *ctx);
void ae_lib_sink_fd(struct sink *s, int fd);
int ae_lib_sink_path(struct sink *s, const char *path, struct ae_diag *d);

/* The file at its name (0, or ae_outfile_commit's errors: then it is
 * gone); or removed.  Nothing for the other kinds. */
int ae_lib_sink_commit(struct sink *s, struct ae_diag *d);
void ae_lib_sink_abort(struct sink *s);

#endif
