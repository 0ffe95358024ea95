/*
 * tree.h -- archives' members as one file system tree, built from their
 * indexes, for the mount (mountfs.c).
 *
 * One archive: every member becomes a node with an inode number;
 * directories that are only implied by a member's path are made; a hard
 * link is a name for its target's node (the same inode, nlink counted);
 * a later member of the same path replaces an earlier one, as -x would;
 * what -x would leave out is left out and counted by its reason: a name
 * with a ".." component or nothing left once "/" and "." are dropped, a
 * path through a symlink or a file, a non-directory over a directory
 * that is not empty, a hard link to nothing (or to a directory).
 *
 * A chain of levels (listed-incremental dumps, -c -g): the levels in
 * order, each as -x -g applies it over the ones before: a directory's
 * dumpdir (read from its headers: the only reads besides the indexes)
 * renames what it says was renamed, and removes what it no longer
 * lists, so the tree is what `-x -g /dev/null -f L0 ... -f Ln` restores.
 *
 * With the levels view, MT_LEVELS_DIR at the root holds each archive's
 * own tree, unmerged, under its number in the chain (0, 1, ...); a
 * member of that name at the root is left out (counted as shadowed), so
 * that no member can stand in for the view.
 *
 * The tree is read-only once built, so the mount's threads share it
 * with no lock.
 */
#ifndef AE_MOUNT_TREE_H
#define AE_MOUNT_TREE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "aescrypt.h"

#define MT_NONE UINT64_MAX
#define MT_LEVELS_DIR ".aescrypt-levels"

/* Node 0 is the root; a node's inode number is its index + 1. */
struct mt_node {
	int type;                   /* enum aescrypt_type */
	uint32_t mode;              /* permission bits (setuid and setgid
	                             * masked: the mount is nosuid) */
	uint64_t uid, gid, size;
	int64_t mtime;
	uint32_t mtime_nsec;
	uint32_t level;             /* the archive it comes from */
	uint64_t member;            /* its index entry, or MT_NONE (an
	                             * implied directory) */
	char *link;                 /* a symlink's target, or NULL */
	uint32_t nlink;
	uint64_t rdev;              /* a device's major << 32 | minor */
	uint64_t blocks;            /* 512-byte blocks its data takes in
	                             * the archive (a sparse file's fewer
	                             * than its size) */
	uint64_t parent;            /* a directory's: the one holding it */
	uint64_t *kids;             /* a directory's entries (dirent
	                             * indexes) */
	size_t nkids, capkids;
};

/* A name in a directory; node MT_NONE once removed.  ifmt: its node's
 * S_IFMT bits, kept here so that a listing reads the entries alone (the
 * nodes, read for each name, were a third of a walk's time in the
 * daemon: a cache miss per name). */
struct mt_dirent {
	uint64_t dir, node;
	char *name;
	uint32_t ifmt;
};

struct mt_tree {
	struct mt_node *n;
	size_t nn, capn;
	struct mt_dirent *d;
	size_t nd, capd;
	uint64_t *hash;             /* (dir, name) -> dirent + 1, or 0 */
	size_t hcap;                /* a power of two */
	/* members left out, as -x leaves them out: for their names, for a
	 * path through a symlink or a file, for a directory that is not
	 * empty in the way, hard links to nothing */
	uint64_t refused_name, refused_through, refused_over, refused_link;
	uint64_t replaced;          /* members a later one replaced */
	uint64_t removed;           /* names a later level's dumpdir
	                             * removed */
	uint64_t renamed;           /* ... and renamed */
	uint64_t shadowed;          /* root members named MT_LEVELS_DIR */
	uint64_t dumpdirs;          /* directories' headers read */
	uint64_t views;             /* the levels view's node, or 0 */
};

/* The tree of the chain r[0, n) (each open, with an index); levels:
 * add the levels view.  0; AESCRYPT_ENOMEM; or a reader's error (its
 * message says why; *bad is its place in r). */
int mt_build(struct mt_tree *t, aescrypt_reader *const *r, size_t n,
    int levels, size_t *bad);
void mt_free(struct mt_tree *t);

/* The node that directory dir holds under name, or MT_NONE. */
uint64_t mt_lookup(const struct mt_tree *t, uint64_t dir, const char *name);

/* A node's type as st_mode's S_IF* bits. */
uint32_t mt_type_bits(const struct mt_tree *t, uint64_t node);

/* A node's attributes, as stat(2) gives them. */
void mt_stat(const struct mt_tree *t, uint64_t node, struct stat *st);

#endif
