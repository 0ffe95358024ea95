/*
 * dircache.h -- directories under an extraction root, kept open and
 * found by their longest open prefix.
 *
 * Every directory is opened with no symlink in its path (beneath.h),
 * relative to the root or to a directory of the cache that was itself
 * opened that way, so an entry can stand in for the root of everything
 * under it.  Opening a directory costs the components below its
 * nearest open ancestor, not its whole depth: a tar stream's members
 * come a directory at a time, and a tree 5,000 levels deep, opened one
 * level further at each member (or deepest first, when directories get
 * their modes at the end), would otherwise cost 12.5 million openat
 * calls.  On the way down a long path, a directory every CHECKPOINT
 * components is kept as well, so that its neighbours open cheaply too.
 *
 * The entries can only go stale by a rename or removal under the root
 * while they are open.  The disk writer removes only an empty directory
 * at a member's own name, and then forgets every entry but the one in
 * use (ae_dircache_forget).
 */
#ifndef AE_DISK_DIRCACHE_H
#define AE_DISK_DIRCACHE_H

#include <stdint.h>
#include <sys/types.h>

#define AE_DIRCACHE_SLOTS 128

struct ae_dircache {
	int root;                   /* the caller's; never closed here */
	struct ae_dircache_slot {
		char *path;         /* relative to root, normalized, or NULL */
		size_t len;
		int fd;
		uint64_t used;
	} slot[AE_DIRCACHE_SLOTS];
	uint64_t clock;
	uint64_t opens;             /* components opened, for tests */
};

/* An empty cache over the directory open as root. */
void ae_dircache_init(struct ae_dircache *c, int root);

/*
 * A descriptor for dir (relative to the root, normalized as
 * ae_beneath_path_ok wants; "" is the root itself), owned by the cache:
 * the caller must not close it, and it stays valid until the next call
 * to ae_dircache_open or ae_dircache_forget.  With create, missing
 * directories are made with mode.  0, or ae_beneath_opendir's errors
 * (AE_EIO with errno: ELOOP for a symlink on the way, ENOTDIR, ENOENT;
 * AE_EINVAL for a path of the wrong shape); AE_ENOMEM.
 */
int ae_dircache_open(struct ae_dircache *c, const char *dir, int create,
    mode_t mode, int *fd);

/* Close every entry but the one whose descriptor is keep (-1: all). */
void ae_dircache_forget(struct ae_dircache *c, int keep);

/* Close every entry and free the cache's memory. */
void ae_dircache_free(struct ae_dircache *c);

#endif
