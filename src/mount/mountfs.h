/*
 * mountfs.h -- an archive mounted read-only through libfuse3, on the
 * library's random access: the mount's own front end beside cli/.
 */
#ifndef AE_MOUNT_MOUNTFS_H
#define AE_MOUNT_MOUNTFS_H

#include <stddef.h>
#include <stdint.h>

#include "aescrypt.h"

/* What the tree holds, told once the mount is there. */
struct mountfs_figures {
	size_t nodes;               /* files and directories */
	/* members left out, as -x leaves them out (tree.h): for their
	 * names, for a path through a symlink or a file, for a directory
	 * that is not empty in the way, hard links to nothing */
	uint64_t refused_name, refused_through, refused_over, refused_link;
	uint64_t replaced;          /* members a later one replaced */
	uint64_t removed, renamed;  /* names later levels' dumpdirs removed
	                             * and renamed */
	uint64_t shadowed;          /* root members named as the levels
	                             * view */
	const char *levels_name;    /* the levels view's name (tree.h) */
	uint64_t dumpdirs;          /* directories' headers read for them */
};

struct mountfs_params {
	aescrypt_reader **readers;  /* the chain's archives, in order: each
	                             * open and unlocked, from a file that
	                             * can pread, with an index, and no
	                             * random access begun */
	size_t nreaders;
	int levels;                 /* add the levels view (tree.h) */
	uint64_t cache_bytes;       /* the plaintext cache, shared out
	                             * among the readers */
	unsigned ahead;             /* read-ahead threads per reader */
	int xattrs;                 /* serve getxattr and listxattr */
	const char *dir;            /* where to mount */
	const char *name;           /* the archive, for messages */
	int foreground;             /* stay attached (else daemonize once
	                             * the mount is there) */
	int verbose;                /* -v: in the foreground, the cache's
	                             * figures at the end */
	int allow_other;            /* -o allow_other (always with
	                             * default_permissions) */
	unsigned threads;           /* FUSE worker threads; 0: 8 */
	int64_t implied_mtime;      /* the time shown for directories no
	                             * member names (the root among them) */
	/* told once the mount is there, before going to the background */
	void (*ready)(void *ctx, const struct mountfs_figures *f);
	void *ready_ctx;
};

/* Results of mountfs_run. */
enum {
	MOUNTFS_OK = 0,             /* unmounted cleanly */
	MOUNTFS_NO_INDEX = 1,       /* an index (or a dumpdir) could not
	                             * be read: the reader's message says
	                             * why, *bad which reader */
	MOUNTFS_FAILED = 2,         /* the mount or its loop failed */
	MOUNTFS_NO_FUSE = 3         /* this build has no FUSE */
};

/* Whether this build has FUSE (1), or only the stand-in (0): asked
 * before anything else, so that no passphrase is asked for in vain. */
int mountfs_available(void);

/* Mount and serve until unmounted (fusermount3 -u, umount, or SIGTERM
 * and SIGINT in the foreground).  err (errlen) gets the reason of a
 * failure. */
int mountfs_run(const struct mountfs_params *p, char *err, size_t errlen,
    size_t *bad);

#endif
