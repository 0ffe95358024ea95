/*
 * index.c -- an archive's index and footer (contract in index.h).
 */
#include "config.h"
#include "index.h"

#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "crypto/hkdf.h"
#include "common/wipe.h"
#include "format.h"

#define NAME_MAX_LEN 65535     /* AE_TAR_NAME_MAX */
#define OWNER_MAX_LEN 255
/* first .. gname_len, without the strings */
#define ENTRY_FIXED (8 + 1 + 4 + 8 + 8 + 8 + 8 + 4 + 2 + 2 + 1 + 1)

void
ae_index_builder_init(struct ae_index_builder *b)
{
	memset(b, 0, sizeof *b);
}

void
ae_index_builder_free(struct ae_index_builder *b)
{
	if (b->buf != NULL)
		ae_wipe(b->buf, b->len);    /* names are plaintext */
	free(b->buf);
	if (b->last != NULL)
		ae_wipe(b->last, NAME_MAX_LEN + 1);
	free(b->last);
	free(b->recs);
	memset(b, 0, sizeof *b);
}

/* Room for n more bytes in *buf (len, cap): 0 or AE_ENOMEM. */
static int
grow(uint8_t **buf, size_t len, size_t *cap, size_t n)
{
	size_t c = *cap ? *cap : 4096;
	uint8_t *p;

	if (n > AE_INDEX_MAX || len > AE_INDEX_MAX - n)
		return AE_ENOMEM;
	if (len + n <= *cap)
		return AE_OK;
	while (c < len + n)
		c *= 2;
	if ((p = malloc(c)) == NULL)
		return AE_ENOMEM;
	if (len > 0)
		memcpy(p, *buf, len);
	if (*buf != NULL)
		ae_wipe(*buf, len);
	free(*buf);
	*buf = p;
	*cap = c;
	return AE_OK;
}

int
ae_index_add_record(struct ae_index_builder *b, uint32_t len)
{
	size_t bytes = b->nrecs * 4;

	if (grow(&b->recs, bytes, &b->caprecs, 4) != AE_OK)
		return AE_ENOMEM;
	store_be32(b->recs + bytes, len);
	b->nrecs++;
	return AE_OK;
}

/*
 * The builder keeps each entry as 6.8 encodes it but for its path, which
 * is front-coded against the entry before (how many bytes it shares,
 * then the rest): a tree's paths share most of their bytes, and the
 * index of a tree 10,000 levels deep held 100 MB of names until the
 * payload ended.  ae_index_source expands them as the index is sealed.
 */
int
ae_index_add_member(struct ae_index_builder *b,
    const struct ae_index_member *m)
{
	size_t pl = strlen(m->path), ll = m->linkpath ? strlen(m->linkpath) : 0;
	size_t ul = m->uname ? strlen(m->uname) : 0;
	size_t gl = m->gname ? strlen(m->gname) : 0;
	size_t shared = 0, enc = ENTRY_FIXED + pl + ll + ul + gl;
	uint8_t *p;

	if (pl == 0 || pl > NAME_MAX_LEN || ll > NAME_MAX_LEN
	    || ul > OWNER_MAX_LEN || gl > OWNER_MAX_LEN)
		return AE_EINVAL;
	if (b->members > 0 && m->first < b->last_first + 512)
		return AE_EINVAL;
	if (enc > AE_INDEX_MAX - b->enc)
		return AE_ENOMEM;
	if (b->last == NULL && (b->last = malloc(NAME_MAX_LEN + 1)) == NULL)
		return AE_ENOMEM;
	if (b->members > 0)
		while (shared < pl && shared < b->lastlen
		    && b->last[shared] == m->path[shared])
			shared++;
	if (grow(&b->buf, b->len, &b->cap, enc + 6) != AE_OK)
		return AE_ENOMEM;
	p = b->buf + b->len;
	store_be64(p, m->first);
	p[8] = (uint8_t)m->type;
	store_be32(p + 9, m->mode);
	store_be64(p + 13, m->uid);
	store_be64(p + 21, m->gid);
	store_be64(p + 29, m->size);
	store_be64(p + 37, (uint64_t)m->mtime);
	store_be32(p + 45, m->mtime_nsec);
	p += 49;
	p += ae_put_varint(p, shared);
	p += ae_put_varint(p, pl - shared);
	memcpy(p, m->path + shared, pl - shared);
	p += pl - shared;
	p[0] = (uint8_t)(ll >> 8);
	p[1] = (uint8_t)ll;
	if (ll > 0)
		memcpy(p + 2, m->linkpath, ll);
	p += 2 + ll;
	p[0] = (uint8_t)ul;
	if (ul > 0)
		memcpy(p + 1, m->uname, ul);
	p += 1 + ul;
	p[0] = (uint8_t)gl;
	if (gl > 0)
		memcpy(p + 1, m->gname, gl);
	p += 1 + gl;
	b->len = (size_t)(p - b->buf);
	b->enc += enc;
	memcpy(b->last + shared, m->path + shared, pl - shared);
	b->lastlen = pl;
	b->members++;
	b->last_first = m->first;
	return AE_OK;
}

