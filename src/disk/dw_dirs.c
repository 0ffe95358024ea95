/*
 * dw_dirs.c -- the directories whose owner, mode and time the disk
 * writer sets at the end (dw.h), deepest first.
 *
 * Each is kept as its last component and the note of its parent
 * directory, not as its whole path: a tree 10,000 levels deep held
 * 10,000 paths of up to 20,000 bytes (100 MB) when every note had its
 * own copy, and holds 10,000 short names this way.  A note is found by
 * its path through a table of hashes; a candidate's path is rebuilt
 * from its parents to be compared, so no two paths ever share a note
 * by accident.  A directory with no note for its parent (the target
 * itself, or one the archive never named) keeps its whole path.
 */
#include "config.h"
#include "writer.h"
#include "dw.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "common/grow.h"
#include "xattr.h"

#define NONE ((size_t)-1)

static uint64_t
hash_n(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (n-- > 0)
		h = (h ^ (uint8_t)*s++) * 0x100000001b3ull;
	return h;
}

/* Note i's path into buf (AE_TAR_NAME_MAX + 1 bytes: every note's path
 * was a member name, at most AE_TAR_NAME_MAX); its length. */
static size_t
dir_path(const struct ae_dw *w, size_t i, char *buf)
{
	size_t len = 0, at, j, l;

	for (j = i; j != NONE; j = w->dirs[j].parent)
		len += strlen(w->dirs[j].leaf) + (w->dirs[j].parent != NONE);
	buf[len] = '\0';
	at = len;
	for (j = i; j != NONE; j = w->dirs[j].parent) {
		l = strlen(w->dirs[j].leaf);
		at -= l;
		memcpy(buf + at, w->dirs[j].leaf, l);
		if (w->dirs[j].parent != NONE)
			buf[--at] = '/';
	}
	return len;
}

/* The note of path[0, n), or NONE. */
static size_t
find(struct ae_dw *w, const char *path, size_t n)
{
	uint64_t h;
	size_t s;

	if (w->ndirslot == 0)
		return NONE;
	h = hash_n(path, n);
	for (s = h & (w->ndirslot - 1); w->dirslot[s] != 0;
	    s = (s + 1) & (w->ndirslot - 1)) {
		size_t i = w->dirslot[s] - 1;

		if (w->dirs[i].hash == h && dir_path(w, i, w->dirbuf) == n
		    && memcmp(w->dirbuf, path, n) == 0)
			return i;
	}
	return NONE;
}

/* Room in the table for one more note.  0 or -1. */
static int
slots_grow(struct ae_dw *w)
{
	size_t n = w->ndirslot ? 2 * w->ndirslot : 256, i, s;
	size_t *t;

	if (2 * (w->ndirs + 1) <= w->ndirslot)
		return 0;
	if ((t = calloc(n, sizeof *t)) == NULL)
		return -1;
	for (i = 0; i < w->ndirs; i++) {
		for (s = w->dirs[i].hash & (n - 1); t[s] != 0; s = (s + 1) & (n - 1))
			;
		t[s] = i + 1;
	}
	free(w->dirslot);
	w->dirslot = t;
	w->ndirslot = n;
	return 0;
}

struct dirfix *
ae_dw_dir_later(struct ae_dw *w, const char *norm, mode_t mode,
    struct timespec mtime, uid_t uid, gid_t gid)
{
	size_t n = strlen(norm), i, parent = NONE, s;
	const char *slash = strrchr(norm, '/'), *leaf = norm;
	struct dirfix *f;

	if ((i = find(w, norm, n)) != NONE) {
		/* the same directory again: the last member of a name wins,
		 * as in tar */
		f = &w->dirs[i];
		free(f->dacl);
		f->dacl = NULL;
		f->dacl_len = 0;
		goto set;
	}
	if (slash != NULL && (parent = find(w, norm, (size_t)(slash - norm)))
	    != NONE)
		leaf = slash + 1;
	if (slots_grow(w) != 0)
		return NULL;
	if (ae_grow(&w->dirs, &w->capdirs, w->ndirs + 1, sizeof *w->dirs, 64,
	    0) != 0)
		return NULL;
	f = &w->dirs[w->ndirs];
	if ((f->leaf = strdup(leaf)) == NULL)
		return NULL;
	f->parent = parent;
	f->hash = hash_n(norm, n);
	if (parent != NONE) {
		f->depth = w->dirs[parent].depth + 1;
	} else {
		for (f->depth = 1, s = 0; s < n; s++)
			f->depth += norm[s] == '/';
	}
	f->dacl = NULL;
	f->dacl_len = 0;
	for (s = f->hash & (w->ndirslot - 1); w->dirslot[s] != 0;
	    s = (s + 1) & (w->ndirslot - 1))
		;
	w->dirslot[s] = ++w->ndirs;
set:
	f->mode = mode;
	f->mtime = mtime;
	f->uid = uid;
	f->gid = gid;
	return f;
}

/* One directory's owner, mode and time. */
static void
fix_dir(struct ae_dw *w, const struct dirfix *f, const char *path)
{
	struct timespec ts[2];
	int fd;

	if (ae_dircache_open(&w->dc, path, 0, 0, &fd) != AE_OK)
		return;
	ts[0].tv_sec = 0;
	ts[0].tv_nsec = UTIME_NOW;
	ts[1] = f->mtime;
	if ((w->p->flags & AE_DW_OWNER) && fchown(fd, f->uid, f->gid) != 0)
		ae_dw_warn_errno(w, NULL, path, "cannot set its owner");
	if (fchmod(fd, f->mode) != 0 || futimens(fd, ts) != 0)
		ae_dw_warn_errno(w, NULL, path, "cannot set its mode or time");
	if (f->dacl != NULL && ae_xattr_set(fd, "system.posix_acl_default",
	    f->dacl, f->dacl_len) != 0)
		ae_dw_warn_errno(w, NULL, path, "cannot set its default ACL");
}

/* A note's place in the order of fixing. */
struct order {
	unsigned depth;
	size_t i;
};

/* Deeper first, so that a directory is fixed after all under it (one
 * left without search permission would stop the rest); then in the
 * order the archive named them. */
static int
cmp_order(const void *a, const void *b)
{
	const struct order *x = a, *y = b;

	if (x->depth != y->depth)
		return (x->depth < y->depth) - (x->depth > y->depth);
	return (x->i > y->i) - (x->i < y->i);
}

void
ae_dw_fix_dirs(struct ae_dw *w)
{
	struct order *o = malloc((w->ndirs ? w->ndirs : 1) * sizeof *o);
	size_t i, k;

	if (o != NULL) {
		for (i = 0; i < w->ndirs; i++) {
			o[i].depth = w->dirs[i].depth;
			o[i].i = i;
		}
		qsort(o, w->ndirs, sizeof *o, cmp_order);
	}
	/* (without memory for the order: the archive's, reversed, which
	 * puts what is under a directory first in any archive that names a
	 * directory before its contents) */
	for (k = 0; k < w->ndirs; k++) {
		i = o != NULL ? o[k].i : w->ndirs - 1 - k;
		dir_path(w, i, w->dirbuf);
		fix_dir(w, &w->dirs[i], w->dirbuf);
	}
	free(o);
	for (i = 0; i < w->ndirs; i++) {
		free(w->dirs[i].leaf);
		free(w->dirs[i].dacl);
	}
	free(w->dirs);
	free(w->dirslot);
	w->dirs = NULL;
	w->dirslot = NULL;
	w->ndirs = w->capdirs = w->ndirslot = 0;
}
