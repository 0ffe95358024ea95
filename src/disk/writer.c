/*
 * writer.c -- the safe disk writer (contract in writer.h).
 *
 * The rules, and the attack each one closes:
 *   - A leading '/' is stripped (reported once) and a member with a
 *     ".." component is refused: no name can point outside the root.
 *   - A member's directory is opened with no symlink in any component
 *     (beneath.c): "link -> /etc" then "link/passwd", a directory
 *     swapped for a link, link chains, all fail there.
 *   - Nothing is ever opened by its final name.  Files are made with no
 *     name (O_TMPFILE) or under a temp name in their directory, symlinks
 *     and hard links under a temp name, and each is moved into place
 *     only when complete, so an existing file or symlink there is
 *     replaced, never written through, and a file appears under its
 *     name only when its data is complete (the data read from the
 *     pipeline has authenticated by then).  If the archive fails inside
 *     a member, the file is removed.
 *   - A hard link must point at a regular file that this run extracted
 *     earlier, still the same inode: not /etc/passwd, not a symlink (the
 *     hardlink-to-symlink trick of CVE-2025-4330).
 *   - Device nodes and FIFOs are made as files are: under a temp name
 *     in the safe parent, 0600 until their owner, mode and time are
 *     set, then moved into place (a device only where the system lets
 *     the caller make one: root).  Setuid and setgid bits only with
 *     AE_DW_PERMS; owners only with AE_DW_OWNER.
 *   - Directories are made 0700 and get their modes and mtimes at the
 *     end, so a read-only directory in the archive does not stop its
 *     own members and a later member does not disturb an mtime.
 */
#include "config.h"
#include "writer.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#ifdef __GLIBC__
#include <sys/sysmacros.h>      /* makedev (the BSDs: sys/types.h) */
#endif
#include <unistd.h>

#include "anon.h"
#include "beneath.h"
#include "common/error.h"
#include "common/io.h"
#include "dircache.h"
#include "crypto/random.h"
#include "crypto/wipe.h"
#include "owners.h"
#include "path.h"
#include "acl.h"
#include "xattr.h"

#define DATA_BUF (256 * 1024)

/* The longest temp name: ".aescrypt-", 12 hex digits, "-", 16 more. */
#define TMP_NAME 48

/* Files this run made, by normalized path: hard links may point only
 * at these. */
struct made {
	char *path;
	dev_t dev;
	ino_t ino;
};

/* A directory whose mode, owner and mtime are set at the end. */
struct dirfix {
	char *path;
	size_t seq;             /* its place in the stream */
	mode_t mode;
	struct timespec mtime;
	uid_t uid;
	gid_t gid;
	uint8_t *dacl;          /* its default ACL (kernel form), or NULL:
	                         * set last, so that what is made under it
	                         * does not inherit it (GNU tar, bsdtar) */
	size_t dacl_len;
};

struct ae_dw {
	struct ae_dw_params p;
	struct ae_tar_reader *tr;   /* the member's stream, in ae_dw_member */
	int partial;                /* some member was skipped (exit 1) */
	int fatal;                  /* AE_E* that ends the run, or 0 */
	int warned_abs;
	int noted_xattrs;
	int noted_foreign_acl;      /* --acls: said once that an NFSv4 or
	                             * Solaris ACL was left out */
	uint8_t aclbuf[AE_ACL_MAX]; /* an ACL's text, as the kernel takes it */
	uint8_t *buf;               /* DATA_BUF bytes of member data */
	struct made *made;          /* open addressing on an FNV-1a hash */
	size_t nmade, capmade;      /* capmade: a power of two, or 0 */
	struct dirfix *dirs;
	size_t ndirs, capdirs;
	/* The members' directories, kept open (open_parent, fix_dirs): a
	 * tar stream goes back to a directory after each of its
	 * subdirectories, and a deep one opens each level from the one
	 * above. */
	struct ae_dircache dc;
	char tmp_prefix[13];        /* temp names: a random prefix per run */
	uint64_t tmp_count;         /* and a counter */
	struct ae_anon anon;        /* how a nameless file gets a name */
	struct ae_owners owners;    /* names to ids */
	char norm[AE_TAR_NAME_MAX + 1];     /* the member's name, normalized */
	char target[AE_TAR_NAME_MAX + 1];   /* a hard link's, normalized */
	char norm2[AE_TAR_NAME_MAX + 1];    /* -g: a rename's source */
};

/* ---- reports ---- */

static void
report(struct ae_dw *w, enum ae_dw_event ev, const struct ae_tar_member *m,
    const char *name, const char *why, int err)
{
	struct ae_dw_report r;

	r.event = ev;
	r.name = name;
	r.m = m;
	r.why = why;
	r.arg = NULL;
	r.err = err;
	w->p.report(w->p.ctx, &r);
}

/* A member not made, for a reason that is not an errno. */
static void
skip(struct ae_dw *w, const struct ae_tar_member *m, const char *why)
{
	report(w, AE_DW_SKIPPED, m, m->path, why, 0);
	w->partial = 1;
}

/* A member not made because a system call failed (errno). */
static void
skip_errno(struct ae_dw *w, const struct ae_tar_member *m, const char *what)
{
	report(w, AE_DW_SKIPPED, m, m->path, what, errno);
	w->partial = 1;
}

/* A member made, but not all as it was (errno). */
static void
warn_errno(struct ae_dw *w, const struct ae_tar_member *m, const char *name,
    const char *what)
{
	report(w, AE_DW_WARNING, m, name, what, errno);
	w->partial = 1;
}

/* A member made, but not all as it was (no errno). */
static void
warn_plain(struct ae_dw *w, const struct ae_tar_member *m, const char *what)
{
	report(w, AE_DW_WARNING, m, m->path, what, 0);
	w->partial = 1;
}

/* A write error ends the run: the next member would fail the same way
 * (a full disk), and the user should know at once. */
static void
fatal_errno(struct ae_dw *w, const struct ae_tar_member *m)
{
	report(w, AE_DW_FAILED, m, m->path, NULL, errno);
	w->fatal = AE_EIO;
}

