/*
 * reader.c -- the tree walk behind aescrypt -c (contract in reader.h).
 *
 * The walk is iterative: a stack of directory frames on the heap, each
 * with its entries read, sorted and the directory's listing closed
 * before any of them is visited, so the archive does not depend on
 * readdir order and a tree of any depth costs heap, not stack (a tree
 * 850 levels deep once overflowed the recursive walk's 8 MiB).
 *
 * Every entry is reached from its directory's descriptor (fstatat,
 * openat, readlinkat), never by a path from the top, so there is no
 * PATH_MAX to run into and a directory renamed mid-walk cannot send it
 * elsewhere.  Descriptors are kept for the deepest FD_KEEP frames only;
 * a frame whose descriptor was closed is reopened, when it has entries
 * left, from its nearest open ancestor by its components' names, each
 * checked against the device and inode it had.
 *
 * Each file is opened once (dr_data.c) and checked against what fstatat
 * saw, and its size is fixed by the header before the data is read: a
 * file that shrinks is padded with zeros and one that grows is cut, both
 * with GNU tar's warning, because a tar stream cannot take back a header
 * it has already written.
 */
#include "config.h"
#include "reader.h"
#include "dr.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "common/grow.h"
#include "common/wipe.h"
#include "owners.h"
#include "path.h"
#include "acl.h"
#include "dirnames.h"
#include "incremental.h"

/* ---- the walk ---- */

/* p->path with "/leaf" (or leaf, at the top) appended; 0 or -1 (out of
 * memory: the walk stops). */
static int
path_push(struct packer *p, size_t base, const char *leaf)
{
	size_t ll = strlen(leaf), sep = base > 0 && p->path[base - 1] != '/';

	if (base + sep + ll + 2 > p->pcap) {
		size_t cap = p->pcap ? p->pcap : 256;
		char *t;

		while (cap < base + sep + ll + 2)
			cap *= 2;
		if ((t = realloc(p->path, cap)) == NULL) {
			p->stopped = AE_ENOMEM;
			return -1;
		}
		p->path = t;
		p->pcap = cap;
	}
	if (sep)
		p->path[base] = '/';
	memcpy(p->path + base + sep, leaf, ll + 1);
	p->plen = base + sep + ll;
	return 0;
}

/* Close the descriptor of the outermost frame that has one, past the
 * first (which can always be reopened from the working directory). */
static void
spare_fds(struct packer *p)
{
	size_t i;

	if (p->open_fds < FD_KEEP)
		return;
	for (i = 1; i < p->depth; i++)
		if (p->fr[i].fd >= 0) {
			close(p->fr[i].fd);
			p->fr[i].fd = -1;
			p->open_fds--;
			return;
		}
}

/*
 * Open frame k again from its nearest open ancestor, by name, each
 * directory on the way checked to be the one that was walked (the same
 * device and inode).  0, or -1 (warned: the rest of it is not dumped).
 */
static int
reopen(struct packer *p, size_t k)
{
	int follow = (p->po->flags & AE_DR_FOLLOW) != 0, fd = -1, nfd;
	size_t j = k, i;
	struct stat st;

	while (j > 0 && p->fr[j - 1].fd < 0)
		j--;
	/* from frame j - 1's descriptor (or the working directory) down */
	for (i = j; i <= k; i++) {
		int at = i == j ? (j > 0 ? p->fr[j - 1].fd : AT_FDCWD) : fd;

		nfd = openat(at, p->fr[i].name, O_RDONLY | O_DIRECTORY
		    | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW));
		if (i > j)
			close(fd);
		fd = nfd;
		if (fd < 0 || fstat(fd, &st) != 0 || st.st_dev != p->fr[i].dev
		    || st.st_ino != p->fr[i].ino) {
			if (fd >= 0)
				close(fd);
			p->plen = p->fr[k].plen;
			p->path[p->plen] = '\0';
			ae_dr_warn_plain(p, p->path, "directory moved as we read it; "
			    "the rest of it is not dumped");
			return -1;
		}
	}
	spare_fds(p);
	p->fr[k].fd = fd;
	p->open_fds++;
	return 0;
}

/* The entries of the directory open as fd, sorted, into *ents and *n
 * (a read error is warned and what was read kept).  0, or -1 (warned;
 * fd closed). */
