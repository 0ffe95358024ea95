/*
 * tree.h -- an archive's members as a file system tree, built from its
 * index alone (aescrypt_reader_entry), for the mount (mountfs.c).
 *
 * Every member becomes a node with an inode number; directories that
 * are only implied by a member's path are made; a hard link is a name
 * for its target's node (the same inode, nlink counted); a later member
 * of the same path replaces an earlier one, as -x would; names that -x
 * would refuse (a ".." component, nothing left once "/" and "." are
 * dropped) are left out and counted.  The tree is read-only once built,
 * so the mount's threads share it with no lock.
 */
#ifndef AE_MOUNT_TREE_H
#define AE_MOUNT_TREE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "aescrypt.h"

#define MT_NONE UINT64_MAX

/* Node 0 is the root; a node's inode number is its index + 1. */
struct mt_node {
	int type;                   /* enum aescrypt_type */
	uint32_t mode;              /* permission bits (setuid and setgid
	                             * masked: the mount is nosuid) */
	uint64_t uid, gid, size;
	int64_t mtime;
	uint32_t mtime_nsec;
	uint64_t member;            /* index entry, or MT_NONE (an implied
	                             * directory) */
	char *link;                 /* a symlink's target, or NULL */
	uint32_t nlink;
	uint64_t *kids;             /* a directory's entries (dirent
	                             * indexes), in the order made */
	size_t nkids, capkids;
};

/* A name in a directory. */
struct mt_dirent {
	uint64_t dir, node;
	char *name;
};

struct mt_tree {
	struct mt_node *n;
	size_t nn, capn;
	struct mt_dirent *d;
	size_t nd, capd;
	uint64_t *hash;             /* (dir, name) -> dirent + 1, or 0 */
	size_t hcap;                /* a power of two */
	uint64_t refused;           /* members left out for their names */
	uint64_t replaced;          /* members a later one replaced */
};

/* The tree of r's index (r open).  0; AESCRYPT_ENOMEM; or the reader's
 * error (its message says why). */
int mt_build(struct mt_tree *t, aescrypt_reader *r);
void mt_free(struct mt_tree *t);

/* The node that directory dir holds under name, or MT_NONE. */
uint64_t mt_lookup(const struct mt_tree *t, uint64_t dir, const char *name);

/* A node's attributes, as stat(2) gives them. */
void mt_stat(const struct mt_tree *t, uint64_t node, struct stat *st);

#endif
