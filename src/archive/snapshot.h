/*
 * snapshot.h -- GNU tar's snapshot file for listed-incremental archives
 * (-g FILE), format 2, as GNU tar 1.34 writes it:
 *
 *   "GNU tar-1.34-2\n"        (any version, then "-2")
 *   SECONDS \0 NANOSECONDS \0 the time the dump that wrote it started
 *   then, for each directory:
 *     NFS \0 MTIME_SECONDS \0 MTIME_NANOSECONDS \0 DEV \0 INO \0 NAME \0
 *     its dumpdir: entries "Yname", "Nname", "Dname" (in the archive,
 *     not changed, a directory), each NUL-terminated, closed by an
 *     empty one \0
 *     \0
 *
 * Parsing and encoding only; reading and writing the file is the
 * caller's.  Every length is bounded by the input.
 */
#ifndef AE_ARCHIVE_SNAPSHOT_H
#define AE_ARCHIVE_SNAPSHOT_H

#include <stddef.h>
#include <stdint.h>

struct ae_snap_dir {
	char *name;             /* as in the archive, no trailing '/' */
	uint64_t dev, ino;
	int64_t mtime;
	uint32_t mtime_nsec;
	int nfs;
	uint8_t *dumpdir;       /* entries, each NUL-terminated, then an
	                         * empty one: dumpdir_len bytes in all */
	size_t dumpdir_len;
};

struct ae_snapshot {
	int64_t time;           /* when the dump that made it started */
	uint32_t time_nsec;
	/* That dump's level (0: a full dump), which aescrypt keeps in the
	 * first line's version text, "GNU tar-1.34 aescrypt level=N-2";
	 * GNU tar takes any text there, and writes its own.  -1: not said
	 * (a snapshot GNU tar wrote). */
	int level;
	struct ae_snap_dir *dirs;
	size_t n, cap;
	/* dirs by (device, inode): open addressing, each slot 1 + an index
	 * into dirs, or 0; nslot a power of two at least twice n (or 0).
	 * ae_snapshot_add keeps it, so that a -g walk over a million
	 * directories finds each one at once rather than by a scan. */
	size_t *slot;
	size_t nslot;
};

/* An empty snapshot (level 0). */
void ae_snapshot_init(struct ae_snapshot *s);
void ae_snapshot_free(struct ae_snapshot *s);

/* Parse buf[0, len) into s (initialised by the caller).  AE_OK;
 * AE_EFORMAT if it is not format 2 or is malformed; AE_ENOMEM. */
int ae_snapshot_parse(const uint8_t *buf, size_t len, struct ae_snapshot *s);

/* Append a copy of d.  AE_OK or AE_ENOMEM. */
int ae_snapshot_add(struct ae_snapshot *s, const struct ae_snap_dir *d);

/* The directory with this device and inode (the first added, if more
 * than one has them), or NULL.  Constant time on average. */
const struct ae_snap_dir *ae_snapshot_find(const struct ae_snapshot *s,
    uint64_t dev, uint64_t ino);

/* s in format 2, into *out (malloc'd) and *len.  AE_OK or AE_ENOMEM. */
int ae_snapshot_encode(const struct ae_snapshot *s, uint8_t **out,
    size_t *len);

#endif
