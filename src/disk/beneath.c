/*
 * beneath.c -- directories under an extraction root, never through a
 * symbolic link (contract and reasons in beneath.h).
 */
#include "config.h"
#include "beneath.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef HAVE_OPENAT2
#include <linux/openat2.h>
#include <sys/syscall.h>
#endif

#include "common/error.h"

int
ae_beneath_path_ok(const char *path)
{
	const char *p = path, *e;
	size_t n;

	if (*p == '\0')
		return 1;
	for (;;) {
		e = strchr(p, '/');
		n = e != NULL ? (size_t)(e - p) : strlen(p);
		if (n == 0 || (n == 1 && p[0] == '.')
		    || (n == 2 && p[0] == '.' && p[1] == '.'))
			return 0;
		if (e == NULL)
			return 1;
		p = e + 1;
	}
}

#ifdef HAVE_OPENAT2
/* One call; -1 with errno on failure (ENOSYS and EPERM from seccomp
 * filters mean "walk instead"). */
static int
open_how(int root, const char *dir)
{
	struct open_how how;

	memset(&how, 0, sizeof how);
	how.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC;
	how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS
	    | RESOLVE_NO_MAGICLINKS;
	return (int)syscall(SYS_openat2, root, dir, &how, sizeof how);
}
#endif

/* The walk: each component opened from its parent's descriptor, with
 * O_NOFOLLOW, so a symlink anywhere fails with ELOOP. */
static int
walk(int root, const char *dir, int create, mode_t mode, int *out)
{
	char comp[256];
	const char *p = dir, *e;
	size_t n;
	int fd, nfd;

	if ((fd = openat(root, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return AE_EIO;
	while (*p != '\0') {
		e = strchr(p, '/');
		n = e != NULL ? (size_t)(e - p) : strlen(p);
		if (n >= sizeof comp) {
			close(fd);
			errno = ENAMETOOLONG;
			return AE_EIO;
		}
		memcpy(comp, p, n);
		comp[n] = '\0';
		nfd = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW
		    | O_CLOEXEC);
		if (nfd < 0 && errno == ENOENT && create) {
			if (mkdirat(fd, comp, mode) != 0 && errno != EEXIST) {
				int saved = errno;

				close(fd);
				errno = saved;
				return AE_EIO;
			}
			nfd = openat(fd, comp, O_RDONLY | O_DIRECTORY
			    | O_NOFOLLOW | O_CLOEXEC);
		}
		if (nfd < 0) {
			int saved = errno;
			struct stat st;

			/* O_NOFOLLOW | O_DIRECTORY on a link says ENOTDIR;
			 * say ELOOP, as openat2 does, so a link is named. */
			if (saved == ENOTDIR && fstatat(fd, comp, &st,
			    AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
				saved = ELOOP;

			close(fd);
			errno = saved;
			return AE_EIO;
		}
		close(fd);
		fd = nfd;
		p = e != NULL ? e + 1 : p + n;
	}
	*out = fd;
	return AE_OK;
}

int
ae_beneath_opendir(int root, const char *dir, int flags, mode_t mode,
    int *fd)
{
	if (!ae_beneath_path_ok(dir))
		return AE_EINVAL;
#ifdef HAVE_OPENAT2
	if (!(flags & AE_BENEATH_WALK) && *dir != '\0') {
		int r = open_how(root, dir);

		if (r >= 0) {
			*fd = r;
			return AE_OK;
		}
		/* Missing parts are made by the walk; a kernel or filter
		 * without openat2 walks too.  Anything else is the answer. */
		if (!(errno == ENOSYS || errno == EPERM || errno == ENAMETOOLONG
		    || (errno == ENOENT && (flags & AE_BENEATH_CREATE))))
			return AE_EIO;
	}
#endif
	return walk(root, dir, flags & AE_BENEATH_CREATE, mode, fd);
}
