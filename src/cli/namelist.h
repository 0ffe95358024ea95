/*
 * namelist.h -- a list of names from the command line and from -T FILE:
 * -c's paths, and the member patterns of -t and -x.
 */
#ifndef AE_CLI_NAMELIST_H
#define AE_CLI_NAMELIST_H

#include <stddef.h>

struct namelist {
	char **v;           /* the names; they point into argv or text */
	size_t *tag;        /* per name, the caller's number (-c: how many
	                     * -C came before it) */
	size_t n, cap;
	char *text;         /* -T's contents */
};

/* Append p with its tag.  0, or -1 if out of memory. */
int namelist_add(struct namelist *l, char *p, size_t tag);

/* Append the names in file ("-": standard input), one per line, or per
 * NUL with null_sep; empty ones are skipped.  Prints its errors;
 * returns 0 or an exit status (EXIT_USAGE if file does not exist). */
int namelist_read(struct namelist *l, const char *file, int null_sep,
    size_t tag);

void namelist_free(struct namelist *l);

#endif
