/*
 * reader.h -- the tree walk behind aescrypt -c: the named paths and
 * everything under them, written as one POSIX pax tar stream
 * (tar_write.h) to a writer.
 *
 * As libarchive's archive_read_disk: flags say what is read (symlinks
 * followed or not, extended attributes, ACLs), and what happens to each
 * path comes back through a report callback; nothing here prints or
 * exits.  Problems with single files are warnings and the walk goes on
 * (a file that cannot be read, that changes while it is read; a socket,
 * which is not archived), as in GNU tar, whose wording the reports
 * follow.  Devices and FIFOs are stored as headers, as GNU tar stores
 * them.
 */
#ifndef AE_DISK_READER_H
#define AE_DISK_READER_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "archive/snapshot.h"
#include "archive/tar_write.h"
#include "common/io.h"
#include "xattr.h"

/* What is read (ae_dr_params.flags). */
enum {
	AE_DR_FOLLOW = 1 << 0,      /* archive what symlinks point to (-h) */
	AE_DR_XATTRS = 1 << 1,      /* extended attributes (not system.*) */
	AE_DR_ACLS = 1 << 2,        /* POSIX ACLs (as their xattrs) */
	AE_DR_NOTE_XATTRS = 1 << 3, /* report once that a file has some
	                             * the flags leave out (-v) */
	AE_DR_ONE_FS = 1 << 4,      /* do not descend into directories on
	                             * another file system than their
	                             * operand's (--one-file-system) */
	AE_DR_INCREMENTAL = 1 << 5  /* -g: a listed-incremental archive,
	                             * against ae_dr_params.prev */
};

/*
 * A tag file: a directory holding one is not archived, or only in part
 * (GNU tar's --exclude-tag*, and --exclude-caches* for CACHEDIR.TAG,
 * https://bford.info/cachedir/).
 */
enum ae_dr_tag_how {
	AE_DR_TAG_CONTENTS,     /* the directory and the tag file alone */
	AE_DR_TAG_UNDER,        /* the directory alone */
	AE_DR_TAG_ALL           /* nothing of it */
};

struct ae_dr_tag {
	const char *name;       /* the tag's file name in the directory */
	int cachedir;           /* it counts only if it starts with the
	                         * CACHEDIR.TAG signature */
	enum ae_dr_tag_how how;
};

enum ae_dr_event {
	AE_DR_MEMBER,       /* e's headers start at stream offset `offset`
	                     * (for -v, progress and the index) */
	AE_DR_WARNING,      /* name is not archived, or not as it is: why
	                     * (and err, an errno, or 0) */
	AE_DR_STRIPPED,     /* name (a prefix: '/' or up to a "..") is
	                     * removed from member names; once per prefix */
	AE_DR_SELF,         /* name is the archive being written (self 0)
	                     * or the one it replaces (self 1): not dumped */
	AE_DR_IGNORED,      /* name is a socket (why) */
	AE_DR_XATTRS_LEFT,  /* some file has attributes the flags leave out
	                     * (once, with AE_DR_NOTE_XATTRS) */
	AE_DR_TAGGED,       /* directory name holds the tag file why: tag
	                     * says what was left out (not a warning: tar
	                     * exits 0) */
	AE_DR_UNCHANGED,    /* name is no newer than ae_dr_params.newer:
	                     * not dumped (tar -N says so with -v) */
	AE_DR_KEPT,         /* -g: name has not changed since the last
	                     * level: not dumped, 'N' in its dumpdir (GNU
	                     * tar says nothing; --totals counts it) */
	AE_DR_OTHER_FS,     /* directory name is on another file system
	                     * (AE_DR_ONE_FS): stored, its contents not */
	AE_DR_FAILED        /* the walk cannot go on: why, err */
};

struct ae_dr_report {
	enum ae_dr_event event;
	const char *name;               /* the path as walked, or NULL */
	const char *why;                /* a phrase, or NULL */
	int err;                        /* errno, or 0 */
	int self;                       /* AE_DR_SELF: which one */
	enum ae_dr_tag_how tag;         /* AE_DR_TAGGED: what was left */
	const struct ae_tar_entry *e;   /* AE_DR_MEMBER: the member */
	uint64_t offset;                /* AE_DR_MEMBER: where it starts */
};

