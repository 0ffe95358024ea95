/*
 * tree.c -- an archive's members as a file system tree (contract in
 * tree.h).
 */
#include "config.h"
#include "tree.h"

#include <stdlib.h>
#include <string.h>

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
	t->n[t->nn].nlink = 1;
	return t->nn++;
}

/* Name node under dir (name[0..len)); a name already there is made to
 * name node instead (the replaced one is counted).  0 or -1. */
static int
link_name(struct mt_tree *t, uint64_t dir, const char *name, size_t len,
    uint64_t node)
{
	uint64_t *s;
	struct mt_node *d;

	if (hash_room(t) != 0)
		return -1;
	s = slot(t, dir, name, len);
	if (*s != 0) {
		struct mt_node *old = &t->n[t->d[*s - 1].node];

		/* the name no longer counts as a link of what it named (a
		 * directory's links are counted once the tree is whole) */
		if (old->type != AESCRYPT_DIR && old->nlink > 1)
			old->nlink--;
		t->d[*s - 1].node = node;
		t->replaced++;
		return 0;
	}
	if (ae_grow(&t->d, &t->capd, t->nd + 1, sizeof *t->d, 1024, 0) != 0
	    || (t->d[t->nd].name = strndup(name, len)) == NULL)
		return -1;
	d = &t->n[dir];
	if (ae_grow(&d->kids, &d->capkids, d->nkids + 1, sizeof *d->kids, 8,
	    0) != 0) {
		free(t->d[t->nd].name);
		return -1;
	}
	d->kids[d->nkids++] = t->nd;
	t->d[t->nd].dir = dir;
	t->d[t->nd].node = node;
	*s = ++t->nd;
	return 0;
}

/* The next component of *p (at most up to end), skipping "/" and ".":
 * its length, with *p at it; 0 at the end. */
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

/* The directory that holds path's last component, made as needed, and
 * that component.  MT_NONE for a name to refuse (".." anywhere, or
 * nothing left), or out of memory (*oom). */
static uint64_t
parent_of(struct mt_tree *t, const char *path, const char **last,
    size_t *lastlen, int *oom)
{
	const char *p = path, *q;
	uint64_t dir = 0, k;
	size_t n, m;

	*oom = 0;
	if ((n = component(&p)) == 0)
		return MT_NONE;
	for (;;) {
		if (n == 2 && p[0] == '.' && p[1] == '.')
			return MT_NONE;
		q = p + n;
		if ((m = component(&q)) == 0)
			break;
		if ((k = mt_lookup_n(t, dir, p, n)) == MT_NONE
		    || t->n[k].type != AESCRYPT_DIR) {
			/* implied, or a file turned into a directory */
			if ((k = new_node(t, AESCRYPT_DIR)) == MT_NONE
			    || link_name(t, dir, p, n, k) != 0) {
				*oom = 1;
				return MT_NONE;
			}
			t->n[k].mode = 0755;
			t->n[k].nlink = 2;
		}
		dir = k;
		p = q;
		n = m;
	}
	*last = p;
	*lastlen = n;
	return dir;
}

/* The node a path names (a hard link's target), or MT_NONE. */
static uint64_t
resolve(const struct mt_tree *t, const char *path)
{
	const char *p = path;
	uint64_t node = 0;
	size_t n;

	while ((n = component(&p)) > 0) {
		if ((n == 2 && p[0] == '.' && p[1] == '.')
		    || (node = mt_lookup_n(t, node, p, n)) == MT_NONE)
			return MT_NONE;
		p += n;
	}
	return node;
}

