/*
 * tar_read.h -- reading a tar stream member by member, for aescrypt -t
 * and -x (tar.h has what writing shares).
 *
 * The reader reads GNU tar's pax, gnu ('L'/'K' long names) and ustar
 * archives, and what older writers wrote: GNU sparse members (old 'S',
 * pax 0.0, 0.1 and 1.0), pre-POSIX directories, V7 headers, Solaris 'X'
 * and 'A' headers, GNU dumpdirs and volume labels.  Each header kind has
 * a function of its own in tar_read.c.
 */
#ifndef AE_TAR_READ_H
#define AE_TAR_READ_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "common/io.h"
#include "tar.h"

/*
 * A member as the reader saw it, with pax and GNU long-name overrides
 * applied.  type is the raw typeflag ('\0' is read as '0'), except that a
 * pre-POSIX directory (a regular member whose name ends in '/') and GNU's
 * dumpdir ('D') read as AE_TAR_DIR, and GNU's old sparse type 'S' as a
 * regular file.  Other types pass through: 'V' is a GNU volume label,
 * '3', '4', '6' devices and FIFOs, anything else unknown.
 *
 * Whatever the input says, path and linkpath hold at most
 * AE_TAR_NAME_MAX bytes, are NUL-terminated and contain no other NUL:
 * the reader fills them only through one bounded setter and refuses
 * (AE_EFORMAT) a longer name from any source (pax record, GNU 'L'/'K'
 * block, ustar prefix + name).  So a copy of path into a buffer of
 * AE_TAR_NAME_MAX + 1 bytes always fits.
 */
struct ae_tar_member {
	/* The names come first: the reader clears what follows them for
	 * each member, and only the first byte of each name. */
	char path[AE_TAR_NAME_MAX + 1];
	char linkpath[AE_TAR_NAME_MAX + 1];
	char type;
	uint32_t mode;
	uint64_t uid, gid;
	uint64_t size;              /* the file's size: for a sparse member
	                             * its real size, holes included */
	uint64_t stored;            /* bytes of it in the archive */
	int64_t mtime;
	uint32_t mtime_nsec;
	char uname[256], gname[256];
	uint32_t devmajor, devminor; /* a device ('3', '4'); else 0 */
	uint64_t offset;            /* of its header in the tar stream */
	uint64_t first;             /* where its headers start ('x', 'L') */
	uint64_t end;               /* where it ends, padding included */
	int after_gap;              /* found by looking past a gap, or
	                             * after a member that was: 1; 2 if
	                             * its headers start right after it, so
	                             * an extended header of its may be lost;
	                             * 3 if the caller's index led to it */
	/* A sparse member (GNU old 'S', pax 0.0, 0.1 or 1.0): nmap data
	 * runs in order, the rest holes.  NULL for other members.  Points
	 * into the reader, valid until the next ae_tar_next. */
	const struct ae_tar_segment *map;
	size_t nmap;
	/* Extended attributes (pax SCHILY.xattr.NAME records) and ACL
	 * records (tar.h: SCHILY.acl.*, under their own names): nxattr
	 * entries in xattr_len bytes at xattr, each a NUL-terminated name,
	 * a 4-byte big-endian value length and the value
	 * (ae_tar_xattr_walk walks them).  Valid until the next
	 * ae_tar_next. */
	const uint8_t *xattr;
	size_t xattr_len, nxattr;
	/* A directory of a listed-incremental archive (pax GNU.dumpdir):
	 * what the directory held when it was dumped, as snapshot.h's
	 * entries (Y, N, D; R and T for renames), the last closed by an
	 * empty one; or NULL.  Valid until the next ae_tar_next. */
	const uint8_t *dumpdir;
	size_t dumpdir_len;
	/* Set (static strings) when the reader worked around something in
	 * the member's headers (a malformed pax time: warning), or when the
	 * member cannot be extracted but the stream can go on past it (a
	 * malformed sparse map: unreadable; its data reads as empty and is
	 * skipped). */
	const char *warning;
	const char *unreadable;
};

