/*
 * extract.c -- aescrypt -x: safe extraction.
 *
 * The rules, and the attack each one closes:
 *   - A leading '/' is stripped (with a warning) and a member with a
 *     ".." component is refused: no name can point outside -C.
 *   - A member's directory is opened with no symlink in any component
 *     (beneath.c): "link -> /etc" then "link/passwd", a directory
 *     swapped for a link, link chains, all fail there.
 *   - Nothing is ever opened by its final name.  Files, symlinks and
 *     hard links are made under a temp name in their directory and
 *     renamed into place, so an existing file or symlink there is
 *     replaced, never written through, and a file appears under its
 *     name only when its data is complete (the data read from the
 *     pipeline has authenticated by then).  If the archive fails inside
 *     a member, the temp file is removed.
 *   - A hard link must point at a regular file that this run extracted
 *     earlier, still the same inode: not /etc/passwd, not a symlink (the
 *     hardlink-to-symlink trick of CVE-2025-4330).
 *   - No device nodes, no FIFOs; setuid and setgid bits only with -p;
 *     owners only as root with --same-owner.
 *   - Directories are made 0700 and get their modes and mtimes at the
 *     end, so a read-only directory in the archive does not stop its
 *     own members and a later member does not disturb an mtime.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "archive/beneath.h"
#include "crypto/random.h"
#include "archive/tar_read.h"
#include "crypto/wipe.h"
#include "exitcode.h"
#include "extract.h"
#include "indexed.h"
#include "members.h"
#include "msg.h"
#include "names.h"
#include "owners.h"
#include "progress.h"
#include "signals.h"
#include "unpack.h"

#define DATA_BUF (256 * 1024)

/* The longest temp name: ".aescrypt-", 12 hex digits, "-", 16 more. */
#define TMP_NAME 48

/* Files this run made, by normalized path: hard links may point only
 * at these.  Open addressing on an FNV-1a hash. */
/* ---- bookkeeping ---- */

static uint64_t
hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (*s)
		h = (h ^ (uint8_t)*s++) * 0x100000001b3ull;
	return h;
}

static struct made *
made_find(struct extractor *x, const char *path)
{
	size_t i;

	if (x->capmade == 0)
		return NULL;
	for (i = hash(path) & (x->capmade - 1); x->made[i].path != NULL;
	    i = (i + 1) & (x->capmade - 1))
		if (strcmp(x->made[i].path, path) == 0)
			return &x->made[i];
	return NULL;
}

static int
made_add(struct extractor *x, const char *path, dev_t dev, ino_t ino)
{
	struct made *m;
	size_t i;

	if ((m = made_find(x, path)) != NULL) {
		m->dev = dev;
		m->ino = ino;
		return 0;
	}
	if (2 * (x->nmade + 1) > x->capmade) {
		size_t cap = x->capmade ? 2 * x->capmade : 1024, k;
		struct made *t = calloc(cap, sizeof *t);

		if (t == NULL)
			return -1;
		for (k = 0; k < x->capmade; k++) {
			if (x->made[k].path == NULL)
				continue;
			for (i = hash(x->made[k].path) & (cap - 1);
			    t[i].path != NULL; i = (i + 1) & (cap - 1))
				;
			t[i] = x->made[k];
		}
		free(x->made);
		x->made = t;
		x->capmade = cap;
	}
	for (i = hash(path) & (x->capmade - 1); x->made[i].path != NULL;
	    i = (i + 1) & (x->capmade - 1))
		;
	if ((x->made[i].path = strdup(path)) == NULL)
		return -1;
	x->made[i].dev = dev;
	x->made[i].ino = ino;
	x->nmade++;
	return 0;
}

/* A file that is no longer ours (replaced by a later member). */
static void
made_forget(struct extractor *x, const char *path)
{
	struct made *m = made_find(x, path);

	if (m != NULL)
		m->ino = 0, m->dev = 0;
}

/* ---- messages ---- */

static void
skip(struct extractor *x, const char *name, const char *why)
{
	char q[1024];

	msg_warn("%s: %s; not extracted", names_quote(name, q, sizeof q),
	    why);
	x->partial = 1;
}

static void
skip_errno(struct extractor *x, const char *name, const char *what)
{
	char why[512];

	if (errno == ELOOP)
		snprintf(why, sizeof why, "%s: a component of the path is "
		    "a symbolic link", what);
	else if (errno == ENOTDIR)
		snprintf(why, sizeof why, "%s: a component of the path is "
		    "not a directory", what);
	else
		snprintf(why, sizeof why, "%s: %s", what, strerror(errno));
	skip(x, name, why);
}

/* A write error ends the run: the next member would fail the same way
 * (a full disk), and the user should know at once. */
static void
fatal_errno(struct extractor *x, const char *name)
{
	char q[1024];

	msg_error("%s: %s", names_quote(name, q, sizeof q), strerror(errno));
	x->fatal = EXIT_SYSTEM;
}

/* ---- names ---- */

/*
 * in (no ".." in it) without "." and empty components or a trailing
 * '/': "a/./b//c/" -> "a/b/c", into out (cap bytes).  The result is
 * never longer than in, and the tar reader bounds member names to
 * AE_TAR_NAME_MAX, but the copy is bounded by cap all the same: -1 if
 * it would not fit (out is then empty), else 0.
 */
