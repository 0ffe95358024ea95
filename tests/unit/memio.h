/*
 * memio.h -- memory as the library's sink and source (aescrypt.h's
 * callbacks), for its unit tests and fuzz harness: a buffer that grows
 * as it is written and can be told to fail, read back in order (as a
 * pipe hands data over, in odd amounts when chop is set) or at offsets
 * (pread, for random access).
 */
#ifndef AE_TEST_MEMIO_H
#define AE_TEST_MEMIO_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <aescrypt.h>

struct mem {
	uint8_t *p;
	size_t len, cap, pos;
	int fail_after;             /* writes before the sink fails, or -1 */
	int fail_errno;             /* ... leaving this errno (0: none) */
	size_t (*chop)(size_t k);   /* a read of k bytes gives chop(k) of
	                             * them (1 to k), or NULL: all */
};

/* An empty one that never fails. */
static inline void
mem_init(struct mem *m)
{
	memset(m, 0, sizeof *m);
	m->fail_after = -1;
}

static inline int
mem_write(void *ctx, const void *buf, size_t n)
{
	struct mem *m = ctx;

	if (m->fail_after == 0) {
		if (m->fail_errno != 0)
			errno = m->fail_errno;
		return AESCRYPT_EIO;
	}
	if (m->fail_after > 0)
		m->fail_after--;
	if (m->len + n > m->cap) {
		size_t cap = (m->len + n) * 2;
		uint8_t *p = realloc(m->p, cap);

		if (p == NULL)
			return AESCRYPT_ENOMEM;
		m->p = p;
		m->cap = cap;
	}
	memcpy(m->p + m->len, buf, n);
	m->len += n;
	return 0;
}

static inline int
mem_read(void *ctx, void *buf, size_t n, size_t *got)
{
	struct mem *m = ctx;
	size_t k = m->len - m->pos < n ? m->len - m->pos : n;

	if (k > 1 && m->chop != NULL)
		k = m->chop(k);
	memcpy(buf, m->p + m->pos, k);
	m->pos += k;
	*got = k;
	return 0;
}

static inline int
mem_pread(void *ctx, void *buf, size_t n, uint64_t off, size_t *got)
{
	const struct mem *m = ctx;
	size_t k;

	if (off >= m->len) {
		*got = 0;
		return 0;
	}
	k = m->len - off < n ? m->len - (size_t)off : n;
	memcpy(buf, m->p + off, k);
	*got = k;
	return 0;
}

/* A source over m from its start: seekable (pread and size) or a pipe
 * (read). */
static inline struct aescrypt_source
mem_source(struct mem *m, int seekable)
{
	struct aescrypt_source s;

	memset(&s, 0, sizeof s);
	m->pos = 0;
	s.ctx = m;
	if (seekable) {
		s.pread = mem_pread;
		s.size = m->len;
	} else {
		s.read = mem_read;
	}
	return s;
}

#endif
