/*
 * reader.c -- the tree walk behind aescrypt -c (contract in reader.h).
 *
 * Paths are walked by name from the working directory (after -C), one
 * directory's entries read, sorted and closed before any of them is
 * visited, so the archive does not depend on readdir order and a deep
 * tree does not hold a descriptor per level.  Each file is opened once
 * and checked against what lstat saw, and its size is fixed by the
 * header before the data is read: a file that shrinks is padded with
 * zeros and one that grows is cut, both with GNU tar's warning, because
 * a tar stream cannot take back a header it has already written.
 */
#include "config.h"
#include "reader.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "common/error.h"
#include "crypto/wipe.h"
#include "owners.h"
#include "path.h"
#include "xattr.h"

/* The tar stream is gathered here and handed on in pieces this big:
 * handing on each 512-byte header and small file by itself would cost a
 * thread handoff apiece (measured: -c of /usr/include ran 15-30% slower
 * than tar | aescrypt -e before this buffer). */
#define OUT_BUF (256 * 1024)

struct link_seen {
	dev_t dev;
	ino_t ino;
	char *name;
};

/* The directories being walked, innermost first, to catch -h loops. */
struct ancestor {
	dev_t dev;
	ino_t ino;
	const struct ancestor *up;
};

struct packer {
	const struct ae_dr_params *po;
	struct ae_writer *w;
	int partial;
	int stopped;                /* 0, or why the walk stopped (AE_E*) */
	uint8_t *out;               /* OUT_BUF bytes of tar stream */
	size_t olen;
	uint8_t hdr[AE_TAR_HEADER_MAX];
	struct link_seen *links;
	size_t nlinks, caplinks;
	char warned_prefix[256];
	struct ae_owners owners;
	uint64_t flushed;           /* stream bytes written before out[] */
	/* Extended attributes of the entry being written (the reader's
	 * layout, tar.h), and scratch to read them. */
	uint8_t *xbuf;
	size_t xcap;
	char xnames[65536];
	uint8_t xval[65536];
	int noted_xattrs;           /* -v said once that some were left */
};

/* The most data runs a sparse file is stored with; one with more is
 * stored whole (the reader's cap, tar.c, is the same). */
#define SPARSE_RUNS_MAX (1u << 20)

static void
flush(struct packer *p)
{
	int e;

	if (!p->stopped && p->olen > 0
	    && (e = p->w->write(p->w->ctx, p->out, p->olen)) != AE_OK)
		p->stopped = e;
	p->flushed += p->olen;
	p->olen = 0;
}

/* Report r; a callback that asks to stop stops the walk. */
static void
report(struct packer *p, struct ae_dr_report *r)
{
	if (p->po->report(p->po->ctx, r) != 0 && !p->stopped)
		p->stopped = AE_EIO;
}

static void
report_path(struct packer *p, enum ae_dr_event ev, const char *path,
    const char *why, int err)
{
	struct ae_dr_report r;

	memset(&r, 0, sizeof r);
	r.event = ev;
	r.name = path;
	r.why = why;
	r.err = err;
	report(p, &r);
}

/* Whether a stop was asked for (a signal). */
static int
stop_asked(struct packer *p)
{
	if (p->po->stop != NULL && atomic_load(p->po->stop) && !p->stopped)
		p->stopped = AE_EINTR;
	return p->stopped != 0;
}

static void
emit(struct packer *p, const uint8_t *b, size_t n)
{
	size_t k;

	while (n > 0 && !p->stopped) {
		if (p->olen == OUT_BUF)
			flush(p);
		k = OUT_BUF - p->olen < n ? OUT_BUF - p->olen : n;
		memcpy(p->out + p->olen, b, k);
		p->olen += k;
		b += k;
		n -= k;
	}
}

static void
emit_zeros(struct packer *p, uint64_t n)
{
	static const uint8_t zero[AE_TAR_BLOCK * 8];

	while (n > 0 && !p->stopped) {
		size_t k = n < sizeof zero ? (size_t)n : sizeof zero;

		emit(p, zero, k);
		n -= k;
	}
}

static void
warn_errno(struct packer *p, const char *path, const char *what)
{
	report_path(p, AE_DR_WARNING, path, what, errno);
	p->partial = 1;
}

static void
warn_plain(struct packer *p, const char *path, const char *what)
{
	report_path(p, AE_DR_WARNING, path, what, 0);
	p->partial = 1;
}

