/*
 * index.h -- an archive's index and footer (format/aescrypt-v1.md, 6.8):
 * what lets a reader of a seekable file list the members and find the
 * chunks of one of them without reading the payload.
 *
 * An archive of payload_type 2 has, after the payload's final record,
 * the index: a byte string (built and parsed here) sealed as records
 * exactly as a payload is, but under the index key and with its own
 * record numbers from 0; then the 32-byte footer, which says where the
 * index starts and how many payload records there are, under a tag of
 * the index key.  This file owns the byte layouts and their checks; the
 * records themselves are sealed and opened by the pipeline.
 */
#ifndef AE_INDEX_H
#define AE_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "crypto/gcm.h"
#include "header.h"

#define AE_LABEL_INDEX "aescrypt-v1 index"
#define AE_FOOTER_LEN 32
#define AE_INDEX_VERSION 1
#define AE_INDEX_HEAD_LEN 25        /* version, records, tar_end, members */
/* A decoder's cap on an index it holds (aescrypt's: larger ones are
 * refused, and the archive is read in full instead). */
#define AE_INDEX_MAX ((size_t)1 << 30)

/* One member, as the index gives it: enough to select it by name, list
 * it as tar -tv does, and find where its headers start in the tar
 * stream (the next member's start, or tar_end, is where it ends). */
struct ae_index_member {
	uint64_t first;
	char type;
	uint32_t mode;
	uint64_t uid, gid, size;
	int64_t mtime;
	uint32_t mtime_nsec;
	const char *path, *linkpath, *uname, *gname;    /* NUL-terminated */
};

/* ---- building (the encoder) ---- */

struct ae_index_builder {
	uint8_t *buf;               /* the member entries so far, their
	                             * paths front-coded (index.c) */
	size_t len, cap;
	size_t enc;                 /* ... and their length as 6.8 encodes
	                             * them */
	char *last;                 /* the path of the last one */
	size_t lastlen;
	uint8_t *recs;              /* record lengths, 4 bytes each */
	size_t nrecs, caprecs;
	uint64_t members, last_first;
	uint64_t tar_end;           /* where the tar end-of-archive blocks
	                             * start: set by the tar writer */
};

void ae_index_builder_init(struct ae_index_builder *b);
void ae_index_builder_free(struct ae_index_builder *b);

/* Note a payload record of len bytes (frame and tag included), in
 * order.  0 or AE_ENOMEM. */
int ae_index_add_record(struct ae_index_builder *b, uint32_t len);

/* Note a member, in tar stream order.  0, AE_ENOMEM, or AE_EINVAL if it
 * breaks a rule of 6.8 (a name empty or over 65535 bytes, an owner name
 * over 255, a start not 512 bytes past the last one's). */
int ae_index_add_member(struct ae_index_builder *b,
    const struct ae_index_member *m);

/* The index's bytes (b->tar_end set): a malloc'd buffer the caller
 * wipes and frees.  0, AE_ENOMEM, or AE_EINVAL (tar_end before the end
 * of the last member's header). */
/*
 * The same bytes as ae_index_build, read in pieces from b (an
 * ae_reader's read, ctx the source), each entry expanded when the one
 * before has been read: the encoder that seals them needs no copy of an
 * index as large as the names in it.  init: 0, or ae_index_build's
 * errors; b must not change while it is read; free wipes what it held.
 */
struct ae_index_source {
	const struct ae_index_builder *b;
	uint8_t head[AE_INDEX_HEAD_LEN];
	uint64_t pos, len;
	size_t at;                  /* the next entry in b->buf */
	uint8_t *stage;             /* the entry being read, encoded */
	size_t slen, spos;
	char *path;                 /* its path, expanded */
};
int ae_index_source_init(struct ae_index_source *s,
    const struct ae_index_builder *b);
int ae_index_source_read(void *ctx, uint8_t *buf, size_t n, size_t *got);
void ae_index_source_free(struct ae_index_source *s);

int ae_index_build(const struct ae_index_builder *b, uint8_t **out,
    size_t *len);

/* ---- reading ---- */

struct ae_index {
	uint64_t records;           /* payload records */
	uint64_t tar_end;
	uint64_t *rec_off;          /* records + 1 file offsets: where each
	                             * record starts, then the index */
	struct ae_index_member *m;
	size_t members;
	char *names;                /* the members' strings */
};