int
ae_index_source_init(struct ae_index_source *s,
    const struct ae_index_builder *b)
{
	uint64_t n = AE_INDEX_HEAD_LEN + (uint64_t)b->nrecs * 4;

	memset(s, 0, sizeof *s);
	if (b->members > 0 && b->tar_end < b->last_first + 512)
		return AE_EINVAL;
	if (b->enc > AE_INDEX_MAX - n)
		return AE_ENOMEM;
	/* an entry as 6.8 encodes it, and the path it is expanded from */
	s->stage = malloc(ENTRY_FIXED + 2 * NAME_MAX_LEN + 2 * OWNER_MAX_LEN);
	s->path = malloc(NAME_MAX_LEN + 1);
	if (s->stage == NULL || s->path == NULL) {
		ae_index_source_free(s);
		return AE_ENOMEM;
	}
	s->b = b;
	s->head[0] = AE_INDEX_VERSION;
	store_be64(s->head + 1, b->nrecs);
	store_be64(s->head + 9, b->tar_end);
	store_be64(s->head + 17, b->members);
	s->len = n + b->enc;
	return AE_OK;
}

void
ae_index_source_free(struct ae_index_source *s)
{
	if (s->stage != NULL)
		ae_wipe(s->stage, ENTRY_FIXED + 2 * NAME_MAX_LEN
		    + 2 * OWNER_MAX_LEN);
	free(s->stage);
	if (s->path != NULL)
		ae_wipe(s->path, NAME_MAX_LEN + 1);
	free(s->path);
	memset(s, 0, sizeof *s);
}

/* The builder's next entry, as 6.8 encodes it, into s->stage. */
static void
stage_entry(struct ae_index_source *s)
{
	const uint8_t *p = s->b->buf + s->at;
	uint8_t *q = s->stage;
	size_t shared, rest, pl, l;

	memcpy(q, p, 49);
	p += 49;
	q += 49;
	p += ae_get_varint(p, &shared);
	p += ae_get_varint(p, &rest);
	memcpy(s->path + shared, p, rest);
	p += rest;
	pl = shared + rest;
	q[0] = (uint8_t)(pl >> 8);
	q[1] = (uint8_t)pl;
	memcpy(q + 2, s->path, pl);
	q += 2 + pl;
	l = (size_t)p[0] << 8 | p[1];           /* link */
	memcpy(q, p, 2 + l);
	p += 2 + l;
	q += 2 + l;
	l = p[0];                               /* owner */
	memcpy(q, p, 1 + l);
	p += 1 + l;
	q += 1 + l;
	l = p[0];                               /* group */
	memcpy(q, p, 1 + l);
	p += 1 + l;
	q += 1 + l;
	s->at = (size_t)(p - s->b->buf);
	s->slen = (size_t)(q - s->stage);
	s->spos = 0;
}

int
ae_index_source_read(void *ctx, uint8_t *buf, size_t n, size_t *got)
{
	struct ae_index_source *s = ctx;
	const struct ae_index_builder *b = s->b;
	uint64_t fixed = AE_INDEX_HEAD_LEN + (uint64_t)b->nrecs * 4;
	size_t done = 0, take;

	/* the head and the record lengths, as they are */
	while (done < n && s->pos < fixed) {
		if (s->pos < AE_INDEX_HEAD_LEN) {
			take = AE_INDEX_HEAD_LEN - (size_t)s->pos;
			if (take > n - done)
				take = n - done;
			memcpy(buf + done, s->head + s->pos, take);
		} else {
			take = (size_t)(fixed - s->pos);
			if (take > n - done)
				take = n - done;
			memcpy(buf + done, b->recs + (s->pos - AE_INDEX_HEAD_LEN),
			    take);
		}
		done += take;
		s->pos += take;
	}
	/* then the entries, each expanded when the one before is out */
	while (done < n && s->pos < s->len) {
		if (s->spos == s->slen)
			stage_entry(s);
		take = s->slen - s->spos;
		if (take > n - done)
			take = n - done;
		memcpy(buf + done, s->stage + s->spos, take);
		s->spos += take;
		done += take;
		s->pos += take;
	}
	*got = done;
	return AE_OK;
}

