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
 * Each file is opened once and checked against what fstatat saw, and
 * its size is fixed by the header before the data is read: a file that
 * shrinks is padded with zeros and one that grows is cut, both with GNU
 * tar's warning, because a tar stream cannot take back a header it has
 * already written.
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
#ifdef __GLIBC__
#include <sys/sysmacros.h>      /* major, minor (the BSDs: sys/types.h) */
#endif
#include <unistd.h>

#include "common/error.h"
#include "crypto/wipe.h"
#include "owners.h"
#include "path.h"
#include "acl.h"
#include "xattr.h"

/* The tar stream is gathered here and handed on in pieces this big:
 * handing on each 512-byte header and small file by itself would cost a
 * thread handoff apiece (measured: -c of /usr/include ran 15-30% slower
 * than tar | aescrypt -e before this buffer). */
#define OUT_BUF (256 * 1024)

/* Directory descriptors kept open at once, deepest first. */
#define FD_KEEP 64

struct link_seen {
	dev_t dev;
	ino_t ino;
	char *name;
};

/* A directory being walked. */
struct frame {
	int fd;                     /* open, or -1 (closed to save
	                             * descriptors: reopened by name) */
	char *name;                 /* its name in its parent; frame 0: the
	                             * operand, from the working directory */
	dev_t dev;
	ino_t ino;
	char **ents;                /* its entries, sorted */
	size_t n, next;             /* how many, and the next to visit */
	size_t plen;                /* the path's length, up to it */
	int all_new;                /* -g: new since the last level, so
	                             * every file in it is archived */
};

struct packer {
	const struct ae_dr_params *po;
	struct ae_writer *w;
	int measuring;              /* ae_dr_measure: sizes only */
	uint64_t measured;
	int partial;
	int stopped;                /* 0, or why the walk stopped (AE_E*) */
	uint8_t *out;               /* OUT_BUF bytes of tar stream */
	size_t olen;
	uint8_t hdr[AE_TAR_HEADER_MAX];
	char linkbuf[AE_TAR_NAME_MAX + 2];  /* a symlink's target */
	struct link_seen *links;
	size_t nlinks, caplinks;
	char warned_prefix[256];
	struct ae_owners owners;
	uint64_t flushed;           /* stream bytes written before out[] */
	/* The path of the entry being visited, from the operand. */
	char *path;
	size_t plen, pcap;
	/* The directories being walked, outermost first. */
	struct frame *fr;
	size_t depth, capfr;
	size_t open_fds;            /* frames with fd >= 0 */
	/* Extended attributes of the entry being written (the reader's
	 * layout, tar.h), and scratch to read them. */
	uint8_t *xbuf;
	size_t xcap;
	char xnames[65536];
	uint8_t xval[65536];
	char acltext[AE_ACL_MAX];   /* an ACL as SCHILY.acl.* text */
	int noted_xattrs;           /* -v said once that some were left */
};

/* The most data runs a sparse file is stored with; one with more is
 * stored whole (the reader's cap, tar.c, is the same). */
/* Timespec a is later than b. */
#define LATER(a, b) ((a).tv_sec > (b).tv_sec \
	|| ((a).tv_sec == (b).tv_sec && (a).tv_nsec > (b).tv_nsec))

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

/* Where an entry's attributes are read from: its open descriptor, or
 * (a symlink, which cannot be opened) its name in dirfd. */
struct xsrc {
	int fd;
	int dirfd;
	const char *leaf;
};

static ssize_t
xlist(const struct xsrc *x, char *buf, size_t n)
{
	char proc[64 + 256];

	if (x->fd >= 0 || x->dirfd == AT_FDCWD)
		return ae_xattr_list(x->fd, x->leaf, buf, n);
	/* a symlink's own attributes: by a path through its directory's
	 * descriptor, which stays short whatever the depth */
	if (snprintf(proc, sizeof proc, "/proc/self/fd/%d/%s", x->dirfd,
	    x->leaf) >= (int)sizeof proc)
		return -1;
	return ae_xattr_list(-1, proc, buf, n);
}