struct ae_dr_params {
	unsigned flags;             /* AE_DR_* */
	const int *dirfd;           /* per path, the directory it is
	                             * relative to (-C), or -1: the current
	                             * one; or NULL.  The walk fchdir()s,
	                             * and goes back to the caller's working
	                             * directory when it ends. */
	/* Files never to archive: the archive being written, and the old
	 * one it will replace. */
	struct { dev_t dev; ino_t ino; } self[2];
	int nself;
	const atomic_int *stop;     /* set: stop at the next file; or NULL */
	/* Which extended attributes AE_DR_XATTRS stores (xattr.h); NULL:
	 * all but the system's own. */
	const struct ae_xattr_filter *xattrs;
	/* Whether a path is left out (--exclude); optional. */
	int (*excluded)(void *ctx, const char *path);
	/* -N/--newer: when newer_set, a file that is not a directory is
	 * archived only if its mtime, or its ctime unless newer_mtime_only
	 * (--newer-mtime), is later than newer (GNU tar's rule). */
	int newer_set, newer_mtime_only;
	struct timespec newer;
	/* AE_DR_INCREMENTAL (GNU tar's -g): each directory gets a
	 * GNU.dumpdir record listing what it holds; a file is archived if
	 * its directory is new since prev (not there by device and inode
	 * under the same name; prev NULL: level 0, all are new) or it
	 * changed (mtime or ctime) after prev's time.  Every directory
	 * walked is added to next, the snapshot the caller then writes. */
	const struct ae_snapshot *prev;
	struct ae_snapshot *next;
	/* Bytes the tar stream starts with, before the first member's
	 * header and counted as part of its headers (its offset is 0): the
	 * archive's global header (tar.h).  Not written if no member is,
	 * so that an empty archive is the end blocks alone.  Optional. */
	const uint8_t *lead;
	size_t lead_len;
	/* Tag files (ntags of them, or none); the strongest that a
	 * directory holds decides. */
	const struct ae_dr_tag *tags;
	size_t ntags;
	/* Every report; required.  A non-zero return stops the walk (as a
	 * failed write does): the callback has said why. */
	int (*report)(void *ctx, const struct ae_dr_report *r);
	void *ctx;
};

/*
 * Write paths[0..n) and everything under them, then the end-of-archive
 * blocks, to w.  Before paths[i] it changes the working directory to
 * p->dirfd[i] when that is set.  *tar_end is where the end blocks start
 * (for the index), *partial whether a warning was given (tar's exit
 * status 1).  Returns AE_OK; AE_EINTR if p->stop was set; AE_ENOMEM;
 * AE_EIO after AE_DR_FAILED; or, when the writer or the report callback
 * stopped it, that writer's error or AE_EIO.
 */
int ae_dr_walk(const struct ae_dr_params *p, char *const *paths, size_t n,
    struct ae_writer *w, uint64_t *tar_end, int *partial);

/*
 * The same walk in steps, for a caller that names its members one at a
 * time (the library's archive writer): _begin with p (kept: it must
 * outlive the walk) and w; then any number of _add (path and
 * everything under it, relative to the working directory, as
 * ae_dr_walk walks each of its paths), _add_all (paths[0..n), each
 * after entering p->dirfd[i] where p has dirfd, as ae_dr_walk walks
 * them) and _put (one
 * member from memory: e with its data, len bytes, which must be e's
 * size for a regular file and 0 otherwise), whose headers and hard-link
 * table are one stream's; then _end, which writes the end blocks, sets
 * *tar_end and *partial as ae_dr_walk does, and frees the walk (as
 * _free does, without ending the stream).  _add and _end return what
 * ae_dr_walk would (AE_OK, or why the walk stopped: after that every
 * call returns it); _put also AE_EINVAL for an entry tar cannot hold
 * or a len that is not its size.  _partial: a warning was given.
 */
struct ae_dr;
int ae_dr_begin(const struct ae_dr_params *p, struct ae_writer *w,
    struct ae_dr **out);
int ae_dr_add(struct ae_dr *r, const char *path);
int ae_dr_add_all(struct ae_dr *r, char *const *paths, size_t n);
int ae_dr_put(struct ae_dr *r, const struct ae_tar_entry *e,
    const uint8_t *data, size_t len);
int ae_dr_end(struct ae_dr *r, uint64_t *tar_end, int *partial);
int ae_dr_partial(const struct ae_dr *r);
void ae_dr_free(struct ae_dr *r);

/* The total size of the regular files ae_dr_walk would archive (for
 * the progress line's total; nothing is reported). */
uint64_t ae_dr_measure(const struct ae_dr_params *p, char *const *paths,
    size_t n);

#endif
