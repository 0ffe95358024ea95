/*
 * outfile.h -- an output that appears under its name only when complete.
 *
 * For -o FILE (and -f, and --salvage's FILE.damaged) the data goes to a
 * file with no name in the same directory (O_TMPFILE, disk/anon.h),
 * which is fsynced and linked under FILE only when the whole job has
 * succeeded; on any failure, or a SIGKILL, it is simply gone.  Where the
 * file system or kernel cannot make or name such a file, a temp name in
 * the same directory is used and renamed over FILE (so the rename is
 * atomic), and removed on failure.  A half-written
 * or unauthenticated file never sits under the name the user asked for.
 * Standard output, devices and FIFOs are written in place; they cannot
 * be taken back, so there the caller must say that the output is
 * incomplete.
 *
 * The temp file is 0600 while it fills (it may hold plaintext); at the
 * commit it takes the mode, and where permitted the owner and group, of
 * the file it replaces, or 0666 & ~umask when there was none, as a
 * plain create would give.  Replacing a 0600 file never widens it.
 */
#ifndef AE_DISK_OUTFILE_H
#define AE_DISK_OUTFILE_H

#include <sys/types.h>

#include "anon.h"
#include "common/error.h"

struct ae_outfile {
	int fd;
	int in_place;      /* written in place: stdout, a device, a FIFO */
	const char *name;   /* the name for messages */
	char *tmp;          /* the temp file's path, NULL if in place */
	int dirfd;          /* the directory of both, or -1 */
	const char *tmp_base;   /* names within dirfd (tmp_base set once the
	                         * temp file exists) */
	char *target_base;
	int anon;           /* fd has no name yet (tmp is scratch) */
	struct ae_anon anon_how;
	int replaces;       /* a regular file was at the name: keep its */
	mode_t mode;        /* mode, or the mode a new file gets */
	uid_t uid;
	gid_t gid;
	char alt_name[4200];    /* the name after outfile_retarget */
};

/*
 * Errors: AE_EIO with d->sys_errno and d->what saying what could not be
 * done (where AE_AT_OUTPUT), or AE_ENOMEM.  Nothing is printed.
 */

/* Open the output: path NULL or "-" is standard output.  0 or an error;
 * on an error nothing is left to clean up. */
int ae_outfile_open(struct ae_outfile *o, const char *path,
    struct ae_diag *d);

/* Commit under the name with suffix appended instead (--salvage puts a
 * damaged result at NAME.damaged, never at NAME).  Nothing changes for
 * an output written in place.  A regular file at the new name is
 * replaced; anything else there (a symlink, a device, a FIFO: nothing
 * the user named) is an error and stays.  0 or an error; after an error
 * the caller aborts. */
int ae_outfile_retarget(struct ae_outfile *o, const char *suffix,
    struct ae_diag *d);

/* Flush to disk and move into place.  0, or an error (the temp file is
 * then gone, as after ae_outfile_abort). */
int ae_outfile_commit(struct ae_outfile *o, struct ae_diag *d);

/* Remove the temp file (if any) and close. */
void ae_outfile_abort(struct ae_outfile *o);

/*
 * Whether path names the file the open output o becomes (the same
 * device and inode as the file there now, or, where neither exists yet,
 * the same last component in the same directory), or the regular file
 * standard output writes in place: 1 or 0.  For the other outputs a run
 * writes (--checksum, --sig-file, -g), which must not land in the
 * archive.
 */
int ae_outfile_names(const struct ae_outfile *o, const char *path);

/* Whether committing o would replace the regular file open as fd (the
 * input being read): 1 or 0. */
int ae_outfile_replaces(const struct ae_outfile *o, int fd);

#endif