/* Fill e from st for member name. */
static void
entry_from_stat(struct packer *p, struct ae_tar_entry *e, const char *name,
    const struct stat *st, char type)
{
	memset(e, 0, sizeof *e);
	e->path = name;
	e->type = type;
	e->mode = (uint32_t)st->st_mode & 07777;
	e->uid = st->st_uid;
	e->gid = st->st_gid;
	e->mtime = st->st_mtim.tv_sec;
	e->mtime_nsec = (uint32_t)st->st_mtim.tv_nsec;
	e->uname = ae_owners_user_name(&p->owners, st->st_uid);
	e->gname = ae_owners_group_name(&p->owners, st->st_gid);
}

/*
 * path's extended attributes that the options keep (--xattrs: all but
 * the system.* namespace; --acls: the POSIX ACLs), into p->xbuf; returns
 * their length and sets *count.  Without either option nothing is read,
 * except with -v, which says once that some file had attributes that
 * were not kept (GNU tar, the anchor here, keeps none by default).
 */
static size_t
collect_xattrs(struct packer *p, const char *path, size_t *count)
{
	unsigned f = p->po->flags;
	int follow = (f & AE_DR_FOLLOW) != 0;
	ssize_t nl, vl;
	size_t len = 0;
	char *name;
	int dropped = 0;

	*count = 0;
	if (!(f & (AE_DR_XATTRS | AE_DR_ACLS))
	    && (!(f & AE_DR_NOTE_XATTRS) || p->noted_xattrs))
		return 0;
	nl = follow ? listxattr(path, p->xnames, sizeof p->xnames) :
	    llistxattr(path, p->xnames, sizeof p->xnames);
	if (nl <= 0)
		return 0;
	for (name = p->xnames; name < p->xnames + nl;
	    name += strlen(name) + 1) {
		enum ae_xattr_kind k = ae_xattr_kind(name);
		int keep = k == AE_XATTR_ACL ? (f & AE_DR_ACLS) != 0 :
		    k == AE_XATTR_PLAIN && (f & AE_DR_XATTRS) != 0;

		if (!keep) {
			dropped = 1;
			continue;
		}
		vl = follow ? getxattr(path, name, p->xval, sizeof p->xval) :
		    lgetxattr(path, name, p->xval, sizeof p->xval);
		if (vl < 0) {
			char what[320];

			snprintf(what, sizeof what, "Cannot get extended "
			    "attribute %.256s", name);
			warn_errno(p, path, what);
			continue;
		}
		if (ae_tar_xattr_append(&p->xbuf, &len, &p->xcap, SIZE_MAX,
		    name, strlen(name), p->xval, (size_t)vl) != 0) {
			char what[320];

			/* (a name over 255 bytes, or no memory) */
			snprintf(what, sizeof what, "extended attribute %.256s "
			    "cannot be stored; not archived", name);
			warn_plain(p, path, what);
			continue;
		}
		++*count;
	}
	if (dropped && (f & AE_DR_NOTE_XATTRS) && !p->noted_xattrs) {
		report_path(p, AE_DR_XATTRS_LEFT, path, NULL, 0);
		p->noted_xattrs = 1;
	}
	return len;
}

static int
emit_header(struct packer *p, const struct ae_tar_entry *e0, const char *path)
{
	struct ae_tar_entry e = *e0;
	size_t len;
	int r;

	/* (collect_xattrs may move p->xbuf) */
	e.xattr_len = collect_xattrs(p, path, &e.nxattr);
	e.xattr = e.xattr_len > 0 ? p->xbuf : NULL;
	r = ae_tar_header(&e, p->hdr, sizeof p->hdr, &len);
	if (r == AE_ETOOBIG && e.xattr != NULL) {
		warn_plain(p, path, "extended attributes too large to store; "
		    "not archived");
		e.xattr = NULL;
		e.xattr_len = e.nxattr = 0;
		r = ae_tar_header(&e, p->hdr, sizeof p->hdr, &len);
	}
	if (r != AE_OK) {
		warn_plain(p, path, "cannot be stored in a tar header; "
		    "not dumped");
		return -1;
	}
	if (!p->stopped) {
		struct ae_dr_report rp;

		memset(&rp, 0, sizeof rp);
		rp.event = AE_DR_MEMBER;
		rp.name = path;
		rp.e = &e;
		rp.offset = p->flushed + p->olen;
		report(p, &rp);
	}
	emit(p, p->hdr, len);
	return 0;
}

