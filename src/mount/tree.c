/*
 * tree.c -- an archive's members as a file system tree (contract in
 * tree.h).
 */
#define AESCRYPT_STATIC_LINKING_ONLY
#include "config.h"
#include "tree.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "common/dumpdir.h"
#include "common/grow.h"

static uint64_t
hash_of(uint64_t dir, const char *name, size_t len)
{
	/* FNV-1a over the directory's number and the name */
	uint64_t h = 14695981039346656037ull ^ dir;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= (uint8_t)name[i];
		h *= 1099511628211ull;
	}
	return h;
}

/* The slot of (dir, name) in the hash: its dirent + 1, or where it
 * would go (0 there). */
static uint64_t *
slot(const struct mt_tree *t, uint64_t dir, const char *name, size_t len)
{
	size_t i = (size_t)hash_of(dir, name, len) & (t->hcap - 1);

	for (;; i = (i + 1) & (t->hcap - 1)) {
		uint64_t k = t->hash[i];
		const struct mt_dirent *e;

		if (k == 0)
			return &t->hash[i];
		e = &t->d[k - 1];
		if (e->dir == dir && strncmp(e->name, name, len) == 0
		    && e->name[len] == '\0')
			return &t->hash[i];
	}
}

/* The node dir holds under name[0..len), or MT_NONE. */
static uint64_t
mt_lookup_n(const struct mt_tree *t, uint64_t dir, const char *name,
    size_t len)
{
	uint64_t k;

	if (t->hash == NULL)
		return MT_NONE;
	k = *slot(t, dir, name, len);
	return k == 0 ? MT_NONE : t->d[k - 1].node;
}

/* Room in the hash for one more: grown at half full.  0 or -1. */
static int
hash_room(struct mt_tree *t)
{
	uint64_t *old = t->hash;
	size_t oldcap = t->hcap, i;

	if (t->hash != NULL && 2 * (t->nd + 1) <= t->hcap)
		return 0;
	t->hcap = oldcap ? 2 * oldcap : 1024;
	if ((t->hash = calloc(t->hcap, sizeof *t->hash)) == NULL) {
		t->hash = old;
		t->hcap = oldcap;
		return -1;
	}
	for (i = 0; i < oldcap; i++)
		if (old[i] != 0) {
			const struct mt_dirent *e = &t->d[old[i] - 1];

			*slot(t, e->dir, e->name, strlen(e->name)) = old[i];
		}
	free(old);
	return 0;
}

/* A new node, zeroed but for its type: its index, or MT_NONE. */
static uint64_t
new_node(struct mt_tree *t, int type)
{
	if (ae_grow(&t->n, &t->capn, t->nn + 1, sizeof *t->n, 1024, 0) != 0)
		return MT_NONE;
	memset(&t->n[t->nn], 0, sizeof t->n[t->nn]);
	t->n[t->nn].type = type;
	t->n[t->nn].member = MT_NONE;
	t->n[t->nn].parent = MT_NONE;
	t->n[t->nn].mode = 0755;
	return t->nn++;
}

/* A directory node made under dir as name[0..len) (implied).  Its
 * index, or MT_NONE out of memory. */
static uint64_t new_dir(struct mt_tree *t, uint64_t dir, const char *name,
    size_t len);

/* Dirent k out of its directory's entries, and everything under it
 * removed too when it names a directory (but for keep_node's subtree,
 * which is being moved). */
static void
kill_dirent(struct mt_tree *t, uint64_t k, int subtree)
{
	struct mt_node *d = &t->n[t->d[k].dir];
	uint64_t node = t->d[k].node;
	size_t j;

	if (node == MT_NONE)
		return;
	for (j = 0; j < d->nkids; j++)
		if (d->kids[j] == k) {
			memmove(&d->kids[j], &d->kids[j + 1],
			    (d->nkids - j - 1) * sizeof *d->kids);
			d->nkids--;
			break;
		}
	t->d[k].node = MT_NONE;
	if (subtree && t->n[node].type == AESCRYPT_DIR) {
		struct mt_node *x = &t->n[node];

		while (x->nkids > 0)
			kill_dirent(t, x->kids[x->nkids - 1], 1);
	}
}

/* Name node under dir (name[0..len)); a name already there is made to
 * name node instead (the replaced one counted; a directory replaced
 * goes with all under it).  0 or -1. */