static int
load_dir(struct packer *p, int fd, char ***ents, size_t *n)
{
	switch (ae_dir_names(fd, ents, n)) {
	case -1:
		ae_dr_warn_errno(p, p->path, "Cannot open");
		close(fd);
		return -1;
	case -2:
		ae_dr_warn_errno(p, p->path, "Cannot read directory");
		break;
	}
	return 0;
}

/* Push the directory fd (leaf in its parent, st) with its entries
 * ents[0, n) (taken over).  0, or -1 (stopped, or out of memory; fd
 * closed, ents freed). */
static int
push_frame(struct packer *p, int fd, const char *leaf, const struct stat *st,
    char **ents, size_t n, struct stat *sts, int all_new)
{
	struct frame *f;

	if (ae_grow(&p->fr, &p->capfr, p->depth + 1, sizeof *p->fr, 64, 0)
	    != 0) {
		p->stopped = AE_ENOMEM;
		goto fail;
	}
	f = &p->fr[p->depth];
	if ((f->name = strdup(leaf)) == NULL) {
		p->stopped = AE_ENOMEM;
		goto fail;
	}
	spare_fds(p);
	f->fd = fd;
	f->dev = st->st_dev;
	f->ino = st->st_ino;
	f->ents = ents;
	f->n = n;
	f->next = 0;
	f->plen = p->plen;
	f->all_new = all_new;
	f->st = sts;
	p->depth++;
	p->open_fds++;
	return 0;
fail:
	while (n > 0)
		free(ents[--n]);
	free(ents);
	free(sts);
	close(fd);
	return -1;
}

/* A new frame for the directory open as fd (named leaf in its parent),
 * with its entries.  0, or -1 (warned, or the walk stopped). */
static int
push_dir(struct packer *p, int fd, const char *leaf, const struct stat *st)
{
	char **ents = NULL;
	size_t n = 0;

	if (load_dir(p, fd, &ents, &n) != 0)
		return -1;
	return push_frame(p, fd, leaf, st, ents, n, NULL, 1);
}

static void
pop_dir(struct packer *p)
{
	struct frame *f = &p->fr[--p->depth];

	while (f->next < f->n)
		free(f->ents[f->next++]);
	free(f->ents);
	free(f->st);
	free(f->name);
	if (f->fd >= 0) {
		close(f->fd);
		p->open_fds--;
	}
}

/* Whether st is a directory being walked (a loop through -h or a bind
 * mount).  Warned. */
static int
is_loop(struct packer *p, const struct stat *st)
{
	size_t i;

	for (i = 0; i < p->depth; i++)
		if (p->fr[i].dev == st->st_dev && p->fr[i].ino == st->st_ino) {
			ae_dr_warn_plain(p, p->path, "File system loop detected; "
			    "not dumped");
			return 1;
		}
	return 0;
}

/* The first bytes of a CACHEDIR.TAG that counts (the specification's
 * fixed signature). */
#define CACHEDIR_SIGNATURE "Signature: 8a477f597d28d172789f06886806bc55"

/* Whether the directory fd holds tag t: a file of its name (of any
 * type, as GNU tar decides), and for a cache tag, one that starts with
 * the signature. */