static ssize_t
xget(const struct xsrc *x, const char *name, uint8_t *buf, size_t n)
{
	char proc[64 + 256];

	if (x->fd >= 0 || x->dirfd == AT_FDCWD)
		return ae_xattr_get(x->fd, x->leaf, name, buf, n);
	if (snprintf(proc, sizeof proc, "/proc/self/fd/%d/%s", x->dirfd,
	    x->leaf) >= (int)sizeof proc)
		return -1;
	return ae_xattr_get(-1, proc, name, buf, n);
}

/*
 * The entry's extended attributes that the flags keep (AE_DR_XATTRS:
 * all but the system.* namespace; AE_DR_ACLS: the POSIX ACLs), into
 * p->xbuf; returns their length and sets *count.  Without either flag
 * nothing is read, except with AE_DR_NOTE_XATTRS, which reports once
 * that some file had attributes that were not kept (GNU tar, the anchor
 * here, keeps none by default).
 */
static size_t
collect_xattrs(struct packer *p, const struct xsrc *x, size_t *count)
{
	unsigned f = p->po->flags;
	ssize_t nl, vl;
	size_t len = 0;
	char *name;
	int dropped = 0;

	*count = 0;
	if (!(f & (AE_DR_XATTRS | AE_DR_ACLS))
	    && (!(f & AE_DR_NOTE_XATTRS) || p->noted_xattrs))
		return 0;
	if ((nl = xlist(x, p->xnames, sizeof p->xnames)) <= 0)
		return 0;
	for (name = p->xnames; name < p->xnames + nl;
	    name += strlen(name) + 1) {
		enum ae_xattr_kind k = ae_xattr_kind(name);
		int keep = k == AE_XATTR_ACL ? (f & AE_DR_ACLS) != 0 :
		    (f & AE_DR_XATTRS) != 0 && ae_xattr_wanted(p->po->xattrs,
		    name, 0, 0);

		if (!keep) {
			dropped = 1;
			continue;
		}
		if ((vl = xget(x, name, p->xval, sizeof p->xval)) < 0) {
			char what[320];

			snprintf(what, sizeof what, "Cannot get extended "
			    "attribute %.256s", name);
			warn_errno(p, p->path, what);
			continue;
		}
		if (k == AE_XATTR_ACL) {
			/* as GNU tar and bsdtar store an ACL: as text in its
			 * own pax record, which both read back (tar.h) */
			ssize_t tl = ae_acl_to_text(&p->owners, p->xval,
			    (size_t)vl, p->acltext, sizeof p->acltext);
			const char *rec = strcmp(name, "system.posix_acl_access")
			    == 0 ? "SCHILY.acl.access" : "SCHILY.acl.default";

			if (tl < 0 || ae_tar_xattr_append(&p->xbuf, &len,
			    &p->xcap, SIZE_MAX, rec, strlen(rec),
			    (const uint8_t *)p->acltext, (size_t)tl) != 0) {
				warn_plain(p, p->path, "its ACL cannot be read "
				    "or stored; not archived");
				continue;
			}
		} else if (ae_tar_xattr_append(&p->xbuf, &len, &p->xcap, SIZE_MAX,
		    name, strlen(name), p->xval, (size_t)vl) != 0) {
			char what[320];

			/* (a name over 255 bytes, or no memory) */
			snprintf(what, sizeof what, "extended attribute %.256s "
			    "cannot be stored; not archived", name);
			warn_plain(p, p->path, what);
			continue;
		}
		++*count;
	}
	if (dropped && (f & AE_DR_NOTE_XATTRS) && !p->noted_xattrs) {
		report_path(p, AE_DR_XATTRS_LEFT, p->path, NULL, 0);
		p->noted_xattrs = 1;
	}
	return len;
}

