/*
 * outfile.h -- an output that appears under its name only when complete.
 *
 * For -o FILE the data goes to a temp file in the same directory (so the
 * rename is atomic), which is fsynced and renamed over FILE only when the
 * whole job has succeeded; on any failure it is removed.  A half-written
 * or unauthenticated file never sits under the name the user asked for.
 * Standard output, devices and FIFOs are written in place; they cannot
 * be taken back, so there the caller must say that the output is
 * incomplete.
 */
#ifndef AE_CLI_OUTFILE_H
#define AE_CLI_OUTFILE_H

struct outfile {
	int fd;
	int in_place;      /* written in place: stdout, a device, a FIFO */
	const char *name;   /* the name for messages */
	char *tmp;          /* the temp file's path, NULL if in place */
	int dirfd;          /* the directory of both, or -1 */
	const char *tmp_base;   /* names within dirfd (tmp_base set once the
	                         * temp file exists) */
	char *target_base;
};

/*
 * Open the output: path NULL or "-" is standard output.  Prints its own
 * errors; returns 0 or an exit status.
 */
int outfile_open(struct outfile *o, const char *path);

/* Flush to disk and move into place.  Prints errors; 0 or exit status. */
int outfile_commit(struct outfile *o);

/* Remove the temp file (if any) and close. */
void outfile_abort(struct outfile *o);

#endif
