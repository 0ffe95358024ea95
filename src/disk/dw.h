/*
 * dw.h -- the safe disk writer's insides, shared by its files (not a
 * contract for callers: that is writer.h).
 *
 * writer.c owns the run (ae_dw_*), its reports and bookkeeping, and each
 * member type; dw_names.c how a member gets its name (a temp name or
 * none, then into place under the overwrite policy); dw_xattrs.c its
 * extended attributes and ACLs; dw_incremental.c what -g does to a
 * directory (the dump's renames, and removing what it no longer holds).
 */
#ifndef AE_DISK_DW_H
#define AE_DISK_DW_H

#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>

#include "archive/tar.h"
#include "anon.h"
#include "dircache.h"
#include "owners.h"
#include "acl.h"

/* (writer.h, which the files that use these include; not here, where it
 * would make writer.c and this header use each other) */
struct ae_dw_params;
struct ae_tar_member;
struct ae_tar_reader;

#define DATA_BUF (256 * 1024)

/* The longest temp name: ".aescrypt-", 12 hex digits, "-", 16 more. */
#define TMP_NAME 48

/* Files this run made, by normalized path: hard links may point only
 * at these. */
struct made {
	uint64_t key;           /* its path's hash, never 0; 0: a free slot
	                         * (writer.c: why the path itself is not
	                         * needed) */
	dev_t dev;
	ino_t ino;
};

/* A directory whose mode, owner and mtime are set at the end
 * (dw_dirs.c). */
struct dirfix {
	char *leaf;             /* its last component; or, without a note
	                         * for its parent, its whole path */
	size_t parent;          /* the note of its parent, or (size_t)-1 */
	uint64_t hash;          /* of its whole path */
	unsigned depth;         /* its components */
	mode_t mode;
	struct timespec mtime;
	uid_t uid;
	gid_t gid;
	uint8_t *dacl;          /* its default ACL (kernel form), or NULL:
	                         * set last, so that what is made under it
	                         * does not inherit it (GNU tar, bsdtar) */
	size_t dacl_len;
};

struct ae_dw {
	const struct ae_dw_params *p;     /* a copy of the caller's */
	struct ae_tar_reader *tr;   /* the member's stream, in ae_dw_member */
	int partial;                /* some member was skipped (exit 1) */
	int fatal;                  /* AE_E* that ends the run, or 0 */
	int warned_abs;
	int noted_xattrs;
	int noted_foreign_acl;      /* --acls: said once that an NFSv4 or
	                             * Solaris ACL was left out */
	uint8_t aclbuf[AE_ACL_MAX]; /* an ACL's text, as the kernel takes it */
	uint8_t *buf;               /* DATA_BUF bytes of member data */
	struct made *made;          /* open addressing on an FNV-1a hash */
	size_t nmade, capmade;      /* capmade: a power of two, or 0 */
	struct dirfix *dirs;
	size_t ndirs, capdirs;
	size_t *dirslot;            /* dirs by path hash: 1 + an index, or 0 */
	size_t ndirslot;            /* a power of two, or 0 */
	char dirbuf[AE_TAR_NAME_MAX + 1];   /* a note's path, rebuilt */
	/* The members' directories, kept open (open_parent, fix_dirs): a
	 * tar stream goes back to a directory after each of its
	 * subdirectories, and a deep one opens each level from the one
	 * above. */
	struct ae_dircache dc;
	char tmp_prefix[13];        /* temp names: a random prefix per run */
	uint64_t tmp_count;         /* and a counter */
	struct ae_anon anon;        /* how a nameless file gets a name */
	struct ae_owners owners;    /* names to ids */
	char norm[AE_TAR_NAME_MAX + 1];     /* the member's name, normalized */
	char target[AE_TAR_NAME_MAX + 1];   /* a hard link's, normalized */
	char norm2[AE_TAR_NAME_MAX + 1];    /* -g: a rename's source */
};

/* A device or FIFO for ae_dw_mk_node: S_IFCHR, S_IFBLK or S_IFIFO, and its
 * number. */
struct nodearg {
	mode_t type;
	dev_t dev;
};

struct linkarg {
	int dirfd;
	const char *leaf;
};

/* Reports (writer.c).  Each of skip, skip_errno, warn_errno and
 * warn_plain marks the run partial (exit 1); fatal_errno ends it with
 * AE_EIO (a write error: the next member would fail the same way).  ev
 * is an enum ae_dw_event. */
void ae_dw_notify(struct ae_dw *w, int ev,
    const struct ae_tar_member *m, const char *name, const char *why,
    int err);
void ae_dw_skip(struct ae_dw *w, const struct ae_tar_member *m,
    const char *why);
void ae_dw_skip_errno(struct ae_dw *w, const struct ae_tar_member *m,
    const char *what);
