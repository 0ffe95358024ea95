/*
 * path.h -- the rules a member name is stored and extracted by: pure
 * functions of the name, no system calls.
 *
 * These are what keep a name inside the extraction root, so the disk
 * writer applies them to every member, and the tree walk to every path
 * it stores.  Nothing here allocates; every copy is bounded by the
 * destination's size.
 */
#ifndef AE_DISK_PATH_H
#define AE_DISK_PATH_H

#include <stddef.h>

/*
 * The part of name that tar stores or extracts: GNU tar drops any
 * leading '/' and everything up to and including the last ".."
 * component.  Returns a pointer into name; *prefix is set to the length
 * of what was dropped (0 if nothing).
 */
const char *ae_path_stored(const char *name, size_t *prefix);

/* Whether name has a ".." component anywhere.  1 or 0. */
int ae_path_has_dotdot(const char *name);

/*
 * in (which MUST have no ".." component) without "." and empty
 * components, leading or trailing '/': "a/./b//c/" -> "a/b/c", into out
 * (cap bytes).  The result is never longer than in, but the copy is
 * bounded by cap all the same.  0, or -1 if it would not fit (out is
 * then "").
 */
int ae_path_normalize(const char *in, char *out, size_t cap);

/*
 * --strip-components=n: name after its first n components ("./" and
 * empty ones do not count, as in GNU tar), or NULL if nothing is left.
 * Points into name.
 */
const char *ae_path_strip_components(const char *name, unsigned n);

#endif
