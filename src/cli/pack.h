/*
 * pack.h -- aescrypt -c's first half: walk the named paths and write
 * them as one POSIX pax tar stream (tar.h) to a writer.
 *
 * It runs in its own thread, feeding the pipeline through a channel
 * (chan.h).  Problems with single files are warnings in GNU tar's
 * wording and the walk goes on (a file that cannot be read, that
 * changes while it is read, a FIFO, socket or device, which are
 * skipped); they make the result PACK_PARTIAL, which the command turns
 * into tar's exit status 1.
 */
#ifndef AE_CLI_PACK_H
#define AE_CLI_PACK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "common/io.h"
#include "container/index.h"

struct pack_opts {
	int follow;                 /* -h: archive what symlinks point to */
	int xattrs;                 /* --xattrs: extended attributes */
	int acls;                   /* --acls: POSIX ACLs (as xattrs) */
	FILE *verbose;              /* -v: list names here, or NULL */
	char **exclude;             /* --exclude patterns (members.h) */
	const int *dirfd;           /* per path, the directory it is
	                             * relative to (-C), or -1: the current
	                             * one; or NULL */
	size_t nexclude;
	/* Files never to archive: the archive being written, and the old
	 * one it will replace.  self_name is the archive's name, for the
	 * warning. */
	struct { dev_t dev; ino_t ino; } self[2];
	int nself;
	const char *self_name;
	/* Each member, with where its headers start in the stream, and
	 * where the end-of-archive blocks start, for the archive's index;
	 * or NULL (--no-index). */
	struct ae_index_builder *index;
};

enum pack_result {
	PACK_OK = 0,
	PACK_PARTIAL = 1,           /* warnings were given */
	PACK_STOPPED = -1           /* the writer failed or a signal came:
	                             * the caller reports why */
};

/* Write paths[0..n) and everything under them, then the end-of-archive
 * blocks, to w.  Before paths[i] it changes the working directory to
 * po->dirfd[i] when that is set.  Returns an enum pack_result. */
int pack_paths(const struct pack_opts *po, char *const *paths, size_t n,
    struct ae_writer *w);

/* The total size of the regular files pack_paths would archive (for
 * the progress line's total; quiet, no warnings). */
uint64_t pack_measure(const struct pack_opts *po, char *const *paths,
    size_t n);

#endif
