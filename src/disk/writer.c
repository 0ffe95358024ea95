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
#include "dw.h"

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
#include "common/error.h"
#include "common/io.h"
#include "dircache.h"
#include "common/wipe.h"
#include "owners.h"
#include "acl.h"
#include "xattr.h"

/* ---- bookkeeping ---- */

/*
 * The files this run made, by path, for hard links, which may point only
 * at these.  An entry keeps its path's 64-bit hash, not the path (a
 * run of 200,000 files kept 200,000 copies of their names): two paths
 * with one hash share an entry, and that can only refuse a link, never
 * allow a wrong one, because a link's target is opened by its own name
 * and must be the very inode the entry holds (link_target).
 */
static uint64_t
path_key(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (*s)
		h = (h ^ (uint8_t)*s++) * 0x100000001b3ull;
	return h != 0 ? h : 1;
}

static struct made *
made_find(struct ae_dw *w, const char *path)
{
	uint64_t key = path_key(path);
	size_t i;

	if (w->capmade == 0)
		return NULL;
	for (i = key & (w->capmade - 1); w->made[i].key != 0;
	    i = (i + 1) & (w->capmade - 1))
		if (w->made[i].key == key)
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
		if (w->made[k].key == 0)
			continue;
		for (i = w->made[k].key & (cap - 1); t[i].key != 0;
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
	uint64_t key = path_key(path);
	struct made *m;
	size_t i;

	/* (what a chain made at the top of the target, noted for the
	 * root's dumpdir: writer.h) */
	if (w->p->chain != NULL && strchr(path, '/') == NULL)
		ae_dw_chain_note(w->p->chain, path, dev, ino);
	if ((m = made_find(w, path)) != NULL) {
		m->dev = dev;
		m->ino = ino;
		return 0;
	}
	/* (up to four in five slots used: the table is a run's largest
	 * allocation on many small files, and linear probing is still
	 * short at that load) */
	if (5 * (w->nmade + 1) > 4 * w->capmade && made_grow(w) != 0)
		return -1;
	for (i = key & (w->capmade - 1); w->made[i].key != 0;
	    i = (i + 1) & (w->capmade - 1))
		;
	w->made[i].key = key;
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

static mode_t
member_mode(const struct ae_dw *w, uint32_t mode)
{
	if (w->p->flags & AE_DW_PERMS)
		return (mode_t)(mode & 07777);
	return (mode_t)(mode & 01777 & ~w->p->umask);
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
		if (w->p->stop != NULL && atomic_load(w->p->stop))
			return AE_EINTR;
		if (in_hole || (w->buf[0] == 0
		    && memcmp(w->buf, w->buf + 1, got - 1) == 0)) {
			if (lseek(fd, (off_t)got, SEEK_CUR) < 0) {
				if (too_big())
					return TOO_BIG;
				ae_dw_fatal_errno(w, m);
				return AE_EIO;
			}
			hole = 1;
			continue;
		}
		hole = 0;
		if (ae_write_full(fd, w->buf, got) != 0) {
			if (errno == EFBIG)
				return TOO_BIG;
			ae_dw_fatal_errno(w, m);
			return AE_EIO;
		}
	}
	if (r == AE_OK && hole && ftruncate(fd, (off_t)m->size) != 0) {
		if (too_big())
			return TOO_BIG;
		ae_dw_fatal_errno(w, m);
		return AE_EIO;
	}
	return r;
}

/* A complete file's owner, mode, attributes and times, before it gets
 * its name; *st its identity.  The owner and mode are set only where
 * the new file's differ (it was created with the member's permission
 * bits where it could be, and is usually its extractor's): two system
 * calls fewer a file, on trees of many small ones.  A chown clears the
 * set-id bits, so it comes first; the file never had them.  0, or -1
 * after a fatal error (reported). */
static int
finish_file(struct ae_dw *w, const struct ae_tar_member *m, int fd,
    struct stat *st)
{
	struct timespec ts[2];
	mode_t mode = member_mode(w, m->mode);

	if (fstat(fd, st) != 0) {
		ae_dw_fatal_errno(w, m);
		return -1;
	}
	if (w->p->flags & AE_DW_OWNER) {
		uid_t uid;
		gid_t gid;

		owner_ids(w, m, &uid, &gid);
		if ((st->st_uid != uid || st->st_gid != gid)
		    && fchown(fd, uid, gid) != 0)
			ae_dw_warn_errno(w, m, m->path, "cannot set its owner");
	}
	ts[0].tv_sec = 0;
	ts[0].tv_nsec = UTIME_NOW;
	ts[1] = mtime_of(m);
	if ((st->st_mode & 07777) != mode && fchmod(fd, mode) != 0) {
		ae_dw_fatal_errno(w, m);
		return -1;
	}
	ae_dw_apply_xattrs(w, m, fd, NULL);
	if (futimens(fd, ts) != 0) {
		ae_dw_fatal_errno(w, m);
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
		ae_dw_skip(w, m, "its size is more than any file system holds");
		return;
	}
	if ((dirfd = ae_dw_open_parent(w, m, norm, &leaf)) < 0)
		return;
	if (ae_dw_new_file(w, dirfd, tmp, &fd, &anon,
	    member_mode(w, m->mode) & 0777) != 0) {
		ae_dw_skip_errno(w, m, "cannot create it");
		return;
	}
	r = copy_data(w, m, fd, &used);
	ae_wipe(w->buf, used);
	if (r == AE_EIO)
		goto undo;
	if (r == TOO_BIG) {
		/* the rest of its data is skipped with it by the next
		 * ae_tar_next, so the run goes on */
		ae_dw_skip_errno(w, m, "its size is more than this file system holds");
		goto undo;
	}
	if (r != AE_OK) {
		/* The archive failed (or was stopped) inside this member;
		 * the caller says why.  Nothing may stay behind. */
		ae_dw_notify(w, AE_DW_BROKEN, m, m->path, NULL, r);
		w->fatal = r;
		goto undo;
	}
	if (w->p->intact != NULL && !w->p->intact(w->p->ctx, m)) {
		/* (salvage) part of it was in a lost chunk: its bytes there
		 * are zeros, so it never appears under its name */
		ae_dw_notify(w, AE_DW_LOST, m, m->path, NULL, 0);
		goto undo;
	}
	if (finish_file(w, m, fd, &st) != 0)
		goto undo;
	if (!anon && close(fd) != 0) {
		fd = -1;
		ae_dw_fatal_errno(w, m);
		goto undo;
	}
	if (ae_dw_name_file(w, fd, anon, dirfd, tmp, leaf, m) != 0) {
		if (anon)
			close(fd);
		return;
	}
	if (anon && close(fd) != 0) {
		/* A late write error (NFS reports them here): the name
		 * was made by this run, so it goes with the data. */
		ae_dw_fatal_errno(w, m);
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

	if (w->p->flags & AE_DW_OWNER) {
		uid_t uid;
		gid_t gid;

		owner_ids(w, m, &uid, &gid);
		if (fchownat(dirfd, tmp, uid, gid, AT_SYMLINK_NOFOLLOW) != 0)
			ae_dw_warn_errno(w, m, m->path, "cannot set its owner");
	}
	if (m->type != AE_TAR_SYMLINK
	    && fchmodat(dirfd, tmp, member_mode(w, m->mode), 0) != 0)
		ae_dw_warn_errno(w, m, m->path, "cannot set its mode");
	ts[0].tv_sec = 0;
	ts[0].tv_nsec = UTIME_NOW;
	ts[1] = mtime_of(m);
	utimensat(dirfd, tmp, ts, AT_SYMLINK_NOFOLLOW);
	if (ae_dw_install(w, dirfd, tmp, leaf, m) == 0)
		made_forget(w, norm);
}

static void
extract_symlink(struct ae_dw *w, const struct ae_tar_member *m, char *norm)
{
	const char *leaf;
	char tmp[TMP_NAME];
	int dirfd;

	if ((dirfd = ae_dw_open_parent(w, m, norm, &leaf)) < 0)
		return;
	if (ae_dw_make_temp(w, dirfd, tmp, ae_dw_mk_symlink, (void *)m->linkpath) != 0) {
		ae_dw_skip_errno(w, m, "cannot create it");
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
	if (n.type != S_IFIFO && (w->p->flags & AE_DW_NO_DEVICES)) {
		ae_dw_skip(w, m, "a device node, not made in this run (--no-devices, "
		    "--no-same-owner or --no-same-permissions)");
		return;
	}
	if ((dirfd = ae_dw_open_parent(w, m, norm, &leaf)) < 0)
		return;
	if (ae_dw_make_temp(w, dirfd, tmp, ae_dw_mk_node, &n) != 0) {
		if (errno == EPERM && n.type != S_IFIFO)
			ae_dw_skip(w, m, "a device node, which only root can make");
		else
			ae_dw_skip_errno(w, m, "cannot create it");
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
		w->p->report(w->p->ctx, &rp);
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
		ae_dw_skip_errno(w, m, "cannot open its target's directory");
		return -1;
	}
	if (fstatat(tdir, *leaf, st, AT_SYMLINK_NOFOLLOW) != 0
	    || !S_ISREG(st->st_mode) || st->st_dev != mk->dev
	    || st->st_ino != mk->ino) {
		ae_dw_skip(w, m, "its hard link target has changed since it was "
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

	if (ae_dw_safe_name(w, m, m->linkpath, w->target, 1) == NULL)
		return;
	if ((tdir = link_target(w, m, w->target, &la.leaf, &st)) < 0)
		return;
	if ((dirfd = ae_dw_open_parent(w, m, norm, &leaf)) < 0) {
		close(tdir);
		return;
	}
	la.dirfd = tdir;
	if (ae_dw_make_temp(w, dirfd, tmp, ae_dw_mk_link, &la) != 0)
		ae_dw_skip_errno(w, m, "cannot create it");
	else if (ae_dw_install(w, dirfd, tmp, leaf, m) == 0)
		made_add(w, norm, st.st_dev, st.st_ino);
	close(tdir);
}

static void
extract_dir(struct ae_dw *w, const struct ae_tar_member *m, char *norm)
{
	struct dirfix *later;
	const char *leaf;
	struct stat st;
	int dirfd;

	if (*norm == '\0') {
		/* "./": the target itself, left as it is, but for what this
		 * chain made at its top (writer.h) */
		if ((w->p->flags & AE_DW_INCREMENTAL) && m->dumpdir != NULL)
			ae_dw_incremental_root(w, m);
		return;
	}
	if ((dirfd = ae_dw_open_parent(w, m, norm, &leaf)) < 0)
		return;
	if (mkdirat(dirfd, leaf, 0700) == 0) {
		if (w->p->chain != NULL && strchr(norm, '/') == NULL
		    && fstatat(dirfd, leaf, &st, AT_SYMLINK_NOFOLLOW) == 0)
			ae_dw_chain_note(w->p->chain, norm, st.st_dev,
			    st.st_ino);
	} else {
		if (errno != EEXIST
		    || fstatat(dirfd, leaf, &st, AT_SYMLINK_NOFOLLOW) != 0) {
			ae_dw_skip_errno(w, m, "cannot create it");
			return;
		}
		/* An existing directory under --keep-old-files and its kin
		 * is what exists, left as it is: its owner, mode, times and
		 * attributes, and (-g) nothing in it removed or renamed
		 * under keep-old and skip-old, as nothing else is replaced.
		 * GNU tar 1.34 purges there; this does not. */
		if (S_ISDIR(st.st_mode) && (w->p->flags & (AE_DW_KEEP_OLD
		    | AE_DW_SKIP_OLD | AE_DW_KEEP_NEWER
		    | AE_DW_NO_OVERWRITE_DIR))) {
			if ((w->p->flags & AE_DW_INCREMENTAL) && m->dumpdir != NULL
			    && !(w->p->flags & (AE_DW_KEEP_OLD | AE_DW_SKIP_OLD)))
				ae_dw_incremental_dir(w, m, dirfd, leaf);
			return;
		}
		if (!S_ISDIR(st.st_mode)) {
			/* A file or symlink where the directory goes: tar
			 * replaces it (a symlink is never followed). */
			if (ae_dw_keeps_old(w, m) != NULL) {
				ae_dw_skip(w, m, ae_dw_keeps_old(w, m));
				return;
			}
			if (unlinkat(dirfd, leaf, 0) != 0
			    || mkdirat(dirfd, leaf, 0700) != 0) {
				ae_dw_skip_errno(w, m, "cannot create it");
				return;
			}
			made_forget(w, norm);
		}
	}
	{
		uid_t uid;
		gid_t gid;

		owner_ids(w, m, &uid, &gid);
		later = ae_dw_dir_later(w, norm, member_mode(w, m->mode),
		    mtime_of(m), uid, gid);
	}
	if (m->nxattr > 0) {
		/* on the directory itself, never through a symlink */
		int fd = openat(dirfd, leaf, O_RDONLY | O_DIRECTORY
		    | O_NOFOLLOW | O_CLOEXEC);

		if (fd >= 0) {
			ae_dw_apply_xattrs(w, m, fd, later);
			close(fd);
		}
	}
	if ((w->p->flags & AE_DW_INCREMENTAL) && m->dumpdir != NULL)
		ae_dw_incremental_dir(w, m, dirfd, leaf);
}

int
ae_dw_member(struct ae_dw *w, struct ae_tar_reader *tr,
    const struct ae_tar_member *m)
{
	if (w->fatal != 0)
		return w->fatal;
	if (ae_dw_safe_name(w, m, m->path, w->norm, 0) == NULL)
		return AE_OK;
	ae_dw_notify(w, AE_DW_MEMBER, m, m->path, NULL, 0);
	if (*w->norm == '\0' && m->type != AE_TAR_DIR) {
		ae_dw_skip(w, m, "it has no name");
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
		w->p->report(w->p->ctx, &r);
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

/* The run and its copy of the caller's parameters, in one allocation
 * (w first, so that freeing w frees both): dw.h holds the parameters by
 * pointer, and so needs no writer.h. */
struct dw_run {
	struct ae_dw w;
	struct ae_dw_params p;
};

int
ae_dw_open(const struct ae_dw_params *params, struct ae_dw **out)
{
	struct dw_run *run;
	struct ae_dw *w;

	*out = NULL;
	if ((run = calloc(1, sizeof *run)) == NULL)
		return AE_ENOMEM;
	w = &run->w;
	run->p = *params;
	w->p = &run->p;
	ae_dircache_init(&w->dc, w->p->root);
	ae_anon_init(&w->anon);
	if (w->p->flags & AE_DW_NAMED_TEMPS)
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
	if (w == NULL)
		return;
	ae_dw_fix_dirs(w);
	ae_dircache_free(&w->dc);
	free(w->made);
	free(w->buf);
	free(w);
}