static int
link_name(struct mt_tree *t, uint64_t dir, const char *name, size_t len,
    uint64_t node)
{
	uint64_t *s, k;
	struct mt_node *d;

	if (hash_room(t) != 0)
		return -1;
	s = slot(t, dir, name, len);
	if (*s != 0 && t->d[*s - 1].node != MT_NONE) {
		k = *s - 1;
		if (t->d[k].node != node) {
			kill_dirent(t, k, t->d[k].node != node);
			t->replaced++;
		} else
			return 0;
	} else if (*s == 0) {
		if (ae_grow(&t->d, &t->capd, t->nd + 1, sizeof *t->d, 1024, 0)
		    != 0 || (t->d[t->nd].name = strndup(name, len)) == NULL)
			return -1;
		t->d[t->nd].dir = dir;
		t->d[t->nd].node = MT_NONE;
		*s = ++t->nd;
		k = t->nd - 1;
	} else
		k = *s - 1;
	d = &t->n[dir];
	if (ae_grow(&d->kids, &d->capkids, d->nkids + 1, sizeof *d->kids, 8,
	    0) != 0)
		return -1;
	d->kids[d->nkids++] = k;
	t->d[k].node = node;
	t->d[k].ifmt = mt_type_bits(t, node);
	if (t->n[node].type == AESCRYPT_DIR)
		t->n[node].parent = dir;
	return 0;
}

static uint64_t
new_dir(struct mt_tree *t, uint64_t dir, const char *name, size_t len)
{
	uint64_t k = new_node(t, AESCRYPT_DIR);

	if (k == MT_NONE || link_name(t, dir, name, len, k) != 0)
		return MT_NONE;
	return k;
}

/* The next component of *p, skipping "/" and ".": its length, with *p
 * at it; 0 at the end. */
static size_t
component(const char **p)
{
	const char *s = *p;
	size_t n;

	for (;;) {
		while (*s == '/')
			s++;
		n = strcspn(s, "/");
		if (!(n == 1 && s[0] == '.'))
			break;
		s += n;
	}
	*p = s;
	return n;
}

/* Whether name[0..len) in dir is the levels view's name at the root,
 * which no member's path may go through or take. */
static int
is_views(const struct mt_tree *t, uint64_t dir, const char *name,
    size_t len)
{
	return dir == 0 && t->views != 0 && len == strlen(MT_LEVELS_DIR)
	    && memcmp(name, MT_LEVELS_DIR, len) == 0;
}

/* Whether path has a ".." component (refused whole, as -x refuses it:
 * nothing of it is made). */
static int
has_dotdot(const char *path)
{
	const char *p = path;
	size_t n;

	while ((n = component(&p)) > 0) {
		if (n == 2 && p[0] == '.' && p[1] == '.')
			return 1;
		p += n;
	}
	return 0;
}

/* Why parent_of found no directory. */
enum { NO_OOM = 1, NO_NAME, NO_THROUGH, NO_PARENT };

/* Under base: the directory that holds path's last component, made as
 * needed (make), and that component.  MT_NONE with *why: NO_NAME for a
 * name to refuse (".." anywhere, nothing left, the levels view's name),
 * NO_THROUGH for a component that is there and is not a directory (-x
 * does not write through a symlink or a file), NO_PARENT for a parent
 * missing (!make), NO_OOM out of memory. */
static uint64_t
parent_of(struct mt_tree *t, uint64_t base, const char *path, int make,
    const char **last, size_t *lastlen, int *why)
{
	const char *p = path, *q;
	uint64_t dir = base, k;
	size_t n, m;

	*why = NO_NAME;
	if (has_dotdot(path) || (n = component(&p)) == 0)
		return MT_NONE;
	for (;;) {
		if (is_views(t, dir, p, n))
			return MT_NONE;
		q = p + n;
		if ((m = component(&q)) == 0)
			break;
		if ((k = mt_lookup_n(t, dir, p, n)) == MT_NONE) {
			/* implied */
			*why = make ? NO_OOM : NO_PARENT;
			if (!make || (k = new_dir(t, dir, p, n)) == MT_NONE)
				return MT_NONE;
		} else if (t->n[k].type != AESCRYPT_DIR) {
			*why = NO_THROUGH;
			return MT_NONE;
		}
		dir = k;
		p = q;
		n = m;
	}
	*last = p;
	*lastlen = n;
	return dir;
}

