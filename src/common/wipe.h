/*
 * wipe.h -- clearing secrets and comparing them in constant time.
 */
#ifndef AE_WIPE_H
#define AE_WIPE_H

#include <stddef.h>

/*
 * Overwrite n bytes at p with zeros in a way the compiler may not elide,
 * even when p is about to go out of scope or be freed.  p may be NULL
 * when n is 0.
 */
void ae_wipe(void *p, size_t n);

/*
 * Compare n bytes of a and b.  Return 1 if they are equal, 0 if not.
 * The time taken depends on n only, never on the contents, so it is safe
 * for authentication tags and MACs.
 */
int ae_ct_equal(const void *a, const void *b, size_t n);

/*
 * Keep the whole pages inside [p, p + n) out of core dumps
 * (MADV_DONTDUMP), for buffers that hold plaintext or keys.  Best effort:
 * partial pages at either end are not covered, and it does nothing where
 * the system has no MADV_DONTDUMP.  The CLI also turns core dumps off for
 * the whole process; this still holds if a debugger or a changed limit
 * asks for one.
 */
void ae_nodump(void *p, size_t n);

/*
 * n zeroed bytes for a structure that holds keys or plaintext: aligned
 * for any key schedule (64 bytes, as the vector tiers store whole
 * registers), kept out of core dumps (ae_nodump).  NULL if out of memory.
 * ae_secret_free wipes the n bytes and frees them; NULL is ignored.
 */
void *ae_secret_alloc(size_t n);
void ae_secret_free(void *p, size_t n);

/*
 * Grow buf, whose first len bytes are plaintext, to hold at least need
 * bytes: a new block (its size *cap doubled, from 64 KiB, until it is
 * enough), the len bytes copied, the old block wiped and freed (realloc
 * would leave the old copy in freed memory).  Returns the block to use
 * (buf itself when need <= *cap), or NULL if out of memory, with buf
 * and *cap unchanged.
 */
void *ae_wiped_grow(void *buf, size_t len, size_t *cap, size_t need);

/*
 * AE_DECLASSIFY(p, n): tell the constant-time checker that n bytes at p
 * are public from here on.  Used only where a secret-derived value is
 * public by design (the accept/reject bit of a tag check).  In normal
 * builds it does nothing; the ctgrind build (-DAE_CTGRIND) marks the
 * bytes defined for valgrind memcheck.
 */
#ifdef AE_CTGRIND
#include <valgrind/memcheck.h>
#define AE_DECLASSIFY(p, n) ((void)VALGRIND_MAKE_MEM_DEFINED((p), (n)))
#else
#define AE_DECLASSIFY(p, n) ((void)(p), (void)(n))
#endif

#endif
