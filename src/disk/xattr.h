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
#include <sys/types.h>

enum ae_xattr_kind {
	AE_XATTR_PLAIN,         /* --xattrs: user.*, trusted.*, security.* */
	AE_XATTR_ACL,           /* --acls: system.posix_acl_{access,default}
	                         * (how this tool stored ACLs before 0.4) */
	AE_XATTR_ACL_TEXT,      /* --acls: SCHILY.acl.access, .default, the
	                         * text GNU tar and bsdtar write (tar.h) */
	AE_XATTR_ACL_FOREIGN,   /* ACLs no Linux file takes: NFSv4's
	                         * SCHILY.acl.ace, Solaris's 'A' header */
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

/*
 * The system's attribute calls, where the build has Linux's
 * (sys/xattr.h); elsewhere (and in a --portable build) each fails with
 * ENOTSUP, and ae_xattr_supported() is 0, so the command face can refuse
 * --xattrs and --acls up front.  (FreeBSD's extattr and macOS's
 * variants are not wired in.)
 *
 * ae_xattr_list: the NUL-separated names of fd's attributes, or, if fd
 * is -1, those of path itself (a symlink's own, never its target's).
 * ae_xattr_get: one value, the same way.  ae_xattr_set: one value on
 * fd.  As the system calls: a length, or -1 with errno.
 */
int ae_xattr_supported(void);
ssize_t ae_xattr_list(int fd, const char *path, char *buf, size_t n);
ssize_t ae_xattr_get(int fd, const char *path, const char *name, void *buf,
    size_t n);
int ae_xattr_set(int fd, const char *name, const void *val, size_t n);

#endif
