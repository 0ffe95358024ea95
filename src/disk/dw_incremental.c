/*
 * dw_incremental.c -- what extracting a -g archive does to a directory
 * (dw.h), as GNU tar -x -g: the renames its dumpdir records, then
 * removing what the dump no longer holds, never across a file system.
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

#include "common/grow.h"
#include "dirnames.h"
#include "incremental.h"

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
	if (ae_dir_names(fd, &v, &n) == -1) {
		close(fd);
		return -1;
	}
	for (i = 0; i < n && r == 0; i++)
		r = remove_tree(fd, v[i], dev, depth - 1);
	ae_dir_names_free(v, n);
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
		if (ae_dw_safe_name(w, m, from, src, 0) == NULL
		    || ae_dw_safe_name(w, m, e + 1, w->target, 0) == NULL
		    || *src == '\0' || *w->target == '\0') {
			from = NULL;
			continue;
		}
		rfrom = from;
		from = NULL;
		/* (the cache's descriptors last until its next open: the
		 * first is duplicated) */
		if ((sfd = ae_dw_open_parent(w, m, src, &sleaf)) < 0
		    || (sfd = dup(sfd)) < 0)
			continue;
		if ((dfd = ae_dw_open_parent(w, m, w->target, &dleaf)) >= 0
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
			w->p->report(w->p->ctx, &rp);
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

	if (fstat(fd, &st) != 0 || ae_dir_names(fd, &v, &n) == -1)
		return;
	dev = st.st_dev;
	for (i = 0; i < n; i++) {
		letter = ae_dumpdir_letter(m->dumpdir, m->dumpdir_len, v[i]);
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
			w->p->report(w->p->ctx, &rp);
			w->partial = 1;
		}
		removed = 1;
	}
	ae_dir_names_free(v, n);
	if (removed)
		ae_dircache_forget(&w->dc, -1);
}

/* -g: directory leaf in dirfd (member m, with a dumpdir) gets the
 * dump's renames and loses what its dumpdir does not list. */
void
ae_dw_incremental_dir(struct ae_dw *w, const struct ae_tar_member *m, int dirfd,
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

/* ---- a chain's top-level names (writer.h) ---- */

struct ae_dw_chain {
	struct top {
		char *name;
		dev_t dev;
		ino_t ino;
	} *v;
	size_t n, cap;
};

int
ae_dw_chain_new(struct ae_dw_chain **c)
{
	return (*c = calloc(1, sizeof **c)) != NULL ? AE_OK : AE_ENOMEM;
}

void
ae_dw_chain_free(struct ae_dw_chain *c)
{
	size_t i;

	if (c == NULL)
		return;
	for (i = 0; i < c->n; i++)
		free(c->v[i].name);
	free(c->v);
	free(c);
}

void
ae_dw_chain_note(struct ae_dw_chain *c, const char *name, dev_t dev,
    ino_t ino)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (strcmp(c->v[i].name, name) == 0) {
			c->v[i].dev = dev;
			c->v[i].ino = ino;
			return;
		}
	/* (out of memory: not noted, so never removed: the safe side) */
	if (ae_grow(&c->v, &c->cap, c->n + 1, sizeof *c->v, 16, 0) != 0
	    || (c->v[c->n].name = strdup(name)) == NULL)
		return;
	c->v[c->n].dev = dev;
	c->v[c->n++].ino = ino;
}

void
ae_dw_incremental_root(struct ae_dw *w, const struct ae_tar_member *m)
{
	struct ae_dw_chain *c = w->p->chain;
	struct stat st;
	size_t i;
	int removed = 0;

	if (c == NULL)
		return;
	for (i = 0; i < c->n; i++) {
		struct top *t = &c->v[i];

		/* still the file this run made, and not in the dump: a file
		 * deleted at the top between levels */
		if (t->ino == 0 || ae_dumpdir_letter(m->dumpdir, m->dumpdir_len,
		    t->name) != 0 || fstatat(w->p->root, t->name, &st,
		    AT_SYMLINK_NOFOLLOW) != 0 || st.st_dev != t->dev
		    || st.st_ino != t->ino)
			continue;
		if (remove_tree(w->p->root, t->name, st.st_dev, 512) != 0) {
			struct ae_dw_report rp;

			rp.event = AE_DW_WARNING;
			rp.name = m->path;
			rp.m = m;
			rp.err = errno == EXDEV ? 0 : errno;
			rp.why = "cannot remove '%s', which the dump no longer "
			    "holds";
			rp.arg = t->name;
			w->p->report(w->p->ctx, &rp);
			w->partial = 1;
		}
		t->ino = 0;
		removed = 1;
	}
	if (removed)
		ae_dircache_forget(&w->dc, -1);
}
