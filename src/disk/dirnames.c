/*
 * dirnames.c -- the names in a directory (contract in dirnames.h).
 *
 * Sorted, so that an archive does not depend on readdir order (two runs
 * over the same tree give the same bytes).
 */
#include "config.h"
#include "dirnames.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/grow.h"

static int
cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int
ae_dir_names(int fd, char ***ents, size_t *n)
{
	struct dirent *de;
	size_t cap = 0;
	DIR *d;
	int dfd = dup(fd), r = 0, e;

	*ents = NULL;
	*n = 0;
	if (dfd < 0 || (d = fdopendir(dfd)) == NULL) {
		e = errno;
		if (dfd >= 0)
			close(dfd);
		errno = e;
		return -1;
	}
	/* (a dup shares the offset: another reader may have moved it) */
	rewinddir(d);
	errno = 0;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0
		    || strcmp(de->d_name, "..") == 0)
			continue;
		if (ae_grow(ents, &cap, *n + 1, sizeof **ents, 32, 0) != 0) {
			errno = ENOMEM;
			break;
		}
		if (((*ents)[*n] = strdup(de->d_name)) == NULL) {
			errno = ENOMEM;
			break;
		}
		(*n)++;
		errno = 0;
	}
	if (errno != 0)
		r = -2;
	e = errno;
	closedir(d);
	errno = e;
	if (*n > 1)
		qsort(*ents, *n, sizeof **ents, cmp_names);
	return r;
}

void
ae_dir_names_free(char **ents, size_t n)
{
	while (n > 0)
		free(ents[--n]);
	free(ents);
}