/* Write e's header, with the attributes x has; 0, or -1 (warned) if it
 * cannot be encoded. */
static int
emit_header(struct packer *p, const struct ae_tar_entry *e0,
    const struct xsrc *x)
{
	struct ae_tar_entry e = *e0;
	size_t len;
	int r;

	/* (collect_xattrs may move p->xbuf) */
	e.xattr_len = collect_xattrs(p, x, &e.nxattr);
	e.xattr = e.xattr_len > 0 ? p->xbuf : NULL;
	r = ae_tar_header(&e, p->hdr, sizeof p->hdr, &len);
	if (r == AE_ETOOBIG && e.xattr != NULL) {
		warn_plain(p, p->path, "extended attributes too large to "
		    "store; not archived");
		e.xattr = NULL;
		e.xattr_len = e.nxattr = 0;
		r = ae_tar_header(&e, p->hdr, sizeof p->hdr, &len);
	}
	if (r != AE_OK) {
		warn_plain(p, p->path, "cannot be stored in a tar header; "
		    "not dumped");
		return -1;
	}
	if (!p->stopped) {
		struct ae_dr_report rp;

		memset(&rp, 0, sizeof rp);
		rp.event = AE_DR_MEMBER;
		rp.name = p->path;
		rp.e = &e;
		rp.offset = p->flushed + p->olen;
		report(p, &rp);
	}
	if (p->po->lead_len > 0 && p->flushed + p->olen == 0)
		emit(p, p->po->lead, p->po->lead_len);
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

/* Append the run [off, off + len) to *m (k used of *cap).  0, or -1
 * if there are too many runs or no memory. */
static int
add_run(struct ae_tar_segment **m, size_t *k, size_t *cap, uint64_t off,
    uint64_t len)
{
	struct ae_tar_segment *t;

	if (*k + 2 > *cap) {
		size_t c = *cap ? 2 * *cap : 64;

		if (c > SPARSE_RUNS_MAX || (t = realloc(*m, c * sizeof *t)) == NULL)
			return -1;
		*m = t;
		*cap = c;
	}
	(*m)[*k].offset = off;
	(*m)[(*k)++].len = len;
	return 0;
}

/*
 * The runs found (k of them, data bytes in all) into *map and *n: a
 * file that ends in a hole gets a last, empty run at its end, as GNU tar
 * writes it.  0, or -1 (m freed) if there was no hole after all.
 */
static int
end_runs(struct ae_tar_segment *m, size_t k, size_t cap, uint64_t data,
    uint64_t size, struct ae_tar_segment **map, size_t *n)
{
	if (data == size) {
		free(m);
		return -1;
	}
	if (k == 0 || m[k - 1].offset + m[k - 1].len < size) {
		/* add_run leaves room for one more, if it ran at all */
		if (k + 1 > cap) {
			struct ae_tar_segment *t = realloc(m, (k + 1) * sizeof *m);

			if (t == NULL) {
				free(m);
				return -1;
			}
			m = t;
		}
		m[k].offset = size;
		m[k++].len = 0;
	}
	*map = m;
	*n = k;
	return 0;
}

#ifdef HAVE_SEEK_HOLE
/*
 * The data runs of fd (size bytes), found with SEEK_DATA and SEEK_HOLE,
 * in *map (malloc'd, the caller frees).  0, or -1 if it has no hole
 * after all, the file system cannot say, or there are too many runs:
 * then it is stored whole.  Moves fd's offset.
 */
static int
find_holes(int fd, uint64_t size, struct ae_tar_segment **map, size_t *n)
{
	struct ae_tar_segment *m = NULL;
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
		if (add_run(&m, &k, &cap, (uint64_t)d, (uint64_t)(h - d)) != 0)
			goto dense;
		data += (uint64_t)(h - d);
		off = (uint64_t)h;
	}
	return end_runs(m, k, cap, data, size, map, n);
dense:
	free(m);
	return -1;
}
#else
/*
 * Without SEEK_DATA and SEEK_HOLE (POSIX has neither; GNU tar does the
 * same there): read the file, which st_blocks says has holes, in full,
 * and call every all-zero 512-byte block a hole.  Zeros that were
 * written come back as holes, which read the same.  Contract as above.
 */