static int
has_tag(int fd, const struct ae_dr_tag *t)
{
	char buf[sizeof CACHEDIR_SIGNATURE - 1];
	struct stat st;
	ssize_t n;
	int tfd;

	if (fstatat(fd, t->name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return 0;
	if (!t->cachedir)
		return 1;
	if (!S_ISREG(st.st_mode) || (tfd = openat(fd, t->name, O_RDONLY
	    | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)) < 0)
		return 0;
	n = read(tfd, buf, sizeof buf);
	close(tfd);
	return n == (ssize_t)sizeof buf && memcmp(buf, CACHEDIR_SIGNATURE,
	    sizeof buf) == 0;
}

/* The strongest tag the directory fd holds, or NULL. */
static const struct ae_dr_tag *
find_tag(const struct ae_dr_params *po, int fd)
{
	const struct ae_dr_tag *best = NULL;
	size_t i;

	for (i = 0; i < po->ntags; i++)
		if ((best == NULL || po->tags[i].how > best->how)
		    && has_tag(fd, &po->tags[i]))
			best = &po->tags[i];
	return best;
}

/* Keep only the entry name (a tag file) of ents[0, *n). */
static void
keep_only(char **ents, size_t *n, const char *name)
{
	size_t i, k = 0;

	for (i = 0; i < *n; i++) {
		if (k == 0 && strcmp(ents[i], name) == 0)
			ents[k++] = ents[i];
		else
			free(ents[i]);
	}
	*n = k;
}

/* Report that the directory at p->path holds tag (not while only
 * measuring). */
static void
tagged(struct packer *p, const struct ae_dr_tag *tag)
{
	struct ae_dr_report r;

	if (p->measuring)
		return;
	memset(&r, 0, sizeof r);
	r.event = AE_DR_TAGGED;
	r.name = p->path;
	r.why = tag->name;
	r.tag = tag->how;
	ae_dr_notify(p, &r);
}

/*
 * -g: the dumpdir of the directory fd (st, at p->path; entries
 * ents[0, n), whose stats go into sts) into *dd (malloc'd, *ddlen
 * bytes), and whether it is new
 * since the last level; its record goes into po->next, under its path
 * as walked ("/home/a" for an operand "/home", as GNU tar records it,
 * though the member is "home/a").  0, or -1 (out of memory: the walk
 * stops).
 */
/* p->path as GNU tar records a directory, without a trailing '/'
 * (malloc'd), or NULL out of memory. */
static char *
record_name(const struct packer *p)
{
	size_t nl = strlen(p->path);
	char *dname = strdup(p->path);

	while (dname != NULL && nl > 1 && dname[nl - 1] == '/')
		dname[--nl] = '\0';
	return dname;
}

/* -g: whether the directory st, recorded as dname, is new since the last
 * level: not in it, or there under another name (GNU tar records a
 * rename; all of it is dumped here instead, which restores the same
 * tree). */
static int
new_dir(const struct ae_dr_params *po, const struct stat *st,
    const char *dname)
{
	const struct ae_snap_dir *old = po->prev == NULL ? NULL :
	    ae_snapshot_find(po->prev, st->st_dev, st->st_ino);

	return old == NULL || strcmp(old->name, dname) != 0;
}

static int
dumpdir_of(struct packer *p, int fd, const struct stat *st,
    char *const *ents, size_t n, struct stat *sts, uint8_t **dd,
    size_t *ddlen, int *all_new)
{
	const struct ae_dr_params *po = p->po;
	struct ae_snap_dir rec;
	size_t len = 0;
	char *dname = record_name(p);
	uint8_t *b;

	if (dname == NULL)
		goto nomem;
	*all_new = new_dir(po, st, dname);
	if (ae_dumpdir_make(fd, ents, n, (po->flags & AE_DR_FOLLOW) != 0,
	    po->prev, *all_new, sts, &b, &len) != 0)
		goto nomem;
	*dd = b;
	*ddlen = len;
	memset(&rec, 0, sizeof rec);
	rec.name = dname;
	rec.dev = (uint64_t)st->st_dev;
	rec.ino = (uint64_t)st->st_ino;
	rec.mtime = st->st_mtim.tv_sec;
	rec.mtime_nsec = (uint32_t)st->st_mtim.tv_nsec;
	rec.dumpdir = b;
	rec.dumpdir_len = len;
	if (po->next != NULL && *dname != '\0'
	    && ae_snapshot_add(po->next, &rec) != AE_OK) {
		free(b);
		goto nomem;
	}
	free(dname);
	return 0;
nomem:
	free(dname);
	p->stopped = AE_ENOMEM;
	return -1;
}

/* The header of the directory fd (leaf in dirfd, st) as name, with
 * its dumpdir (-g) or none.  0, or -1 (warned). */
static int
dir_header(struct packer *p, int fd, int dirfd, const char *leaf,
    const char *name, const struct stat *st, const uint8_t *dd,
    size_t ddlen)
{
	struct ae_tar_entry e;
	size_t nl = strlen(name);
	char *dname;
	struct xsrc x = { fd, dirfd, leaf };
	int r;

	if (nl + 1 > AE_TAR_NAME_MAX) {
		ae_dr_warn_plain(p, p->path, "file name is too long; not dumped");
		return -1;
	}
	if ((dname = malloc(nl + 2)) == NULL) {
		p->stopped = AE_ENOMEM;
		return -1;
	}
	memcpy(dname, name, nl);
	if (dname[nl - 1] != '/')
		dname[nl++] = '/';
	dname[nl] = '\0';
	ae_dr_entry_from_stat(p, &e, dname, st, AE_TAR_DIR);
	e.dumpdir = dd;
	e.dumpdir_len = ddlen;
	r = ae_dr_emit_header(p, &e, &x);
	free(dname);
	return r;
}

/* Directory leaf of dirfd (st), stored as name, then what it holds. */
static void
add_dir(struct packer *p, int dirfd, const char *leaf, const char *name,
    const struct stat *st)
{
	const struct ae_dr_tag *tag;
	char **ents = NULL;
	struct stat *sts = NULL;
	uint8_t *dd = NULL;
	size_t n = 0, ddlen = 0;
	int fd, other_fs, cut, listed = 0, all_new = 1;

	if (is_loop(p, st))
		return;
	fd = openat(dirfd, leaf, O_RDONLY | O_DIRECTORY | O_CLOEXEC
	    | (p->po->flags & AE_DR_FOLLOW ? 0 : O_NOFOLLOW));
	if (fd < 0) {
		ae_dr_warn_errno(p, p->path, "Cannot open");
		return;
	}
	/* As GNU tar: a mount point below an operand is stored, and what
	 * is in it is not; a directory with a tag, as the tag says. */
	other_fs = (p->po->flags & AE_DR_ONE_FS) && p->depth > 0
	    && st->st_dev != p->fr[0].dev;
	tag = find_tag(p->po, fd);
	if (tag != NULL && tag->how == AE_DR_TAG_ALL) {
		tagged(p, tag);
		close(fd);
		return;
	}
	cut = other_fs || (tag != NULL && tag->how == AE_DR_TAG_UNDER);
	if ((p->po->flags & AE_DR_INCREMENTAL) && !p->measuring) {
		/* its entries first: the dumpdir goes in its header */
		if (!cut && load_dir(p, fd, &ents, &n) != 0)
			return;
		listed = !cut;
		if (tag != NULL && listed)
			keep_only(ents, &n, tag->name);
		if ((sts = malloc((n ? n : 1) * sizeof *sts)) == NULL) {
			p->stopped = AE_ENOMEM;
			goto drop;
		}
		if (dumpdir_of(p, fd, st, ents, n, sts, &dd, &ddlen, &all_new)
		    != 0)
			goto drop;
	} else if ((p->po->flags & AE_DR_INCREMENTAL) && p->po->prev != NULL) {
		/* measuring: what a dump counts is what it will store */
		char *dname = record_name(p);

		if (dname == NULL) {
			p->stopped = AE_ENOMEM;
			close(fd);
			return;
		}
		all_new = new_dir(p->po, st, dname);
		free(dname);
	}
	if (*name != '\0' && !p->measuring
	    && dir_header(p, fd, dirfd, leaf, name, st, dd, ddlen) != 0)
		goto drop;
	free(dd);
	if (cut) {
		free(sts);      /* (nothing listed: no stats to keep) */
		if (other_fs && !p->measuring)
			ae_dr_report_path(p, AE_DR_OTHER_FS, p->path, NULL, 0);
		else
			tagged(p, tag);
		close(fd);
		return;
	}
	if (listed) {
		if (push_frame(p, fd, leaf, st, ents, n, sts, all_new) == 0
		    && tag != NULL)
			tagged(p, tag);
	} else if (push_dir(p, fd, leaf, st) == 0) {
		p->fr[p->depth - 1].all_new = all_new;
		if (tag != NULL) {
			tagged(p, tag);
			keep_only(p->fr[p->depth - 1].ents,
			    &p->fr[p->depth - 1].n, tag->name);
		}
	}
	return;
drop:
	free(dd);
	free(sts);
	while (n > 0)
		free(ents[--n]);
	free(ents);
	close(fd);
}

/* -N: whether st is no newer than the date (then it is not dumped). */
static int
unchanged(const struct ae_dr_params *po, const struct stat *st)
{
	if (!po->newer_set || S_ISDIR(st->st_mode))
		return 0;
	return !LATER(st->st_mtim, po->newer)
	    && (po->newer_mtime_only || !LATER(st->st_ctim, po->newer));
}

/* Whether path is left out by the caller's --exclude. */
static int
excluded(const struct ae_dr_params *po, const char *path)
{
	return po->excluded != NULL && po->excluded(po->ctx, path);
}

/* Whether st is one of the files never to archive (reported). */
static int
is_self(struct packer *p, const struct stat *st)
{
	const struct ae_dr_params *po = p->po;
	int i;

	for (i = 0; i < po->nself; i++) {
		if (st->st_dev == po->self[i].dev
		    && st->st_ino == po->self[i].ino) {
			struct ae_dr_report r;

			memset(&r, 0, sizeof r);
			r.event = AE_DR_SELF;
			r.name = p->path;
			r.self = i;
			ae_dr_notify(p, &r);
			return 1;
		}
	}
	return 0;
}

/* The member name path is stored under (a leading '/' and anything up
 * to a ".." dropped, reported once per prefix). */
static const char *
member_name(struct packer *p, const char *path)
{
	size_t prefix;
	const char *name = ae_path_stored(path, &prefix);

	if (prefix > 0 && (prefix >= sizeof p->warned_prefix
	    || strncmp(p->warned_prefix, path, prefix) != 0
	    || p->warned_prefix[prefix] != '\0')) {
		size_t k = prefix < sizeof p->warned_prefix ? prefix :
		    sizeof p->warned_prefix - 1;

		memcpy(p->warned_prefix, path, k);
		p->warned_prefix[k] = '\0';
		ae_dr_report_path(p, AE_DR_STRIPPED, p->warned_prefix, NULL, 0);
	}
	return name;
}

/*
 * A regular file by readdir's word (type), opened before it is stat'd:
 * the descriptor's fstat is then its stat, and the fstatat by name that
 * the walk takes of other entries is saved (a path lookup per file, a
 * tenth of -c's system time on a tree of small files).  Not when the
 * stat may say not to open it (-N, -g, measuring).  The descriptor;
 * -1: take the stat by name; -2: it is no longer a regular file (warned,
 * as dr_data.c warns of a file swapped after its stat: not dumped).
 */
static int
open_regular(struct packer *p, int dirfd, const char *leaf, int type,
    struct stat *st)
{
	const struct ae_dr_params *po = p->po;
	int fd;

	if (type != DT_REG || p->measuring || po->newer_set
	    || (po->flags & AE_DR_INCREMENTAL))
		return -1;
	/* (as dr_data.c opens a file: a FIFO swapped in cannot hang it) */
	fd = openat(dirfd, leaf, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK
	    | (po->flags & AE_DR_FOLLOW ? 0 : O_NOFOLLOW));
	if (fd < 0)
		return -1;      /* stat'd by name, then its own words */
	if (fstat(fd, st) != 0) {
		close(fd);
		return -1;
	}
	if (!S_ISREG(st->st_mode)) {
		close(fd);
		ae_dr_warn_plain(p, p->path, "file changed as we read it; "
		    "not dumped");
		return -2;
	}
	return fd;
}

static void visit_stat(struct packer *p, int dirfd, const char *leaf,
    const struct stat *st, int fd);

/* One entry: leaf in dirfd, whose path from the operand is p->path;
 * type, readdir's (0: unknown). */
static void
visit(struct packer *p, int dirfd, const char *leaf, int type,
    const struct stat *seen)
{
	const struct ae_dr_params *po = p->po;
	struct stat st;
	int fd = -1;

	if (ae_dr_stop_asked(p) || excluded(po, p->path))
		return;
	if (seen != NULL && seen->st_nlink != 0) {
		st = *seen;     /* (-g: its dumpdir's stat) */
	} else if ((fd = open_regular(p, dirfd, leaf, type, &st)) >= 0) {
		;
	} else if (fd == -2) {
		return;
	} else if (fstatat(dirfd, leaf, &st, po->flags & AE_DR_FOLLOW ? 0 :
	    AT_SYMLINK_NOFOLLOW) != 0) {
		if (!p->measuring)
			ae_dr_warn_errno(p, p->path, "Cannot stat");
		return;
	}
	visit_stat(p, dirfd, leaf, &st, fd);
	if (fd >= 0)
		close(fd);
}

/* The rest of visit, once the entry's stat is st (fd: open, or -1). */
static void
visit_stat(struct packer *p, int dirfd, const char *leaf,
    const struct stat *stp, int fd)
{
	const struct ae_dr_params *po = p->po;
	const char *name;
	struct stat st = *stp;
	int all_new = p->depth > 0 ? p->fr[p->depth - 1].all_new : 0;

	if (p->measuring) {
		if (S_ISREG(st.st_mode) && !unchanged(po, &st)
		    && (!(po->flags & AE_DR_INCREMENTAL)
		    || ae_incr_dumps(po->prev, &st, all_new)))
			p->measured += (uint64_t)st.st_size;
		else if (S_ISDIR(st.st_mode))
			add_dir(p, dirfd, leaf, "", &st);
		return;
	}
	if (is_self(p, &st))
		return;
	name = member_name(p, p->path);
	if (S_ISDIR(st.st_mode)) {
		add_dir(p, dirfd, leaf, name, &st);
		return;
	}
	if (*name == '\0' || strlen(name) > AE_TAR_NAME_MAX) {
		ae_dr_warn_plain(p, p->path, "no usable member name; not dumped");
		return;
	}
	if (unchanged(po, &st)) {
		ae_dr_report_path(p, AE_DR_UNCHANGED, p->path, NULL, 0);
		return;
	}
	/* -g: listed as 'N' in its directory's dumpdir */
	if ((po->flags & AE_DR_INCREMENTAL) && !ae_incr_dumps(po->prev, &st,
	    all_new)) {
		ae_dr_report_path(p, AE_DR_KEPT, p->path, NULL, 0);
		return;
	}
	if (S_ISREG(st.st_mode))
		ae_dr_add_file(p, dirfd, leaf, name, &st, fd);
	else if (S_ISLNK(st.st_mode))
		ae_dr_add_symlink(p, dirfd, leaf, name, &st);
	else if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)
	    || S_ISFIFO(st.st_mode))
		ae_dr_add_special(p, dirfd, leaf, name, &st);
	else
		/* As GNU tar says of sockets. */
		ae_dr_report_path(p, AE_DR_IGNORED, p->path, "socket", 0);
}

