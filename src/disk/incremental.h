/*
 * incremental.h -- GNU tar's listed-incremental dumps (-g) as both sides
 * of the disk engine use them: which files a level dumps and the
 * dumpdir the walk writes for a directory (reader.c), and what a dumpdir
 * says of a name when the writer applies it (dw_incremental.c).
 *
 * A dumpdir is GNU tar's: entries "Yname" (in this archive), "Nname"
 * (unchanged, in an earlier level), "Dname" (a directory), and on
 * extraction "Rfrom" "Tto" pairs (renames), each NUL-terminated, closed
 * by an empty one.
 */
#ifndef AE_DISK_INCREMENTAL_H
#define AE_DISK_INCREMENTAL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "archive/snapshot.h"
#include "common/dumpdir.h"

/* Whether file st goes in this level: always at level 0 (prev NULL), in
 * a directory new since prev (all_new), or for a directory; else if its
 * data or status changed (mtime or ctime) after prev's time. */
int ae_incr_dumps(const struct ae_snapshot *prev, const struct stat *st,
    int all_new);

/*
 * The dumpdir of the directory open as fd, whose entries are
 * ents[0, n) (sorted): 'D' for a directory, else 'Y' or 'N' as
 * ae_incr_dumps says; sockets, and names that are gone, are left out
 * (as GNU tar does).  follow: stat through symlinks (-h).  Into *dd
 * (malloc'd, *len bytes, the closing empty entry counted).  What each
 * stat saw goes into sts[0, n), so that the walk need not stat the entry
 * again (st_nlink 0 where it failed).  0, or -1 out of memory.
 */
int ae_dumpdir_make(int fd, char *const *ents, size_t n, int follow,
    const struct ae_snapshot *prev, int all_new, struct stat *sts,
    uint8_t **dd, size_t *len);

/* (ae_dumpdir_letter: common/dumpdir.h) */

#endif