/* Member i (e) into the tree.  0, or -1 out of memory. */
static int
add_member(struct mt_tree *t, uint64_t i, const struct aescrypt_entry *e)
{
	const char *last;
	size_t len;
	uint64_t dir, node, old;
	int oom;

	if ((dir = parent_of(t, e->path, &last, &len, &oom)) == MT_NONE) {
		if (oom)
			return -1;
		t->refused++;
		return 0;
	}
	if (e->type == AESCRYPT_HARDLINK) {
		/* a name for its target's inode, which must be there and
		 * not be a directory (as -x links it) */
		if ((node = resolve(t, e->linkpath)) == MT_NONE
		    || t->n[node].type == AESCRYPT_DIR) {
			t->refused++;
			return 0;
		}
		t->n[node].nlink++;
		return link_name(t, dir, last, len, node);
	}
	old = mt_lookup_n(t, dir, last, len);
	if (e->type == AESCRYPT_DIR && old != MT_NONE
	    && t->n[old].type == AESCRYPT_DIR)
		node = old;         /* its attributes, its entries kept */
	else if ((node = new_node(t, e->type)) == MT_NONE
	    || link_name(t, dir, last, len, node) != 0)
		return -1;
	else if (e->type == AESCRYPT_DIR)
		t->n[node].nlink = 2;
	t->n[node].member = i;
	/* the mount is nosuid: the bits are shown masked */
	t->n[node].mode = e->mode & 01777;
	t->n[node].uid = e->uid;
	t->n[node].gid = e->gid;
	t->n[node].size = e->type == AESCRYPT_FILE ? e->size : 0;
	t->n[node].mtime = e->mtime;
	t->n[node].mtime_nsec = e->mtime_nsec;
	if (e->type == AESCRYPT_SYMLINK) {
		free(t->n[node].link);
		if ((t->n[node].link = strdup(e->linkpath)) == NULL)
			return -1;
		t->n[node].size = strlen(e->linkpath);
	}
	return 0;
}

int
mt_build(struct mt_tree *t, aescrypt_reader *r)
{
	struct aescrypt_entry e;
	uint64_t n, i, k;
	int err;

	memset(t, 0, sizeof *t);
	if ((err = aescrypt_reader_count(r, &n)) != AESCRYPT_OK)
		return err;
	if (new_node(t, AESCRYPT_DIR) != 0)
		return AESCRYPT_ENOMEM;
	t->n[0].mode = 0755;
	t->n[0].nlink = 2;
	for (i = 0; i < n; i++) {
		if ((err = aescrypt_reader_entry(r, i, &e)) != AESCRYPT_OK)
			goto fail;
		if (add_member(t, i, &e) != 0) {
			err = AESCRYPT_ENOMEM;
			goto fail;
		}
	}
	/* a directory's links: its own, ".", and each subdirectory's ".." */
	for (k = 0; k < t->nd; k++)
		if (t->n[t->d[k].node].type == AESCRYPT_DIR
		    && t->d[k].node != t->d[k].dir)
			t->n[t->d[k].dir].nlink++;
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

void
mt_stat(const struct mt_tree *t, uint64_t node, struct stat *st)
{
	const struct mt_node *x = &t->n[node];

	memset(st, 0, sizeof *st);
	st->st_ino = node + 1;
	st->st_mode = x->mode;
	switch (x->type) {
	case AESCRYPT_DIR: st->st_mode |= S_IFDIR; break;
	case AESCRYPT_SYMLINK: st->st_mode |= S_IFLNK; break;
	case AESCRYPT_CHARDEV: st->st_mode |= S_IFCHR; break;
	case AESCRYPT_BLOCKDEV: st->st_mode |= S_IFBLK; break;
	case AESCRYPT_FIFO: st->st_mode |= S_IFIFO; break;
	default: st->st_mode |= S_IFREG; break;
	}
	st->st_nlink = x->nlink;
	st->st_uid = (uid_t)x->uid;
	st->st_gid = (gid_t)x->gid;
	st->st_size = (off_t)x->size;
	st->st_blocks = (blkcnt_t)((x->size + 511) / 512);
	st->st_blksize = 65536;
	st->st_mtim.tv_sec = (time_t)x->mtime;
	st->st_mtim.tv_nsec = (long)x->mtime_nsec;
	st->st_atim = st->st_mtim;
	st->st_ctim = st->st_mtim;
}