static int
find_holes(int fd, uint64_t size, struct ae_tar_segment **map, size_t *n)
{
	static const uint8_t zero[512];
	struct ae_tar_segment *m = NULL;
	uint8_t buf[64 * 1024];
	size_t cap = 0, k = 0, i;
	uint64_t off = 0, data = 0, start = 0;
	int in_data = 0;
	ssize_t got;

	while (off < size) {
		got = pread(fd, buf, sizeof buf, (off_t)off);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			goto dense;
		if ((uint64_t)got > size - off)
			got = (ssize_t)(size - off);
		for (i = 0; i < (size_t)got; i += 512) {
			size_t len = (size_t)got - i < 512 ? (size_t)got - i : 512;
			int z = memcmp(buf + i, zero, len) == 0;

			if (!z && !in_data) {
				start = off + i;
				in_data = 1;
			} else if (z && in_data) {
				if (add_run(&m, &k, &cap, start, off + i - start))
					goto dense;
				data += off + i - start;
				in_data = 0;
			}
		}
		off += (uint64_t)got;
	}
	if (in_data) {
		if (add_run(&m, &k, &cap, start, size - start) != 0)
			goto dense;
		data += size - start;
	}
	return end_runs(m, k, cap, data, size, map, n);
dense:
	free(m);
	return -1;
}
#endif

/* A sparse file's data: its map, then each run; returns whether it
 * shrank (warned). */
static int
copy_sparse(struct packer *p, int fd, const struct ae_tar_entry *e,
    const uint8_t *mapbuf, size_t maplen)
{
	uint64_t left;
	size_t i;
	int shrank = 0;

	emit(p, mapbuf, maplen);
	for (i = 0; i < e->nmap && !p->stopped; i++) {
		left = e->map[i].len;
		if (lseek(fd, (off_t)e->map[i].offset, SEEK_SET) >= 0)
			left = copy_data(p, fd, p->path, e->map[i].len,
			    e->map[i].offset);
		else
			warn_errno(p, p->path, "Cannot seek");
		emit_zeros(p, left);
		shrank |= left != 0;
	}
	emit_zeros(p, ae_tar_padding(e->size));
	return shrank;
}

/* A file with fewer blocks than bytes: holes, stored as GNU's pax sparse
 * 1.0 (tar_write.h) so they neither cost time nor come back filled.  Sets
 * e's map and sizes, and *mapbuf (malloc'd) to the map that starts its
 * data; leaves e dense if it has no hole after all. */
static void
plan_sparse(int fd, const struct stat *st, struct ae_tar_entry *e,
    struct ae_tar_segment **map, uint8_t **mapbuf, size_t *maplen)
{
	size_t nmap = 0, cap, i;

	if ((uint64_t)st->st_blocks * 512 >= (uint64_t)st->st_size)
		return;
	if (find_holes(fd, (uint64_t)st->st_size, map, &nmap) != 0) {
		/* Stored whole after all (a compressing file system such as
		 * ZFS or btrfs reports fewer blocks than bytes without a
		 * hole): from the start, where SEEK_DATA left it elsewhere. */
		(void)lseek(fd, 0, SEEK_SET);
		return;
	}
	cap = 32 + nmap * 42;
	if ((*mapbuf = malloc(cap + AE_TAR_BLOCK)) == NULL
	    || (*maplen = ae_tar_sparse_map(*map, nmap, *mapbuf,
	    cap + AE_TAR_BLOCK)) == 0)
		return;
	e->map = *map;
	e->nmap = nmap;
	e->real_size = (uint64_t)st->st_size;
	e->size = *maplen;
	for (i = 0; i < nmap; i++)
		e->size += (*map)[i].len;
}

