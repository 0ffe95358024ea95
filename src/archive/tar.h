/*
 * tar.h -- what the tar reader (tar_read.h) and writer (tar_write.h)
 * share: the block size, the member types, sparse runs, the padding
 * rule, the name limit, and the list form of extended attributes.
 *
 * The archive payload of a container (format/aescrypt-v1.md, payload
 * types 1 and 2) is a POSIX pax tar stream.  The writer makes ustar
 * blocks with pax extended headers where ustar cannot hold a field
 * exactly; the reader reads GNU tar's pax, gnu and ustar archives and
 * what older writers wrote.  Neither does any system call: bytes in,
 * bytes out.
 */
#ifndef AE_TAR_H
#define AE_TAR_H

#include <stddef.h>
#include <stdint.h>

#define AE_TAR_BLOCK 512

/* The end of an archive: two zero blocks (1024 bytes). */
#define AE_TAR_END_LEN (2 * AE_TAR_BLOCK)

/* Names and link names are refused over this many bytes.  Not PATH_MAX:
 * the walk and the writer open one component at a time, so a tree of
 * any depth fits (a 5,000-level tree's names are 10,000 bytes), and the
 * index gives a name two bytes of length. */
#define AE_TAR_NAME_MAX 65535
#define AE_TAR_PAX_MAX (1u << 20)   /* larger 'x'/'g' headers are refused */

enum ae_tar_type {
	AE_TAR_REG = '0',
	AE_TAR_HARDLINK = '1',
	AE_TAR_SYMLINK = '2',
	AE_TAR_CHR = '3',
	AE_TAR_BLK = '4',
	AE_TAR_DIR = '5',
	AE_TAR_FIFO = '6'
};

/* A run of data in a sparse member: len bytes at offset; the bytes
 * between runs are holes (zeros). */
struct ae_tar_segment {
	uint64_t offset, len;
};

/*
 * What -c says about the archive itself, in a pax global header ('g')
 * at the very start of the tar stream (format 6.7): when the dump began
 * and, for a listed-incremental dump (-g), its level and the dump it
 * continues, named by the time that dump began (the time its snapshot
 * file records).  Keys AESCRYPT.created, AESCRYPT.level and
 * AESCRYPT.continues; other tars skip them.  Nothing here changes how a
 * member is read.
 */
struct ae_tar_global {
	int present;                /* the reader found the header */
	int64_t created;            /* seconds since the epoch */
	uint32_t created_nsec;
	int level;                  /* -g: 0 (full), 1, ...; -1: not -g */
	int continues;              /* level > 0: the dump it continues */
	int64_t cont;
	uint32_t cont_nsec;
};

/* Bytes of zero padding after `size` bytes of member data. */
size_t ae_tar_padding(uint64_t size);

/*
 * Extended attribute lists (ae_tar_member.xattr, ae_tar_entry.xattr):
 * entries of a NUL-terminated name (1 to 255 bytes), a 4-byte big-endian
 * value length (at most 64 KiB) and the value.  The ACL records of pax
 * travel in the same list under their own names: an entry named
 * "SCHILY.acl.access", "SCHILY.acl.default" or "SCHILY.acl.ace" is that
 * record (its text), not an attribute; a Solaris 'A' header before the
 * member becomes the first two when it holds POSIX draft ACLs, and
 * "SCHILY.acl.solaris" (empty) says one of another kind (NFSv4) came.
 *
 * Append one to *buf (malloc'd, *len used of *cap; grown as needed, but
 * never past max bytes).  0, or -1 if the name or value is out of those
 * bounds, the list would pass max, or memory runs out.
 */
int ae_tar_xattr_append(uint8_t **buf, size_t *len, size_t *cap, size_t max,
    const char *name, size_t nl, const uint8_t *val, size_t vl);

/* Walk a list of len bytes: start with *pos = 0; each call gives the next
 * name and value.  1 with them set, 0 at the end, -1 if the entry at
 * *pos runs past len or breaks the bounds above. */
int ae_tar_xattr_walk(const uint8_t *list, size_t len, size_t *pos,
    const char **name, const uint8_t **value, size_t *vlen);

#endif