static int
normalize(const char *in, char *out, size_t cap)
{
	size_t n = 0, k;

	while (*in != '\0') {
		while (*in == '/')
			in++;
		k = strcspn(in, "/");
		if (k == 0)
			break;
		if (!(k == 1 && in[0] == '.')) {
			if (n + (n > 0) + k >= cap) {
				out[0] = '\0';
				return -1;
			}
			if (n > 0)
				out[n++] = '/';
			memcpy(out + n, in, k);
			n += k;
		}
		in += k;
	}
	out[n] = '\0';
	return 0;
}

/* The name to extract member path under, in out (AE_TAR_NAME_MAX + 1
 * bytes), or NULL (warned) to skip. */
static const char *
safe_name(struct extractor *x, const char *path,
    char out[AE_TAR_NAME_MAX + 1], const char *what)
{
	const char *p = path;

	if (*p == '/') {
		while (*p == '/')
			p++;
		if (!x->warned_abs) {
			msg_warn("removing leading '/' from member names");
			x->warned_abs = 1;
		}
	}
	if (names_has_dotdot(p)) {
		char why[128];

		snprintf(why, sizeof why, "%s contains '..'", what);
		skip(x, path, why);
		return NULL;
	}
	if (normalize(p, out, AE_TAR_NAME_MAX + 1) != 0) {
		char why[128];

		snprintf(why, sizeof why, "%s is too long", what);
		skip(x, path, why);
		return NULL;
	}
	return out;
}

/* Close the kept directories, all but the one open as keep (-1: all). */
static void
parents_forget(struct extractor *x, int keep)
{
	size_t i;

	for (i = 0; i < EXTRACT_PARENTS; i++) {
		struct parent_dir *p = &x->parents[i];

		if (p->fd >= 0 && p->fd != keep) {
			close(p->fd);
			p->fd = -1;
		}
	}
}

/*
 * The directory that will hold norm, opened under the root with no
 * symlink in its path; *leaf points into norm.  The descriptor belongs
 * to the extractor, which keeps the last EXTRACT_PARENTS: the members
 * of a tar stream come a directory at a time, so most members reuse one
 * (one openat2 per directory instead of one per file).  They cannot go
 * stale through the archive: the only directories a member removes are
 * the empty one at its own name (install), after which all are
 * forgotten but the one in use.  Returns the descriptor or -1 (warned).
 */
static int
open_parent(struct extractor *x, const char *name, char *norm,
    const char **leaf)
{
	char *slash = strrchr(norm, '/');
	const char *dir = slash != NULL ? norm : "";
	struct parent_dir *p, *lru = &x->parents[0];
	size_t i;
	int fd, r;

	if (slash != NULL)
		*slash = '\0';
	*leaf = slash != NULL ? slash + 1 : norm;
	for (i = 0; i < EXTRACT_PARENTS; i++) {
		p = &x->parents[i];
		if (p->fd >= 0 && strcmp(p->path, dir) == 0) {
			if (slash != NULL)
				*slash = '/';
			p->used = ++x->parent_clock;
			return p->fd;
		}
		if (p->fd < 0 || (lru->fd >= 0 && p->used < lru->used))
			lru = p;
	}
	r = ae_beneath_opendir(x->root, dir, slash != NULL ?
	    AE_BENEATH_CREATE : 0, 0777, &fd);
	if (r == AE_OK) {
		if (lru->fd >= 0)
			close(lru->fd);
		/* norm is at most AE_TAR_NAME_MAX bytes, as path is */
		memcpy(lru->path, dir, strlen(dir) + 1);
		lru->fd = fd;
		lru->used = ++x->parent_clock;
	}
	if (slash != NULL)
		*slash = '/';
	if (r != AE_OK) {
		if (r == AE_EINVAL)
			errno = EINVAL;
		skip_errno(x, name, "cannot open its directory");
		return -1;
	}
	return fd;
}

/*
 * A fresh name in dirfd for a file about to be made; made by mk(), which
 * returns 0 or -1 with errno (EEXIST: try another name).  The names are
 * ".aescrypt-" and a random prefix drawn once per run, then a counter:
 * one getrandom for the whole archive instead of one per member (13,000
 * of them for a tree of 13,000 files).  Unpredictability is not what
 * makes them safe: every one is created O_EXCL | O_NOFOLLOW in a
 * directory opened with no symlink in its path, and a name that exists
 * already is skipped.
 */
static int
make_temp(struct extractor *x, int dirfd, char tmp[TMP_NAME],
    int (*mk)(int, const char *, void *), void *arg)
{
	static const char hex[] = "0123456789abcdef";
	int tries;

	if (x->tmp_prefix[0] == '\0') {
		uint8_t rnd[6];
		int i;

		if (ae_random(rnd, sizeof rnd) != AE_OK)
			return -1;
		for (i = 0; i < 6; i++) {
			x->tmp_prefix[2 * i] = hex[rnd[i] >> 4];
			x->tmp_prefix[2 * i + 1] = hex[rnd[i] & 15];
		}
		x->tmp_prefix[12] = '\0';
	}
	for (tries = 0; tries < 100; tries++) {
		snprintf(tmp, TMP_NAME, ".aescrypt-%s-%llx", x->tmp_prefix,
		    (unsigned long long)x->tmp_count++);
		if (mk(dirfd, tmp, arg) == 0)
			return 0;
		if (errno != EEXIST)
			return -1;
	}
	return -1;
}

