/*
 * dr_data.c -- what follows a member's header in the tree walk (dr.h): a
 * regular file's data, opened once and checked against what the walk saw
 * (one that shrinks is padded, one that grows is cut, both warned, as
 * GNU tar does), with its holes found and kept (GNU sparse 1.0); a
 * symlink's target; a device's numbers.
 */
#include "config.h"
#include "reader.h"
#include "dr.h"

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
#include "common/grow.h"

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
 * does, since the header already gave the size.  grew, if not NULL,
 * says whether the file held more than len bytes: 1 or 0, found by the
 * last read asking for one byte more (a file's last read no longer
 * costs a system call of its own to learn that); -1 if it could not
 * ask.
 */
static uint64_t
copy_data(struct packer *p, int fd, const char *path, uint64_t len,
    uint64_t at, int *grew)
{
	uint64_t left = len;
	ssize_t n;

	if (grew != NULL)
		*grew = -1;
	while (left > 0 && !p->stopped) {
		size_t want, extra;

		if (ae_dr_stop_asked(p))
			break;
		/* Straight into the stream buffer: no second copy. */
		if (p->olen == OUT_BUF)
			ae_dr_flush(p);
		want = OUT_BUF - p->olen;
		if (want > left)
			want = (size_t)left;
		/* The byte past the end lands in the buffer's room, which
		 * the stream does not count. */
		extra = grew != NULL && want == left && p->olen + want < OUT_BUF;
		n = read(fd, p->out + p->olen, want + extra);
		if (extra && n >= 0) {
			*grew = (size_t)n > want;
			if (*grew)
				n = (ssize_t)want;
			else if ((size_t)n < want)
				*grew = -1;     /* short: asked again below */
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			char what[128];

			snprintf(what, sizeof what, "Read error at byte %llu",
			    (unsigned long long)(at + len - left));
			ae_dr_warn_errno(p, path, what);
			break;
		}
		if (n == 0) {
			char what[128];

			snprintf(what, sizeof what, "File shrank by %llu "
			    "bytes; padding with zeros",
			    (unsigned long long)left);
			ae_dr_warn_plain(p, path, what);
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
	if (ae_grow(m, cap, *k + 2, sizeof **m, 64, SPARSE_RUNS_MAX) != 0)
		return -1;
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

	ae_dr_emit(p, mapbuf, maplen);
	for (i = 0; i < e->nmap && !p->stopped; i++) {
		left = e->map[i].len;
		if (lseek(fd, (off_t)e->map[i].offset, SEEK_SET) >= 0)
			left = copy_data(p, fd, p->path, e->map[i].len,
			    e->map[i].offset, NULL);
		else
			ae_dr_warn_errno(p, p->path, "Cannot seek");
		ae_dr_emit_zeros(p, left);
		shrank |= left != 0;
	}
	ae_dr_emit_zeros(p, ae_tar_padding(e->size));
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
void
ae_dr_add_file(struct packer *p, int dirfd, const char *leaf, const char *name,
    const struct stat *lst, int opened)
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
	int fd, grew = -1;

	if (lst->st_nlink > 1 && (first = ae_dr_link_lookup(p, lst)) != NULL) {
		ae_dr_entry_from_stat(p, &e, name, lst, AE_TAR_HARDLINK);
		e.linkpath = first;
		x.fd = -1, x.dirfd = dirfd, x.leaf = leaf;
		if (!(p->po->flags & AE_DR_FOLLOW))
			ae_dr_emit_header(p, &e, &x);
		else if (opened >= 0) {
			x.fd = opened;
			ae_dr_emit_header(p, &e, &x);
		} else if ((x.fd = openat(dirfd, leaf, O_RDONLY | O_CLOEXEC
		    | O_NOCTTY | O_NONBLOCK)) >= 0) {
			ae_dr_emit_header(p, &e, &x);
			close(x.fd);
		}
		return;
	}
	if (opened >= 0) {
		/* opened before its stat (reader.c): lst is its fstat */
		fd = opened;
		st = *lst;
	} else {
		/* Non-blocking, so that a file swapped for a FIFO between
		 * the fstatat and here cannot hang the run in open(); the
		 * type is checked on the descriptor below. */
		fd = openat(dirfd, leaf, O_RDONLY | O_CLOEXEC | O_NOCTTY
		    | O_NONBLOCK | (p->po->flags & AE_DR_FOLLOW ? 0 :
		    O_NOFOLLOW));
		if (fd < 0) {
			ae_dr_warn_errno(p, p->path, "Cannot open");
			return;
		}
		if (fstat(fd, &st) != 0) {
			ae_dr_warn_errno(p, p->path, "Cannot stat");
			close(fd);
			return;
		}
		if (!S_ISREG(st.st_mode) || st.st_ino != lst->st_ino
		    || st.st_dev != lst->st_dev) {
			ae_dr_warn_plain(p, p->path, "file changed as we read "
			    "it; not dumped");
			close(fd);
			return;
		}
	}
	ae_dr_entry_from_stat(p, &e, name, &st, AE_TAR_REG);
	e.size = (uint64_t)st.st_size;
	plan_sparse(fd, &st, &e, &map, &mapbuf, &maplen);
	x.fd = fd;
	if (ae_dr_emit_header(p, &e, &x) != 0)
		goto out;
	if (st.st_nlink > 1)
		ae_dr_link_remember(p, &st, name);
	if (e.map == NULL) {
		left = copy_data(p, fd, p->path, e.size, 0, &grew);
		ae_dr_emit_zeros(p, left + ae_tar_padding(e.size));
	} else {
		left = copy_sparse(p, fd, &e, mapbuf, maplen);
	}
	if (!p->stopped && left == 0) {
		/* Grown, or rewritten in place? */
		if (grew >= 0)
			n = grew;
		else
			n = e.map == NULL ? read(fd, &one, 1) : 0;
		if (n > 0 || (fstat(fd, &st2) == 0 && changed(&st, &st2)))
			ae_dr_warn_plain(p, p->path, "file changed as we read it");
	}
out:
	free(map);
	free(mapbuf);
	if (fd != opened)
		close(fd);
}

void
ae_dr_add_symlink(struct packer *p, int dirfd, const char *leaf, const char *name,
    const struct stat *st)
{
	struct ae_tar_entry e;
	char *target = p->linkbuf;
	struct xsrc x = { -1, dirfd, leaf };
	ssize_t n;

	n = readlinkat(dirfd, leaf, target, AE_TAR_NAME_MAX + 2);
	if (n < 0) {
		ae_dr_warn_errno(p, p->path, "Cannot readlink");
		return;
	}
	if ((size_t)n > AE_TAR_NAME_MAX) {
		ae_dr_warn_plain(p, p->path, "symbolic link target is too long; "
		    "not dumped");
		return;
	}
	target[n] = '\0';
	ae_dr_entry_from_stat(p, &e, name, st, AE_TAR_SYMLINK);
	e.linkpath = target;
	ae_dr_emit_header(p, &e, &x);
}

/* A character or block device, or a FIFO: a header alone, as GNU tar
 * stores them (-x makes them as root; disk/writer.h). */
void
ae_dr_add_special(struct packer *p, int dirfd, const char *leaf, const char *name,
    const struct stat *st)
{
	struct ae_tar_entry e;
	struct xsrc x = { -1, dirfd, leaf };
	char t = S_ISCHR(st->st_mode) ? AE_TAR_CHR : S_ISBLK(st->st_mode) ?
	    AE_TAR_BLK : AE_TAR_FIFO;

	ae_dr_entry_from_stat(p, &e, name, st, t);
	if (t != AE_TAR_FIFO) {
		e.devmajor = (uint32_t)major(st->st_rdev);
		e.devminor = (uint32_t)minor(st->st_rdev);
	}
	ae_dr_emit_header(p, &e, &x);
}