/*
 * Parse and check an index of len bytes, for a file whose header is
 * header_len bytes, chunk size chunk_size, whose footer named
 * index_offset and records.  Every rule of 6.8 is checked, so a parsed
 * index can be trusted to point only inside the payload.  0, AE_ENOMEM,
 * or AE_EFORMAT with d->what saying which rule (ix is then empty).
 */
int ae_index_parse(const uint8_t *buf, size_t len, uint64_t header_len,
    size_t chunk_size, uint64_t index_offset, uint64_t records,
    struct ae_index *ix, struct ae_diag *d);
/* The same for a signed file (6.10), whose payload has a signature
 * record after every sig_every records but the final one (0: none):
 * they are counted in the records' offsets. */
int ae_index_parse_signed(const uint8_t *buf, size_t len,
    uint64_t header_len, size_t chunk_size, uint64_t sig_every,
    uint64_t index_offset, uint64_t records, struct ae_index *ix,
    struct ae_diag *d);
void ae_index_free(struct ae_index *ix);

/*
 * The same rules, an entry at a time, for a reader that checks the index
 * as it is decrypted and keeps none of it (lib/ixcheck.c): the head, then
 * each member entry in order.  Each takes bytes buf[0, len) and sets
 * *used to what it read; final says that no more bytes follow.  AE_OK;
 * AE_ETRUNC when the head or the entry is not all there yet (never when
 * final); AE_EFORMAT with d->what for a broken rule, in ae_index_parse's
 * words.  The head also fills rec_off (records + 1 offsets) unless it is
 * NULL.  A member's four names are copied, each with its NUL, to *names
 * (advanced; room for the entry's bytes plus four).  The caller checks
 * that after c->members entries no byte is left.
 */
struct ae_index_cursor {
	uint64_t records, tar_end, members;     /* from the head */
	uint64_t next;              /* member entries read */
	uint64_t prev_first;
};
int ae_index_cursor_head(struct ae_index_cursor *c, const uint8_t *buf,
    size_t len, int final, size_t *used, uint64_t header_len,
    size_t chunk_size, uint64_t index_offset, uint64_t records,
    uint64_t *rec_off, struct ae_diag *d);
/* ... of a signed file, as ae_index_parse_signed. */
int ae_index_cursor_head_signed(struct ae_index_cursor *c,
    const uint8_t *buf, size_t len, int final, size_t *used,
    uint64_t header_len, size_t chunk_size, uint64_t sig_every,
    uint64_t index_offset, uint64_t records, uint64_t *rec_off,
    struct ae_diag *d);
int ae_index_cursor_member(struct ae_index_cursor *c, const uint8_t *buf,
    size_t len, int final, size_t *used, struct ae_index_member *m,
    char **names, struct ae_diag *d);

/* An index's plaintext as its records are opened, gathered whole for
 * ae_index_parse: ae_index_plain_write is an ae_writer's write (ctx the
 * struct, zeroed first); AE_ETOOBIG past AE_INDEX_MAX bytes, AE_ENOMEM.
 * The caller wipes and frees buf. */
struct ae_index_plain {
	uint8_t *buf;
	size_t len, cap;
};
int ae_index_plain_write(void *ctx, const uint8_t *b, size_t n);

/* ---- keys and the footer ---- */

/* The index cipher: HKDF(file key, payload salt, "aescrypt-v1 index");
 * the caller MUST ae_gcm_wipe(g). */
void ae_index_cipher(const struct ae_header *h,
    const uint8_t file_key[AE_FILE_KEY_LEN], ae_gcm_ctx *g);

/* The footer for an index at index_offset after `records` payload
 * records. */
void ae_footer_seal(const ae_gcm_ctx *k, uint64_t index_offset,
    uint64_t records, uint8_t out[AE_FOOTER_LEN]);

/* Check a footer's tag and read it: 0, or AE_EAUTH (then nothing is
 * written). */
int ae_footer_open(const ae_gcm_ctx *k, const uint8_t in[AE_FOOTER_LEN],
    uint64_t *index_offset, uint64_t *records);

#endif