int
ae_index_build(const struct ae_index_builder *b, uint8_t **out,
    size_t *len)
{
	struct ae_index_source s;
	size_t got;
	uint8_t *p;
	int r;

	if ((r = ae_index_source_init(&s, b)) != AE_OK)
		return r;
	if ((p = malloc((size_t)s.len)) == NULL) {
		ae_index_source_free(&s);
		return AE_ENOMEM;
	}
	ae_index_source_read(&s, p, (size_t)s.len, &got);
	*out = p;
	*len = (size_t)s.len;
	ae_index_source_free(&s);
	return AE_OK;
}

/* ---- reading ---- */

void
ae_index_free(struct ae_index *ix)
{
	free(ix->rec_off);
	free(ix->m);
	free(ix->names);
	memset(ix, 0, sizeof *ix);
}

static int
bad(struct ae_index *ix, struct ae_diag *d, const char *what)
{
	ae_index_free(ix);
	return ae_fail(d, AE_EFORMAT, AE_AT_NONE, what, 0, 0);
}

/* A string of n bytes at p, into *names: no NUL inside. */
static int
take_name(const uint8_t *p, size_t n, char **names, const char **out)
{
	if (memchr(p, 0, n) != NULL)
		return -1;
	memcpy(*names, p, n);
	(*names)[n] = '\0';
	*out = *names;
	*names += n + 1;
	return 0;
}

/* A rule broken: AE_EFORMAT, saying which. */
static int
rule(struct ae_diag *d, const char *what)
{
	return ae_fail(d, AE_EFORMAT, AE_AT_NONE, what, 0, 0);
}

int
ae_index_cursor_head(struct ae_index_cursor *c, const uint8_t *buf,
    size_t len, int final, size_t *used, uint64_t header_len,
    size_t chunk_size, uint64_t index_offset, uint64_t records,
    uint64_t *rec_off, struct ae_diag *d)
{
	return ae_index_cursor_head_signed(c, buf, len, final, used,
	    header_len, chunk_size, 0, index_offset, records, rec_off, d);
}

int
ae_index_cursor_head_signed(struct ae_index_cursor *c, const uint8_t *buf,
    size_t len, int final, size_t *used, uint64_t header_len,
    size_t chunk_size, uint64_t sig_every, uint64_t index_offset,
    uint64_t records, uint64_t *rec_off, struct ae_diag *d)
{
	uint64_t nrec, off, i;

	memset(c, 0, sizeof *c);
	if (len < AE_INDEX_HEAD_LEN)
		return final ? rule(d, "is shorter than its head") : AE_ETRUNC;
	if (buf[0] != AE_INDEX_VERSION)
		return rule(d, "has an unknown version");
	nrec = load_be64(buf + 1);
	c->tar_end = load_be64(buf + 9);
	c->members = load_be64(buf + 17);
	if (nrec != records)
		return rule(d, "counts other records than the footer");
	if (nrec == 0 || (final && nrec > (len - AE_INDEX_HEAD_LEN) / 4))
		return rule(d, "has a record count its length cannot hold");
	if (c->tar_end > nrec * (uint64_t)chunk_size)
		return rule(d, "puts the tar end past the payload");
	if (c->tar_end % 512 != 0)
		return rule(d, "puts the tar end inside a block");
	if (c->members == 0 && c->tar_end != 0)
		return rule(d, "does not start at the tar stream's first "
		    "member");
	if ((len - AE_INDEX_HEAD_LEN) / 4 < nrec)
		return AE_ETRUNC;   /* (not final: checked above) */
	off = header_len;
	for (i = 0; i < nrec; i++) {
		uint32_t r = load_be32(buf + AE_INDEX_HEAD_LEN + i * 4);

		if (r < AE_FRAME_LEN + AE_TAG_LEN
		    || r > AE_FRAME_LEN + chunk_size + AE_TAG_LEN)
			return rule(d, "gives a record a length no record "
			    "can have");
		if (rec_off != NULL)
			rec_off[i] = off;
		off += r;
		/* (6.10: a signature record between, never after the
		 * final one) */
		if (i + 1 < nrec && AE_SIG_AFTER(i, sig_every))
			off += AE_SIG_RECORD_LEN;
	}
	if (off != index_offset)
		return rule(d, "has records that do not end where the index "
		    "starts");
	if (rec_off != NULL)
		rec_off[nrec] = off;
	c->records = nrec;
	*used = AE_INDEX_HEAD_LEN + (size_t)nrec * 4;
	return AE_OK;
}