/* ---- bookkeeping ---- */

static uint64_t
hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (*s)
		h = (h ^ (uint8_t)*s++) * 0x100000001b3ull;
	return h;
}

static struct made *
made_find(struct ae_dw *w, const char *path)
{
	size_t i;

	if (w->capmade == 0)
		return NULL;
	for (i = hash(path) & (w->capmade - 1); w->made[i].path != NULL;
	    i = (i + 1) & (w->capmade - 1))
		if (strcmp(w->made[i].path, path) == 0)
			return &w->made[i];
	return NULL;
}

/* Double the table (or make its first 1024 slots).  0 or -1. */
static int
made_grow(struct ae_dw *w)
{
	size_t cap = w->capmade ? 2 * w->capmade : 1024, k, i;
	struct made *t = calloc(cap, sizeof *t);

	if (t == NULL)
		return -1;
	for (k = 0; k < w->capmade; k++) {
		if (w->made[k].path == NULL)
			continue;
		for (i = hash(w->made[k].path) & (cap - 1); t[i].path != NULL;
		    i = (i + 1) & (cap - 1))
			;
		t[i] = w->made[k];
	}
	free(w->made);
	w->made = t;
	w->capmade = cap;
	return 0;
}

static int
made_add(struct ae_dw *w, const char *path, dev_t dev, ino_t ino)
{
	struct made *m;
	size_t i;

	if ((m = made_find(w, path)) != NULL) {
		m->dev = dev;
		m->ino = ino;
		return 0;
	}
	if (2 * (w->nmade + 1) > w->capmade && made_grow(w) != 0)
		return -1;
	for (i = hash(path) & (w->capmade - 1); w->made[i].path != NULL;
	    i = (i + 1) & (w->capmade - 1))
		;
	if ((w->made[i].path = strdup(path)) == NULL)
		return -1;
	w->made[i].dev = dev;
	w->made[i].ino = ino;
	w->nmade++;
	return 0;
}

/* A file that is no longer ours (replaced by a later member). */
static void
made_forget(struct ae_dw *w, const char *path)
{
	struct made *m = made_find(w, path);

	if (m != NULL)
		m->ino = 0, m->dev = 0;
}

/* ---- names ---- */

/* The name to extract member path under, in out (AE_TAR_NAME_MAX + 1
 * bytes), or NULL (reported) to skip it; what names the path in the
 * report ("its name", "its link target"). */
static const char *
safe_name(struct ae_dw *w, const struct ae_tar_member *m, const char *path,
    char out[AE_TAR_NAME_MAX + 1], int link)
{
	const char *p = path;

	if (*p == '/') {
		while (*p == '/')
			p++;
		if (!w->warned_abs) {
			report(w, AE_DW_ABSOLUTE, NULL, path, NULL, 0);
			w->warned_abs = 1;
		}
	}
	if (ae_path_has_dotdot(p)) {
		skip(w, m, link ? "its link target contains '..'" :
		    "its name contains '..'");
		return NULL;
	}
	if (ae_path_normalize(p, out, AE_TAR_NAME_MAX + 1) != 0) {
		skip(w, m, link ? "its link target is too long" :
		    "its name is too long");
		return NULL;
	}
	return out;
}

/*
 * The directory that will hold norm, opened under the root with no
 * symlink in its path (dircache.h); *leaf points into norm.  The
 * descriptor belongs to the cache: most members reuse one (one open per
 * directory instead of one per file), and a deep one is opened from the
 * level above.  Returns the descriptor or -1 (reported).
 */
static int
open_parent(struct ae_dw *w, const struct ae_tar_member *m, char *norm,
    const char **leaf)
{
	char *slash = strrchr(norm, '/');
	int fd, err;

	if (slash != NULL)
		*slash = '\0';
	*leaf = slash != NULL ? slash + 1 : norm;
	err = ae_dircache_open(&w->dc, slash != NULL ? norm : "",
	    slash != NULL, 0777, &fd);
	if (slash != NULL)
		*slash = '/';
	if (err != AE_OK) {
		if (err == AE_EINVAL)
			errno = EINVAL;
		else if (err == AE_ENOMEM)
			errno = ENOMEM;
		skip_errno(w, m, "cannot open its directory");
		return -1;
	}
	return fd;
}

/*
 * A fresh name in dirfd for a file about to be made; made by mk(), which
 * returns 0 or -1 with errno (EEXIST: try another name).  The names are
 * ".aescrypt-" and a random prefix drawn once per run, then a counter:
 * one getrandom for the whole archive instead of one per member (13,000
 * of them for a tree of 13,000 files).  Unpredictability is not what
 * makes them safe: every one is created O_EXCL | O_NOFOLLOW in a
 * directory opened with no symlink in its path, and a name that exists
 * already is skipped.
 */
static int
make_temp(struct ae_dw *w, int dirfd, char tmp[TMP_NAME],
    int (*mk)(int, const char *, void *), void *arg)
{
	static const char hex[] = "0123456789abcdef";
	int tries;

	if (w->tmp_prefix[0] == '\0') {
		uint8_t rnd[6];
		int i;

		if (ae_random(rnd, sizeof rnd) != AE_OK)
			return -1;
		for (i = 0; i < 6; i++) {
			w->tmp_prefix[2 * i] = hex[rnd[i] >> 4];
			w->tmp_prefix[2 * i + 1] = hex[rnd[i] & 15];
		}
		w->tmp_prefix[12] = '\0';
	}
	for (tries = 0; tries < 100; tries++) {
		snprintf(tmp, TMP_NAME, ".aescrypt-%s-%llx", w->tmp_prefix,
		    (unsigned long long)w->tmp_count++);
		if (mk(dirfd, tmp, arg) == 0)
			return 0;
		if (errno != EEXIST)
			return -1;
	}
	return -1;
}

struct anon {
	struct ae_dw *w;
	int fd;
};

static int
mk_anon_link(int dirfd, const char *tmp, void *arg)
{
	struct anon *a = arg;

	return ae_anon_link(&a->w->anon, a->fd, dirfd, tmp);
}