static const char *
link_lookup(struct packer *p, const struct stat *st)
{
	size_t i;

	for (i = 0; i < p->nlinks; i++)
		if (p->links[i].dev == st->st_dev
		    && p->links[i].ino == st->st_ino)
			return p->links[i].name;
	return NULL;
}

static void
link_remember(struct packer *p, const struct stat *st, const char *name)
{
	if (p->nlinks == p->caplinks) {
		size_t cap = p->caplinks ? 2 * p->caplinks : 64;
		struct link_seen *n = realloc(p->links, cap * sizeof *n);

		if (n == NULL)
			return;     /* later links are stored as copies */
		p->links = n;
		p->caplinks = cap;
	}
	if ((p->links[p->nlinks].name = strdup(name)) == NULL)
		return;
	p->links[p->nlinks].dev = st->st_dev;
	p->links[p->nlinks].ino = st->st_ino;
	p->nlinks++;
}

static int
changed(const struct stat *a, const struct stat *b)
{
	return a->st_size != b->st_size
	    || a->st_mtim.tv_sec != b->st_mtim.tv_sec
	    || a->st_mtim.tv_nsec != b->st_mtim.tv_nsec
	    || a->st_ctim.tv_sec != b->st_ctim.tv_sec
	    || a->st_ctim.tv_nsec != b->st_ctim.tv_nsec;
}

/*
 * Copy len bytes of fd (from file offset at, for messages) into the
 * stream.  Returns how many could not be read (the file shrank, or a
 * read failed: warned); the caller pads that many zeros, as GNU tar
 * does, since the header already gave the size.
 */
static uint64_t
copy_data(struct packer *p, int fd, const char *path, uint64_t len,
    uint64_t at)
{
	uint64_t left = len;
	ssize_t n;

	while (left > 0 && !p->stopped) {
		size_t want;

		if (stop_asked(p))
			break;
		/* Straight into the stream buffer: no second copy. */
		if (p->olen == OUT_BUF)
			flush(p);
		want = OUT_BUF - p->olen;
		if (want > left)
			want = (size_t)left;
		n = read(fd, p->out + p->olen, want);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			char what[128];

			snprintf(what, sizeof what, "Read error at byte %llu",
			    (unsigned long long)(at + len - left));
			warn_errno(p, path, what);
			break;
		}
		if (n == 0) {
			char what[128];

			snprintf(what, sizeof what, "File shrank by %llu "
			    "bytes; padding with zeros",
			    (unsigned long long)left);
			warn_plain(p, path, what);
			break;
		}
		p->olen += (size_t)n;
		left -= (uint64_t)n;
	}
	return left;
}

/*
 * The data runs of fd (size bytes), found with SEEK_DATA and SEEK_HOLE,
 * in *map (malloc'd, the caller frees).  A file that ends in a hole
 * gets a last, empty run at its end, as GNU tar writes it.  0, or -1 if
 * it has no hole after all, the file system cannot say, or there are
 * too many runs: then it is stored whole.
 */
static int
find_holes(int fd, uint64_t size, struct ae_tar_segment **map, size_t *n)
{
	struct ae_tar_segment *m = NULL, *t;
	size_t cap = 0, k = 0;
	uint64_t off = 0, data = 0;
	off_t d, h;

	while (off < size) {
		if ((d = lseek(fd, (off_t)off, SEEK_DATA)) < 0) {
			if (errno == ENXIO)
				break;      /* only a hole is left */
			goto dense;
		}
		if ((uint64_t)d >= size)
			break;
		if ((h = lseek(fd, d, SEEK_HOLE)) < 0)
			goto dense;
		if ((uint64_t)h > size)
			h = (off_t)size;
		if (k + 2 > cap) {
			cap = cap ? 2 * cap : 64;
			if (cap > SPARSE_RUNS_MAX
			    || (t = realloc(m, cap * sizeof *m)) == NULL)
				goto dense;
			m = t;
		}
		m[k].offset = (uint64_t)d;
		m[k++].len = (uint64_t)(h - d);
		data += (uint64_t)(h - d);
		off = (uint64_t)h;
	}
	if (data == size)
		goto dense;     /* no hole after all */
	if (k == 0 || m[k - 1].offset + m[k - 1].len < size) {
		if (k + 1 > cap) {
			if ((t = realloc(m, (k + 1) * sizeof *m)) == NULL)
				goto dense;
			m = t;
		}
		m[k].offset = size;
		m[k++].len = 0;
	}
	*map = m;
	*n = k;
	return 0;
dense:
	free(m);
	return -1;
}

