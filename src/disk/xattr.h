/*
 * xattr.h -- which extended attributes travel, by name.
 *
 * Attributes live in namespaces with different powers: user.* is the
 * file owner's; trusted.* and security.* are root's (security.capability
 * gives a program privileges, as setuid does); system.posix_acl_* are
 * the POSIX ACLs; any other system.* is the kernel's own and is never
 * stored or set.
 */
#ifndef AE_DISK_XATTR_H
#define AE_DISK_XATTR_H

#include <stddef.h>

enum ae_xattr_kind {
	AE_XATTR_PLAIN,         /* --xattrs: user.*, trusted.*, security.* */
	AE_XATTR_ACL,           /* --acls: system.posix_acl_{access,default} */
	AE_XATTR_NEVER          /* any other system.* (the kernel's) */
};

enum ae_xattr_kind ae_xattr_kind(const char *name);

/*
 * Which attributes of the AE_XATTR_PLAIN kind travel, as GNU tar 1.34
 * decides: shell patterns (fnmatch) on the whole name.  With no include
 * pattern, an archive stores every one and an extraction restores user.*
 * alone (the other namespaces give privileges or are the system's own);
 * an include pattern replaces that default both ways, and an exclude
 * pattern takes away what it matches.
 */
struct ae_xattr_filter {
	char *const *include;
	size_t ninclude;
	char *const *exclude;
	size_t nexclude;
};

/*
 * Whether the attribute name travels under f (NULL: no patterns): on
 * -c (restore 0) or on -x (restore 1).  security.capability, a file
 * capability, is the power of a setuid bit: it is restored only when an
 * include pattern matches it and perms (-p) is set.  Never for the
 * system.* kinds (ACLs travel by their own option).  1 or 0.
 */
int ae_xattr_wanted(const struct ae_xattr_filter *f, const char *name,
    int restore, int perms);

#endif
