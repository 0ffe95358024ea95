/*
 * outfile.h -- an output that appears under its name only when complete.
 *
 * For -o FILE the data goes to a temp file in the same directory (so the
 * rename is atomic), which is fsynced and renamed over FILE only when the
 * whole job has succeeded; on any failure it is removed.  A half-written
 * or unauthenticated file never sits under the name the user asked for.
 * Standard output cannot be taken back, so there the caller must say
 * that the output is incomplete.
 */
#ifndef AE_CLI_OUTFILE_H
#define AE_CLI_OUTFILE_H

struct outfile {
	int fd;
	int is_stdout;
	const char *name;   /* the final name, or "standard output" */
	char *tmp;          /* the temp file's path, NULL for stdout */
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