/* The operand path and everything under it, depth first, in name
 * order, with heap state only. */
static void
walk(struct packer *p, const char *operand)
{
	if (path_push(p, 0, operand) != 0)
		return;
	visit(p, AT_FDCWD, operand, 0, NULL);
	while (p->depth > 0 && !p->stopped) {
		struct frame *f = &p->fr[p->depth - 1];
		const struct stat *seen;
		char *leaf;

		if (f->next == f->n || ae_dr_stop_asked(p)) {
			pop_dir(p);
			continue;
		}
		if (f->fd < 0 && reopen(p, p->depth - 1) != 0) {
			pop_dir(p);
			continue;
		}
		seen = f->st != NULL ? &f->st[f->next] : NULL;
		leaf = f->ents[f->next++];
		if (path_push(p, f->plen, leaf) == 0)
			visit(p, f->fd, leaf, ae_dir_name_type(leaf), seen);
		free(leaf);
	}
	while (p->depth > 0)
		pop_dir(p);
}

/* Go to the directory paths[i] is relative to (-C).  1, or 0 after
 * reporting why not. */
static int
enter_dir(struct packer *p, size_t i)
{
	const struct ae_dr_params *po = p->po;

	if (po->dirfd == NULL || po->dirfd[i] < 0 || fchdir(po->dirfd[i]) == 0)
		return 1;
	if (!p->measuring)
		ae_dr_report_path(p, AE_DR_FAILED, NULL, "cannot enter the -C "
		    "directory", errno);
	return 0;
}