/* The dirent a path names under base, or MT_NONE. */
static uint64_t
resolve_dirent(const struct mt_tree *t, uint64_t base, const char *path)
{
	const char *p = path;
	uint64_t node = base, k = MT_NONE;
	size_t n;

	while ((n = component(&p)) > 0) {
		if ((n == 2 && p[0] == '.' && p[1] == '.')
		    || is_views(t, node, p, n)
		    || t->hash == NULL || node == MT_NONE
		    || t->n[node].type != AESCRYPT_DIR
		    || (k = *slot(t, node, p, n)) == 0
		    || (node = t->d[k - 1].node) == MT_NONE)
			return MT_NONE;
		k--;
		p += n;
	}
	return k;
}

/* Whether node a is dir or beneath it. */
static int
beneath(const struct mt_tree *t, uint64_t a, uint64_t dir)
{
	for (; a != MT_NONE; a = t->n[a].parent)
		if (a == dir)
			return 1;
	return 0;
}

/* One level's member i (ie) into the tree under base.  0, or -1 out
 * of memory. */
static int
add_member(struct mt_tree *t, uint64_t base, uint32_t level, uint64_t i,
    const struct aescrypt_index_entry *ie, uint64_t span)
{
	const struct aescrypt_entry *e = &ie->e;
	const char *last;
	size_t len;
	uint64_t dir, node, old, k;
	int why;

	if (base == 0 && t->views != 0) {
		const char *p = e->path;

		len = component(&p);
		if (is_views(t, 0, p, len)) {
			t->shadowed++;
			return 0;
		}
	}
	if ((dir = parent_of(t, base, e->path, 1, &last, &len, &why))
	    == MT_NONE) {
		if (why == NO_OOM)
			return -1;
		if (why == NO_THROUGH)
			t->refused_through++;
		else
			t->refused_name++;
		return 0;
	}
	if (e->type == AESCRYPT_HARDLINK) {
		/* a name for its target's inode, which must be there and
		 * not be a directory (as -x links it) */
		if ((k = resolve_dirent(t, base, e->linkpath)) == MT_NONE
		    || t->n[node = t->d[k].node].type == AESCRYPT_DIR) {
			t->refused_link++;
			return 0;
		}
		return link_name(t, dir, last, len, node);
	}
	old = mt_lookup_n(t, dir, last, len);
	if (old != MT_NONE && t->n[old].type == AESCRYPT_DIR
	    && e->type != AESCRYPT_DIR && t->n[old].nkids > 0) {
		/* -x leaves a directory that is not empty in the way */
		t->refused_over++;
		return 0;
	}
	if (e->type == AESCRYPT_DIR && old != MT_NONE
	    && t->n[old].type == AESCRYPT_DIR)
		node = old;         /* its attributes, its entries kept */
	else if ((node = new_node(t, e->type)) == MT_NONE
	    || link_name(t, dir, last, len, node) != 0)
		return -1;
	t->n[node].level = level;
	t->n[node].member = i;
	/* the mount is nosuid: the bits are shown masked */
	t->n[node].mode = e->mode & 01777;
	t->n[node].uid = e->uid;
	t->n[node].gid = e->gid;
	t->n[node].size = e->type == AESCRYPT_FILE ? e->size : 0;
	/* a sparse file's data in the archive is less than its size: its
	 * member's span there bounds it (its headers' blocks over) */
	t->n[node].blocks = e->type == AESCRYPT_FILE ? ((e->size < span
	    ? e->size : span) + 511) / 512 : 0;
	t->n[node].mtime = e->mtime;
	t->n[node].mtime_nsec = e->mtime_nsec;
	if (e->type == AESCRYPT_CHARDEV || e->type == AESCRYPT_BLOCKDEV)
		t->n[node].rdev = ie->stored_size;
	if (e->type == AESCRYPT_SYMLINK) {
		free(t->n[node].link);
		if ((t->n[node].link = strdup(e->linkpath)) == NULL)
			return -1;
		t->n[node].size = strlen(e->linkpath);
	}
	return 0;
}

/* Directory dir (a member of a later level) as -x -g makes it: the
 * renames its dumpdir records (paths from base), then what it no
 * longer lists removed, a directory it lists as a file too.  0, or -1
 * out of memory. */