void ae_dw_warn_errno(struct ae_dw *w, const struct ae_tar_member *m,
    const char *name, const char *what);
void ae_dw_warn_plain(struct ae_dw *w, const struct ae_tar_member *m,
    const char *what);
void ae_dw_fatal_errno(struct ae_dw *w, const struct ae_tar_member *m);

/* Names (dw_names.c). */

/* The name to extract member path under, in out, or NULL (reported) to
 * skip it: a leading '/' stripped (said once), '..' refused; link says
 * the path is a link target (for the words). */
const char *ae_dw_safe_name(struct ae_dw *w, const struct ae_tar_member *m,
    const char *path, char out[AE_TAR_NAME_MAX + 1], int link);

/* The directory that will hold norm, opened under the root with no
 * symlink in its path (dircache.h: the descriptor is the cache's, good
 * until its next open); *leaf points into norm.  -1 if not (reported). */
int ae_dw_open_parent(struct ae_dw *w, const struct ae_tar_member *m,
    char *norm, const char **leaf);

/* A fresh temp name in dirfd (into tmp), made by mk(dirfd, tmp, arg),
 * which returns 0, or -1 with errno (EEXIST: another name is tried).
 * 0, or -1 with errno. */
int ae_dw_make_temp(struct ae_dw *w, int dirfd, char tmp[TMP_NAME],
    int (*mk)(int, const char *, void *), void *arg);

/* makers for ae_dw_make_temp: a symlink to the string arg; a device or
 * FIFO (struct nodearg), 0600; a hard link to struct linkarg's file */
int ae_dw_mk_symlink(int dirfd, const char *tmp, void *target);
int ae_dw_mk_node(int dirfd, const char *tmp, void *arg);
int ae_dw_mk_link(int dirfd, const char *tmp, void *arg);

/* Why member m must not replace what exists, or NULL if it may
 * (--keep-old-files; a member found by searching after a lost chunk). */
const char *ae_dw_keeps_old(const struct ae_dw *w,
    const struct ae_tar_member *m);

/* Move tmp to leaf in dirfd: over an existing file or symlink (never
 * through it), over an empty directory, or not at all if the policy
 * keeps what is there.  0, or -1 (reported, tmp removed). */
int ae_dw_install(struct ae_dw *w, int dirfd, const char *tmp,
    const char *leaf, const struct ae_tar_member *m);

/* A new empty file in dirfd for a member's data, not under its final
 * name: nameless (*anon = 1, with the permission bits mode, under the
 * umask) where the file system allows, else under a temp name in tmp
 * (0600, as a named file may be seen before it is whole).  0, or -1
 * with errno. */
int ae_dw_new_file(struct ae_dw *w, int dirfd, char tmp[TMP_NAME], int *fdp,
    int *anon, unsigned mode);

/* Give a complete file from ae_dw_new_file its final name leaf, through
 * ae_dw_install's rules.  0, or -1 (reported; the file is gone). */
int ae_dw_name_file(struct ae_dw *w, int fd, int anon, int dirfd,
    char tmp[TMP_NAME], const char *leaf, const struct ae_tar_member *m);

/* Set m's extended attributes and ACLs on fd, as the flags and patterns
 * ask, after its mode (dw_xattrs.c).  A directory's default ACL goes
 * into later (set at the end), when later is not NULL.  What cannot be
 * set is a warning. */
void ae_dw_apply_xattrs(struct ae_dw *w, const struct ae_tar_member *m, int fd,
    struct dirfix *later);

/* Note directory norm (a normalized member name) to get this owner,
 * mode and mtime at the end; the same path again updates its note (the
 * last member wins).  Its note, valid until the next call (a default
 * ACL may be added to it), or NULL out of memory (then nothing is set
 * for it). */
struct dirfix *ae_dw_dir_later(struct ae_dw *w, const char *norm, mode_t mode,
    struct timespec mtime, uid_t uid, gid_t gid);

/* Set every noted directory's owner, mode, time and default ACL,
 * deepest first, and forget them. */
void ae_dw_fix_dirs(struct ae_dw *w);

/* -g: directory leaf in dirfd (member m, with a dumpdir) gets the
 * dump's renames and loses what its dumpdir does not list, never across
 * a file system (dw_incremental.c). */
/* -g: the dump's root directory (member m, "./", with a dumpdir): what
 * the chain made at the top of the target and the dumpdir does not list
 * goes (writer.h, chain). */
void ae_dw_incremental_root(struct ae_dw *w, const struct ae_tar_member *m);
/* The chain's note that the run made name (no '/') at the top of the
 * target as dev, ino. */
void ae_dw_chain_note(struct ae_dw_chain *c, const char *name, dev_t dev,
    ino_t ino);
void ae_dw_incremental_dir(struct ae_dw *w, const struct ae_tar_member *m,
    int dirfd, const char *leaf);

#endif
