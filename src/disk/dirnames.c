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

/* de's name, and its type past the NUL (dirnames.h). */
static char *
name_typed(const struct dirent *de)
{
	size_t len = strlen(de->d_name);
	char *s = malloc(len + 2);

	if (s == NULL)
		return NULL;
	memcpy(s, de->d_name, len + 1);
#ifdef DT_UNKNOWN
	s[len + 1] = (char)de->d_type;
#else
	s[len + 1] = 0;
#endif
	return s;
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
		if (((*ents)[*n] = name_typed(de)) == NULL) {
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

int
ae_dir_name_type(const char *name)
{
	return (unsigned char)name[strlen(name) + 1];
}

void
ae_dir_names_free(char **ents, size_t n)
{
	while (n > 0)
		free(ents[--n]);
	free(ents);
}