struct ae_tar_reader {
	struct ae_reader *in;
	uint64_t offset;            /* bytes of the tar stream consumed */
	uint64_t data_left;         /* of the current member, with padding */
	uint8_t *pax;               /* scratch for 'x', 'g', 'L', 'K' */
	struct ae_tar_global global;        /* what a 'g' header at offset 0
	                                     * says of the archive (tar.h);
	                                     * level -1 until then */
	int ended;
	int no_end_marker;          /* the stream ended where a header
	                             * would start, with no zero blocks */
	/* the current member's sparse map and where its reading is */
	struct ae_tar_segment *map;
	size_t nmap, capmap;
	int map_active;
	uint64_t pos;               /* logical offset in the member */
	size_t seg;
	uint8_t *xattr;             /* the current member's xattrs */
	size_t xattr_len, xattr_cap, nxattr;
	uint8_t *dumpdir;           /* the current member's GNU.dumpdir */
	size_t dumpdir_len, dumpdir_cap;
	/*
	 * Salvage (optional, set by the caller after init): whether stream
	 * offset off lies in a gap, the stand-in of a lost chunk (whole
	 * blocks, zeros), with *end its end (UINT64_MAX: the rest of the
	 * stream).  A header that would start in a gap, or whose extended
	 * records touch one, is not read: the reader steps over the gap
	 * and takes the next block that checks as a header (zero blocks and
	 * bad checksums are passed over then, not taken as the end or an
	 * error), and marks the member it finds after_gap.  Data in a gap
	 * is read as it comes (zeros): the caller knows from `first` and
	 * `end` that the member touched one.
	 */
	int (*gap)(void *ctx, uint64_t off, uint64_t *end);
	void *gap_ctx;
	/*
	 * With an index (optional): where the next member starts at or after
	 * off, in *to; 1, or 0 if there is none.  A gap is then stepped over
	 * to that member, not searched past: no block inside a member's data
	 * is ever taken for a header.
	 */
	int (*resync)(void *ctx, uint64_t off, uint64_t *to);
	void *resync_ctx;
	int lost_end;               /* the stream ended in a gap */
	int rescanned;              /* a member was found by looking (no
	                             * index): from then on an end marker
	                             * does not end the search, the payload's
	                             * end does, and every member found after
	                             * one is marked after_gap 1 */
	/*
	 * An observer (optional, set by the caller after init): called with
	 * each member ae_tar_next returns (whatever the caller then does
	 * with it), and once with NULL when the end-of-archive blocks are
	 * read, with end_at.  The index check of a full read sees every
	 * member this way.
	 */
	void (*seen)(void *ctx, const struct ae_tar_member *m,
	    uint64_t end_at);
	void *seen_ctx;
	uint64_t end_at;            /* where the end blocks start (once read;
	                             * for no end marker, where it would) */
};

/* Whether b is a tar header block: not all zeros, and its checksum
 * matches (how a stream payload is told from a tar one).  1 or 0. */
int ae_tar_is_header(const uint8_t b[AE_TAR_BLOCK]);

/* Start reading a tar stream from in.  0 or AE_ENOMEM. */
int ae_tar_reader_init(struct ae_tar_reader *r, struct ae_reader *in);
void ae_tar_reader_free(struct ae_tar_reader *r);

/*
 * Read again from tar stream offset `offset`, where the caller has put
 * the input: for a reader that visits the members an index names, one
 * header at a time.  Buffers, the gap and the observer are kept; what
 * the reader knew of a member and of the end is forgotten.
 */
void ae_tar_reader_restart(struct ae_tar_reader *r, uint64_t offset);

/*
 * The next member's header, skipping what is left of the previous
 * member's data.  Returns 0 with m filled; 1 at the end of the archive
 * (a zero block); AE_ETRUNC if the stream ends inside a header or before
 * the end marker (d->where AE_AT_INPUT, d->offset where it ended);
 * AE_EFORMAT for a bad checksum, a bad number, a bad pax record, or a
 * name or link name over AE_TAR_NAME_MAX bytes or with a NUL in it
 * or a pax header over AE_TAR_PAX_MAX (d->where AE_AT_MEMBER, d->what
 * says which, d->offset where the member's first header starts, its
 * 'x' or 'L'/'K' block if it has one); the reader's errors.  A stream that ends exactly where
 * a header would start (older tars wrote no end marker) is an end, with
 * r->no_end_marker set.  Malformed pax times and ids are read leniently
 * (m->warning); a malformed or unknown sparse map makes the member
 * unreadable (m->unreadable), and the next call skips it.
 */
int ae_tar_next(struct ae_tar_reader *r, struct ae_tar_member *m,
    struct ae_diag *d);

/*
 * Read up to n bytes of the current member's data, in file order, into
 * buf; *got is 0 at its end (the padding is skipped by the next
 * ae_tar_next).  In a sparse member's hole, if hole is not NULL, *hole
 * is set and *got bytes of hole (the whole hole, which may be more than
 * n) are passed over without touching buf; with hole NULL, holes read
 * as zeros, n bytes at a time.  An unreadable member reads as
 * empty.  Returns 0, AE_ETRUNC, or the reader's errors.
 */
int ae_tar_read_data(struct ae_tar_reader *r, const struct ae_tar_member *m,
    uint8_t *buf, size_t n, size_t *got, int *hole);

#endif
