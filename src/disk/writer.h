/*
 * writer.h -- the safe disk writer: members of a tar stream made as
 * files, directories, symlinks and hard links under an extraction root,
 * whatever the archive says (the rules, and the attack each one closes,
 * are at the top of writer.c).
 *
 * As libarchive's archive_write_disk: the caller reads the stream
 * (tar_read.h), chooses the members, and hands each one over with
 * ae_dw_member; flags say what is restored; what happened to a member
 * comes back through a report callback.  Nothing here prints or exits,
 * and nothing reads a command line.
 *
 *     struct ae_dw *w;
 *     ae_dw_open(&params, &w);
 *     while (ae_tar_next(tr, &m, &d) == AE_OK)
 *             if (wanted(&m) && ae_dw_member(w, tr, &m) != AE_OK)
 *                     break;
 *     ae_dw_close(w);          (directory modes and times)
 */
#ifndef AE_DISK_WRITER_H
#define AE_DISK_WRITER_H

#include <stdatomic.h>
#include <sys/types.h>

#include "archive/tar_read.h"
#include "xattr.h"

/* What is restored (ae_dw_params.flags). */
enum {
	AE_DW_KEEP_OLD = 1 << 0,    /* never replace what exists (tar's
	                             * --keep-old-files) */
	AE_DW_PERMS = 1 << 1,       /* modes exactly, setuid, setgid and
	                             * sticky included (-p); else the umask
	                             * applies and setuid/setgid are dropped */
	AE_DW_OWNER = 1 << 2,       /* owners as the archive names them
	                             * (the caller checks it is root) */
	AE_DW_XATTRS = 1 << 3,      /* extended attributes (not system.*) */
	AE_DW_ACLS = 1 << 4,        /* POSIX ACLs */
	AE_DW_NOTE_XATTRS = 1 << 5, /* without the two above: report once
	                             * that the archive has some (-v) */
	AE_DW_NAMED_TEMPS = 1 << 6, /* never make files without a name
	                             * (O_TMPFILE); a test hook */
	AE_DW_SKIP_OLD = 1 << 7,    /* leave what exists, quietly (tar's
	                             * --skip-old-files): AE_DW_KEPT */
	AE_DW_KEEP_NEWER = 1 << 8,  /* leave what exists if it is as new as
	                             * the member or newer (tar's
	                             * --keep-newer-files): AE_DW_KEPT */
	AE_DW_INCREMENTAL = 1 << 10, /* -g: a directory with a dumpdir gets
	                             * its renames (R, T) and loses what the
	                             * dumpdir does not list, as GNU tar -x
	                             * -g does; not a directory that existed
	                             * under KEEP_OLD or SKIP_OLD, and never
	                             * anything on another file system */
	AE_DW_NO_OVERWRITE_DIR = 1 << 11, /* a directory that exists keeps
	                             * its owner, mode, times and attributes
	                             * (tar's --no-overwrite-dir; implied by
	                             * KEEP_OLD, SKIP_OLD and KEEP_NEWER) */
	AE_DW_NO_DEVICES = 1 << 12, /* make no character or block device:
	                             * each one is AE_DW_SKIPPED (FIFOs are
	                             * still made) */
	AE_DW_CAPS = 1 << 9         /* a file capability (security.
	                             * capability) may be set when the
	                             * xattr filter names it: the caller's
	                             * -p, given, not root's default */
};

/* What a report is about (ae_dw_report.event). */
enum ae_dw_event {
	AE_DW_MEMBER,       /* the member passed the name rules and is
	                     * about to be made (for -v and progress) */
	AE_DW_SKIPPED,      /* not made: why says why */
	AE_DW_KEPT,         /* not made, as asked: what exists stays (why:
	                     * NULL for AE_DW_SKIP_OLD, "newer or same age"
	                     * for AE_DW_KEEP_NEWER); not a failure */
	AE_DW_WARNING,      /* made, but not all as it was (an owner, a
	                     * mode, an attribute): why says what */
	AE_DW_ABSOLUTE,     /* a leading '/' was removed from a name
	                     * (reported once) */
	AE_DW_XATTRS_LEFT,  /* the archive has attributes that the flags
	                     * leave out (once, with AE_DW_NOTE_XATTRS; why
	                     * is NULL without AE_DW_XATTRS and AE_DW_ACLS,
	                     * else "filtered": outside the patterns) */
	AE_DW_LOST,         /* its data was read, but params.intact said
	                     * it is not whole: not made (salvage) */
	AE_DW_BROKEN,       /* the stream failed or stopped inside it
	                     * (err is the AE_E* code): not made */
	AE_DW_FAILED        /* a write failed (err is the errno): the run
	                     * must end (a full disk) */
};

