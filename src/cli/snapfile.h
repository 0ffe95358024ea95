/*
 * snapfile.h -- the -g FILE snapshot of listed-incremental archives, on
 * disk (its format: archive/snapshot.h).
 */
#ifndef AE_CLI_SNAPFILE_H
#define AE_CLI_SNAPFILE_H

#include "archive/snapshot.h"

/*
 * Read path into s (initialised by the caller).  *have is 0 if the
 * file does not exist or level0 is set (a full dump: --level=0), else
 * 1.  Prints its errors; returns 0 or an exit status.
 */
int snapfile_load(const char *path, int level0, struct ae_snapshot *s,
    int *have);

/*
 * Write s to path as -o writes a file (disk/outfile.h): a regular file
 * is replaced once the new one is complete (keeping its mode; a new
 * one is 0600, as it names every directory archived), a symlink's
 * target is replaced, and a device, FIFO or socket is written in place,
 * as GNU tar writes it (-g /dev/null stays a device).  Prints its
 * errors; returns 0 or an exit status.
 */
int snapfile_save(const char *path, const struct ae_snapshot *s);

#endif
