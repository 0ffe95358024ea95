/*
 * tar_rd.h -- the tar reader's insides, shared by its files (not a
 * contract for callers: that is tar_read.h).  tar_read.c reads header
 * blocks and data; pax_read.c the records of 'x' and 'g' headers and the
 * fields they carry.
 */
#ifndef AE_ARCHIVE_TAR_RD_H
#define AE_ARCHIVE_TAR_RD_H

#include <stddef.h>
#include <stdint.h>

/* (tar_read.h, which the files that use these include; not here, where
 * it would make tar_read.c and this header use each other) */
struct ae_tar_reader;
struct ae_tar_member;

/* The most data segments a sparse member may have (16 bytes each). */
#define MAP_MAX (1u << 20)

/* What 'x' records and GNU 'L'/'K' blocks say about the next member. */
struct overrides {
	int has_path, has_link, has_size, has_uid, has_gid, has_mtime;
	int has_uname, has_gname, has_sparse_name;
	int sparse;                 /* GNU.sparse.* records seen */
	int sparse_major, sparse_minor;
	int has_realsize;
	uint64_t size, uid, gid, realsize;
	int64_t mtime;
	uint32_t mtime_nsec;
	int pending_offset;         /* 0.0: an offset waits for numbytes */
	int has_dumpdir;            /* GNU.dumpdir (r->dumpdir) */
	const char *warning;        /* a record worked around */
	const char *unreadable;     /* why the member cannot be read */
};

/* Why a string was refused, for the caller's message. */
enum { STR_OK = 0, STR_TOO_LONG = -1, STR_HAS_NUL = -2 };

/* ae_tr_parse_pax's answer for a malformed record or size. */
#define PAX_BAD (-3)

/* Decimal digits, all of s[0, n) (at most 19).  0 or -1. */
int ae_tr_get_decimal(const char *s, size_t n, uint64_t *out);

/* A pax time, "[-]SEC[.FRAC]" (digits past nanoseconds dropped).  0 or
 * -1. */
int ae_tr_get_mtime(const char *s, size_t n, int64_t *sec, uint32_t *nsec);

/*
 * The one way a string from a header gets into a member: src[0, n), with
 * no NUL in it and fewer than cap bytes, copied with its terminator into
 * dst (cap bytes).  STR_OK, or why not (dst untouched).
 */
int ae_tr_set_string(char *dst, size_t cap, const void *src, size_t n);

/* The message for ae_tr_set_string's refusal why of a name (link: of a link
 * name). */
const char *ae_tr_name_error(int why, int link);

/* Append a data segment to the reader's sparse map.  0, or -1 past
 * MAP_MAX segments or out of memory. */
int ae_tr_map_add(struct ae_tar_reader *r, uint64_t off, uint64_t len);

/* Store an extended attribute record (name[0, nl) = val[0, vl)) in the
 * reader's list for the next member.  0 or -1 (too large). */
int ae_tr_xattr_add(struct ae_tar_reader *r, const char *name, size_t nl,
    const char *val, size_t vl);

/* Parse the records of an 'x' header ("LEN key=value\n" each) into ov
 * and m.  0; PAX_BAD for a malformed record or size; or a STR_* code for
 * a path or linkpath refused, with *which 0 (path) or 1 (link). */
int ae_tr_parse_pax(struct ae_tar_reader *r, const uint8_t *p, size_t n,
    struct overrides *ov, struct ae_tar_member *m, int *which);

/* A 'g' header at the stream's start: its AESCRYPT.* records into
 * r->global; anything else is passed over. */
void ae_tr_parse_global(struct ae_tar_reader *r, const uint8_t *p, size_t n);

#endif