struct ae_dw_report {
	enum ae_dw_event event;
	const char *name;               /* the member's name, as stored */
	const struct ae_tar_member *m;  /* the member (not for ABSOLUTE) */
	const char *why;                /* a phrase, or NULL; it may hold
	                                 * one "%s", for arg */
	const char *arg;                /* raw text from the archive (a
	                                 * name: quote it) for the %s, or
	                                 * NULL */
	int err;                        /* errno behind it, or 0 (AE_DW_BROKEN:
	                                 * the AE_E* code) */
};

struct ae_dw_params {
	int root;                   /* the extraction root, open O_DIRECTORY
	                             * (the caller's; it stays open) */
	unsigned flags;             /* AE_DW_* */
	mode_t umask;               /* applied without AE_DW_PERMS */
	const atomic_int *stop;     /* set: stop at the next read; or NULL */
	/* Every report; ctx is passed back.  Required. */
	void (*report)(void *ctx, const struct ae_dw_report *r);
	/* Which extended attributes AE_DW_XATTRS restores (xattr.h); NULL:
	 * user.* alone, as GNU tar. */
	const struct ae_xattr_filter *xattrs;
	/* After a regular member's data was read in full, before it gets its
	 * name: 1 if it is whole, 0 to drop it (AE_DW_LOST).  Optional. */
	int (*intact)(void *ctx, const struct ae_tar_member *m);
	void *ctx;
	/* -g over a chain of archives, one writer each: what the run made
	 * at the top of the target, across its writers (ae_dw_chain_new);
	 * or NULL.  The dump's root directory ("./") is the target itself,
	 * left as it is, but its dumpdir removes what this run made at the
	 * top and the dump no longer holds (a file deleted there between
	 * levels); what was there before the run is never removed, so a
	 * hostile level cannot empty the target. */
	struct ae_dw_chain *chain;
};

/* A chain's record of what it made at the top of the target (above). */
struct ae_dw_chain;
int ae_dw_chain_new(struct ae_dw_chain **c);     /* AE_OK, AE_ENOMEM */
void ae_dw_chain_free(struct ae_dw_chain *c);

struct ae_dw;

/* A writer for params (copied).  AE_OK, or AE_ENOMEM. */
int ae_dw_open(const struct ae_dw_params *params, struct ae_dw **w);

/*
 * Make member m, whose header tr has just read (its data, if any, is
 * read from tr here).  A member that cannot be made is reported
 * (AE_DW_SKIPPED) and AE_OK returned: the run goes on.  A member found
 * by searching for headers (m->after_gap 1) may be a file inside another
 * member, and never replaces what exists, as with AE_DW_KEEP_OLD.  Returns AE_OK;
 * AE_EIO after AE_DW_FAILED (a write failed: end the run); the stream's
 * error, or AE_EINTR, after AE_DW_BROKEN.  Nothing is left under a
 * member's name that is not complete.
 */
int ae_dw_member(struct ae_dw *w, struct ae_tar_reader *tr,
    const struct ae_tar_member *m);

/* Whether some member was skipped or not made as it was (tar's exit
 * status 1). */
int ae_dw_partial(const struct ae_dw *w);

/*
 * Give the directories their modes, owners and times (they were made
 * 0700 so that their members could be made inside) and free w.  Reports
 * what cannot be set.  NULL is ignored.
 */
void ae_dw_close(struct ae_dw *w);

#endif
