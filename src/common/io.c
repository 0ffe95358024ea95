#include "config.h"
#include "io.h"

#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "grow.h"

/* Reads of more than this are split, as Linux does anyway (0x7ffff000). */
#define IO_MAX ((size_t)1 << 30)
/* How long a wait may go without looking at the flags. */
#define POLL_MS 100

static int
flagged(const struct ae_fdio *f)
{
	return (f->stop != NULL && atomic_load(f->stop))
	    || (f->cancel != NULL && atomic_load(f->cancel));
}

void
ae_fd_init(struct ae_fdio *f, int fd, const atomic_int *stop,
    const atomic_int *cancel)
{
	struct stat st;

	memset(f, 0, sizeof *f);
	f->fd = fd;
	f->stop = stop;
	f->cancel = cancel;
	f->pollable = fstat(fd, &st) != 0 || !S_ISREG(st.st_mode);
}

/* Wait until fd is readable or a flag is set.  0, or AE_EINTR. */
static int
wait_readable(const struct ae_fdio *f)
{
	struct pollfd p = { .fd = f->fd, .events = POLLIN };

	for (;;) {
		if (flagged(f))
			return AE_EINTR;
		if (poll(&p, 1, POLL_MS) != 0)
			return AE_OK;   /* ready, hung up, or an error read() will report */
	}
}

int
ae_fd_read(void *ctx, uint8_t *buf, size_t n, size_t *got)
{
	struct ae_fdio *f = ctx;
	size_t done = 0;

	while (done < n) {
		size_t want = n - done < IO_MAX ? n - done : IO_MAX;
		ssize_t r;

		if (flagged(f) || (f->pollable && wait_readable(f) != AE_OK)) {
			*got = done;
			return AE_EINTR;
		}
		r = read(f->fd, buf + done, want);
		if (r < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			*got = done;
			return AE_EIO;
		}
		if (r == 0)
			break;
		done += (size_t)r;
		f->bytes += (uint64_t)r;
	}
	*got = done;
	return AE_OK;
}

int
ae_fd_seek(void *ctx, uint64_t off)
{
	struct ae_fdio *f = ctx;

	if (lseek(f->fd, (off_t)off, SEEK_SET) < 0)
		return AE_EIO;
	return AE_OK;
}

int
ae_fd_write(void *ctx, const uint8_t *buf, size_t n)
{
	struct ae_fdio *f = ctx;

	while (n > 0) {
		size_t want = n < IO_MAX ? n : IO_MAX;
		ssize_t r;

		if (flagged(f))
			return AE_EINTR;
		r = write(f->fd, buf, want);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return AE_EIO;
		}
		buf += r;
		n -= (size_t)r;
		f->bytes += (uint64_t)r;
	}
	return AE_OK;
}

int
ae_write_full(int fd, const void *buf, size_t n)
{
	const uint8_t *b = buf;
	ssize_t k;

	while (n > 0) {
		k = write(fd, b, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -1;
		b += k;
		n -= (size_t)k;
	}
	return 0;
}

int
ae_mem_read(void *ctx, uint8_t *buf, size_t n, size_t *got)
{
	struct ae_memio *m = ctx;
	size_t k = m->len - m->pos < n ? m->len - m->pos : n;

	if (k > 0)
		memcpy(buf, m->src + m->pos, k);
	m->pos += k;
	*got = k;
	return AE_OK;
}

int
ae_mem_write(void *ctx, const uint8_t *buf, size_t n)
{
	struct ae_memio *m = ctx;

	if (m->discard || n == 0) {
		m->fill += n;
		return AE_OK;
	}
	if (n > SIZE_MAX - m->fill
	    || ae_grow(&m->dst, &m->cap, m->fill + n, 1, 4096, 0) != 0)
		return AE_ENOMEM;
	memcpy(m->dst + m->fill, buf, n);
	m->fill += n;
	return AE_OK;
}