/*
 * Files are made with no name at all where the file system allows it
 * (O_TMPFILE), and linked under their final name once complete: one
 * system call instead of a temp name's create and rename, and a crash
 * or SIGKILL leaves nothing behind, where a temp name would stay.  How
 * such a file is named is learnt on the first one: AT_EMPTY_PATH (any
 * caller since Linux 6.10, only with CAP_DAC_READ_SEARCH before), else
 * /proc/self/fd, else not at all, and temp names are used throughout.
 */
enum { LINK_UNKNOWN, LINK_EMPTY_PATH, LINK_PROC, LINK_NONE };

/* linkat for an O_TMPFILE descriptor; 0 or -1 with errno. */
static int
link_anon(struct extractor *x, int fd, int dirfd, const char *name)
{
	char path[40];
	int r;

	if (x->link_how != LINK_PROC) {
		r = linkat(fd, "", dirfd, name, AT_EMPTY_PATH);
		if (r == 0)
			x->link_how = LINK_EMPTY_PATH;
		/* ENOENT is what a caller without the capability gets */
		if (r == 0 || x->link_how == LINK_EMPTY_PATH
		    || (errno != ENOENT && errno != EPERM))
			return r;
	}
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	r = linkat(AT_FDCWD, path, dirfd, name, AT_SYMLINK_FOLLOW);
	if (r == 0)
		x->link_how = LINK_PROC;
	return r;
}

struct anon {
	struct extractor *x;
	int fd;
};

static int
mk_anon_link(int dirfd, const char *tmp, void *arg)
{
	struct anon *a = arg;

	return link_anon(a->x, a->fd, dirfd, tmp);
}

static int
mk_file(int dirfd, const char *tmp, void *fdp)
{
	int fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW
	    | O_CLOEXEC, 0600);

	if (fd < 0)
		return -1;
	*(int *)fdp = fd;
	return 0;
}

static int
mk_symlink(int dirfd, const char *tmp, void *target)
{
	return symlinkat((const char *)target, dirfd, tmp);
}

struct linkarg {
	int dirfd;
	const char *leaf;
};

static int
mk_link(int dirfd, const char *tmp, void *arg)
{
	struct linkarg *l = arg;

	return linkat(l->dirfd, l->leaf, dirfd, tmp, 0);
}

/*
 * Move tmp to leaf in dirfd: over an existing file or symlink (never
 * through it), over an empty directory, or not at all with
 * --keep-old-files.  0, or -1 (warned, tmp removed).
 */
static int
install(struct extractor *x, int dirfd, const char *tmp, const char *leaf,
    const char *name)
{
	int r;

	if (x->o->keep_old) {
		r = renameat2(dirfd, tmp, dirfd, leaf, RENAME_NOREPLACE);
		if (r != 0 && (errno == EINVAL || errno == ENOSYS)) {
			/* No RENAME_NOREPLACE here: a link fails the same
			 * way if the name exists. */
			r = linkat(dirfd, tmp, dirfd, leaf, 0);
			if (r == 0)
				unlinkat(dirfd, tmp, 0);
		}
		if (r != 0) {
			int e = errno;

			unlinkat(dirfd, tmp, 0);
			errno = e;
			if (e == EEXIST)
				skip(x, name, "exists (--keep-old-files)");
			else
				skip_errno(x, name, "cannot create it");
			return -1;
		}
		return 0;
	}
	r = renameat(dirfd, tmp, dirfd, leaf);
	if (r != 0 && (errno == EISDIR || errno == ENOTEMPTY
	    || errno == EEXIST)) {
		/* A directory is in the way: tar replaces it if empty. */
		if (unlinkat(dirfd, leaf, AT_REMOVEDIR) == 0) {
			/* it may be one of the kept directories */
			parents_forget(x, dirfd);
			r = renameat(dirfd, tmp, dirfd, leaf);
		}
		else
			errno = EISDIR;
	}
	if (r != 0) {
		int e = errno;

		unlinkat(dirfd, tmp, 0);
		errno = e;
		if (e == EISDIR)
			skip(x, name, "a directory that is not empty is in "
			    "the way");
		else
			skip_errno(x, name, "cannot create it");
		return -1;
	}
	return 0;
}

/*
 * A new empty file in dirfd for a member's data, 0600, not under its
 * final name: with no name (*anon = 1) where it can be named later,
 * else under a temp name in tmp.  0, or -1 with errno.
 */
static int
new_file(struct extractor *x, int dirfd, char tmp[TMP_NAME], int *fdp,
    int *anon)
{
	*anon = 0;
	if (x->link_how != LINK_NONE) {
		struct anon a = { x, -1 };

		a.fd = openat(dirfd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC,
		    0600);
		if (a.fd >= 0 && x->link_how != LINK_UNKNOWN) {
			*fdp = a.fd;
			*anon = 1;
			return 0;
		}
		if (a.fd >= 0) {
			/* The first file: learn how to name one by giving
			 * it a temp name, then go on as with any temp. */
			if (make_temp(x, dirfd, tmp, mk_anon_link, &a) == 0) {
				*fdp = a.fd;
				return 0;
			}
			close(a.fd);
			x->link_how = LINK_NONE;
		}
		/* else this file system has no O_TMPFILE: a temp name,
		 * for this file only (another directory may be another
		 * file system) */
	}
	return make_temp(x, dirfd, tmp, mk_file, fdp);
}

/*
 * Give a complete file made by new_file its final name: a link where
 * the name is free, else through a temp name and install(), which knows
 * what to do with what is there (--keep-old-files, a directory in the
 * way).  0, or -1 (warned; the file is gone).
 */
