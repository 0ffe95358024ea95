/*
 * source.c -- a reader's input (contract in source.h).
 */
#include "config.h"
#include "source.h"
#include "message.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int
ae_lib_source_pread(const struct source *src, void *buf, size_t n, uint64_t off,
    size_t *got)
{
	size_t have = 0, k;
	int r;

	while (have < n) {
		k = 0;
		r = src->s.pread(src->s.ctx, (uint8_t *)buf + have, n - have,
		    off + have, &k);
		if (r != 0)
			return ae_lib_callback_status(r);
		if (k == 0)
			break;
		have += k;
	}
	*got = have;
	return AE_OK;
}

/* The sequential reader: the caller's read, filled up to n (a short
 * count means the end), or pread from pos. */
static int
seq_read(void *ctx, uint8_t *buf, size_t n, size_t *got)
{
	struct source *src = ctx;
	size_t have = 0, k;
	int r;

	if (src->s.read == NULL) {
		r = ae_lib_source_pread(src, buf, n, src->pos, got);
		if (r == AE_OK)
			src->pos += *got;
		return r;
	}
	while (have < n) {
		k = 0;
		if ((r = src->s.read(src->s.ctx, buf + have, n - have, &k)) != 0)
			return ae_lib_callback_status(r);
		if (k == 0)
			break;
		have += k;
	}
	src->pos += have;
	*got = have;
	return AE_OK;
}

static int
seq_seek(void *ctx, uint64_t off)
{
	struct source *src = ctx;

	if (src->s.read != NULL)
		return AE_EIO;      /* a stream of the caller's: in order */
	src->pos = off;
	return AE_OK;
}

int
ae_lib_source_callbacks(struct source *src, const struct aescrypt_source *s)
{
	memset(src, 0, sizeof *src);
	src->fd = -1;
	if (s == NULL || (s->read == NULL && s->pread == NULL))
		return AE_EINVAL;
	src->s = *s;
	src->seq.read = seq_read;
	src->seq.ctx = src;
	src->seq.seek = s->read == NULL ? seq_seek : NULL;
	return AE_OK;
}

static int
fd_read(void *ctx, void *buf, size_t n, size_t *got)
{
	struct source *src = ctx;
	ssize_t k;

	do
		k = read(src->fd, buf, n);
	while (k < 0 && errno == EINTR);
	if (k < 0)
		return AESCRYPT_EIO;
	*got = (size_t)k;
	return 0;
}

static int
fd_pread(void *ctx, void *buf, size_t n, uint64_t off, size_t *got)
{
	struct source *src = ctx;
	ssize_t k;

	do
		k = pread(src->fd, buf, n, (off_t)off);
	while (k < 0 && errno == EINTR);
	if (k < 0)
		return AESCRYPT_EIO;
	*got = (size_t)k;
	return 0;
}

void
ae_lib_source_fd(struct source *src, int fd, int own)
{
	struct aescrypt_source s;
	struct stat st;

	memset(&s, 0, sizeof s);
	s.ctx = src;
	/* a regular file: pread from where the container starts (the
	 * start of the file: the index's offsets count from there) */
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)
	    && lseek(fd, 0, SEEK_CUR) == 0) {
		s.pread = fd_pread;
		s.size = (uint64_t)st.st_size;
	} else {
		s.read = fd_read;
	}
	(void)ae_lib_source_callbacks(src, &s);
	src->s.ctx = src;
	src->fd = fd;
	src->own_fd = own;
}

void
ae_lib_source_close(struct source *src)
{
	if (src->own_fd && src->fd >= 0)
		close(src->fd);
	src->fd = -1;
	src->own_fd = 0;
}

int
ae_lib_source_seekable(const struct source *src)
{
	return src->s.pread != NULL;
}

static int
cursor_read(void *ctx, uint8_t *buf, size_t n, size_t *got)
{
	struct source_cursor *c = ctx;
	int r = ae_lib_source_pread(c->src, buf, n, c->pos, got);

	if (r == AE_OK)
		c->pos += *got;
	return r;
}

static int
cursor_seek(void *ctx, uint64_t off)
{
	((struct source_cursor *)ctx)->pos = off;
	return AE_OK;
}

void
ae_lib_source_cursor(const struct source *src, struct source_cursor *c,
    struct ae_reader *r, uint64_t off)
{
	c->src = src;
	c->pos = off;
	r->read = cursor_read;
	r->ctx = c;
	r->seek = cursor_seek;
}
