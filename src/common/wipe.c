#include "config.h"
#include "wipe.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

void
ae_wipe(void *p, size_t n)
{
	if (n == 0)
		return;
#ifdef HAVE_EXPLICIT_BZERO
	explicit_bzero(p, n);
#else
	/* A volatile function pointer stops the compiler proving the
	 * memset dead; this is the fallback zlib and libsodium also use. */
	static void *(*const volatile memset_v)(void *, int, size_t) = memset;
	memset_v(p, 0, n);
#endif
}

int
ae_ct_equal(const void *a, const void *b, size_t n)
{
	const volatile unsigned char *x = a;
	const volatile unsigned char *y = b;
	unsigned d = 0;
	size_t i;

	for (i = 0; i < n; i++)
		d |= x[i] ^ y[i];
	/* Map d == 0 to 1 and 1..255 to 0 without a branch on d. */
	return (int)(1 & ((d - 1) >> 8));
}

void
ae_nodump(void *p, size_t n)
{
#ifdef HAVE_MADV_DONTDUMP
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t a = ((uintptr_t)p + page - 1) & ~(page - 1);
	uintptr_t b = ((uintptr_t)p + n) & ~(page - 1);

	if (p != NULL && page > 0 && b > a)
		(void)madvise((void *)a, b - a, MADV_DONTDUMP);
#else
	(void)p;
	(void)n;
#endif
}

void *
ae_secret_alloc(size_t n)
{
	void *p;

	/* whole 64-byte units, as aligned_alloc asks */
	if (n == 0 || n > SIZE_MAX - 63
	    || (p = aligned_alloc(64, (n + 63) & ~(size_t)63)) == NULL)
		return NULL;
	memset(p, 0, n);
	ae_nodump(p, n);
	return p;
}

void
ae_secret_free(void *p, size_t n)
{
	if (p == NULL)
		return;
	ae_wipe(p, n);
	free(p);
}

void *
ae_wiped_grow(void *buf, size_t len, size_t *cap, size_t need)
{
	size_t n = *cap ? *cap : 65536;
	void *p;

	if (need <= *cap)
		return buf;
	while (n < need)
		n = n > SIZE_MAX / 2 ? need : 2 * n;
	if ((p = malloc(n)) == NULL)
		return NULL;
	if (len > 0)
		memcpy(p, buf, len);
	if (buf != NULL) {
		ae_wipe(buf, len);
		free(buf);
	}
	*cap = n;
	return p;
}
