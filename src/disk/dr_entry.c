/*
 * dr_entry.c -- a member's header as the tree walk writes it (dr.h):
 * its fields from a stat, its extended attributes and ACLs (as xattr.h
 * and acl.h read them), and the hard links already seen.
 */
#include "config.h"
#include "reader.h"
#include "dr.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "common/grow.h"
#include "xattr.h"

/* Fill e from st for member name. */
void
ae_dr_entry_from_stat(struct packer *p, struct ae_tar_entry *e, const char *name,
    const struct stat *st, char type)
{
	memset(e, 0, sizeof *e);
	e->path = name;
	e->type = type;
	e->mode = (uint32_t)st->st_mode & 07777;
	e->uid = st->st_uid;
	e->gid = st->st_gid;
	e->mtime = st->st_mtim.tv_sec;
	e->mtime_nsec = (uint32_t)st->st_mtim.tv_nsec;
	e->uname = ae_owners_user_name(&p->owners, st->st_uid);
	e->gname = ae_owners_group_name(&p->owners, st->st_gid);
}

static ssize_t
xlist(const struct xsrc *x, char *buf, size_t n)
{
	char proc[64 + 256];

	if (x->fd >= 0 || x->dirfd == AT_FDCWD)
		return ae_xattr_list(x->fd, x->leaf, buf, n);
	/* a symlink's own attributes: by a path through its directory's
	 * descriptor, which stays short whatever the depth */
	if (snprintf(proc, sizeof proc, "/proc/self/fd/%d/%s", x->dirfd,
	    x->leaf) >= (int)sizeof proc)
		return -1;
	return ae_xattr_list(-1, proc, buf, n);
}

static ssize_t
xget(const struct xsrc *x, const char *name, uint8_t *buf, size_t n)
{
	char proc[64 + 256];

	if (x->fd >= 0 || x->dirfd == AT_FDCWD)
		return ae_xattr_get(x->fd, x->leaf, name, buf, n);
	if (snprintf(proc, sizeof proc, "/proc/self/fd/%d/%s", x->dirfd,
	    x->leaf) >= (int)sizeof proc)
		return -1;
	return ae_xattr_get(-1, proc, name, buf, n);
}

/*
 * The entry's extended attributes that the flags keep (AE_DR_XATTRS:
 * all but the system.* namespace; AE_DR_ACLS: the POSIX ACLs), into
 * p->xbuf; returns their length and sets *count.  Without either flag
 * nothing is read, except with AE_DR_NOTE_XATTRS, which reports once
 * that some file had attributes that were not kept (GNU tar, the anchor
 * here, keeps none by default).
 */
