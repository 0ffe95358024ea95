/*
 * totals.c -- --totals (contract in totals.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/tar.h"
#include "msg.h"
#include "words.h"
#include "totals.h"

/* FNV-1a over the directory's name, a '/', and the entry's. */
static uint64_t
hash2(const char *dir, size_t dl, const char *name, size_t nl)
{
	uint64_t h = 14695981039346656037ull;
	size_t i;

	for (i = 0; i < dl; i++)
		h = (h ^ (uint8_t)dir[i]) * 1099511628211ull;
	h = (h ^ '/') * 1099511628211ull;
	for (i = 0; i < nl; i++)
		h = (h ^ (uint8_t)name[i]) * 1099511628211ull;
	return h;
}

/* The slot of "dir/name": where it is, or the empty one it would take. */
static size_t
slot(const struct totals *t, const char *dir, size_t dl, const char *name,
    size_t nl)
{
	size_t i = (size_t)hash2(dir, dl, name, nl) & (t->cap - 1);

	while (t->set[i] != NULL && !(strncmp(t->set[i], dir, dl) == 0
	    && t->set[i][dl] == '/' && strcmp(t->set[i] + dl + 1, name) == 0
	    && strlen(t->set[i] + dl + 1) == nl))
		i = (i + 1) & (t->cap - 1);
	return i;
}

int
totals_init(struct totals *t, const struct ae_snapshot *prev)
{
	size_t n = 0, i, k;

	memset(t, 0, sizeof *t);
	if (prev == NULL)
		return 0;
	for (i = 0; i < prev->n; i++)
		for (k = 0; k < prev->dirs[i].dumpdir_len; k++)
			n += prev->dirs[i].dumpdir[k] == '\0';
	for (t->cap = 16; t->cap < 2 * n + 2; t->cap *= 2)
		;
	if ((t->set = calloc(t->cap, sizeof *t->set)) == NULL)
		return -1;
	for (i = 0; i < prev->n; i++) {
		const struct ae_snap_dir *d = &prev->dirs[i];
		size_t dl = strlen(d->name), pos = 0;

		while (pos < d->dumpdir_len && d->dumpdir[pos] != '\0') {
			const char *e = (const char *)d->dumpdir + pos;
			size_t el = strlen(e), s;

			pos += el + 1;
			if (e[0] == 'D' || el < 2)
				continue;   /* directories are counted as such */
			s = slot(t, d->name, dl, e + 1, el - 1);
			if (t->set[s] != NULL)
				continue;
			if ((t->set[s] = malloc(dl + el + 1)) == NULL)
				return -1;
			memcpy(t->set[s], d->name, dl);
			t->set[s][dl] = '/';
			memcpy(t->set[s] + dl + 1, e + 1, el);
		}
	}
	return 0;
}

void
totals_free(struct totals *t)
{
	size_t i;

	for (i = 0; i < t->cap; i++)
		free(t->set[i]);
	free(t->set);
	memset(t, 0, sizeof *t);
}

void
totals_member(struct totals *t, const char *walked, int type)
{
	const char *slash;
	size_t dl;

	if (type == AE_TAR_DIR) {
		t->dirs++;
		return;
	}
	if (type != AE_TAR_REG) {
		t->others++;
		return;
	}
	/* the snapshot names a directory without a trailing '/' */
	slash = strrchr(walked, '/');
	dl = slash != NULL ? (size_t)(slash - walked) : 0;
	if (t->cap > 0 && slash != NULL && t->set[slot(t, walked, dl,
	    slash + 1, strlen(slash + 1))] != NULL)
		t->files_changed++;
	else
		t->files_new++;
}

void
totals_unchanged(struct totals *t)
{
	t->unchanged++;
}

void
totals_bytes(int written, uint64_t n, uint64_t wall_ns)
{
	char h[32], r[32];
	double s = (double)wall_ns / 1e9;

	bytes_words(n, h, sizeof h);
	bytes_words(s > 0 ? (uint64_t)((double)n / s) : n, r, sizeof r);
	fprintf(stderr, "Total bytes %s: %llu (%s, %s/s)\n", written ?
	    "written" : "read", (unsigned long long)n, h, r);
}

void
totals_level(const struct totals *t, int level)
{
	fprintf(stderr, "Level %d: %llu new file%s, %llu changed, %llu "
	    "director%s, %llu other member%s; %llu file%s unchanged since "
	    "the last level, not archived\n", level,
	    (unsigned long long)t->files_new, t->files_new == 1 ? "" : "s",
	    (unsigned long long)t->files_changed,
	    (unsigned long long)t->dirs, t->dirs == 1 ? "y" : "ies",
	    (unsigned long long)t->others, t->others == 1 ? "" : "s",
	    (unsigned long long)t->unchanged, t->unchanged == 1 ? "" : "s");
}