static void
add_file(struct packer *p, const char *path, const char *name,
    const struct stat *lst)
{
	struct ae_tar_entry e;
	struct ae_tar_segment *map = NULL;
	struct stat st, st2;
	const char *first;
	uint8_t *mapbuf = NULL;
	size_t nmap = 0, maplen = 0;
	uint64_t left;
	uint8_t one;
	ssize_t n = 0;
	int fd, shrank = 0;

	if (lst->st_nlink > 1 && (first = link_lookup(p, lst)) != NULL) {
		entry_from_stat(p, &e, name, lst, AE_TAR_HARDLINK);
		e.linkpath = first;
		emit_header(p, &e, path);
		return;
	}
	/* Non-blocking, so that a file swapped for a FIFO between the
	 * lstat and here cannot hang the run in open(); the type is
	 * checked on the descriptor below. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK
	    | (p->po->flags & AE_DR_FOLLOW ? 0 : O_NOFOLLOW));
	if (fd < 0) {
		warn_errno(p, path, "Cannot open");
		return;
	}
	if (fstat(fd, &st) != 0) {
		warn_errno(p, path, "Cannot stat");
		close(fd);
		return;
	}
	if (!S_ISREG(st.st_mode) || st.st_ino != lst->st_ino
	    || st.st_dev != lst->st_dev) {
		warn_plain(p, path, "file changed as we read it; not dumped");
		close(fd);
		return;
	}
	entry_from_stat(p, &e, name, &st, AE_TAR_REG);
	e.size = (uint64_t)st.st_size;
	if ((uint64_t)st.st_blocks * 512 < (uint64_t)st.st_size
	    && find_holes(fd, (uint64_t)st.st_size, &map, &nmap) == 0) {
		/* Fewer blocks than bytes: holes, stored as GNU's pax sparse
		 * 1.0 (tar.h) so they neither cost time nor come back
		 * filled. */
		size_t cap = 32 + nmap * 42, i;

		if ((mapbuf = malloc(cap + AE_TAR_BLOCK)) != NULL
		    && (maplen = ae_tar_sparse_map(map, nmap, mapbuf,
		    cap + AE_TAR_BLOCK)) > 0) {
			e.map = map;
			e.nmap = nmap;
			e.real_size = (uint64_t)st.st_size;
			e.size = maplen;
			for (i = 0; i < nmap; i++)
				e.size += map[i].len;
		}
	}
	if (emit_header(p, &e, path) != 0)
		goto out;
	if (st.st_nlink > 1)
		link_remember(p, &st, name);
	if (e.map == NULL) {
		left = copy_data(p, fd, path, e.size, 0);
		emit_zeros(p, left + ae_tar_padding(e.size));
	} else {
		size_t i;

		emit(p, mapbuf, maplen);
		for (i = 0; i < nmap && !p->stopped; i++) {
			left = map[i].len;
			if (lseek(fd, (off_t)map[i].offset, SEEK_SET) >= 0)
				left = copy_data(p, fd, path, map[i].len,
				    map[i].offset);
			else
				warn_errno(p, path, "Cannot seek");
			emit_zeros(p, left);
			shrank |= left != 0;
		}
		emit_zeros(p, ae_tar_padding(e.size));
		left = shrank;
	}
	if (!p->stopped && left == 0) {
		/* Grown, or rewritten in place? */
		n = e.map == NULL ? read(fd, &one, 1) : 0;
		if (n > 0 || (fstat(fd, &st2) == 0 && changed(&st, &st2)))
			warn_plain(p, path, "file changed as we read it");
	}
out:
	free(map);
	free(mapbuf);
	close(fd);
}

static void
add_symlink(struct packer *p, const char *path, const char *name,
    const struct stat *st)
{
	struct ae_tar_entry e;
	char target[AE_TAR_NAME_MAX + 2];
	ssize_t n;

	n = readlink(path, target, sizeof target);
	if (n < 0) {
		warn_errno(p, path, "Cannot readlink");
		return;
	}
	if ((size_t)n > AE_TAR_NAME_MAX) {
		warn_plain(p, path, "symbolic link target is too long; "
		    "not dumped");
		return;
	}
	target[n] = '\0';
	entry_from_stat(p, &e, name, st, AE_TAR_SYMLINK);
	e.linkpath = target;
	emit_header(p, &e, path);
}

static int
cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void add(struct packer *p, const char *path,
    const struct ancestor *up);

/*
 * The names in directory path, sorted, without "." and "..", in a
 * malloc'd array of malloc'd strings (*ents, *n; the caller frees).
 * Returns 0; -1 (errno set) if it cannot be opened; -2 (errno set) if
 * reading it failed part way, with what was read.
 */
