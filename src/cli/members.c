/*
 * members.c -- member selection (contract in members.h).
 *
 * Patterns follow bsdtar, which treats every operand of -t and -x as a
 * pattern; GNU tar needs --wildcards for that, which is accepted and
 * changes nothing.  Both anchor a pattern at the start of the name and
 * let it select a directory's subtree.
 */
#include "config.h"
#include "members.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "exitcode.h"
#include "msg.h"
#include "names.h"

/* p without "./" prefixes and trailing slashes, in buf (cap bytes);
 * NULL if it does not fit. */
static const char *
core(const char *p, char *buf, size_t cap)
{
	size_t n;

	while (p[0] == '.' && p[1] == '/')
		for (p += 2; *p == '/'; p++)
			;
	n = strlen(p);
	while (n > 1 && p[n - 1] == '/')
		n--;
	if (n >= cap)
		return NULL;
	memcpy(buf, p, n);
	buf[n] = '\0';
	return buf;
}

int
members_init(struct members *s, const struct selection *sel)
{
	size_t i;
	int st;

	memset(s, 0, sizeof *s);
	s->exclude = sel->exclude;
	s->nexclude = sel->nexclude;
	for (i = 0; i < sel->noperands; i++)
		if (namelist_add(&s->pats, sel->operands[i], 0) != 0)
			goto nomem;
	if (sel->files_from != NULL && (st = namelist_read(&s->pats,
	    sel->files_from, sel->null_sep, 0)) != EXIT_OK) {
		members_free(s);
		return st;
	}
	if ((s->hit = calloc(s->pats.n + 1, 1)) != NULL)
		return EXIT_OK;
nomem:
	members_free(s);
	msg_error("out of memory");
	return EXIT_SYSTEM;
}

void
members_free(struct members *s)
{
	namelist_free(&s->pats);
	free(s->hit);
	s->hit = NULL;
}

int
members_excluded(char *const *pats, size_t n, const char *path)
{
	char buf[4097];
	const char *p, *t;
	size_t i;

	if (n == 0)
		return 0;
	if ((p = core(path, buf, sizeof buf)) == NULL)
		p = path;
	for (i = 0; i < n; i++) {
		if (fnmatch(pats[i], p, FNM_LEADING_DIR) == 0)
			return 1;
		for (t = strchr(p, '/'); t != NULL; t = strchr(t + 1, '/'))
			if (t[1] != '\0' && fnmatch(pats[i], t + 1,
			    FNM_LEADING_DIR) == 0)
				return 1;
	}
	return 0;
}

/* Whether pattern a (already without "./" and trailing '/') selects
 * the member m: equal, under it, or matched as a shell pattern. */
static int
matches(const char *a, const char *m)
{
	size_t an = strlen(a);

	if (strncmp(m, a, an) == 0 && (m[an] == '\0' || m[an] == '/'))
		return 1;
	return fnmatch(a, m, FNM_LEADING_DIR) == 0;
}

int
members_select(struct members *s, const char *path)
{
	char mb[4097], ab[4097];
	const char *m, *a;
	size_t i;
	int any = 0;

	if (members_excluded(s->exclude, s->nexclude, path))
		return 0;
	if (s->pats.n == 0)
		return 1;
	if ((m = core(path, mb, sizeof mb)) == NULL)
		return 0;
	for (i = 0; i < s->pats.n; i++) {
		if ((a = core(s->pats.v[i], ab, sizeof ab)) == NULL)
			continue;
		if (matches(a, m)) {
			s->hit[i] = 1;
			any = 1;
		}
	}
	return any;
}

size_t
members_report_missing(const struct members *s, const struct selection *sel)
{
	char q[1024];
	size_t i, k = 0;

	if (sel->found != NULL) {
		for (i = 0; i < s->pats.n; i++)
			sel->found[i] |= s->hit[i];
		return 0;
	}
	for (i = 0; i < s->pats.n; i++)
		if (!s->hit[i]) {
			msg_error("%s: not found in archive",
			    names_quote(s->pats.v[i], q, sizeof q));
			k++;
		}
	return k;
}