/* Regular file leaf of dirfd, stored as name; lst is what fstatat saw. */
static void
add_file(struct packer *p, int dirfd, const char *leaf, const char *name,
    const struct stat *lst)
{
	struct ae_tar_entry e;
	struct ae_tar_segment *map = NULL;
	struct stat st, st2;
	struct xsrc x;
	const char *first;
	uint8_t *mapbuf = NULL, one;
	size_t maplen = 0;
	uint64_t left;
	ssize_t n = 0;
	int fd;

	if (lst->st_nlink > 1 && (first = link_lookup(p, lst)) != NULL) {
		entry_from_stat(p, &e, name, lst, AE_TAR_HARDLINK);
		e.linkpath = first;
		x.fd = -1, x.dirfd = dirfd, x.leaf = leaf;
		if (!(p->po->flags & AE_DR_FOLLOW))
			emit_header(p, &e, &x);
		else if ((x.fd = openat(dirfd, leaf, O_RDONLY | O_CLOEXEC
		    | O_NOCTTY | O_NONBLOCK)) >= 0) {
			emit_header(p, &e, &x);
			close(x.fd);
		}
		return;
	}
	/* Non-blocking, so that a file swapped for a FIFO between the
	 * fstatat and here cannot hang the run in open(); the type is
	 * checked on the descriptor below. */
	fd = openat(dirfd, leaf, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK
	    | (p->po->flags & AE_DR_FOLLOW ? 0 : O_NOFOLLOW));
	if (fd < 0) {
		warn_errno(p, p->path, "Cannot open");
		return;
	}
	if (fstat(fd, &st) != 0) {
		warn_errno(p, p->path, "Cannot stat");
		close(fd);
		return;
	}
	if (!S_ISREG(st.st_mode) || st.st_ino != lst->st_ino
	    || st.st_dev != lst->st_dev) {
		warn_plain(p, p->path, "file changed as we read it; not dumped");
		close(fd);
		return;
	}
	entry_from_stat(p, &e, name, &st, AE_TAR_REG);
	e.size = (uint64_t)st.st_size;
	plan_sparse(fd, &st, &e, &map, &mapbuf, &maplen);
	x.fd = fd;
	if (emit_header(p, &e, &x) != 0)
		goto out;
	if (st.st_nlink > 1)
		link_remember(p, &st, name);
	if (e.map == NULL) {
		left = copy_data(p, fd, p->path, e.size, 0);
		emit_zeros(p, left + ae_tar_padding(e.size));
	} else {
		left = copy_sparse(p, fd, &e, mapbuf, maplen);
	}
	if (!p->stopped && left == 0) {
		/* Grown, or rewritten in place? */
		n = e.map == NULL ? read(fd, &one, 1) : 0;
		if (n > 0 || (fstat(fd, &st2) == 0 && changed(&st, &st2)))
			warn_plain(p, p->path, "file changed as we read it");
	}
out:
	free(map);
	free(mapbuf);
	close(fd);
}

static void
add_symlink(struct packer *p, int dirfd, const char *leaf, const char *name,
    const struct stat *st)
{
	struct ae_tar_entry e;
	char *target = p->linkbuf;
	struct xsrc x = { -1, dirfd, leaf };
	ssize_t n;

	n = readlinkat(dirfd, leaf, target, AE_TAR_NAME_MAX + 2);
	if (n < 0) {
		warn_errno(p, p->path, "Cannot readlink");
		return;
	}
	if ((size_t)n > AE_TAR_NAME_MAX) {
		warn_plain(p, p->path, "symbolic link target is too long; "
		    "not dumped");
		return;
	}
	target[n] = '\0';
	entry_from_stat(p, &e, name, st, AE_TAR_SYMLINK);
	e.linkpath = target;
	emit_header(p, &e, &x);
}

