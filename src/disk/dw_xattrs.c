/*
 * dw_xattrs.c -- a member's extended attributes and ACLs as the disk
 * writer sets them (dw.h): which travel (xattr.h's rules and the
 * patterns), GNU tar's and bsdtar's ACL text into the kernel's form
 * (acl.h), and a directory's default ACL kept for the end.
 */
#include "config.h"
#include "writer.h"
#include "dw.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "xattr.h"

/* Whether attribute name of a member is restored, by the flags and the
 * patterns. */
static int
xattr_wanted(const struct ae_dw *w, const char *name)
{
	unsigned f = w->p->flags;

	switch (ae_xattr_kind(name)) {
	case AE_XATTR_ACL:
	case AE_XATTR_ACL_TEXT:
		return (f & AE_DW_ACLS) != 0;
	case AE_XATTR_PLAIN:
		return (f & AE_DW_XATTRS) && ae_xattr_wanted(w->p->xattrs, name, 1,
		    (f & AE_DW_CAPS) != 0);
	default:
		return 0;
	}
}

/*
 * Set m's extended attributes on fd, as AE_DW_XATTRS (user.*, or what the
 * patterns say) and AE_DW_ACLS (the POSIX ACLs) ask; called after the
 * mode is set, as a mode change rewrites an ACL's mask.  One that cannot
 * be set (an unprivileged user and trusted.*, a file system without
 * them) is a warning.  AE_DW_NOTE_XATTRS reports once that the archive
 * has some that are not restored.
 */
void
ae_dw_apply_xattrs(struct ae_dw *w, const struct ae_tar_member *m, int fd,
    struct dirfix *later)
{
	unsigned f = w->p->flags;
	const uint8_t *val;
	const char *name;
	size_t pos = 0, len;
	int left = 0;

	if (m->nxattr == 0)
		return;
	while (ae_tar_xattr_walk(m->xattr, m->xattr_len, &pos, &name, &val,
	    &len) == 1) {
		struct ae_dw_report r;

		enum ae_xattr_kind k = ae_xattr_kind(name);

		if (k == AE_XATTR_ACL_FOREIGN && (f & AE_DW_ACLS)) {
			if (!w->noted_foreign_acl) {
				ae_dw_warn_plain(w, m, "it has an ACL of a kind this "
				    "system cannot apply (NFSv4 or Solaris); "
				    "left out (said once)");
				w->noted_foreign_acl = 1;
			}
			continue;
		}
		if (!xattr_wanted(w, name)) {
			left |= k != AE_XATTR_NEVER;
			continue;
		}
		if (k == AE_XATTR_ACL_TEXT) {
			/* GNU tar's and bsdtar's text, into the kernel's form */
			ssize_t bl = ae_acl_from_text(&w->owners,
			    (const char *)val, len, w->aclbuf, sizeof w->aclbuf);

			if (bl < 0) {
				ae_dw_warn_plain(w, m, "its ACL is not one this system "
				    "takes; left out");
				continue;
			}
			name = strcmp(name, "SCHILY.acl.access") == 0 ?
			    "system.posix_acl_access" : "system.posix_acl_default";
			val = w->aclbuf;
			len = (size_t)bl;
		}
		if (later != NULL
		    && strcmp(name, "system.posix_acl_default") == 0) {
			/* a directory's default ACL: set with its mode, at
			 * the end (fix_dir) */
			uint8_t *c = malloc(len ? len : 1);

			if (c != NULL) {
				memcpy(c, val, len);
				free(later->dacl);
				later->dacl = c;
				later->dacl_len = len;
				continue;
			}
		}
		if (ae_xattr_set(fd, name, val, len) == 0)
			continue;
		r.event = AE_DW_WARNING;
		r.name = m->path;
		r.m = m;
		r.why = "cannot set extended attribute %s";
		r.arg = name;
		r.err = errno;
		w->p->report(w->p->ctx, &r);
		w->partial = 1;
	}
	if (left && (f & AE_DW_NOTE_XATTRS) && !w->noted_xattrs) {
		ae_dw_notify(w, AE_DW_XATTRS_LEFT, m, m->path,
		    f & (AE_DW_XATTRS | AE_DW_ACLS) ? "filtered" : NULL, 0);
		w->noted_xattrs = 1;
	}
}
