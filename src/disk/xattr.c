/*
 * xattr.c -- extended attribute namespaces (contract in xattr.h).
 */
#include "config.h"
#include "xattr.h"

#include <fnmatch.h>
#include <string.h>

enum ae_xattr_kind
ae_xattr_kind(const char *name)
{
	if (strcmp(name, "system.posix_acl_access") == 0
	    || strcmp(name, "system.posix_acl_default") == 0)
		return AE_XATTR_ACL;
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
