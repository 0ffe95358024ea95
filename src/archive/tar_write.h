/*
 * tar_write.h -- the header blocks of one member of a POSIX pax tar
 * stream, for aescrypt -c (tar.h has what reading shares).
 *
 * A member's header is a ustar block, preceded by a pax extended header
 * ('x') when ustar cannot hold a field exactly: a path or link name that
 * does not fit, bytes that are not UTF-8, a size of 8 GiB or more, ids
 * over 2097151, names over 31 bytes, a sub-second or negative mtime,
 * extended attributes, a sparse map.  GNU tar and bsdtar read what this
 * writes (tests/cli/070-tar).
 */
#ifndef AE_TAR_WRITE_H
#define AE_TAR_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "tar.h"

/* The most a header can take: an 'x' header with path and link name
 * records of AE_TAR_NAME_MAX bytes, 64 KiB of extended attributes, the
 * other records, and the ustar block. */
#define AE_TAR_HEADER_MAX (256 * 1024)

struct ae_tar_entry {
	const char *path;       /* relative, '/'-separated; directories
	                         * end in '/', as tar writes them */
	const char *linkpath;   /* hard link target or symlink text, or NULL */
	char type;              /* enum ae_tar_type */
	uint32_t mode;          /* permission bits, 07777 */
	uint64_t uid, gid;
	uint64_t size;          /* bytes of data that follow (regular files;
	                         * for a sparse one, its map and runs) */
	int64_t mtime;          /* seconds since the epoch */
	uint32_t mtime_nsec;
	const char *uname;      /* owner names, or NULL */
	const char *gname;
	uint32_t devmajor, devminor;    /* a device ('3', '4') */
	/* A sparse regular file: its data runs (in order, inside size),
	 * or NULL.  It is written in GNU's pax sparse format 1.0, which GNU
	 * tar 1.34 and bsdtar extract with its holes (and older tars as a
	 * file named .../GNUSparseFile.0/NAME holding the map and the
	 * runs): ae_tar_sparse_map gives the map that starts its data. */
	const struct ae_tar_segment *map;
	size_t nmap;
	uint64_t real_size;     /* a sparse file's size, holes included */
	/* Extended attributes, written as SCHILY.xattr.NAME records: xattr
	 * holds nxattr entries in the reader's layout (name, NUL, 4-byte
	 * big-endian length, value); or NULL. */
	const uint8_t *xattr;
	size_t xattr_len, nxattr;
	/* A directory in a listed-incremental archive: its GNU.dumpdir
	 * record (snapshot.h's entries, closed by an empty one), or NULL. */
	const uint8_t *dumpdir;
	size_t dumpdir_len;
};

/*
 * Encode the header blocks for e into out (cap bytes; AE_TAR_HEADER_MAX
 * is always enough for paths and link names of up to AE_TAR_NAME_MAX
 * bytes, and extended attributes of up to 64 KiB in all).
 * *len is a multiple of 512.  Returns 0; AE_EINVAL for an empty path, an
 * unknown type or a missing link name; AE_ETOOBIG if it does not fit
 * (or a device's numbers do not fit ustar's 7 octal digits).
 */
int ae_tar_header(const struct ae_tar_entry *e, uint8_t *out, size_t cap,
    size_t *len);

/*
 * The map that starts a sparse member's data (format 1.0): the number of
 * runs, then each run's offset and length, in decimal, one per line, and
 * zeros to a block.  Writes it to out (cap bytes); returns its length (a
 * multiple of 512), or 0 if it does not fit.  The member's stored size
 * is this length plus the runs' lengths.
 */
size_t ae_tar_sparse_map(const struct ae_tar_segment *map, size_t n,
    uint8_t *out, size_t cap);

/*
 * The global header that carries g (tar.h): a 'g' block and its records,
 * padded to a block, into out (cap bytes).  AE_OK with *len set (a
 * multiple of 512), or AE_ETOOBIG.
 */
int ae_tar_global_header(const struct ae_tar_global *g, uint8_t *out,
    size_t cap, size_t *len);

#endif