static int
mk_file(int dirfd, const char *tmp, void *fdp)
{
	int fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW
	    | O_CLOEXEC, 0600);

	if (fd < 0)
		return -1;
	*(int *)fdp = fd;
	return 0;
}

static int
mk_symlink(int dirfd, const char *tmp, void *target)
{
	return symlinkat((const char *)target, dirfd, tmp);
}

/* A device or FIFO for mk_node: S_IFCHR, S_IFBLK or S_IFIFO, and its
 * number. */
struct nodearg {
	mode_t type;
	dev_t dev;
};

static int
mk_node(int dirfd, const char *tmp, void *arg)
{
	const struct nodearg *n = arg;

	if (n->type == S_IFIFO)
		return mkfifoat(dirfd, tmp, 0600);
	return mknodat(dirfd, tmp, n->type | 0600, n->dev);
}

struct linkarg {
	int dirfd;
	const char *leaf;
};

static int
mk_link(int dirfd, const char *tmp, void *arg)
{
	struct linkarg *l = arg;

	return linkat(l->dirfd, l->leaf, dirfd, tmp, 0);
}

/* AE_DW_KEEP_OLD: tmp to leaf only if leaf does not exist.  0, or -1
 * with errno (EEXIST if it does). */
static int
install_new(int dirfd, const char *tmp, const char *leaf)
{
	int r = -1;

#ifdef HAVE_RENAMEAT2
	r = renameat2(dirfd, tmp, dirfd, leaf, RENAME_NOREPLACE);
#else
	errno = ENOSYS;
#endif
	if (r != 0 && (errno == EINVAL || errno == ENOSYS)) {
		/* No RENAME_NOREPLACE here: a link fails the same way if
		 * the name exists. */
		r = linkat(dirfd, tmp, dirfd, leaf, 0);
		if (r == 0)
			unlinkat(dirfd, tmp, 0);
	}
	return r;
}

/* Why member m must not replace what exists, or NULL if it may.  A
 * member found by searching for headers after a lost chunk may be a file
 * inside another member (a stored .tar): it never replaces anything. */
static const char *
keeps_old(const struct ae_dw *w, const struct ae_tar_member *m)
{
	if (m->after_gap == 1)
		return "exists, and this member was found by searching for "
		    "headers after a lost chunk";
	if (w->p.flags & AE_DW_KEEP_OLD)
		return "exists (--keep-old-files)";
	return NULL;
}

/* AE_DW_SKIP_OLD, AE_DW_KEEP_NEWER: whether what exists at leaf in
 * dirfd stays (reported as AE_DW_KEPT). */