int
ae_index_cursor_member(struct ae_index_cursor *c, const uint8_t *buf,
    size_t len, int final, size_t *used, struct ae_index_member *m,
    char **names, struct ae_diag *d)
{
	size_t pos = 0, pl, ll, ul, gl;

	/* (a short entry, when more may come, is not yet an error) */
#define SHORT(what) (final ? rule(d, what) : AE_ETRUNC)
	if (len < ENTRY_FIXED)
		return SHORT("ends inside a member");
	m->first = load_be64(buf);
	m->type = (char)buf[8];
	m->mode = load_be32(buf + 9);
	m->uid = load_be64(buf + 13);
	m->gid = load_be64(buf + 21);
	m->size = load_be64(buf + 29);
	m->mtime = (int64_t)load_be64(buf + 37);
	m->mtime_nsec = load_be32(buf + 45);
	if (m->mtime_nsec >= 1000000000u || m->mode > 07777)
		return rule(d, "has a member with a bad time or mode");
	if ((c->next > 0 && (m->first < c->prev_first
	    || m->first - c->prev_first < 512))
	    || m->first > c->tar_end || c->tar_end - m->first < 512
	    || m->first % 512 != 0)
		return rule(d, "has a member that starts out of order or "
		    "outside the tar stream");
	/* the first entry is the stream's first member: an index that
	 * starts later hides what comes before (6.8) */
	if (c->next == 0 && m->first != 0)
		return rule(d, "does not start at the tar stream's first "
		    "member");
	pos = 49;
	pl = (size_t)buf[pos] << 8 | buf[pos + 1];
	if (pl == 0 || pl > NAME_MAX_LEN)
		return rule(d, "has a member name of a bad length");
	if (len - pos - 2 < pl + 4)
		return SHORT("has a member name of a bad length");
	if (take_name(buf + pos + 2, pl, names, &m->path) != 0)
		return rule(d, "has a NUL in a name");
	pos += 2 + pl;
	ll = (size_t)buf[pos] << 8 | buf[pos + 1];
	if (ll > NAME_MAX_LEN)
		return rule(d, "has a link name of a bad length");
	if (len - pos - 2 < ll + 2)
		return SHORT("has a link name of a bad length");
	if (take_name(buf + pos + 2, ll, names, &m->linkpath) != 0)
		return rule(d, "has a NUL in a name");
	pos += 2 + ll;
	ul = buf[pos];
	if (len - pos - 1 < ul + 1)
		return SHORT("ends inside a member");
	if (take_name(buf + pos + 1, ul, names, &m->uname) != 0)
		return rule(d, "has a NUL in a name");
	pos += 1 + ul;
	gl = buf[pos];
	if (len - pos - 1 < gl)
		return SHORT("ends inside a member");
	if (take_name(buf + pos + 1, gl, names, &m->gname) != 0)
		return rule(d, "has a NUL in a name");
	pos += 1 + gl;
#undef SHORT
	c->prev_first = m->first;
	c->next++;
	*used = pos;
	return AE_OK;
}

int
ae_index_parse(const uint8_t *buf, size_t len, uint64_t header_len,
    size_t chunk_size, uint64_t index_offset, uint64_t records,
    struct ae_index *ix, struct ae_diag *d)
{
	return ae_index_parse_signed(buf, len, header_len, chunk_size, 0,
	    index_offset, records, ix, d);
}