/* A character or block device, or a FIFO: a header alone, as GNU tar
 * stores them (-x makes them as root; disk/writer.h). */
static void
add_special(struct packer *p, int dirfd, const char *leaf, const char *name,
    const struct stat *st)
{
	struct ae_tar_entry e;
	struct xsrc x = { -1, dirfd, leaf };
	char t = S_ISCHR(st->st_mode) ? AE_TAR_CHR : S_ISBLK(st->st_mode) ?
	    AE_TAR_BLK : AE_TAR_FIFO;

	entry_from_stat(p, &e, name, st, t);
	if (t != AE_TAR_FIFO) {
		e.devmajor = (uint32_t)major(st->st_rdev);
		e.devminor = (uint32_t)minor(st->st_rdev);
	}
	emit_header(p, &e, &x);
}

/* ---- the walk ---- */

static int
cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The names in the directory open as fd, sorted, without "." and "..",
 * in a malloc'd array of malloc'd strings (*ents, *n; the caller frees).
 * fd stays open.  0; -1 (errno set) if it cannot be read; -2 (errno
 * set) if reading failed part way, with what was read.
 */
static int
list_dir(int fd, char ***ents, size_t *n)
{
	struct dirent *de;
	size_t cap = 0;
	DIR *d;
	int dfd = dup(fd), r = 0;

	*ents = NULL;
	*n = 0;
	if (dfd < 0 || (d = fdopendir(dfd)) == NULL) {
		int e = errno;

		if (dfd >= 0)
			close(dfd);
		errno = e;
		return -1;
	}
	rewinddir(d);
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
	if (errno != 0)
		r = -2;
	{
		int e = errno;

		closedir(d);
		errno = e;
	}
	if (*n > 1)
		qsort(*ents, *n, sizeof **ents, cmp_names);
	return r;
}

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
			warn_plain(p, p->path, "directory moved as we read it; "
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
	switch (list_dir(fd, ents, n)) {
	case -1:
		warn_errno(p, p->path, "Cannot open");
		close(fd);
		return -1;
	case -2:
		warn_errno(p, p->path, "Cannot read directory");
		break;
	}
	return 0;
}

/* Push the directory fd (leaf in its parent, st) with its entries
 * ents[0, n) (taken over).  0, or -1 (stopped, or out of memory; fd
 * closed, ents freed). */