static int
stays(struct ae_dw *w, int dirfd, const char *leaf,
    const struct ae_tar_member *m)
{
	struct stat st;

	if (!(w->p.flags & (AE_DW_SKIP_OLD | AE_DW_KEEP_NEWER))
	    || fstatat(dirfd, leaf, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return 0;
	if (w->p.flags & AE_DW_SKIP_OLD) {
		report(w, AE_DW_KEPT, m, m->path, NULL, 0);
		return 1;
	}
	/* as GNU tar: "newer or same age" */
	if ((int64_t)st.st_mtim.tv_sec < m->mtime
	    || ((int64_t)st.st_mtim.tv_sec == m->mtime
	    && (uint32_t)st.st_mtim.tv_nsec < m->mtime_nsec))
		return 0;
	report(w, AE_DW_KEPT, m, m->path, "newer or same age", 0);
	return 1;
}

/*
 * Move tmp to leaf in dirfd: over an existing file or symlink (never
 * through it), over an empty directory, or not at all if keeps_old or
 * stays.  0, or -1 (reported, tmp removed).
 */
static int
install(struct ae_dw *w, int dirfd, const char *tmp, const char *leaf,
    const struct ae_tar_member *m)
{
	const char *keep = keeps_old(w, m);
	int r, e;

	if (stays(w, dirfd, leaf, m)) {
		unlinkat(dirfd, tmp, 0);
		return -1;
	}
	if (keep != NULL) {
		if ((r = install_new(dirfd, tmp, leaf)) == 0)
			return 0;
	} else {
		r = renameat(dirfd, tmp, dirfd, leaf);
		if (r != 0 && (errno == EISDIR || errno == ENOTEMPTY
		    || errno == EEXIST)) {
			/* A directory is in the way: tar replaces it if
			 * empty. */
			if (unlinkat(dirfd, leaf, AT_REMOVEDIR) == 0) {
				/* it may be one of the kept directories */
				ae_dircache_forget(&w->dc, dirfd);
				r = renameat(dirfd, tmp, dirfd, leaf);
			} else {
				errno = EISDIR;
			}
		}
		if (r == 0)
			return 0;
	}
	e = errno;
	unlinkat(dirfd, tmp, 0);
	errno = e;
	if (e == EEXIST && keep != NULL)
		skip(w, m, keep);
	else if (e == EISDIR)
		skip(w, m, "a directory that is not empty is in the way");
	else
		skip_errno(w, m, "cannot create it");
	return -1;
}

/*
 * A new empty file in dirfd for a member's data, 0600, not under its
 * final name: with no name (*anon = 1, anon.h) where it can be named
 * later, else under a temp name in tmp.  How a nameless file is named is
 * learnt before the first one, on an empty probe.  0, or -1 with
 * errno.
 */
static int
new_file(struct ae_dw *w, int dirfd, char tmp[TMP_NAME], int *fdp,
    int *anon)
{
	*anon = 0;
	if (w->anon.how != AE_ANON_NONE) {
		struct anon a = { w, -1 };

		a.fd = ae_anon_create(dirfd);
		if (a.fd >= 0 && w->anon.how != AE_ANON_UNKNOWN) {
			*fdp = a.fd;
			*anon = 1;
			return 0;
		}
		if (a.fd >= 0) {
			/* The first file: learn how to name one on an empty
			 * probe, named for a moment and removed, so that no
			 * member's data is ever under a temp name (a SIGKILL
			 * while the first file is written left a named,
			 * half-written temp).  A linked O_TMPFILE file cannot
			 * be nameless again: the member gets a new one. */
			if (make_temp(w, dirfd, tmp, mk_anon_link, &a) == 0) {
				unlinkat(dirfd, tmp, 0);
				close(a.fd);
				if ((a.fd = ae_anon_create(dirfd)) >= 0) {
					*fdp = a.fd;
					*anon = 1;
					return 0;
				}
			} else {
				close(a.fd);
			}
			w->anon.how = AE_ANON_NONE;
		}
		/* else this file system has no O_TMPFILE: a temp name,
		 * for this file only (another directory may be another
		 * file system) */
	}
	return make_temp(w, dirfd, tmp, mk_file, fdp);
}

/*
 * Give a complete file made by new_file its final name: a link where
 * the name is free, else through a temp name and install(), which knows
 * what to do with what is there (AE_DW_KEEP_OLD, a directory in the
 * way).  0, or -1 (reported; the file is gone).
 */
static int
name_file(struct ae_dw *w, int fd, int anon, int dirfd, char tmp[TMP_NAME],
    const char *leaf, const struct ae_tar_member *m)
{
	struct anon a = { w, fd };

	if (!anon)
		return install(w, dirfd, tmp, leaf, m);
	if (ae_anon_link(&w->anon, fd, dirfd, leaf) == 0)
		return 0;
	if (errno != EEXIST || make_temp(w, dirfd, tmp, mk_anon_link,
	    &a) != 0) {
		skip_errno(w, m, "cannot create it");
		return -1;
	}
	return install(w, dirfd, tmp, leaf, m);
}

static mode_t
member_mode(const struct ae_dw *w, uint32_t mode)
{
	if (w->p.flags & AE_DW_PERMS)
		return (mode_t)(mode & 07777);
	return (mode_t)(mode & 01777 & ~w->p.umask);
}

static void
owner_ids(struct ae_dw *w, const struct ae_tar_member *m, uid_t *uid,
    gid_t *gid)
{
	*uid = ae_owners_user_id(&w->owners, m->uname, (uid_t)m->uid);
	*gid = ae_owners_group_id(&w->owners, m->gname, (gid_t)m->gid);
}

static struct timespec
mtime_of(const struct ae_tar_member *m)
{
	struct timespec t;

	t.tv_sec = (time_t)m->mtime;
	t.tv_nsec = (long)m->mtime_nsec;
	return t;
}

/* ---- member types ---- */

/* Whether attribute name of a member is restored, by the flags and the
 * patterns. */
static int
xattr_wanted(const struct ae_dw *w, const char *name)
{
	unsigned f = w->p.flags;

	switch (ae_xattr_kind(name)) {
	case AE_XATTR_ACL:
	case AE_XATTR_ACL_TEXT:
		return (f & AE_DW_ACLS) != 0;
	case AE_XATTR_PLAIN:
		return (f & AE_DW_XATTRS) && ae_xattr_wanted(w->p.xattrs, name, 1,
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
static void
apply_xattrs(struct ae_dw *w, const struct ae_tar_member *m, int fd,
    struct dirfix *later)
{
	unsigned f = w->p.flags;
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
				warn_plain(w, m, "it has an ACL of a kind this "
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
				warn_plain(w, m, "its ACL is not one this system "
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
		w->p.report(w->p.ctx, &r);
		w->partial = 1;
	}
	if (left && (f & AE_DW_NOTE_XATTRS) && !w->noted_xattrs) {
		report(w, AE_DW_XATTRS_LEFT, m, m->path,
		    f & (AE_DW_XATTRS | AE_DW_ACLS) ? "filtered" : NULL, 0);
		w->noted_xattrs = 1;
	}
}

/* What copy_data returns for a file this file system cannot hold (a
 * sparse member's size past its limit): the member is skipped, the run
 * goes on. */
#define TOO_BIG 1

/* Whether errno says a size or offset is past what the file system (or
 * off_t) holds. */
static int
too_big(void)
{
	return errno == EFBIG || errno == EOVERFLOW || errno == EINVAL;
}

/*
 * Read m's data into fd: holes (a sparse member's, and blocks of zeros)
 * become holes, as cp --sparse=auto does: the contents are the same, and
 * a big sparse file that was stored dense does not come back dense.
 * *used is how much of the buffer held plaintext (to wipe).  AE_OK;
 * TOO_BIG (not reported) if a hole or the size goes past what the file
 * system holds; AE_EIO after a write failed (reported); the stream's
 * error or AE_EINTR (not reported).
 */
static int
copy_data(struct ae_dw *w, const struct ae_tar_member *m, int fd,
    size_t *used)
{
	size_t got;
	int r, hole = 0;

	for (;;) {
		int in_hole;

		r = ae_tar_read_data(w->tr, m, w->buf, DATA_BUF, &got, &in_hole);
		if (r != AE_OK || got == 0)
			break;
		if (!in_hole && got > *used)
			*used = got;
		if (w->p.stop != NULL && atomic_load(w->p.stop))
			return AE_EINTR;
		if (in_hole || (w->buf[0] == 0
		    && memcmp(w->buf, w->buf + 1, got - 1) == 0)) {
			if (lseek(fd, (off_t)got, SEEK_CUR) < 0) {
				if (too_big())
					return TOO_BIG;
				fatal_errno(w, m);
				return AE_EIO;
			}
			hole = 1;
			continue;
		}
		hole = 0;
		if (ae_write_full(fd, w->buf, got) != 0) {
			if (errno == EFBIG)
				return TOO_BIG;
			fatal_errno(w, m);
			return AE_EIO;
		}
	}
	if (r == AE_OK && hole && ftruncate(fd, (off_t)m->size) != 0) {
		if (too_big())
			return TOO_BIG;
		fatal_errno(w, m);
		return AE_EIO;
	}
	return r;
}

/* A complete file's owner, mode, attributes and times, before it gets
 * its name.  0, or -1 after a fatal error (reported). */
static int
finish_file(struct ae_dw *w, const struct ae_tar_member *m, int fd,
    struct stat *st)
{
	struct timespec ts[2];

	if (w->p.flags & AE_DW_OWNER) {
		uid_t uid;
		gid_t gid;

		owner_ids(w, m, &uid, &gid);
		if (fchown(fd, uid, gid) != 0)
			warn_errno(w, m, m->path, "cannot set its owner");
	}
	ts[0].tv_sec = 0;
	ts[0].tv_nsec = UTIME_NOW;
	ts[1] = mtime_of(m);
	if (fchmod(fd, member_mode(w, m->mode)) != 0) {
		fatal_errno(w, m);
		return -1;
	}
	apply_xattrs(w, m, fd, NULL);
	if (futimens(fd, ts) != 0 || fstat(fd, st) != 0) {
		fatal_errno(w, m);
		return -1;
	}
	return 0;
}

static void
extract_file(struct ae_dw *w, const struct ae_tar_member *m, char *norm)
{
	const char *leaf;
	struct stat st;
	char tmp[TMP_NAME];
	int dirfd, fd = -1, r, anon;
	size_t used = 0;     /* of buf, to wipe: plaintext */

	if (m->size > (uint64_t)INT64_MAX) {
		/* (no off_t holds it: a sparse member's stated size) */
		skip(w, m, "its size is more than any file system holds");
		return;
	}
	if ((dirfd = open_parent(w, m, norm, &leaf)) < 0)
		return;
	if (new_file(w, dirfd, tmp, &fd, &anon) != 0) {
		skip_errno(w, m, "cannot create it");
		return;
	}
	r = copy_data(w, m, fd, &used);
	ae_wipe(w->buf, used);
	if (r == AE_EIO)
		goto undo;
	if (r == TOO_BIG) {
		/* the rest of its data is skipped with it by the next
		 * ae_tar_next, so the run goes on */
		skip_errno(w, m, "its size is more than this file system holds");
		goto undo;
	}
	if (r != AE_OK) {
		/* The archive failed (or was stopped) inside this member;
		 * the caller says why.  Nothing may stay behind. */
		report(w, AE_DW_BROKEN, m, m->path, NULL, r);
		w->fatal = r;
		goto undo;
	}
	if (w->p.intact != NULL && !w->p.intact(w->p.ctx, m)) {
		/* (salvage) part of it was in a lost chunk: its bytes there
		 * are zeros, so it never appears under its name */
		report(w, AE_DW_LOST, m, m->path, NULL, 0);
		goto undo;
	}
	if (finish_file(w, m, fd, &st) != 0)
		goto undo;
	if (!anon && close(fd) != 0) {
		fd = -1;
		fatal_errno(w, m);
		goto undo;
	}
	if (name_file(w, fd, anon, dirfd, tmp, leaf, m) != 0) {
		if (anon)
			close(fd);
		return;
	}
	if (anon && close(fd) != 0) {
		/* A late write error (NFS reports them here): the name
		 * was made by this run, so it goes with the data. */
		fatal_errno(w, m);
		unlinkat(dirfd, leaf, 0);
		return;
	}
	made_add(w, norm, st.st_dev, st.st_ino);
	return;
undo:
	if (fd >= 0)
		close(fd);
	if (!anon)
		unlinkat(dirfd, tmp, 0);
}

/*
 * Give what this run just made under the temp name tmp in dirfd (a
 * symlink, a device, a FIFO: nothing else can be there, in a directory
 * opened with no symlink in its path) m's owner, its mode unless it is
 * a symlink, and its mtime; then move it to leaf.
 */
static void
finish_temp(struct ae_dw *w, const struct ae_tar_member *m, char *norm,
    int dirfd, const char *tmp, const char *leaf)
{
	struct timespec ts[2];

	if (w->p.flags & AE_DW_OWNER) {
		uid_t uid;
		gid_t gid;

		owner_ids(w, m, &uid, &gid);
		if (fchownat(dirfd, tmp, uid, gid, AT_SYMLINK_NOFOLLOW) != 0)
			warn_errno(w, m, m->path, "cannot set its owner");
	}
	if (m->type != AE_TAR_SYMLINK
	    && fchmodat(dirfd, tmp, member_mode(w, m->mode), 0) != 0)
		warn_errno(w, m, m->path, "cannot set its mode");
	ts[0].tv_sec = 0;
	ts[0].tv_nsec = UTIME_NOW;
	ts[1] = mtime_of(m);
	utimensat(dirfd, tmp, ts, AT_SYMLINK_NOFOLLOW);
	if (install(w, dirfd, tmp, leaf, m) == 0)
		made_forget(w, norm);
}

static void
extract_symlink(struct ae_dw *w, const struct ae_tar_member *m, char *norm)
{
	const char *leaf;
	char tmp[TMP_NAME];
	int dirfd;

	if ((dirfd = open_parent(w, m, norm, &leaf)) < 0)
		return;
	if (make_temp(w, dirfd, tmp, mk_symlink, (void *)m->linkpath) != 0) {
		skip_errno(w, m, "cannot create it");
		return;
	}
	finish_temp(w, m, norm, dirfd, tmp, leaf);
}

/* A character or block device ('3', '4') or a FIFO ('6'), as tar makes
 * them: where the system refuses (a device, not as root), skipped with
 * a warning. */
static void
extract_special(struct ae_dw *w, const struct ae_tar_member *m, char *norm)
{
	struct nodearg n;
	const char *leaf;
	char tmp[TMP_NAME];
	int dirfd;

	n.type = m->type == '3' ? S_IFCHR : m->type == '4' ? S_IFBLK : S_IFIFO;
	n.dev = n.type == S_IFIFO ? 0 : makedev(m->devmajor, m->devminor);
	/* A device node is a door to the hardware: root extracting an
	 * untrusted archive without its owners or modes must not get a
	 * 0644 node for the system disk. */
	if (n.type != S_IFIFO && (w->p.flags & AE_DW_NO_DEVICES)) {
		skip(w, m, "a device node, not made in this run (--no-devices, "
		    "--no-same-owner or --no-same-permissions)");
		return;
	}
	if ((dirfd = open_parent(w, m, norm, &leaf)) < 0)
		return;
	if (make_temp(w, dirfd, tmp, mk_node, &n) != 0) {
		if (errno == EPERM && n.type != S_IFIFO)
			skip(w, m, "a device node, which only root can make");
		else
			skip_errno(w, m, "cannot create it");
		return;
	}
	finish_temp(w, m, norm, dirfd, tmp, leaf);
}

/* A hard link's target: the directory that holds it, opened with no
 * symlink in its path, and the file there, still the one this run made.
 * The directory's descriptor (the caller closes it) and *leaf, *st; or
 * -1 (reported). */
static int
link_target(struct ae_dw *w, const struct ae_tar_member *m, char *target,
    const char **leaf, struct stat *st)
{
	struct made *mk = made_find(w, target);
	char *slash;
	int tdir, r;

	if (mk == NULL || mk->ino == 0) {
		struct ae_dw_report rp;

		rp.event = AE_DW_SKIPPED;
		rp.name = m->path;
		rp.m = m;
		rp.why = "hard link to '%s', which is not a file extracted "
		    "earlier from this archive";
		rp.arg = m->linkpath;
		rp.err = 0;
		w->p.report(w->p.ctx, &rp);
		w->partial = 1;
		return -1;
	}
	slash = strrchr(target, '/');
	*leaf = target;
	if (slash != NULL) {
		*slash = '\0';
		*leaf = slash + 1;
	}
	/* (a copy: the member's own directory may take its cache slot) */
	r = ae_dircache_open(&w->dc, slash != NULL ? target : "", 0, 0, &tdir);
	if (r == AE_OK && (tdir = dup(tdir)) < 0)
		r = AE_EIO;
	if (slash != NULL)
		*slash = '/';
	if (r != AE_OK) {
		skip_errno(w, m, "cannot open its target's directory");
		return -1;
	}
	if (fstatat(tdir, *leaf, st, AT_SYMLINK_NOFOLLOW) != 0
	    || !S_ISREG(st->st_mode) || st->st_dev != mk->dev
	    || st->st_ino != mk->ino) {
		skip(w, m, "its hard link target has changed since it was "
		    "extracted");
		close(tdir);
		return -1;
	}
	return tdir;
}

static void
extract_hardlink(struct ae_dw *w, const struct ae_tar_member *m, char *norm)
{
	struct linkarg la;
	struct stat st;
	const char *leaf;
	char tmp[TMP_NAME];
	int dirfd, tdir;

	if (safe_name(w, m, m->linkpath, w->target, 1) == NULL)
		return;
	if ((tdir = link_target(w, m, w->target, &la.leaf, &st)) < 0)
		return;
	if ((dirfd = open_parent(w, m, norm, &leaf)) < 0) {
		close(tdir);
		return;
	}
	la.dirfd = tdir;
	if (make_temp(w, dirfd, tmp, mk_link, &la) != 0)
		skip_errno(w, m, "cannot create it");
	else if (install(w, dirfd, tmp, leaf, m) == 0)
		made_add(w, norm, st.st_dev, st.st_ino);
	close(tdir);
}

/* -g: the letter the dumpdir dd[0, n) lists name with (Y, N or D), or
 * 0 if it does not list it. */
static int
dumpdir_has(const uint8_t *dd, size_t n, const char *name)
{
	size_t i = 0;

	while (i < n && dd[i] != 0) {
		const char *e = (const char *)dd + i;
		size_t el = strnlen(e, n - i);

		if (el == n - i)
			break;      /* not terminated: the rest is ignored */
		if (e[0] != 'R' && e[0] != 'T' && strcmp(e + 1, name) == 0)
			return e[0];
		i += el + 1;
	}
	return 0;
}

/* The names in the directory fd (not . and ..), into *v (malloc'd, each
 * malloc'd) and *n.  0, or -1 with errno. */
static int
names_in(int fd, char ***v, size_t *n)
{
	int dfd = dup(fd);
	DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
	struct dirent *de;
	size_t cap = 0;

	*v = NULL;
	*n = 0;
	if (d == NULL) {
		if (dfd >= 0)
			close(dfd);
		return -1;
	}
	rewinddir(d);
	while ((de = readdir(d)) != NULL) {
		char **t;

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (*n == cap) {
			cap = cap ? 2 * cap : 16;
			if ((t = realloc(*v, cap * sizeof *t)) == NULL)
				break;
			*v = t;
		}
		if (((*v)[*n] = strdup(de->d_name)) == NULL)
			break;
		(*n)++;
	}
	closedir(d);
	return 0;
}

static void
free_names(char **v, size_t n)
{
	while (n > 0)
		free(v[--n]);
	free(v);
}

/* Remove name in dirfd, and all under it if it is a directory, never
 * following a symlink, at most depth levels down (each holds a
 * descriptor), and never on a file system other than dev: a mount point
 * under the target (a bind mount of /home, say) is refused with EXDEV,
 * not emptied.  0, or -1 with errno. */
static int
remove_tree(int dirfd, const char *name, dev_t dev, int depth)
{
	struct stat st;
	char **v;
	size_t n, i;
	int fd, r = 0;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return -1;
	if (st.st_dev != dev) {
		errno = EXDEV;
		return -1;
	}
	if (!S_ISDIR(st.st_mode))
		return unlinkat(dirfd, name, 0);
	if (depth == 0) {
		errno = EMLINK;
		return -1;
	}
	if ((fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW
	    | O_CLOEXEC)) < 0)
		return -1;
	if (names_in(fd, &v, &n) != 0) {
		close(fd);
		return -1;
	}
	for (i = 0; i < n && r == 0; i++)
		r = remove_tree(fd, v[i], dev, depth - 1);
	free_names(v, n);
	close(fd);
	return r == 0 ? unlinkat(dirfd, name, AT_REMOVEDIR) : -1;
}

/* -g: the renames of dumpdir entries R then T (paths from the root),
 * each through the checked parents, never following a symlink. */
static void
dumpdir_renames(struct ae_dw *w, const struct ae_tar_member *m)
{
	const uint8_t *dd = m->dumpdir;
	size_t n = m->dumpdir_len, i = 0;
	const char *from = NULL, *rfrom;
	char *src = w->norm2;

	while (i < n && dd[i] != 0) {
		const char *e = (const char *)dd + i;
		size_t el = strnlen(e, n - i);
		const char *sleaf, *dleaf;
		int sfd, dfd;

		if (el == n - i)
			break;
		i += el + 1;
		if (e[0] == 'R') {
			from = e + 1;
			continue;
		}
		if (e[0] != 'T' || from == NULL)
			continue;
		if (safe_name(w, m, from, src, 0) == NULL
		    || safe_name(w, m, e + 1, w->target, 0) == NULL
		    || *src == '\0' || *w->target == '\0') {
			from = NULL;
			continue;
		}
		rfrom = from;
		from = NULL;
		/* (the cache's descriptors last until its next open: the
		 * first is duplicated) */
		if ((sfd = open_parent(w, m, src, &sleaf)) < 0
		    || (sfd = dup(sfd)) < 0)
			continue;
		if ((dfd = open_parent(w, m, w->target, &dleaf)) >= 0
		    && renameat(sfd, sleaf, dfd, dleaf) != 0
		    && errno != ENOENT) {
			struct ae_dw_report rp;

			/* the rename is what failed, not the directory */
			rp.event = AE_DW_WARNING;
			rp.name = rfrom;
			rp.m = m;
			rp.why = "cannot rename it to '%s', as the dump renamed "
			    "it";
			rp.arg = e + 1;
			rp.err = errno;
			w->p.report(w->p.ctx, &rp);
			w->partial = 1;
		}
		close(sfd);
		ae_dircache_forget(&w->dc, -1);
	}
}

/* -g: the directory open as fd (member m) keeps only what its dumpdir
 * lists, as GNU tar -x -g makes it: a directory the dumpdir lists as a
 * file (a directory replaced by a file) goes too. */
static void
purge_dir(struct ae_dw *w, const struct ae_tar_member *m, int fd)
{
	struct stat st;
	char **v;
	size_t n, i;
	dev_t dev;
	int removed = 0, letter;

	if (fstat(fd, &st) != 0 || names_in(fd, &v, &n) != 0)
		return;
	dev = st.st_dev;
	for (i = 0; i < n; i++) {
		letter = dumpdir_has(m->dumpdir, m->dumpdir_len, v[i]);
		if (letter == 'D' || (letter != 0 && (fstatat(fd, v[i], &st,
		    AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode))))
			continue;
		if (remove_tree(fd, v[i], dev, 512) != 0) {
			struct ae_dw_report rp;

			/* the entry that stays, named */
			rp.event = AE_DW_WARNING;
			rp.name = m->path;
			rp.m = m;
			rp.err = errno == EXDEV ? 0 : errno;
			rp.why = errno == EXDEV ? "'%s' is on another file system "
			    "(a mount point): not removed" : "cannot remove "
			    "'%s', which the dump no longer holds";
			rp.arg = v[i];
			w->p.report(w->p.ctx, &rp);
			w->partial = 1;
		}
		removed = 1;
	}
	free_names(v, n);
	if (removed)
		ae_dircache_forget(&w->dc, -1);
}

/* Note a directory whose mode, owner, time (and default ACL) are set
 * at the end.  Its note, valid until the next one, or NULL (no
 * memory: then they are not set). */
static struct dirfix *
dir_later(struct ae_dw *w, const struct ae_tar_member *m, const char *norm)
{
	struct dirfix *f;

	if (w->ndirs == w->capdirs) {
		size_t cap = w->capdirs ? 2 * w->capdirs : 64;
		struct dirfix *t = realloc(w->dirs, cap * sizeof *t);

		if (t == NULL)
			return NULL;
		w->dirs = t;
		w->capdirs = cap;
	}
	f = &w->dirs[w->ndirs];
	if ((f->path = strdup(norm)) == NULL)
		return NULL;
	f->seq = w->ndirs;
	f->mode = member_mode(w, m->mode);
	f->mtime = mtime_of(m);
	owner_ids(w, m, &f->uid, &f->gid);
	f->dacl = NULL;
	f->dacl_len = 0;
	w->ndirs++;
	return f;
}

/* -g: directory leaf in dirfd (member m, with a dumpdir) gets the
 * dump's renames and loses what its dumpdir does not list. */
static void
incremental_dir(struct ae_dw *w, const struct ae_tar_member *m, int dirfd,
    const char *leaf)
{
	/* on the directory itself, never through a symlink */
	int fd = openat(dirfd, leaf, O_RDONLY | O_DIRECTORY | O_NOFOLLOW
	    | O_CLOEXEC);

	if (fd < 0)
		return;
	/* (dirfd is the cache's: not used after) */
	dumpdir_renames(w, m);
	purge_dir(w, m, fd);
	close(fd);
}

static void
extract_dir(struct ae_dw *w, const struct ae_tar_member *m, char *norm)
{
	struct dirfix *later;
	const char *leaf;
	struct stat st;
	int dirfd;

	if (*norm == '\0')
		return;     /* "./": the target itself, left as it is */
	if ((dirfd = open_parent(w, m, norm, &leaf)) < 0)
		return;
	if (mkdirat(dirfd, leaf, 0700) != 0) {
		if (errno != EEXIST
		    || fstatat(dirfd, leaf, &st, AT_SYMLINK_NOFOLLOW) != 0) {
			skip_errno(w, m, "cannot create it");
			return;
		}
		/* An existing directory under --keep-old-files and its kin
		 * is what exists, left as it is: its owner, mode, times and
		 * attributes, and (-g) nothing in it removed or renamed
		 * under keep-old and skip-old, as nothing else is replaced.
		 * GNU tar 1.34 purges there; this does not. */
		if (S_ISDIR(st.st_mode) && (w->p.flags & (AE_DW_KEEP_OLD
		    | AE_DW_SKIP_OLD | AE_DW_KEEP_NEWER
		    | AE_DW_NO_OVERWRITE_DIR))) {
			if ((w->p.flags & AE_DW_INCREMENTAL) && m->dumpdir != NULL
			    && !(w->p.flags & (AE_DW_KEEP_OLD | AE_DW_SKIP_OLD)))
				incremental_dir(w, m, dirfd, leaf);
			return;
		}
		if (!S_ISDIR(st.st_mode)) {
			/* A file or symlink where the directory goes: tar
			 * replaces it (a symlink is never followed). */
			if (keeps_old(w, m) != NULL) {
				skip(w, m, keeps_old(w, m));
				return;
			}
			if (unlinkat(dirfd, leaf, 0) != 0
			    || mkdirat(dirfd, leaf, 0700) != 0) {
				skip_errno(w, m, "cannot create it");
				return;
			}
			made_forget(w, norm);
		}
	}
	later = dir_later(w, m, norm);
	if (m->nxattr > 0) {
		/* on the directory itself, never through a symlink */
		int fd = openat(dirfd, leaf, O_RDONLY | O_DIRECTORY
		    | O_NOFOLLOW | O_CLOEXEC);

		if (fd >= 0) {
			apply_xattrs(w, m, fd, later);
			close(fd);
		}
	}
	if ((w->p.flags & AE_DW_INCREMENTAL) && m->dumpdir != NULL)
		incremental_dir(w, m, dirfd, leaf);
}

/* Later directories first among the same path, so the last member of a
 * name wins, as in tar; descendants first (a path sorts after every
 * prefix of it), so a directory is fixed after all under it. */
static int
cmp_dirfix(const void *a, const void *b)
{
	const struct dirfix *x = a, *y = b;
	int c = strcmp(y->path, x->path);

	return c != 0 ? c : (x->seq < y->seq) - (x->seq > y->seq);
}

/* One directory's owner, mode and time. */
static void
fix_dir(struct ae_dw *w, const struct dirfix *f)
{
	struct timespec ts[2];
	int fd;

	if (ae_dircache_open(&w->dc, f->path, 0, 0, &fd) != AE_OK)
		return;
	ts[0].tv_sec = 0;
	ts[0].tv_nsec = UTIME_NOW;
	ts[1] = f->mtime;
	if ((w->p.flags & AE_DW_OWNER) && fchown(fd, f->uid, f->gid) != 0)
		warn_errno(w, NULL, f->path, "cannot set its owner");
	if (fchmod(fd, f->mode) != 0 || futimens(fd, ts) != 0)
		warn_errno(w, NULL, f->path, "cannot set its mode or time");
	if (f->dacl != NULL && ae_xattr_set(fd, "system.posix_acl_default",
	    f->dacl, f->dacl_len) != 0)
		warn_errno(w, NULL, f->path, "cannot set its default ACL");
}

/* Directory modes, owners and mtimes, deepest first. */
static void
fix_dirs(struct ae_dw *w)
{
	size_t i;

	if (w->ndirs > 1)
		qsort(w->dirs, w->ndirs, sizeof *w->dirs, cmp_dirfix);
	for (i = 0; i < w->ndirs; i++) {
		struct dirfix *f = &w->dirs[i];

		if (i == 0 || strcmp(f->path, w->dirs[i - 1].path) != 0)
			fix_dir(w, f);
	}
	for (i = 0; i < w->ndirs; i++) {
		free(w->dirs[i].path);
		free(w->dirs[i].dacl);
	}
	free(w->dirs);
	w->dirs = NULL;
	w->ndirs = w->capdirs = 0;
}

int
ae_dw_member(struct ae_dw *w, struct ae_tar_reader *tr,
    const struct ae_tar_member *m)
{
	if (w->fatal != 0)
		return w->fatal;
	if (safe_name(w, m, m->path, w->norm, 0) == NULL)
		return AE_OK;
	report(w, AE_DW_MEMBER, m, m->path, NULL, 0);
	if (*w->norm == '\0' && m->type != AE_TAR_DIR) {
		skip(w, m, "it has no name");
		return AE_OK;
	}
	w->tr = tr;
	switch (m->type) {
	case '0':
	case '7':
		extract_file(w, m, w->norm);
		break;
	case AE_TAR_DIR:
		extract_dir(w, m, w->norm);
		break;
	case AE_TAR_SYMLINK:
		extract_symlink(w, m, w->norm);
		break;
	case AE_TAR_HARDLINK:
		extract_hardlink(w, m, w->norm);
		break;
	case AE_TAR_CHR:
	case AE_TAR_BLK:
	case AE_TAR_FIFO:
		extract_special(w, m, w->norm);
		break;
	default: {
		char t[2] = { m->type >= 32 && m->type < 127 ? m->type : '?',
		    '\0' };
		struct ae_dw_report r;

		r.event = AE_DW_SKIPPED;
		r.name = m->path;
		r.m = m;
		r.why = "unknown member type '%s'";
		r.arg = t;
		r.err = 0;
		w->p.report(w->p.ctx, &r);
		w->partial = 1;
		break;
	}
	}
	w->tr = NULL;
	return w->fatal;
}

int
ae_dw_partial(const struct ae_dw *w)
{
	return w->partial;
}

int
ae_dw_open(const struct ae_dw_params *params, struct ae_dw **out)
{
	struct ae_dw *w;

	*out = NULL;
	if ((w = calloc(1, sizeof *w)) == NULL)
		return AE_ENOMEM;
	w->p = *params;
	ae_dircache_init(&w->dc, w->p.root);
	ae_anon_init(&w->anon);
	if (w->p.flags & AE_DW_NAMED_TEMPS)
		w->anon.how = AE_ANON_NONE;
	ae_owners_init(&w->owners);
	if ((w->buf = malloc(DATA_BUF)) == NULL) {
		free(w);
		return AE_ENOMEM;
	}
	ae_nodump(w->buf, DATA_BUF);        /* member data: plaintext */
	*out = w;
	return AE_OK;
}

void
ae_dw_close(struct ae_dw *w)
{
	size_t i;

	if (w == NULL)
		return;
	fix_dirs(w);
	ae_dircache_free(&w->dc);
	for (i = 0; i < w->capmade; i++)
		free(w->made[i].path);
	free(w->made);
	free(w->buf);
	free(w);
}
