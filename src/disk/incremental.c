/*
 * incremental.c -- GNU tar's listed-incremental dumps (contract in
 * incremental.h).
 */
#include "config.h"
#include "incremental.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Timespec a is later than b. */
static int
later(struct timespec a, int64_t sec, uint32_t nsec)
{
	return (int64_t)a.tv_sec > sec
	    || ((int64_t)a.tv_sec == sec && (uint32_t)a.tv_nsec > nsec);
}

int
ae_incr_dumps(const struct ae_snapshot *prev, const struct stat *st,
    int all_new)
{
	return prev == NULL || all_new || S_ISDIR(st->st_mode)
	    || later(st->st_mtim, prev->time, prev->time_nsec)
	    || later(st->st_ctim, prev->time, prev->time_nsec);
}

int
ae_dumpdir_make(int fd, char *const *ents, size_t n, int follow,
    const struct ae_snapshot *prev, int all_new, struct stat *sts,
    uint8_t **dd, size_t *len)
{
	size_t cap = 1, k = 0, i;
	uint8_t *b;

	for (i = 0; i < n; i++)
		cap += strlen(ents[i]) + 2;
	if ((b = malloc(cap)) == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		size_t el = strlen(ents[i]);
		struct stat *es = &sts[i];

		if (fstatat(fd, ents[i], es, follow ? 0 : AT_SYMLINK_NOFOLLOW)
		    != 0) {
			es->st_nlink = 0;
			continue;
		}
		if (S_ISSOCK(es->st_mode))
			continue;
		b[k++] = S_ISDIR(es->st_mode) ? 'D' :
		    ae_incr_dumps(prev, es, all_new) ? 'Y' : 'N';
		memcpy(b + k, ents[i], el + 1);
		k += el + 1;
	}
	b[k++] = '\0';
	*dd = b;
	*len = k;
	return 0;
}
