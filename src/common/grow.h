/*
 * grow.h -- a growable array's one way to grow, for plain data (secrets
 * grow through ae_wiped_grow, which wipes what it leaves behind).
 */
#ifndef AE_COMMON_GROW_H
#define AE_COMMON_GROW_H

#include <stddef.h>

/*
 * Make the array *pv points to (items of elem bytes, room for *cap of
 * them) hold at least need: the room doubles, from first when there is
 * none, and realloc keeps the items.  max, if not 0, is the most room
 * the array may have.  0; or -1 out of memory, past max, or for a size
 * that would overflow, and then *pv and *cap are as they were.
 * (pv is the address of the array's pointer, whatever its type.)
 */
int ae_grow(void *pv, size_t *cap, size_t need, size_t elem, size_t first,
    size_t max);

#endif
