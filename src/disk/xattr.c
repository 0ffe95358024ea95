/*
 * xattr.c -- extended attribute namespaces (contract in xattr.h).
 */
#include "config.h"
#include "xattr.h"

#include <errno.h>
#include <fnmatch.h>
#include <string.h>
#ifdef HAVE_LINUX_XATTR
#include <sys/types.h>
#include <sys/xattr.h>
#endif

enum ae_xattr_kind
ae_xattr_kind(const char *name)
{
	if (strcmp(name, "system.posix_acl_access") == 0
	    || strcmp(name, "system.posix_acl_default") == 0)
		return AE_XATTR_ACL;
	if (strcmp(name, "SCHILY.acl.access") == 0
	    || strcmp(name, "SCHILY.acl.default") == 0)
		return AE_XATTR_ACL_TEXT;
	if (strncmp(name, "SCHILY.acl.", 11) == 0)
		return AE_XATTR_ACL_FOREIGN;
	return strncmp(name, "system.", 7) == 0 ? AE_XATTR_NEVER :
	    AE_XATTR_PLAIN;
}

/* Whether one of the n patterns matches name. */
static int
any_match(char *const *pats, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (fnmatch(pats[i], name, 0) == 0)
			return 1;
	return 0;
}

int
ae_xattr_wanted(const struct ae_xattr_filter *f, const char *name,
    int restore, int perms)
{
	int included;

	if (ae_xattr_kind(name) != AE_XATTR_PLAIN)
		return 0;
	if (f != NULL && f->ninclude > 0)
		included = any_match(f->include, f->ninclude, name);
	else
		included = !restore || strncmp(name, "user.", 5) == 0;
	if (!included || (f != NULL && any_match(f->exclude, f->nexclude,
	    name)))
		return 0;
	if (restore && strcmp(name, "security.capability") == 0)
		return perms && f != NULL && f->ninclude > 0;
	return 1;
}

#ifdef HAVE_LINUX_XATTR
int
ae_xattr_supported(void)
{
	return 1;
}

ssize_t
ae_xattr_list(int fd, const char *path, char *buf, size_t n)
{
	return fd >= 0 ? flistxattr(fd, buf, n) : llistxattr(path, buf, n);
}

ssize_t
ae_xattr_get(int fd, const char *path, const char *name, void *buf, size_t n)
{
	return fd >= 0 ? fgetxattr(fd, name, buf, n) :
	    lgetxattr(path, name, buf, n);
}

int
ae_xattr_set(int fd, const char *name, const void *val, size_t n)
{
	return fsetxattr(fd, name, val, n, 0);
}
#else
int
ae_xattr_supported(void)
{
	return 0;
}

ssize_t
ae_xattr_list(int fd, const char *path, char *buf, size_t n)
{
	(void)fd, (void)path, (void)buf, (void)n;
	errno = ENOTSUP;
	return -1;
}

ssize_t
ae_xattr_get(int fd, const char *path, const char *name, void *buf, size_t n)
{
	(void)fd, (void)path, (void)name, (void)buf, (void)n;
	errno = ENOTSUP;
	return -1;
}

int
ae_xattr_set(int fd, const char *name, const void *val, size_t n)
{
	(void)fd, (void)name, (void)val, (void)n;
	errno = ENOTSUP;
	return -1;
}
#endif