static int
push_frame(struct packer *p, int fd, const char *leaf, const struct stat *st,
    char **ents, size_t n, int all_new)
{
	struct frame *f;

	if (p->depth == p->capfr) {
		size_t cap = p->capfr ? 2 * p->capfr : 64;
		struct frame *t = realloc(p->fr, cap * sizeof *t);

		if (t == NULL) {
			p->stopped = AE_ENOMEM;
			goto fail;
		}
		p->fr = t;
		p->capfr = cap;
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
	p->depth++;
	p->open_fds++;
	return 0;
fail:
	while (n > 0)
		free(ents[--n]);
	free(ents);
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
	return push_frame(p, fd, leaf, st, ents, n, 1);
}

static void
pop_dir(struct packer *p)
{
	struct frame *f = &p->fr[--p->depth];

	while (f->next < f->n)
		free(f->ents[f->next++]);
	free(f->ents);
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
			warn_plain(p, p->path, "File system loop detected; "
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
	report(p, &r);
}

/* -g: whether st changed (data or status) after prev's time. */
static int
changed_since(const struct ae_snapshot *prev, const struct stat *st)
{
	struct timespec t;

	t.tv_sec = (time_t)prev->time;
	t.tv_nsec = (long)prev->time_nsec;
	return LATER(st->st_mtim, t) || LATER(st->st_ctim, t);
}

/* -g: whether the file st, in a directory that is (all_new) or is not
 * new since the last level, goes in this one. */
static int
incremental_dumps(const struct ae_dr_params *po, const struct stat *st,
    int all_new)
{
	return po->prev == NULL || all_new || S_ISDIR(st->st_mode)
	    || changed_since(po->prev, st);
}

/*
 * -g: the dumpdir of the directory fd (st, at p->path; entries
 * ents[0, n)) into *dd (malloc'd, *ddlen bytes), and whether it is new
 * since the last level; its record goes into po->next, under its path
 * as walked ("/home/a" for an operand "/home", as GNU tar records it,
 * though the member is "home/a").  0, or -1 (out of memory: the walk
 * stops).
 */
static int
dumpdir_of(struct packer *p, int fd, const struct stat *st,
    char *const *ents, size_t n, uint8_t **dd, size_t *ddlen, int *all_new)
{
	const struct ae_dr_params *po = p->po;
	const struct ae_snap_dir *old = NULL;
	struct ae_snap_dir rec;
	size_t nl = strlen(p->path), cap = 1, len = 0, i;
	char *dname = strdup(p->path);
	uint8_t *b;

	if (dname == NULL)
		goto nomem;
	while (nl > 1 && dname[nl - 1] == '/')
		dname[--nl] = '\0';
	if (po->prev != NULL)
		old = ae_snapshot_find(po->prev, st->st_dev, st->st_ino);
	/* new: not in the last level, or there under another name (GNU
	 * tar records a rename; all of it is dumped here instead, which
	 * restores the same tree) */
	*all_new = old == NULL || strcmp(old->name, dname) != 0;
	for (i = 0; i < n; i++)
		cap += strlen(ents[i]) + 2;
	if ((b = malloc(cap)) == NULL)
		goto nomem;
	for (i = 0; i < n; i++) {
		size_t el = strlen(ents[i]);
		struct stat es;

		if (fstatat(fd, ents[i], &es, po->flags & AE_DR_FOLLOW ? 0 :
		    AT_SYMLINK_NOFOLLOW) != 0 || S_ISSOCK(es.st_mode))
			continue;
		b[len++] = S_ISDIR(es.st_mode) ? 'D' :
		    incremental_dumps(po, &es, *all_new) ? 'Y' : 'N';
		memcpy(b + len, ents[i], el + 1);
		len += el + 1;
	}
	b[len++] = '\0';
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
		warn_plain(p, p->path, "file name is too long; not dumped");
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
	entry_from_stat(p, &e, dname, st, AE_TAR_DIR);
	e.dumpdir = dd;
	e.dumpdir_len = ddlen;
	r = emit_header(p, &e, &x);
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
	uint8_t *dd = NULL;
	size_t n = 0, ddlen = 0;
	int fd, other_fs, cut, listed = 0, all_new = 1;

	if (is_loop(p, st))
		return;
	fd = openat(dirfd, leaf, O_RDONLY | O_DIRECTORY | O_CLOEXEC
	    | (p->po->flags & AE_DR_FOLLOW ? 0 : O_NOFOLLOW));
	if (fd < 0) {
		warn_errno(p, p->path, "Cannot open");
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
		if (dumpdir_of(p, fd, st, ents, n, &dd, &ddlen, &all_new) != 0)
			goto drop;
	}
	if (*name != '\0' && !p->measuring
	    && dir_header(p, fd, dirfd, leaf, name, st, dd, ddlen) != 0)
		goto drop;
	free(dd);
	if (cut) {
		if (other_fs && !p->measuring)
			report_path(p, AE_DR_OTHER_FS, p->path, NULL, 0);
		else
			tagged(p, tag);
		close(fd);
		return;
	}
	if (listed) {
		if (push_frame(p, fd, leaf, st, ents, n, all_new) == 0
		    && tag != NULL)
			tagged(p, tag);
	} else if (push_dir(p, fd, leaf, st) == 0 && tag != NULL) {
		tagged(p, tag);
		keep_only(p->fr[p->depth - 1].ents, &p->fr[p->depth - 1].n,
		    tag->name);
	}
	return;
drop:
	free(dd);
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
			report(p, &r);
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
		report_path(p, AE_DR_STRIPPED, p->warned_prefix, NULL, 0);
	}
	return name;
}

/* One entry: leaf in dirfd, whose path from the operand is p->path. */
static void
visit(struct packer *p, int dirfd, const char *leaf)
{
	const struct ae_dr_params *po = p->po;
	const char *name;
	struct stat st;

	if (stop_asked(p) || excluded(po, p->path))
		return;
	if (fstatat(dirfd, leaf, &st, po->flags & AE_DR_FOLLOW ? 0 :
	    AT_SYMLINK_NOFOLLOW) != 0) {
		if (!p->measuring)
			warn_errno(p, p->path, "Cannot stat");
		return;
	}
	if (p->measuring) {
		if (S_ISREG(st.st_mode) && !unchanged(po, &st))
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
		warn_plain(p, p->path, "no usable member name; not dumped");
		return;
	}
	if (unchanged(po, &st)) {
		report_path(p, AE_DR_UNCHANGED, p->path, NULL, 0);
		return;
	}
	/* -g: listed as 'N' in its directory's dumpdir */
	if ((po->flags & AE_DR_INCREMENTAL) && !incremental_dumps(po, &st,
	    p->depth > 0 ? p->fr[p->depth - 1].all_new : 0)) {
		report_path(p, AE_DR_KEPT, p->path, NULL, 0);
		return;
	}
	if (S_ISREG(st.st_mode))
		add_file(p, dirfd, leaf, name, &st);
	else if (S_ISLNK(st.st_mode))
		add_symlink(p, dirfd, leaf, name, &st);
	else if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)
	    || S_ISFIFO(st.st_mode))
		add_special(p, dirfd, leaf, name, &st);
	else
		/* As GNU tar says of sockets. */
		report_path(p, AE_DR_IGNORED, p->path, "socket", 0);
}

