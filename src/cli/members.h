/*
 * members.h -- which members -t and -x act on: the PATTERN operands and
 * -T's list (shell patterns; a directory selects what is under it),
 * less what --exclude leaves out; and the patterns that never matched
 * (reported at the end, as tar does).  The --exclude matcher is shared
 * with -c's walk.
 */
#ifndef AE_CLI_MEMBERS_H
#define AE_CLI_MEMBERS_H

#include <stddef.h>

#include "namelist.h"
#include "opts.h"

struct members {
	struct namelist pats;       /* operands, then -T's */
	unsigned char *hit;         /* per pattern: matched a member */
	char *const *exclude;
	size_t nexclude;
};

/* From sel's operands, -T list and --exclude patterns.  Prints; returns
 * 0 or an exit status. */
int members_init(struct members *s, const struct selection *sel);
void members_free(struct members *s);

/*
 * Whether the member path is selected: no --exclude pattern matches it,
 * and there are no patterns or one matches it or a directory above it
 * (fnmatch without FNM_PATHNAME, so '*' matches '/' as in GNU tar; a
 * pattern also matches a name equal to it, so "a[1]" finds "a[1]").
 * A leading "./" and trailing '/' are set aside on both sides.  Marks
 * the patterns it matched.
 */
int members_select(struct members *s, const char *path);

/* Report each pattern that matched nothing ("aescrypt: error: NAME:
 * not found in archive").  Returns how many.  With sel->found (several
 * archives), marks there what matched and reports nothing: a pattern is
 * missing only if no archive has it (command.c). */
size_t members_report_missing(const struct members *s,
    const struct selection *sel);

/*
 * Whether path is left out by one of the patterns, as GNU tar matches
 * --exclude by default: against the whole path and against every tail
 * that starts after a '/', with '*' matching '/' too, and a match on a
 * directory leaving out what is under it.
 */
int members_excluded(char *const *pats, size_t n, const char *path);

#endif