static int
apply_dumpdir(struct mt_tree *t, uint64_t base, uint64_t dir,
    const uint8_t *dd, size_t n)
{
	const char *from = NULL, *e;
	size_t pos = 0, j;

	while ((e = ae_dumpdir_next(dd, n, &pos)) != NULL) {
		const char *last;
		uint64_t k, tdir;
		size_t len;
		int why;

		if (e[0] == 'R') {
			from = e + 1;
			continue;
		}
		if (e[0] != 'T' || from == NULL)
			continue;
		k = resolve_dirent(t, base, from);
		from = NULL;
		/* (no parent is made for a rename: nothing to run out of) */
		if (k == MT_NONE || (tdir = parent_of(t, base, e + 1, 0, &last,
		    &len, &why)) == MT_NONE)
			continue;
		/* (a directory into itself fails, as rename(2) does) */
		if (t->n[t->d[k].node].type == AESCRYPT_DIR
		    && beneath(t, tdir, t->d[k].node))
			continue;
		{
			uint64_t node = t->d[k].node;

			kill_dirent(t, k, 0);
			if (link_name(t, tdir, last, len, node) != 0)
				return -1;
		}
		t->renamed++;
	}
	for (j = t->n[dir].nkids; j-- > 0;) {
		uint64_t k = t->n[dir].kids[j], node = t->d[k].node;
		int l = ae_dumpdir_letter(dd, n, t->d[k].name);

		if (l == 'D' || (l != 0 && t->n[node].type != AESCRYPT_DIR))
			continue;
		kill_dirent(t, k, 1);
		t->removed++;
	}
	return 0;
}

/* Directory member i of a later level (path, under base), as -x -g
 * applies it: its dumpdir, read from its headers.  0 or an error. */
static int
level_dir(struct mt_tree *t, aescrypt_reader *r, uint64_t i, uint64_t base,
    const char *path)
{
	struct aescrypt_extras x;
	const char *last, *p = path;
	uint64_t dir;
	size_t len;
	int why, err, oom;

	if ((err = aescrypt_reader_extras(r, i, &x)) != AESCRYPT_OK)
		return err;
	t->dumpdirs++;
	if (component(&p) == 0)
		dir = base;             /* "./" itself */
	else if ((dir = parent_of(t, base, path, 0, &last, &len, &why))
	    != MT_NONE)
		dir = mt_lookup_n(t, dir, last, len);
	oom = x.dumpdir != NULL && dir != MT_NONE
	    && t->n[dir].type == AESCRYPT_DIR
	    && apply_dumpdir(t, base, dir, x.dumpdir, x.dumpdir_len) != 0;
	aescrypt_extras_free(&x);
	return oom ? AESCRYPT_ENOMEM : AESCRYPT_OK;
}

/* Level `level` (r) into the tree under base; chain: apply the
 * dumpdirs of its directories.  0 or an error. */
static int
add_level(struct mt_tree *t, aescrypt_reader *r, uint32_t level,
    uint64_t base, int chain)
{
	struct aescrypt_index_figures f;
	struct aescrypt_index_entry ie, next;
	uint64_t i;
	int err;

	if ((err = aescrypt_reader_index_figures(r, &f)) != AESCRYPT_OK)
		return err;
	if (f.members > 0 && (err = aescrypt_reader_index_entry(r, 0, &next))
	    != AESCRYPT_OK)
		return err;
	for (i = 0; i < f.members; i++) {
		uint64_t end;

		ie = next;
		if (i + 1 < f.members) {
			if ((err = aescrypt_reader_index_entry(r, i + 1, &next))
			    != AESCRYPT_OK)
				return err;
			end = next.first;
		} else
			end = f.tar_end;
		if (add_member(t, base, level, i, &ie, end - ie.first) != 0)
			return AESCRYPT_ENOMEM;
		if (chain && ie.e.type == AESCRYPT_DIR
		    && (err = level_dir(t, r, i, base, ie.e.path))
		    != AESCRYPT_OK)
			return err;
	}
	return AESCRYPT_OK;
}