static struct packer *
packer_new(const struct ae_dr_params *po, struct ae_writer *w, int measuring)
{
	struct packer *p = calloc(1, sizeof *p);

	if (p == NULL)
		return NULL;
	if (!measuring && (p->out = malloc(OUT_BUF)) == NULL) {
		free(p);
		return NULL;
	}
	ae_owners_init(&p->owners);
	if (p->out != NULL)
		ae_nodump(p->out, OUT_BUF);     /* file data: plaintext */
	p->po = po;
	p->w = w;
	p->measuring = measuring;
	return p;
}

static void
packer_free(struct packer *p)
{
	size_t i;

	for (i = 0; i < p->nlinks; i++)
		free(p->links[i].name);
	free(p->links);
	if (p->out != NULL) {
		/* It held file contents. */
		ae_wipe(p->out, OUT_BUF);
		free(p->out);
	}
	free(p->xbuf);
	free(p->path);
	free(p->fr);
	free(p);
}

/* The walk fchdir()s into each -C directory; the caller's working
 * directory is taken back when it ends, or the next path the caller
 * names (the -g snapshot, written after the walk) would be taken
 * relative to the last -C (GNU tar takes it from where it started). */
static int
cwd_save(void)
{
	return open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

static void
cwd_restore(int fd)
{
	if (fd >= 0) {
		(void)!fchdir(fd);
		close(fd);
	}
}

/* A walk in steps (reader.h): the packer, and the caller's working
 * directory to go back to. */
struct ae_dr {
	struct packer *p;
};

int
ae_dr_begin(const struct ae_dr_params *po, struct ae_writer *w,
    struct ae_dr **out)
{
	struct ae_dr *r = malloc(sizeof *r);

	*out = NULL;
	if (r == NULL)
		return AE_ENOMEM;
	if ((r->p = packer_new(po, w, 0)) == NULL) {
		free(r);
		return AE_ENOMEM;
	}
	*out = r;
	return AE_OK;
}

int
ae_dr_add(struct ae_dr *r, const char *path)
{
	if (!r->p->stopped)
		walk(r->p, path);
	return r->p->stopped;
}

int
ae_dr_add_all(struct ae_dr *r, char *const *paths, size_t n)
{
	size_t i;
	int cwd = r->p->po->dirfd != NULL ? cwd_save() : -1;

	for (i = 0; i < n && !r->p->stopped; i++) {
		if (!enter_dir(r->p, i)) {
			if (!r->p->stopped)
				r->p->stopped = AE_EIO;
			break;
		}
		walk(r->p, paths[i]);
	}
	cwd_restore(cwd);
	return r->p->stopped;
}

int
ae_dr_put(struct ae_dr *r, const struct ae_tar_entry *e, const uint8_t *data,
    size_t len)
{
	struct packer *p = r->p;
	struct xsrc x = { -1, -1, NULL };

	if (p->stopped)
		return p->stopped;
	if (e->type == AE_TAR_REG ? e->size != len : len != 0)
		return AE_EINVAL;
	if (path_push(p, 0, e->path) != 0)
		return p->stopped ? p->stopped : AE_ENOMEM;
	if (ae_dr_emit_header(p, e, &x) != 0)
		return AE_EINVAL;
	if (len > 0) {
		ae_dr_emit(p, data, len);
		ae_dr_emit_zeros(p, ae_tar_padding(len));
	}
	return p->stopped;
}

int
ae_dr_end(struct ae_dr *r, uint64_t *tar_end, int *partial)
{
	struct packer *p = r->p;
	int err;

	*tar_end = p->flushed + p->olen;
	ae_dr_emit_zeros(p, AE_TAR_END_LEN);
	ae_dr_flush(p);
	err = p->stopped;
	*partial = p->partial;
	ae_dr_free(r);
	return err;
}

int
ae_dr_partial(const struct ae_dr *r)
{
	return r->p->partial;
}

void
ae_dr_free(struct ae_dr *r)
{
	if (r == NULL)
		return;
	packer_free(r->p);
	free(r);
}

int
ae_dr_walk(const struct ae_dr_params *po, char *const *paths, size_t n,
    struct ae_writer *w, uint64_t *tar_end, int *partial)
{
	struct ae_dr *r;
	int err;

	*partial = 0;
	*tar_end = 0;
	if ((err = ae_dr_begin(po, w, &r)) != AE_OK)
		return err;
	(void)ae_dr_add_all(r, paths, n);
	return ae_dr_end(r, tar_end, partial);
}

uint64_t
ae_dr_measure(const struct ae_dr_params *po, char *const *paths, size_t n)
{
	struct packer *p = packer_new(po, NULL, 1);
	uint64_t sum;
	size_t i;

	int cwd;

	if (p == NULL)
		return 0;
	cwd = po->dirfd != NULL ? cwd_save() : -1;
	for (i = 0; i < n && !p->stopped; i++)
		if (enter_dir(p, i))
			walk(p, paths[i]);
	cwd_restore(cwd);
	sum = p->measured;
	packer_free(p);
	return sum;
}
