/*
 * anon.c -- nameless files, named when complete (contract in anon.h).
 */
#include "config.h"
#include "anon.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void
ae_anon_init(struct ae_anon *a)
{
	a->how = AE_ANON_UNKNOWN;
}

int
ae_anon_create(int dirfd, unsigned mode)
{
#ifdef HAVE_O_TMPFILE
	return openat(dirfd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC,
	    (mode_t)(mode & 0777));
#else
	(void)dirfd;
	(void)mode;
	errno = EOPNOTSUPP;
	return -1;
#endif
}

int
ae_anon_scratch(const char *dir)
{
	char *path;
	int fd, e;

#ifdef HAVE_O_TMPFILE
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR
	    && errno != EINVAL))
		return fd;
#endif
	/* No nameless file here: a random name, gone before it is used,
	 * so the window where another process could open it is the one
	 * between mkstemp and unlink (the file is 0600 and empty then). */
	if ((path = malloc(strlen(dir) + sizeof "/.aescrypt-XXXXXX")) == NULL)
		return -1;
	sprintf(path, "%s/.aescrypt-XXXXXX", dir);
	if ((fd = mkostemp(path, O_CLOEXEC)) >= 0 && unlink(path) != 0) {
		e = errno;
		close(fd);
		errno = e;
		fd = -1;
	}
	free(path);
	return fd;
}

int
ae_anon_link(struct ae_anon *a, int fd, int dirfd, const char *name)
{
#ifdef HAVE_O_TMPFILE
	char path[40];
	int r;

	if (a->how == AE_ANON_NONE) {
		errno = EPERM;
		return -1;
	}
	if (a->how != AE_ANON_PROC) {
		r = linkat(fd, "", dirfd, name, AT_EMPTY_PATH);
		if (r == 0)
			a->how = AE_ANON_EMPTY_PATH;
		/* ENOENT is what a caller without the capability gets */
		if (r == 0 || a->how == AE_ANON_EMPTY_PATH
		    || (errno != ENOENT && errno != EPERM))
			return r;
	}
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	r = linkat(AT_FDCWD, path, dirfd, name, AT_SYMLINK_FOLLOW);
	if (r == 0)
		a->how = AE_ANON_PROC;
	else if (a->how == AE_ANON_UNKNOWN && errno != EEXIST)
		a->how = AE_ANON_NONE;
	return r;
#else
	/* AT_EMPTY_PATH and /proc/self/fd are Linux's; no nameless file
	 * was made anyway (ae_anon_create). */
	(void)fd;
	(void)dirfd;
	(void)name;
	a->how = AE_ANON_NONE;
	errno = EOPNOTSUPP;
	return -1;
#endif
}
