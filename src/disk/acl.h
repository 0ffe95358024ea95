/*
 * acl.h -- POSIX ACLs between the kernel's attribute form
 * (system.posix_acl_access, system.posix_acl_default) and the text tar
 * archives carry them in (the pax records SCHILY.acl.access and
 * SCHILY.acl.default, which GNU tar 1.34 and bsdtar write and read).
 *
 * The kernel's form: a 4-byte little-endian version (2), then 8 bytes
 * an entry: tag (2 bytes), permissions (2), id (4), all little-endian;
 * entries in the order user-obj, users by id, group-obj, groups by id,
 * mask, other.  The text: one entry a line, "tag:qualifier:perms" (GNU
 * tar's form, with names), or entries separated by commas with the id
 * as a fourth field (star's and bsdtar's form).
 */
#ifndef AE_DISK_ACL_H
#define AE_DISK_ACL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "owners.h"

/* Room enough for either form of any ACL a file system here holds. */
#define AE_ACL_MAX 65536

/*
 * The text of the ACL x[0, n) in the kernel's form, as GNU tar writes
 * it: "user::rw-\nuser:alice:r--\n...", qualifiers by name where the
 * database has one, else by number.  Into out (cap bytes,
 * NUL-terminated).  Its length, or -1 if x is malformed or the text
 * does not fit.
 */
ssize_t ae_acl_to_text(struct ae_owners *o, const uint8_t *x, size_t n,
    char *out, size_t cap);

/*
 * The kernel's form of the ACL in text[0, n), either text form: a
 * qualifier names a user or group by name (the database's id for it),
 * else by the fourth field's number, else by a number of its own; a
 * "default:" prefix on an entry is dropped.  Entries are put in the
 * kernel's order, and a mask, when there are named entries and none is
 * given, is computed as setfacl does.  Into out (cap bytes).  Its
 * length, or -1 if the text is not a valid ACL (an unknown tag, a
 * name the database does not know with no number, an entry twice, a
 * base entry missing) or does not fit.
 */
ssize_t ae_acl_from_text(struct ae_owners *o, const char *text, size_t n,
    uint8_t *out, size_t cap);

#endif
