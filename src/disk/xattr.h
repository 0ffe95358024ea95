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

enum ae_xattr_kind {
	AE_XATTR_PLAIN,         /* --xattrs: user.*, trusted.*, security.* */
	AE_XATTR_ACL,           /* --acls: system.posix_acl_{access,default} */
	AE_XATTR_NEVER          /* any other system.* (the kernel's) */
};

enum ae_xattr_kind ae_xattr_kind(const char *name);

#endif
