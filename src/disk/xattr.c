/*
 * xattr.c -- extended attribute namespaces (contract in xattr.h).
 */
#include "config.h"
#include "xattr.h"

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