static size_t
collect_xattrs(struct packer *p, const struct xsrc *x, size_t *count)
{
	unsigned f = p->po->flags;
	ssize_t nl, vl;
	size_t len = 0;
	char *name;
	int dropped = 0;

	*count = 0;
	if (!(f & (AE_DR_XATTRS | AE_DR_ACLS))
	    && (!(f & AE_DR_NOTE_XATTRS) || p->noted_xattrs))
		return 0;
	if ((nl = xlist(x, p->xnames, sizeof p->xnames)) <= 0)
		return 0;
	for (name = p->xnames; name < p->xnames + nl;
	    name += strlen(name) + 1) {
		enum ae_xattr_kind k = ae_xattr_kind(name);
		int keep = k == AE_XATTR_ACL ? (f & AE_DR_ACLS) != 0 :
		    (f & AE_DR_XATTRS) != 0 && ae_xattr_wanted(p->po->xattrs,
		    name, 0, 0);

		if (!keep) {
			dropped = 1;
			continue;
		}
		if ((vl = xget(x, name, p->xval, sizeof p->xval)) < 0) {
			char what[320];

			snprintf(what, sizeof what, "Cannot get extended "
			    "attribute %.256s", name);
			ae_dr_warn_errno(p, p->path, what);
			continue;
		}
		if (k == AE_XATTR_ACL) {
			/* as GNU tar and bsdtar store an ACL: as text in its
			 * own pax record, which both read back (tar.h) */
			ssize_t tl = ae_acl_to_text(&p->owners, p->xval,
			    (size_t)vl, p->acltext, sizeof p->acltext);
			const char *rec = strcmp(name, "system.posix_acl_access")
			    == 0 ? "SCHILY.acl.access" : "SCHILY.acl.default";

			if (tl < 0 || ae_tar_xattr_append(&p->xbuf, &len,
			    &p->xcap, SIZE_MAX, rec, strlen(rec),
			    (const uint8_t *)p->acltext, (size_t)tl) != 0) {
				ae_dr_warn_plain(p, p->path, "its ACL cannot be read "
				    "or stored; not archived");
				continue;
			}
		} else if (ae_tar_xattr_append(&p->xbuf, &len, &p->xcap, SIZE_MAX,
		    name, strlen(name), p->xval, (size_t)vl) != 0) {
			char what[320];

			/* (a name over 255 bytes, or no memory) */
			snprintf(what, sizeof what, "extended attribute %.256s "
			    "cannot be stored; not archived", name);
			ae_dr_warn_plain(p, p->path, what);
			continue;
		}
		++*count;
	}
	if (dropped && (f & AE_DR_NOTE_XATTRS) && !p->noted_xattrs) {
		ae_dr_report_path(p, AE_DR_XATTRS_LEFT, p->path, NULL, 0);
		p->noted_xattrs = 1;
	}
	return len;
}

/* Write e's header, with the attributes x has; 0, or -1 (warned) if it
 * cannot be encoded. */
int
ae_dr_emit_header(struct packer *p, const struct ae_tar_entry *e0,
    const struct xsrc *x)
{
	struct ae_tar_entry e = *e0;
	size_t len;
	int r;

	/* (collect_xattrs may move p->xbuf) */
	e.xattr_len = collect_xattrs(p, x, &e.nxattr);
	e.xattr = e.xattr_len > 0 ? p->xbuf : NULL;
	r = ae_tar_header(&e, p->hdr, sizeof p->hdr, &len);
	if (r == AE_ETOOBIG && e.xattr != NULL) {
		ae_dr_warn_plain(p, p->path, "extended attributes too large to "
		    "store; not archived");
		e.xattr = NULL;
		e.xattr_len = e.nxattr = 0;
		r = ae_tar_header(&e, p->hdr, sizeof p->hdr, &len);
	}
	if (r != AE_OK) {
		ae_dr_warn_plain(p, p->path, "cannot be stored in a tar header; "
		    "not dumped");
		return -1;
	}
	if (!p->stopped) {
		struct ae_dr_report rp;

		memset(&rp, 0, sizeof rp);
		rp.event = AE_DR_MEMBER;
		rp.name = p->path;
		rp.e = &e;
		rp.offset = p->flushed + p->olen;
		ae_dr_notify(p, &rp);
	}
	if (p->po->lead_len > 0 && p->flushed + p->olen == 0)
		ae_dr_emit(p, p->po->lead, p->po->lead_len);
	ae_dr_emit(p, p->hdr, len);
	return 0;
}

const char *
ae_dr_link_lookup(struct packer *p, const struct stat *st)
{
	size_t i;

	for (i = 0; i < p->nlinks; i++)
		if (p->links[i].dev == st->st_dev
		    && p->links[i].ino == st->st_ino)
			return p->links[i].name;
	return NULL;
}

void
ae_dr_link_remember(struct packer *p, const struct stat *st, const char *name)
{
	if (ae_grow(&p->links, &p->caplinks, p->nlinks + 1, sizeof *p->links,
	    64, 0) != 0)
		return;     /* later links are stored as copies */
	if ((p->links[p->nlinks].name = strdup(name)) == NULL)
		return;
	p->links[p->nlinks].dev = st->st_dev;
	p->links[p->nlinks].ino = st->st_ino;
	p->nlinks++;
}
