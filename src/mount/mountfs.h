/*
 * mountfs.h -- an archive mounted read-only through libfuse3, on the
 * library's random access: the mount's own front end beside cli/.
 */
#ifndef AE_MOUNT_MOUNTFS_H
#define AE_MOUNT_MOUNTFS_H

#include <stddef.h>
#include <stdint.h>

#include "aescrypt.h"

struct mountfs_params {
	aescrypt_reader *reader;    /* open and unlocked, from a file that
	                             * can pread, with an index */
	const char *dir;            /* where to mount */
	const char *name;           /* the archive, for messages */
	int foreground;             /* stay attached (else daemonize once
	                             * the mount is there) */
	int allow_other;            /* -o allow_other (always with
	                             * default_permissions) */
	unsigned threads;           /* FUSE worker threads; 0: 8 */
	int64_t implied_mtime;      /* the time shown for directories no
	                             * member names (the root among them) */
	/* told once the mount is there, before going to the background:
	 * the tree's nodes, the members left out for their names, the
	 * members a later one replaced */
	void (*ready)(void *ctx, size_t nodes, uint64_t refused,
	    uint64_t replaced);
	void *ready_ctx;
};

/* Results of mountfs_run. */
enum {
	MOUNTFS_OK = 0,             /* unmounted cleanly */
	MOUNTFS_NO_INDEX = 1,       /* the index could not be read */
	MOUNTFS_FAILED = 2,         /* the mount or its loop failed */
	MOUNTFS_NO_FUSE = 3         /* this build has no FUSE */
};

/* Whether this build has FUSE (1), or only the stand-in (0): asked
 * before anything else, so that no passphrase is asked for in vain. */
int mountfs_available(void);

/* Mount and serve until unmounted (fusermount3 -u, umount, or SIGTERM
 * and SIGINT in the foreground).  err (errlen) gets the reason of a
 * failure. */
int mountfs_run(const struct mountfs_params *p, char *err, size_t errlen);

#endif