int
mt_build(struct mt_tree *t, aescrypt_reader *const *r, size_t n,
    int levels, size_t *bad)
{
	struct mt_tree saved;
	uint64_t k, views = MT_NONE;
	size_t l;
	int err = AESCRYPT_ENOMEM;

	memset(t, 0, sizeof *t);
	*bad = 0;
	if (new_node(t, AESCRYPT_DIR) != 0)
		return AESCRYPT_ENOMEM;
	t->n[0].level = UINT32_MAX;
	if (levels) {
		/* made first, so that no member can take its name */
		if ((views = new_dir(t, 0, MT_LEVELS_DIR,
		    strlen(MT_LEVELS_DIR))) == MT_NONE)
			goto fail;
		t->views = views;
		t->n[views].level = UINT32_MAX;
		t->n[views].mode = 0555;
	}
	for (l = 0; l < n; l++) {
		/* a chain: each later level as -x -g applies it */
		if ((err = add_level(t, r[l], (uint32_t)l, 0, n > 1 && l > 0))
		    != AESCRYPT_OK) {
			*bad = l;
			goto fail;
		}
	}
	/* the views show the same members again: what they leave out or
	 * replace is not counted twice (the counts are the merged tree's,
	 * the one the mount shows at its top) */
	saved = *t;
	for (l = 0; levels && l < n; l++) {
		char name[24];
		uint64_t base;

		snprintf(name, sizeof name, "%zu", l);
		if ((base = new_dir(t, views, name, strlen(name))) == MT_NONE) {
			err = AESCRYPT_ENOMEM;
			goto fail;
		}
		t->n[base].level = (uint32_t)l;
		t->n[base].mode = 0555;
		if ((err = add_level(t, r[l], (uint32_t)l, base, 0))
		    != AESCRYPT_OK) {
			*bad = l;
			goto fail;
		}
	}
	t->refused_name = saved.refused_name;
	t->refused_through = saved.refused_through;
	t->refused_over = saved.refused_over;
	t->refused_link = saved.refused_link;
	t->replaced = saved.replaced;
	/* links, counted once the tree is whole: a directory's own, ".",
	 * and each subdirectory's ".."; a file's, each name of it */
	for (k = 0; k < t->nn; k++)
		t->n[k].nlink = t->n[k].type == AESCRYPT_DIR ? 2 : 0;
	for (k = 0; k < t->nd; k++) {
		uint64_t node = t->d[k].node;

		if (node == MT_NONE)
			continue;
		if (t->n[node].type == AESCRYPT_DIR)
			t->n[t->d[k].dir].nlink++;
		else
			t->n[node].nlink++;
	}
	return AESCRYPT_OK;
fail:
	mt_free(t);
	return err;
}

void
mt_free(struct mt_tree *t)
{
	size_t i;

	for (i = 0; i < t->nn; i++) {
		free(t->n[i].link);
		free(t->n[i].kids);
	}
	for (i = 0; i < t->nd; i++)
		free(t->d[i].name);
	free(t->n);
	free(t->d);
	free(t->hash);
	memset(t, 0, sizeof *t);
}

uint64_t
mt_lookup(const struct mt_tree *t, uint64_t dir, const char *name)
{
	return mt_lookup_n(t, dir, name, strlen(name));
}

uint32_t
mt_type_bits(const struct mt_tree *t, uint64_t node)
{
	switch (t->n[node].type) {
	case AESCRYPT_DIR: return S_IFDIR;
	case AESCRYPT_SYMLINK: return S_IFLNK;
	case AESCRYPT_CHARDEV: return S_IFCHR;
	case AESCRYPT_BLOCKDEV: return S_IFBLK;
	case AESCRYPT_FIFO: return S_IFIFO;
	default: return S_IFREG;
	}
}

void
mt_stat(const struct mt_tree *t, uint64_t node, struct stat *st)
{
	const struct mt_node *x = &t->n[node];

	memset(st, 0, sizeof *st);
	st->st_ino = node + 1;
	/* (a symlink's own bits mean nothing on Linux, which makes every
	 * one 0777, as -x's are) */
	st->st_mode = mt_type_bits(t, node) | (x->type == AESCRYPT_SYMLINK
	    ? 0777 : x->mode);
	st->st_nlink = x->nlink;
	st->st_uid = (uid_t)x->uid;
	st->st_gid = (gid_t)x->gid;
	st->st_size = (off_t)x->size;
	st->st_blocks = (blkcnt_t)x->blocks;
	st->st_rdev = (dev_t)makedev((unsigned)(x->rdev >> 32),
	    (unsigned)(x->rdev & 0xffffffffu));
	st->st_blksize = 65536;
	st->st_mtim.tv_sec = (time_t)x->mtime;
	st->st_mtim.tv_nsec = (long)x->mtime_nsec;
	st->st_atim = st->st_mtim;
	st->st_ctim = st->st_mtim;
}