static int
list_dir(const char *path, int follow, char ***ents, size_t *n)
{
	struct dirent *de;
	size_t cap = 0;
	DIR *d;
	int fd, r = 0;

	*ents = NULL;
	*n = 0;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC
	    | (follow ? 0 : O_NOFOLLOW));
	if (fd < 0 || (d = fdopendir(fd)) == NULL) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		errno = e;
		return -1;
	}
	errno = 0;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0
		    || strcmp(de->d_name, "..") == 0)
			continue;
		if (*n == cap) {
			char **n2;

			cap = cap ? 2 * cap : 32;
			if ((n2 = realloc(*ents, cap * sizeof *n2)) == NULL) {
				errno = ENOMEM;
				break;
			}
			*ents = n2;
		}
		if (((*ents)[*n] = strdup(de->d_name)) == NULL) {
			errno = ENOMEM;
			break;
		}
		(*n)++;
		errno = 0;
	}
	if (errno != 0) {
		int e = errno;

		r = -2;
		closedir(d);
		errno = e;
	} else {
		closedir(d);
	}
	if (*n > 1)
		qsort(*ents, *n, sizeof **ents, cmp_names);
	return r;
}

static void
add_dir(struct packer *p, const char *path, const char *name,
    const struct stat *st, const struct ancestor *up)
{
	struct ancestor me = { st->st_dev, st->st_ino, up };
	const struct ancestor *a;
	struct ae_tar_entry e;
	char dname[AE_TAR_NAME_MAX + 2], child[AE_TAR_NAME_MAX + 2];
	char **ents = NULL;
	size_t nents = 0, i, plen = strlen(path);

	for (a = up; a != NULL; a = a->up)
		if (a->dev == st->st_dev && a->ino == st->st_ino) {
			warn_plain(p, path, "File system loop detected; "
			    "not dumped");
			return;
		}
	if (*name != '\0') {
		size_t nl = strlen(name);

		if (nl + 1 > AE_TAR_NAME_MAX) {
			warn_plain(p, path, "file name is too long; not "
			    "dumped");
			return;
		}
		memcpy(dname, name, nl);
		if (dname[nl - 1] != '/')
			dname[nl++] = '/';
		dname[nl] = '\0';
		entry_from_stat(p, &e, dname, st, AE_TAR_DIR);
		if (emit_header(p, &e, path) != 0)
			return;
	}
	switch (list_dir(path, p->po->flags & AE_DR_FOLLOW, &ents, &nents)) {
	case -1:
		warn_errno(p, path, "Cannot open");
		return;
	case -2:
		warn_errno(p, path, "Cannot read directory");
		break;
	}
	for (i = 0; i < nents; i++) {
		int sep = plen > 0 && path[plen - 1] != '/';

		if (!p->stopped) {
			if (plen + sep + strlen(ents[i]) > AE_TAR_NAME_MAX) {
				snprintf(child, sizeof child, "%s%s%s", path,
				    sep ? "/" : "", ents[i]);
				warn_plain(p, child, "file name is too long; "
				    "not dumped");
			} else {
				snprintf(child, sizeof child, "%s%s%s", path,
				    sep ? "/" : "", ents[i]);
				add(p, child, &me);
			}
		}
		free(ents[i]);
	}
	free(ents);
}

/* Whether path is left out by the caller's --exclude. */
static int
excluded(const struct ae_dr_params *po, const char *path)
{
	return po->excluded != NULL && po->excluded(po->ctx, path);
}

static int
stat_path(const struct ae_dr_params *po, const char *path, struct stat *st)
{
	return po->flags & AE_DR_FOLLOW ? stat(path, st) : lstat(path, st);
}

/* Whether st is one of the files never to archive (reported). */
static int
is_self(struct packer *p, const char *path, const struct stat *st)
{
	const struct ae_dr_params *po = p->po;
	int i;

	for (i = 0; i < po->nself; i++) {
		if (st->st_dev == po->self[i].dev
		    && st->st_ino == po->self[i].ino) {
			struct ae_dr_report r;

			memset(&r, 0, sizeof r);
			r.event = AE_DR_SELF;
			r.name = path;
			r.self = i;
			report(p, &r);
			return 1;
		}
	}
	return 0;
}

/* The member name path is stored under (a leading '/' and anything up
 * to a ".." dropped, reported once per prefix), or NULL. */
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
		report_path(p, AE_DR_STRIPPED, p->warned_prefix, NULL, 0);
	}
	return name;
}