/* The operand path and everything under it, depth first, in name
 * order, with heap state only. */
static void
walk(struct packer *p, const char *operand)
{
	if (path_push(p, 0, operand) != 0)
		return;
	visit(p, AT_FDCWD, operand);
	while (p->depth > 0 && !p->stopped) {
		struct frame *f = &p->fr[p->depth - 1];
		char *leaf;

		if (f->next == f->n || stop_asked(p)) {
			pop_dir(p);
			continue;
		}
		if (f->fd < 0 && reopen(p, p->depth - 1) != 0) {
			pop_dir(p);
			continue;
		}
		leaf = f->ents[f->next++];
		if (path_push(p, f->plen, leaf) == 0)
			visit(p, f->fd, leaf);
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
		report_path(p, AE_DR_FAILED, NULL, "cannot enter the -C "
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

int
ae_dr_walk(const struct ae_dr_params *po, char *const *paths, size_t n,
    struct ae_writer *w, uint64_t *tar_end, int *partial)
{
	struct packer *p;
	size_t i;
	int err, cwd;

	*partial = 0;
	*tar_end = 0;
	if ((p = packer_new(po, w, 0)) == NULL)
		return AE_ENOMEM;
	cwd = po->dirfd != NULL ? cwd_save() : -1;
	for (i = 0; i < n && !p->stopped; i++) {
		if (!enter_dir(p, i)) {
			if (!p->stopped)
				p->stopped = AE_EIO;
			break;
		}
		walk(p, paths[i]);
	}
	cwd_restore(cwd);
	*tar_end = p->flushed + p->olen;
	emit_zeros(p, AE_TAR_END_LEN);
	flush(p);
	err = p->stopped;
	*partial = p->partial;
	packer_free(p);
	return err;
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