int
ae_index_parse_signed(const uint8_t *buf, size_t len, uint64_t header_len,
    size_t chunk_size, uint64_t sig_every, uint64_t index_offset,
    uint64_t records, struct ae_index *ix, struct ae_diag *d)
{
	struct ae_index_cursor c;
	uint64_t nrec, nmem, i;
	size_t pos, used;
	char *names;
	int err;

	memset(ix, 0, sizeof *ix);
	/* the head once to learn the counts (nothing allocated yet), and
	 * again into rec_off */
	if ((err = ae_index_cursor_head_signed(&c, buf, len, 1, &pos,
	    header_len, chunk_size, sig_every, index_offset, records, NULL, d))
	    != AE_OK)
		return err;
	nrec = c.records;
	nmem = c.members;
	/* every entry takes ENTRY_FIXED + 1 bytes at least */
	if (nmem > (len - pos) / (ENTRY_FIXED + 1))
		return bad(ix, d, "has a member count its length cannot hold");
	ix->records = nrec;
	ix->tar_end = c.tar_end;
	ix->rec_off = malloc(((size_t)nrec + 1) * sizeof *ix->rec_off);
	ix->m = malloc(((size_t)nmem + 1) * sizeof *ix->m);
	/* names: at most the entries' bytes, plus a NUL for each of four */
	ix->names = malloc(len - pos + 4 * (size_t)nmem + 1);
	if (ix->rec_off == NULL || ix->m == NULL || ix->names == NULL) {
		ae_index_free(ix);
		return AE_ENOMEM;
	}
	(void)ae_index_cursor_head_signed(&c, buf, len, 1, &pos, header_len,
	    chunk_size, sig_every, index_offset, records, ix->rec_off, d);
	names = ix->names;
	for (i = 0; i < nmem; i++) {
		if ((err = ae_index_cursor_member(&c, buf + pos, len - pos, 1,
		    &used, &ix->m[i], &names, d)) != AE_OK) {
			ae_index_free(ix);
			return err;
		}
		pos += used;
	}
	if (pos != len)
		return bad(ix, d, "has bytes after its last member");
	ix->members = (size_t)nmem;
	return AE_OK;
}

/* ---- keys and the footer ---- */

void
ae_index_cipher(const struct ae_header *h,
    const uint8_t file_key[AE_FILE_KEY_LEN], ae_gcm_ctx *g)
{
	uint8_t key[32];

	ae_hkdf_sha256(h->payload_salt, AE_SALT_LEN, file_key, AE_FILE_KEY_LEN,
	    (const uint8_t *)AE_LABEL_INDEX, sizeof AE_LABEL_INDEX - 1, key,
	    sizeof key);
	ae_gcm_init(g, key);
	ae_wipe(key, sizeof key);
}

/* The footer's nonce: 11 zero bytes, then 2 (records end in 0 or 1). */
static void
footer_nonce(uint8_t nonce[AE_NONCE_LEN])
{
	memset(nonce, 0, AE_NONCE_LEN);
	nonce[AE_NONCE_LEN - 1] = 2;
}

void
ae_footer_seal(const ae_gcm_ctx *k, uint64_t index_offset, uint64_t records,
    uint8_t out[AE_FOOTER_LEN])
{
	uint8_t nonce[AE_NONCE_LEN], none[1] = { 0 };

	footer_nonce(nonce);
	store_be64(out, index_offset);
	store_be64(out + 8, records);
	/* no plaintext: the tag is a MAC over the 16 bytes before it */
	ae_gcm_seal(k, nonce, sizeof nonce, out, 16, none, 0, none, out + 16);
}

int
ae_footer_open(const ae_gcm_ctx *k, const uint8_t in[AE_FOOTER_LEN],
    uint64_t *index_offset, uint64_t *records)
{
	uint8_t nonce[AE_NONCE_LEN], none[1] = { 0 };

	footer_nonce(nonce);
	if (ae_gcm_open(k, nonce, sizeof nonce, in, 16, none, 0, in + 16,
	    AE_TAG_LEN, none) != AE_OK)
		return AE_EAUTH;
	*index_offset = load_be64(in);
	*records = load_be64(in + 8);
	return AE_OK;
}

int
ae_index_plain_write(void *ctx, const uint8_t *b, size_t n)
{
	struct ae_index_plain *c = ctx;
	uint8_t *p;

	if (n > AE_INDEX_MAX - c->len)
		return AE_ETOOBIG;
	if ((p = ae_wiped_grow(c->buf, c->len, &c->cap, c->len + n)) == NULL)
		return AE_ENOMEM;
	c->buf = p;
	memcpy(c->buf + c->len, b, n);
	c->len += n;
	return AE_OK;
}