static void
add(struct packer *p, const char *path, const struct ancestor *up)
{
	const struct ae_dr_params *po = p->po;
	const char *name;
	struct stat st;

	if (stop_asked(p) || excluded(po, path))
		return;
	if (stat_path(po, path, &st) != 0) {
		warn_errno(p, path, "Cannot stat");
		return;
	}
	if (is_self(p, path, &st))
		return;
	name = member_name(p, path);
	if (S_ISDIR(st.st_mode)) {
		add_dir(p, path, name, &st, up);
		return;
	}
	if (*name == '\0' || strlen(name) > AE_TAR_NAME_MAX) {
		warn_plain(p, path, "no usable member name; not dumped");
		return;
	}
	if (S_ISREG(st.st_mode))
		add_file(p, path, name, &st);
	else if (S_ISLNK(st.st_mode))
		add_symlink(p, path, name, &st);
	else
		/* As GNU tar says of sockets; FIFOs and devices are not
		 * archived either (extraction never makes them). */
		report_path(p, AE_DR_IGNORED, path, S_ISSOCK(st.st_mode) ?
		    "socket" : S_ISFIFO(st.st_mode) ? "FIFO" : "device", 0);
}

/* Go to the directory paths[i] is relative to (-C).  1, or 0 after
 * reporting why not. */
static int
enter_dir(struct packer *p, size_t i)
{
	const struct ae_dr_params *po = p->po;

	if (po->dirfd == NULL || po->dirfd[i] < 0 || fchdir(po->dirfd[i]) == 0)
		return 1;
	report_path(p, AE_DR_FAILED, NULL, "cannot enter the -C directory",
	    errno);
	return 0;
}

int
ae_dr_walk(const struct ae_dr_params *po, char *const *paths, size_t n,
    struct ae_writer *w, uint64_t *tar_end, int *partial)
{
	struct packer *p;
	size_t i;
	int err;

	*partial = 0;
	*tar_end = 0;
	if ((p = calloc(1, sizeof *p)) == NULL
	    || (p->out = malloc(OUT_BUF)) == NULL) {
		free(p);
		return AE_ENOMEM;
	}
	ae_owners_init(&p->owners);
	ae_nodump(p->out, OUT_BUF);         /* file data: plaintext */
	p->po = po;
	p->w = w;
	for (i = 0; i < n && !p->stopped; i++) {
		if (!enter_dir(p, i)) {
			if (!p->stopped)
				p->stopped = AE_EIO;
			break;
		}
		add(p, paths[i], NULL);
	}
	*tar_end = p->flushed + p->olen;
	emit_zeros(p, AE_TAR_END_LEN);
	flush(p);
	err = p->stopped;
	*partial = p->partial;
	for (i = 0; i < p->nlinks; i++)
		free(p->links[i].name);
	free(p->links);
	/* It held file contents. */
	ae_wipe(p->out, OUT_BUF);
	free(p->out);
	free(p->xbuf);
	free(p);
	return err;
}

/* ae_dr_measure's walk: sizes only, no reports, same exclusions. */
static uint64_t
measure(const struct ae_dr_params *po, const char *path, int depth)
{
	char child[AE_TAR_NAME_MAX + 2];
	struct stat st;
	char **ents;
	size_t n, i, plen = strlen(path);
	uint64_t sum = 0;

	if (excluded(po, path) || depth > 256 || stat_path(po, path, &st) != 0)
		return 0;
	if (S_ISREG(st.st_mode))
		return (uint64_t)st.st_size;
	if (!S_ISDIR(st.st_mode) || list_dir(path, po->flags & AE_DR_FOLLOW,
	    &ents, &n) == -1)
		return 0;
	for (i = 0; i < n; i++) {
		int sep = plen > 0 && path[plen - 1] != '/';

		if (plen + sep + strlen(ents[i]) <= AE_TAR_NAME_MAX) {
			snprintf(child, sizeof child, "%s%s%s", path,
			    sep ? "/" : "", ents[i]);
			sum += measure(po, child, depth + 1);
		}
		free(ents[i]);
	}
	free(ents);
	return sum;
}

uint64_t
ae_dr_measure(const struct ae_dr_params *po, char *const *paths, size_t n)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < n; i++)
		if (po->dirfd == NULL || po->dirfd[i] < 0
		    || fchdir(po->dirfd[i]) == 0)
			sum += measure(po, paths[i], 0);
	return sum;
}
