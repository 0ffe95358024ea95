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
 * Write s to path: a new file in the same directory, mode 0600 (it
 * names every directory archived), moved over path once complete, as
 * GNU tar replaces it.  Prints its errors; returns 0 or an exit status.
 */
int snapfile_save(const char *path, const struct ae_snapshot *s);

#endif
