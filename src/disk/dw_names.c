/*
 * dw_names.c -- how the disk writer gives a member its name (dw.h): never
 * by opening the final name, but nameless or under a temp name in a
 * directory opened without symlinks, then moved into place under the
 * overwrite policy (--keep-old-files, --skip-old-files,
 * --keep-newer-files, an empty directory in the way).
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

#include "common/error.h"
#include "crypto/random.h"
#include "path.h"

/* The name to extract member path under, in out (AE_TAR_NAME_MAX + 1
 * bytes), or NULL (reported) to skip it; what names the path in the
 * report ("its name", "its link target"). */
const char *
ae_dw_safe_name(struct ae_dw *w, const struct ae_tar_member *m, const char *path,
    char out[AE_TAR_NAME_MAX + 1], int link)
{
	const char *p = path;

	if (*p == '/') {
		while (*p == '/')
			p++;
		if (!w->warned_abs) {
			ae_dw_notify(w, AE_DW_ABSOLUTE, NULL, path, NULL, 0);
			w->warned_abs = 1;
		}
	}
	if (ae_path_has_dotdot(p)) {
		ae_dw_skip(w, m, link ? "its link target contains '..'" :
		    "its name contains '..'");
		return NULL;
	}
	if (ae_path_normalize(p, out, AE_TAR_NAME_MAX + 1) != 0) {
		ae_dw_skip(w, m, link ? "its link target is too long" :
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
int
ae_dw_open_parent(struct ae_dw *w, const struct ae_tar_member *m, char *norm,
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
		ae_dw_skip_errno(w, m, "cannot open its directory");
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
int
ae_dw_make_temp(struct ae_dw *w, int dirfd, char tmp[TMP_NAME],
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

int
ae_dw_mk_symlink(int dirfd, const char *tmp, void *target)
{
	return symlinkat((const char *)target, dirfd, tmp);
}

int
ae_dw_mk_node(int dirfd, const char *tmp, void *arg)
{
	const struct nodearg *n = arg;

	if (n->type == S_IFIFO)
		return mkfifoat(dirfd, tmp, 0600);
	return mknodat(dirfd, tmp, n->type | 0600, n->dev);
}

int
ae_dw_mk_link(int dirfd, const char *tmp, void *arg)
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
const char *
ae_dw_keeps_old(const struct ae_dw *w, const struct ae_tar_member *m)
{
	if (m->after_gap == 1)
		return "exists, and this member was found by searching for "
		    "headers after a lost chunk";
	if (w->p->flags & AE_DW_KEEP_OLD)
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

	if (!(w->p->flags & (AE_DW_SKIP_OLD | AE_DW_KEEP_NEWER))
	    || fstatat(dirfd, leaf, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return 0;
	if (w->p->flags & AE_DW_SKIP_OLD) {
		ae_dw_notify(w, AE_DW_KEPT, m, m->path, NULL, 0);
		return 1;
	}
	/* as GNU tar: "newer or same age" */
	if ((int64_t)st.st_mtim.tv_sec < m->mtime
	    || ((int64_t)st.st_mtim.tv_sec == m->mtime
	    && (uint32_t)st.st_mtim.tv_nsec < m->mtime_nsec))
		return 0;
	ae_dw_notify(w, AE_DW_KEPT, m, m->path, "newer or same age", 0);
	return 1;
}

/*
 * Move tmp to leaf in dirfd: over an existing file or symlink (never
 * through it), over an empty directory, or not at all if ae_dw_keeps_old or
 * stays.  0, or -1 (reported, tmp removed).
 */
int
ae_dw_install(struct ae_dw *w, int dirfd, const char *tmp, const char *leaf,
    const struct ae_tar_member *m)
{
	const char *keep = ae_dw_keeps_old(w, m);
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
		ae_dw_skip(w, m, keep);
	else if (e == EISDIR)
		ae_dw_skip(w, m, "a directory that is not empty is in the way");
	else
		ae_dw_skip_errno(w, m, "cannot create it");
	return -1;
}

/*
 * A new empty file in dirfd for a member's data, 0600, not under its
 * final name: with no name (*anon = 1, anon.h) where it can be named
 * later, else under a temp name in tmp.  How a nameless file is named is
 * learnt before the first one, on an empty probe.  0, or -1 with
 * errno.
 */
int
ae_dw_new_file(struct ae_dw *w, int dirfd, char tmp[TMP_NAME], int *fdp,
    int *anon, unsigned mode)
{
	*anon = 0;
	if (w->anon.how != AE_ANON_NONE) {
		struct anon a = { w, -1 };

		a.fd = ae_anon_create(dirfd, mode);
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
			if (ae_dw_make_temp(w, dirfd, tmp, mk_anon_link, &a) == 0) {
				unlinkat(dirfd, tmp, 0);
				close(a.fd);
				if ((a.fd = ae_anon_create(dirfd, mode)) >= 0) {
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
	return ae_dw_make_temp(w, dirfd, tmp, mk_file, fdp);
}

/*
 * Give a complete file made by new_file its final name: a link where
 * the name is free, else through a temp name and ae_dw_install(), which knows
 * what to do with what is there (AE_DW_KEEP_OLD, a directory in the
 * way).  0, or -1 (reported; the file is gone).
 */
int
ae_dw_name_file(struct ae_dw *w, int fd, int anon, int dirfd, char tmp[TMP_NAME],
    const char *leaf, const struct ae_tar_member *m)
{
	struct anon a = { w, fd };

	if (!anon)
		return ae_dw_install(w, dirfd, tmp, leaf, m);
	if (ae_anon_link(&w->anon, fd, dirfd, leaf) == 0)
		return 0;
	if (errno != EEXIST || ae_dw_make_temp(w, dirfd, tmp, mk_anon_link,
	    &a) != 0) {
		ae_dw_skip_errno(w, m, "cannot create it");
		return -1;
	}
	return ae_dw_install(w, dirfd, tmp, leaf, m);
}
