/*
 * members.c -- MEMBER operands (contract in members.h).
 */
#include "config.h"
#include "members.h"

#include <stdlib.h>
#include <string.h>

#include "msg.h"
#include "names.h"

int
members_init(struct members *s, char **names, size_t n)
{
	s->names = names;
	s->n = n;
	s->hit = calloc(n ? n : 1, 1);
	return s->hit == NULL ? -1 : 0;
}

void
members_free(struct members *s)
{
	free(s->hit);
}

/* The length of p once "./" prefixes and trailing slashes are set
 * aside; *start is where it begins. */
static size_t
core(const char *p, const char **start)
{
	size_t n;

	while (p[0] == '.' && p[1] == '/')
		for (p += 2; *p == '/'; p++)
			;
	n = strlen(p);
	while (n > 1 && p[n - 1] == '/')
		n--;
	*start = p;
	return n;
}

int
members_select(struct members *s, const char *path)
{
	const char *m, *a;
	size_t mn, an, i;
	int any = 0;

	if (s->n == 0)
		return 1;
	mn = core(path, &m);
	for (i = 0; i < s->n; i++) {
		an = core(s->names[i], &a);
		if (an <= mn && memcmp(m, a, an) == 0
		    && (an == mn || m[an] == '/')) {
			s->hit[i] = 1;
			any = 1;
		}
	}
	return any;
}

size_t
members_report_missing(const struct members *s)
{
	char q[1024];
	size_t i, k = 0;

	for (i = 0; i < s->n; i++)
		if (!s->hit[i]) {
			msg_error("%s: not found in archive",
			    names_quote(s->names[i], q, sizeof q));
			k++;
		}
	return k;
}