static int
name_file(struct extractor *x, int fd, int anon, int dirfd,
    char tmp[TMP_NAME], const char *leaf, const char *name)
{
	struct anon a = { x, fd };

	if (!anon)
		return install(x, dirfd, tmp, leaf, name);
	if (link_anon(x, fd, dirfd, leaf) == 0)
		return 0;
	if (errno != EEXIST || make_temp(x, dirfd, tmp, mk_anon_link,
	    &a) != 0) {
		skip_errno(x, name, "cannot create it");
		return -1;
	}
	return install(x, dirfd, tmp, leaf, name);
}

static mode_t
member_mode(const struct extractor *x, uint32_t mode)
{
	if (x->o->preserve)
		return (mode_t)(mode & 07777);
	return (mode_t)(mode & 01777 & ~x->umask);
}

static void
owner_ids(struct extractor *x, const struct ae_tar_member *m, uid_t *uid,
    gid_t *gid)
{
	*uid = owners_user_id(&x->owners, m->uname, (uid_t)m->uid);
	*gid = owners_group_id(&x->owners, m->gname, (gid_t)m->gid);
}

/* ---- member types ---- */

static int
write_all(int fd, const uint8_t *b, size_t n)
{
	ssize_t w;

	while (n > 0) {
		w = write(fd, b, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		b += w;
		n -= (size_t)w;
	}
	return 0;
}

/*
 * Set m's extended attributes on fd, as --xattrs (all but system.*) and
 * --acls (the POSIX ACLs) ask; called after the mode is set, as a mode
 * change rewrites an ACL's mask.  One that cannot be set (an
 * unprivileged user and trusted.*, a file system without them) is a
 * warning and exit status 1.  Without the options, -v says once that
 * the archive has some.
 */
static void
apply_xattrs(struct extractor *x, const struct ae_tar_member *m, int fd)
{
	const struct opts *o = x->o;
	const uint8_t *val;
	const char *name;
	size_t pos = 0, len;

	if (m->nxattr == 0)
		return;
	if (!o->xattrs && !o->acls) {
		if (o->verbose && !x->noted_xattrs) {
			msg_note("the archive has extended attributes or ACLs, "
			    "restored only with --xattrs and --acls");
			x->noted_xattrs = 1;
		}
		return;
	}
	while (ae_tar_xattr_walk(m->xattr, m->xattr_len, &pos, &name, &val,
	    &len) == 1) {
		enum names_xattr k = names_xattr_kind(name);
		char q[1024], why[1400];

		if (k == NAMES_XATTR_NEVER || (k == NAMES_XATTR_ACL && !o->acls)
		    || (k == NAMES_XATTR_PLAIN && !o->xattrs))
			continue;
		if (fsetxattr(fd, name, val, len, 0) == 0)
			continue;
		snprintf(why, sizeof why, "cannot set extended attribute %s: "
		    "%s", names_quote(name, q, sizeof q), strerror(errno));
		msg_warn("%s: %s", names_quote(m->path, q, sizeof q), why);
		x->partial = 1;
	}
}

/*
 * --salvage: whether member m touched a lost chunk (its headers or its
 * data, all of which have been read by now, so the decoder has reported
 * every chunk they came from).  If so it is named, with where it lay,
 * and counted as lost.
 */
static int
lost_member(struct extractor *x, const struct ae_tar_member *m)
{
	uint64_t seq;
	char q[1024];

	if (x->salvage == NULL || !salvage_overlaps(x->salvage, m->first,
	    m->end, &seq))
		return 0;
	msg_error("%s: lost: it lies in damaged chunk %llu (tar stream "
	    "bytes %llu to %llu); not extracted", names_quote(m->path, q,
	    sizeof q), (unsigned long long)seq, (unsigned long long)m->first,
	    (unsigned long long)m->end - 1);
	x->lost++;
	return 1;
}

static void
extract_file(struct extractor *x, const struct ae_tar_member *m,
    char *norm)
{
	struct timespec ts[2];
	const char *leaf;
	struct stat st;
	char tmp[TMP_NAME];
	size_t got;
	int dirfd, fd = -1, r, hole = 0, anon;
	size_t used = 0;     /* of buf, to wipe: plaintext */

	if ((dirfd = open_parent(x, m->path, norm, &leaf)) < 0)
		return;
	if (new_file(x, dirfd, tmp, &fd, &anon) != 0) {
		skip_errno(x, m->path, "cannot create it");
		return;
	}
	for (;;) {
		int in_hole;

		r = ae_tar_read_data(x->tr, m, x->buf, DATA_BUF, &got,
		    &in_hole);
		if (r != AE_OK || got == 0)
			break;
		if (!in_hole && got > used)
			used = got;
		if (atomic_load(&signals_stop)) {
			r = AE_EINTR;
			break;
		}
		/* A sparse member's holes, and blocks of zeros, become
		 * holes, as cp --sparse=auto does: the contents are the
		 * same, and a big sparse file that was stored dense does
		 * not come back dense. */
		if (in_hole || (x->buf[0] == 0
		    && memcmp(x->buf, x->buf + 1, got - 1) == 0)) {
			if (lseek(fd, (off_t)got, SEEK_CUR) < 0) {
				fatal_errno(x, m->path);
				goto undo;
			}
			hole = 1;
			continue;
		}
		hole = 0;
		if (write_all(fd, x->buf, got) != 0) {
			fatal_errno(x, m->path);
			goto undo;
		}
	}
	if (r == AE_OK && hole && ftruncate(fd, (off_t)m->size) != 0) {
		fatal_errno(x, m->path);
		goto undo;
	}
	if (r == AE_OK && lost_member(x, m)) {
		/* (--salvage) part of it was in a lost chunk: its bytes there
		 * are zeros, so it never appears under its name */
		ae_wipe(x->buf, used);
		close(fd);
		if (!anon)
			unlinkat(dirfd, tmp, 0);
		return;
	}
	ae_wipe(x->buf, used);
	if (r != AE_OK) {
		/* The archive failed (or was stopped) inside this member;
		 * unpack_end reports why.  Nothing may stay behind. */
		char q[1024];

		if (r == AE_EINTR && atomic_load(&signals_stop))
			msg_error("%s: not extracted: interrupted",
			    names_quote(m->path, q, sizeof q));
		else
			msg_error("%s: not extracted: the archive ends or "
			    "fails inside it", names_quote(m->path, q,
			    sizeof q));
		x->fatal = exit_for(r == AE_OK ? AE_EIO : r);
		goto undo;
	}
	if (x->chown) {
		uid_t uid;
		gid_t gid;

		owner_ids(x, m, &uid, &gid);
		if (fchown(fd, uid, gid) != 0)
			skip_errno(x, m->path, "cannot set its owner");
	}
	ts[0].tv_sec = 0;
	ts[0].tv_nsec = UTIME_NOW;
	ts[1].tv_sec = (time_t)m->mtime;
	ts[1].tv_nsec = (long)m->mtime_nsec;
	if (fchmod(fd, member_mode(x, m->mode)) != 0) {
		fatal_errno(x, m->path);
		goto undo;
	}
	apply_xattrs(x, m, fd);
	if (futimens(fd, ts) != 0 || fstat(fd, &st) != 0) {
		fatal_errno(x, m->path);
		goto undo;
	}
	if (!anon && close(fd) != 0) {
		fd = -1;
		fatal_errno(x, m->path);
		goto undo;
	}
	if (name_file(x, fd, anon, dirfd, tmp, leaf, m->path) != 0) {
		if (anon)
			close(fd);
		return;
	}
	if (anon && close(fd) != 0) {
		/* A late write error (NFS reports them here): the name
		 * was made by this run, so it goes with the data. */
		fatal_errno(x, m->path);
		unlinkat(dirfd, leaf, 0);
		return;
	}
	made_add(x, norm, st.st_dev, st.st_ino);
	return;
undo:
	ae_wipe(x->buf, used);
	if (fd >= 0)
		close(fd);
	if (!anon)
		unlinkat(dirfd, tmp, 0);
}

static void
extract_symlink(struct extractor *x, const struct ae_tar_member *m,
    char *norm)
{
	struct timespec ts[2];
	const char *leaf;
	char tmp[TMP_NAME];
	int dirfd;

	if ((dirfd = open_parent(x, m->path, norm, &leaf)) < 0)
		return;
	if (make_temp(x, dirfd, tmp, mk_symlink, (void *)m->linkpath) != 0) {
		skip_errno(x, m->path, "cannot create it");
		return;
	}
	if (x->chown) {
		uid_t uid;
		gid_t gid;

		owner_ids(x, m, &uid, &gid);
		if (fchownat(dirfd, tmp, uid, gid, AT_SYMLINK_NOFOLLOW) != 0)
			skip_errno(x, m->path, "cannot set its owner");
	}
	ts[0].tv_sec = 0;
	ts[0].tv_nsec = UTIME_NOW;
	ts[1].tv_sec = (time_t)m->mtime;
	ts[1].tv_nsec = (long)m->mtime_nsec;
	utimensat(dirfd, tmp, ts, AT_SYMLINK_NOFOLLOW);
	if (install(x, dirfd, tmp, leaf, m->path) == 0)
		made_forget(x, norm);
}

static void
extract_hardlink(struct extractor *x, const struct ae_tar_member *m,
    char *norm)
{
	char target[AE_TAR_NAME_MAX + 1], *slash;
	struct linkarg la;
	struct made *mk;
	struct stat st;
	const char *leaf;
	char tmp[TMP_NAME];
	int dirfd, tdir, r;

	if (safe_name(x, m->linkpath, target, "its link target") == NULL)
		return;
	mk = made_find(x, target);
	if (mk == NULL || mk->ino == 0) {
		char q[1024], why[1200];

		snprintf(why, sizeof why, "hard link to '%s', which is not a "
		    "file extracted earlier from this archive",
		    names_quote(m->linkpath, q, sizeof q));
		skip(x, m->path, why);
		return;
	}
	slash = strrchr(target, '/');
	la.leaf = target;
	if (slash != NULL) {
		*slash = '\0';
		la.leaf = slash + 1;
	}
	r = ae_beneath_opendir(x->root, slash != NULL ? target : "", 0, 0,
	    &tdir);
	if (slash != NULL)
		*slash = '/';
	if (r != AE_OK) {
		skip_errno(x, m->path, "cannot open its target's directory");
		return;
	}
	if (fstatat(tdir, la.leaf, &st, AT_SYMLINK_NOFOLLOW) != 0
	    || !S_ISREG(st.st_mode) || st.st_dev != mk->dev
	    || st.st_ino != mk->ino) {
		skip(x, m->path, "its hard link target has changed since it "
		    "was extracted");
		close(tdir);
		return;
	}
	if ((dirfd = open_parent(x, m->path, norm, &leaf)) < 0) {
		close(tdir);
		return;
	}
	la.dirfd = tdir;
	if (make_temp(x, dirfd, tmp, mk_link, &la) != 0)
		skip_errno(x, m->path, "cannot create it");
	else if (install(x, dirfd, tmp, leaf, m->path) == 0)
		made_add(x, norm, st.st_dev, st.st_ino);
	close(tdir);
}

static void
extract_dir(struct extractor *x, const struct ae_tar_member *m, char *norm)
{
	const char *leaf;
	struct stat st;
	struct dirfix *f;
	int dirfd;

	if (*norm == '\0')
		return;     /* "./": the target itself, left as it is */
	if ((dirfd = open_parent(x, m->path, norm, &leaf)) < 0)
		return;
	if (mkdirat(dirfd, leaf, 0700) != 0) {
		if (errno != EEXIST
		    || fstatat(dirfd, leaf, &st, AT_SYMLINK_NOFOLLOW) != 0) {
			skip_errno(x, m->path, "cannot create it");
			return;
		}
		if (!S_ISDIR(st.st_mode)) {
			/* A file or symlink where the directory goes: tar
			 * replaces it (a symlink is never followed). */
			if (x->o->keep_old) {
				skip(x, m->path, "a file of that name exists "
				    "(--keep-old-files)");
				return;
			}
			if (unlinkat(dirfd, leaf, 0) != 0
			    || mkdirat(dirfd, leaf, 0700) != 0) {
				skip_errno(x, m->path, "cannot create it");
				return;
			}
			made_forget(x, norm);
		}
	}
	if (m->nxattr > 0) {
		/* on the directory itself, never through a symlink */
		int fd = openat(dirfd, leaf, O_RDONLY | O_DIRECTORY
		    | O_NOFOLLOW | O_CLOEXEC);

		if (fd >= 0) {
			apply_xattrs(x, m, fd);
			close(fd);
		}
	}
	if (x->ndirs == x->capdirs) {
		size_t cap = x->capdirs ? 2 * x->capdirs : 64;
		struct dirfix *t = realloc(x->dirs, cap * sizeof *t);

		if (t == NULL)
			return;
		x->dirs = t;
		x->capdirs = cap;
	}
	f = &x->dirs[x->ndirs];
	if ((f->path = strdup(norm)) == NULL)
		return;
	f->mode = member_mode(x, m->mode);
	f->mtime.tv_sec = (time_t)m->mtime;
	f->mtime.tv_nsec = (long)m->mtime_nsec;
	owner_ids(x, m, &f->uid, &f->gid);
	x->ndirs++;
}

/* Directory modes and mtimes, deepest (latest) first. */
static void
fix_dirs(struct extractor *x)
{
	struct timespec ts[2];
	size_t i = x->ndirs;
	int fd;

	while (i-- > 0) {
		struct dirfix *f = &x->dirs[i];

		if (ae_beneath_opendir(x->root, f->path, 0, 0, &fd) == AE_OK) {
			ts[0].tv_sec = 0;
			ts[0].tv_nsec = UTIME_NOW;
			ts[1] = f->mtime;
			if (x->chown && fchown(fd, f->uid, f->gid) != 0)
				skip_errno(x, f->path, "cannot set its owner");
			if (fchmod(fd, f->mode) != 0 || futimens(fd, ts) != 0)
				skip_errno(x, f->path, "cannot set its mode "
				    "or time");
			close(fd);
		}
		free(f->path);
	}
	free(x->dirs);
	x->dirs = NULL;
	x->ndirs = x->capdirs = 0;
}

static void
extract_member(struct extractor *x, const struct ae_tar_member *m)
{
	char norm[AE_TAR_NAME_MAX + 1];

	if (safe_name(x, m->path, norm, "its name") == NULL)
		return;
	progress_member(m->path);
	if (x->o->verbose) {
		progress_hide();
		names_print(stdout, m->path);
		putchar('\n');
	}
	if (*norm == '\0' && m->type != AE_TAR_DIR) {
		skip(x, m->path, "it has no name");
		return;
	}
	switch (m->type) {
	case '0':
	case '7':
		extract_file(x, m, norm);
		break;
	case AE_TAR_DIR:
		extract_dir(x, m, norm);
		break;
	case AE_TAR_SYMLINK:
		extract_symlink(x, m, norm);
		break;
	case AE_TAR_HARDLINK:
		extract_hardlink(x, m, norm);
		break;
	case '3':
	case '4':
		skip(x, m->path, "a device node (never made)");
		break;
	case '6':
		skip(x, m->path, "a FIFO (not made)");
		break;
	default: {
		char why[64];

		snprintf(why, sizeof why, "unknown member type '%c'",
		    m->type >= 32 && m->type < 127 ? m->type : '?');
		skip(x, m->path, why);
		break;
	}
	}
}

/* A warning about member m that does not stop it (tar.h). */
static void
member_warn(const struct ae_tar_member *m, const char *what)
{
	char q[1024];

	msg_warn("%s: %s", names_quote(m->path, q, sizeof q), what);
}

/*
 * -O: a regular member's data to standard output, as tar -xO writes it
 * (other members have no data and are passed over).  The data has
 * authenticated chunk by chunk before it gets here, as -d's has; if the
 * archive fails inside the member, what was written stays written, and
 * the exit status says the run failed.
 */
static void
member_to_stdout(struct extractor *x, const struct ae_tar_member *m)
{
	size_t got, used = 0;
	int r;

	if (m->type != '0' && m->type != '7')
		return;
	for (;;) {
		/* holes as zeros: stdout is a stream */
		r = ae_tar_read_data(x->tr, m, x->buf, DATA_BUF, &got, NULL);
		if (r != AE_OK || got == 0)
			break;
		if (got > used)
			used = got;
		if (atomic_load(&signals_stop)) {
			r = AE_EINTR;
			break;
		}
		if (write_all(STDOUT_FILENO, x->buf, got) != 0) {
			ae_wipe(x->buf, used);
			x->fatal = msg_sys_error("standard output");
			return;
		}
	}
	ae_wipe(x->buf, used);
	if (r != AE_OK)
		x->fatal = exit_for(r);     /* unpack_end says why */
}

/*
 * --strip-components=n: the name after its first n components ("./"
 * and empty ones do not count, as in GNU tar), or NULL if nothing is
 * left.  Points into name.
 */
static const char *
strip_components(const char *name, unsigned n)
{
	const char *p = name;

	while (n > 0) {
		while (*p == '/')
			p++;
		if (p[0] == '.' && (p[1] == '/' || p[1] == '\0')) {
			p++;
			continue;
		}
		p += strcspn(p, "/");
		if (*p == '\0')
			return NULL;
		n--;
	}
	while (*p == '/')
		p++;
	return *p != '\0' ? p : NULL;
}

/* m with --strip-components applied to its name (and to a hard link's
 * target, which names a member too), in out; 0, or -1 to pass it over
 * (nothing left of the name, as GNU tar does; a hard link whose target
 * is stripped away is warned about). */
static int
strip_member(struct extractor *x, const struct ae_tar_member *m,
    struct ae_tar_member *out)
{
	const char *p = strip_components(m->path, x->o->strip), *l;

	if (p == NULL)
		return -1;
	memcpy(out, m, sizeof *out);
	memmove(out->path, p, strlen(p) + 1);
	if (m->type == AE_TAR_HARDLINK) {
		if ((l = strip_components(m->linkpath, x->o->strip)) == NULL) {
			skip(x, m->path, "--strip-components removes all of "
			    "its link target");
			return -1;
		}
		memmove(out->linkpath, l, strlen(l) + 1);
	}
	return 0;
}

int
extract_begin(struct extractor *x, const struct opts *o, int root)
{
	size_t i;

	memset(x, 0, sizeof *x);
	x->o = o;
	x->root = root;
	for (i = 0; i < EXTRACT_PARENTS; i++)
		x->parents[i].fd = -1;
	x->umask = umask(0);
	umask(x->umask);
	x->chown = o->same_owner && geteuid() == 0;
	owners_init(&x->owners);
	if ((x->buf = malloc(DATA_BUF)) == NULL)
		return -1;
	ae_nodump(x->buf, DATA_BUF);        /* member data: plaintext */
	return 0;
}

int
extract_members(struct extractor *x, struct ae_tar_reader *tr,
    struct members *sel, struct ae_diag *d)
{
	static struct ae_tar_member m;
	int r = 1;

	static struct ae_tar_member stripped;
	const struct ae_tar_member *e;

	x->tr = tr;
	while (x->fatal == 0 && (r = ae_tar_next(tr, &m, d)) == AE_OK) {
		if (!members_select(sel, m.path))
			continue;
		if (m.warning != NULL)
			member_warn(&m, m.warning);
		if (m.unreadable != NULL) {
			skip(x, m.path, m.unreadable);
			continue;
		}
		if (m.type == 'V')
			continue;   /* a volume label: nothing to make */
		if (m.after_gap == 2 && x->salvage != NULL) {
			char q[1024];

			/* its pax record (its full name, its size) may have
			 * been in the lost chunk before it */
			msg_error("%s: lost: it starts right after a damaged "
			    "chunk, which may have held its extended header "
			    "(tar stream byte %llu); not extracted",
			    names_quote(m.path, q, sizeof q),
			    (unsigned long long)m.offset);
			x->lost++;
			continue;
		}
		if (m.after_gap && x->salvage != NULL) {
			char q[1024];

			msg_warn("%s: found again after a lost chunk (tar stream "
			    "byte %llu)", names_quote(m.path, q, sizeof q),
			    (unsigned long long)m.offset);
		}
		e = &m;
		if (x->o->strip > 0) {
			if (strip_member(x, &m, &stripped) != 0)
				continue;
			e = &stripped;
		}
		if (x->o->to_stdout) {
			if (x->o->verbose) {
				/* stdout carries the data */
				progress_hide();
				names_print(stderr, e->path);
				putc('\n', stderr);
			}
			member_to_stdout(x, e);
		} else {
			extract_member(x, e);
		}
	}
	x->tr = NULL;
	return r;
}

void
extract_end(struct extractor *x)
{
	size_t i;

	parents_forget(x, -1);
	fix_dirs(x);
	for (i = 0; i < x->capmade; i++)
		free(x->made[i].path);
	free(x->made);
	free(x->buf);
	x->made = NULL;
	x->nmade = x->capmade = 0;
	x->buf = NULL;
}

/*
 * -x of selected members through the index: each run of records that
 * holds selected members is decoded on its own (the pipeline's threads
 * work within a run), its tar range read as a small archive.  Returns
 * the exit status; u is closed.
 */
static int
extract_indexed(struct extractor *x, struct unpack *u, const struct opts *o,
    const struct ae_index *ix, struct members *sel)
{
	struct unpack_range *v;
	struct ae_tar_reader tr;
	struct ae_diag d = { 0 };
	size_t n, i;
	int rc = EXIT_OK, r;

	if (indexed_ranges(ix, sel, u->h.chunk_log2, &v, &n) != 0) {
		msg_error("out of memory");
		unpack_close(u);
		return EXIT_SYSTEM;
	}
	for (i = 0; i < n && rc == EXIT_OK && !x->fatal; i++) {
		if ((rc = unpack_start(u, o, &v[i])) != EXIT_OK)
			break;      /* (it closed u) */
		if (ae_tar_reader_init(&tr, &u->tar_in) != AE_OK) {
			msg_error("out of memory");
			rc = unpack_end(u, o, 1, &d, EXIT_SYSTEM);
			break;
		}
		r = extract_members(x, &tr, sel, &d);
		ae_tar_reader_free(&tr);
		rc = unpack_end_run(u, o, r, &d, x->fatal, i + 1 == n);
		if (i + 1 < n && rc != EXIT_OK)
			unpack_close(u);
	}
	if (n == 0)
		unpack_close(u);
	free(v);
	return rc;
}

int
cmd_extract(const struct opts *o)
{
	static struct unpack u;
	static struct extractor x;
	struct ae_tar_reader tr;
	struct ae_index ix;
	struct members sel;
	struct ae_diag d = { 0 };
	int rc, r = 1, root;

	if (o->same_owner && geteuid() != 0)
		msg_warn("--same-owner needs root; owners are not restored");
	root = open(o->directory != NULL ? o->directory : ".",
	    O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (root < 0) {
		int e = errno;

		msg_error("%s: %s", o->directory != NULL ? o->directory : ".",
		    strerror(e));
		if (o->directory != NULL)
			msg_hint("-C needs an existing directory");
		return e == ENOENT || e == ENOTDIR ? EXIT_USAGE : EXIT_SYSTEM;
	}
	if ((rc = members_init(&sel, o)) != EXIT_OK) {
		close(root);
		return rc;
	}
	if (extract_begin(&x, o, root) != 0) {
		msg_error("out of memory");
		rc = EXIT_SYSTEM;
		goto out;
	}
	if ((rc = unpack_open_keys(&u, o)) != EXIT_OK)
		goto out;
	/* Some members only, from a file with an index: only their
	 * records are read.  (All of them: reading in order is faster.) */
	if (sel.pats.n > 0 && !o->salvage && indexed_load(&u.io, &u.h,
	    &u.igcm, o, &ix, &u.index_stats)) {
		rc = extract_indexed(&x, &u, o, &ix, &sel);
		ae_index_free(&ix);
		extract_end(&x);
		goto report;
	}
	/* --salvage: the index's record offsets step over damaged frames */
	if (o->salvage && indexed_load(&u.io, &u.h, &u.igcm, o, &ix, NULL))
		u.salvage_ix = &ix;
	if ((rc = unpack_start(&u, o, NULL)) != EXIT_OK)
		goto out;
	if (o->salvage)
		x.salvage = &u.salvage;
	if (ae_tar_reader_init(&tr, &u.tar_in) != AE_OK) {
		msg_error("out of memory");
		rc = unpack_end(&u, o, 1, &d, EXIT_SYSTEM);
		goto out;
	}
	if (o->salvage) {
		tr.gap = salvage_gap;
		tr.gap_ctx = &u.salvage;
	}
	r = extract_members(&x, &tr, &sel, &d);
	if (r == 1 && tr.no_end_marker)
		msg_warn("%s: the tar stream has no end-of-archive blocks (as "
		    "older tars wrote it); the container authenticated its "
		    "end", u.io.in.name);
	ae_tar_reader_free(&tr);
	rc = unpack_end(&u, o, r, &d, x.fatal);
	extract_end(&x);        /* directory modes and times may warn */
	if (fflush(stdout) != 0 && rc == EXIT_OK)
		rc = msg_sys_error("standard output");
	if (o->salvage && salvage_count(&u.salvage) > 0) {
		salvage_report(&u.salvage, "tar stream");
		msg_hint("%zu chunk%s lost, %zu member%s with them (named "
		    "above); everything else was extracted whole",
		    salvage_count(&u.salvage), salvage_count(&u.salvage) == 1 ?
		    "" : "s", x.lost, x.lost == 1 ? "" : "s");
		if (tr.lost_end)
			msg_hint("the end of the archive was lost: members "
			    "after the last chunk read cannot be named");
		if (rc == EXIT_OK || rc == EXIT_PARTIAL)
			rc = EXIT_DATA;
	}
report:
	/* Only a whole archive can say a member is not in it. */
	if (rc == EXIT_OK && members_report_missing(&sel) > 0)
		rc = EXIT_PARTIAL;
	if (rc == EXIT_OK && x.partial) {
		msg_warn("some members were not extracted as they were; see "
		    "the warnings above");
		rc = EXIT_PARTIAL;
	}
out:
	if (u.salvage_ix != NULL) {
		ae_index_free(&ix);
		u.salvage_ix = NULL;
	}
	extract_end(&x);
	if (o->salvage)
		salvage_free(&u.salvage);
	members_free(&sel);
	close(root);
	return rc;
}
