/*
 * snapshot.c -- GNU tar's snapshot files (contract in snapshot.h).
 */
#include "config.h"
#include "snapshot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/grow.h"

void
ae_snapshot_init(struct ae_snapshot *s)
{
	memset(s, 0, sizeof *s);
	s->level = -1;
}

void
ae_snapshot_free(struct ae_snapshot *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		free(s->dirs[i].name);
		free(s->dirs[i].dumpdir);
	}
	free(s->dirs);
	free(s->slot);
	ae_snapshot_init(s);
}

static size_t
hash(uint64_t dev, uint64_t ino)
{
	uint64_t h = ino * 0x9e3779b97f4a7c15ull ^ dev * 0xc2b2ae3d27d4eb4full;

	return (size_t)(h ^ h >> 29);
}

/* The slot for (dev, ino): the one that holds it, or the empty one where
 * it would go. */
static size_t
probe(const struct ae_snapshot *s, uint64_t dev, uint64_t ino)
{
	size_t i = hash(dev, ino) & (s->nslot - 1);

	while (s->slot[i] != 0 && (s->dirs[s->slot[i] - 1].dev != dev
	    || s->dirs[s->slot[i] - 1].ino != ino))
		i = (i + 1) & (s->nslot - 1);
	return i;
}

/* Make room in the index for one more.  AE_OK or AE_ENOMEM. */
static int
index_grow(struct ae_snapshot *s)
{
	size_t *old = s->slot, nold = s->nslot, i;

	if (2 * (s->n + 1) <= s->nslot)
		return AE_OK;
	s->nslot = nold ? 2 * nold : 128;
	if ((s->slot = calloc(s->nslot, sizeof *s->slot)) == NULL) {
		s->slot = old;
		s->nslot = nold;
		return AE_ENOMEM;
	}
	for (i = 0; i < nold; i++)
		if (old[i] != 0) {
			const struct ae_snap_dir *d = &s->dirs[old[i] - 1];

			s->slot[probe(s, d->dev, d->ino)] = old[i];
		}
	free(old);
	return AE_OK;
}

int
ae_snapshot_add(struct ae_snapshot *s, const struct ae_snap_dir *d)
{
	struct ae_snap_dir *c;
	size_t i;

	if (index_grow(s) != AE_OK)
		return AE_ENOMEM;
	if (ae_grow(&s->dirs, &s->cap, s->n + 1, sizeof *s->dirs, 64, 0) != 0)
		return AE_ENOMEM;
	c = &s->dirs[s->n];
	*c = *d;
	c->name = strdup(d->name);
	c->dumpdir = malloc(d->dumpdir_len ? d->dumpdir_len : 1);
	if (c->name == NULL || c->dumpdir == NULL) {
		free(c->name);
		free(c->dumpdir);
		return AE_ENOMEM;
	}
	memcpy(c->dumpdir, d->dumpdir, d->dumpdir_len);
	i = probe(s, d->dev, d->ino);
	if (s->slot[i] == 0)
		s->slot[i] = s->n + 1;      /* (a second one stays unfound) */
	s->n++;
	return AE_OK;
}

const struct ae_snap_dir *
ae_snapshot_find(const struct ae_snapshot *s, uint64_t dev, uint64_t ino)
{
	size_t i;

	if (s->nslot == 0)
		return NULL;
	i = probe(s, dev, ino);
	return s->slot[i] != 0 ? &s->dirs[s->slot[i] - 1] : NULL;
}

/* The NUL-terminated field at *pos in buf[0, len): its start and
 * length; *pos moves past its NUL.  0, or -1 if there is no NUL. */
static int
field(const uint8_t *buf, size_t len, size_t *pos, const char **f,
    size_t *fl)
{
	const uint8_t *z;

	if (*pos >= len || (z = memchr(buf + *pos, 0, len - *pos)) == NULL)
		return -1;
	*f = (const char *)buf + *pos;
	*fl = (size_t)(z - (buf + *pos));
	*pos += *fl + 1;
	return 0;
}

/* A decimal field, at most 20 digits (a '-' first if neg is allowed). */
static int
number(const char *f, size_t fl, int neg, uint64_t *v, int *negative)
{
	uint64_t x = 0;
	size_t i = 0;

	*negative = 0;
	if (neg && fl > 0 && f[0] == '-') {
		*negative = 1;
		i = 1;
	}
	if (fl == i || fl - i > 20)
		return -1;
	for (; i < fl; i++) {
		if (f[i] < '0' || f[i] > '9'
		    || x > (UINT64_MAX - (uint64_t)(f[i] - '0')) / 10)
			return -1;
		x = x * 10 + (uint64_t)(f[i] - '0');
	}
	*v = x;
	return 0;
}

static int
time_field(const char *f, size_t fl, int64_t *t)
{
	uint64_t v;
	int neg;

	if (number(f, fl, 1, &v, &neg) != 0 || v > (uint64_t)INT64_MAX)
		return -1;
	*t = neg ? -(int64_t)v : (int64_t)v;
	return 0;
}

/* The level in the first line's version text v (n bytes), or -1. */
static int
header_level(const char *v, size_t n)
{
	static const char tag[] = " aescrypt level=";
	size_t t = sizeof tag - 1, i;
	int level = 0;

	for (i = 0; i + t <= n; i++)
		if (memcmp(v + i, tag, t) == 0)
			break;
	if (i + t >= n || n - (i + t) > 4)
		return -1;
	for (i += t; i < n; i++) {
		if (v[i] < '0' || v[i] > '9')
			return -1;
		level = level * 10 + (v[i] - '0');
	}
	return level;
}

int
ae_snapshot_parse(const uint8_t *buf, size_t len, struct ae_snapshot *s)
{
	const uint8_t *nl = memchr(buf, '\n', len);
	size_t pos, fl;
	const char *f;
	uint64_t v;
	int neg, err;

	/* "GNU tar-VERSION-2\n" */
	if (nl == NULL || (size_t)(nl - buf) < 10 || memcmp(buf, "GNU tar-", 8)
	    != 0 || memcmp(nl - 2, "-2", 2) != 0)
		return AE_EFORMAT;
	s->level = header_level((const char *)buf + 8,
	    (size_t)(nl - buf) - 10);
	pos = (size_t)(nl - buf) + 1;
	if (field(buf, len, &pos, &f, &fl) != 0 || time_field(f, fl, &s->time)
	    || field(buf, len, &pos, &f, &fl) != 0
	    || number(f, fl, 0, &v, &neg) != 0 || v >= 1000000000u)
		return AE_EFORMAT;
	s->time_nsec = (uint32_t)v;
	while (pos < len) {
		struct ae_snap_dir d;
		const char *name;
		size_t nlen, start;

		memset(&d, 0, sizeof d);
		if (field(buf, len, &pos, &f, &fl) != 0
		    || number(f, fl, 0, &v, &neg) != 0 || v > 1)
			return AE_EFORMAT;
		d.nfs = (int)v;
		if (field(buf, len, &pos, &f, &fl) != 0
		    || time_field(f, fl, &d.mtime) != 0
		    || field(buf, len, &pos, &f, &fl) != 0
		    || number(f, fl, 0, &v, &neg) != 0 || v >= 1000000000u)
			return AE_EFORMAT;
		d.mtime_nsec = (uint32_t)v;
		if (field(buf, len, &pos, &f, &fl) != 0
		    || number(f, fl, 0, &d.dev, &neg) != 0
		    || field(buf, len, &pos, &f, &fl) != 0
		    || number(f, fl, 0, &d.ino, &neg) != 0
		    || field(buf, len, &pos, &name, &nlen) != 0 || nlen == 0)
			return AE_EFORMAT;
		/* the dumpdir: entries up to an empty one */
		start = pos;
		do {
			if (field(buf, len, &pos, &f, &fl) != 0)
				return AE_EFORMAT;
			if (fl > 0 && strchr("YNDRTX", f[0]) == NULL)
				return AE_EFORMAT;
		} while (fl > 0);
		/* and the record's own NUL */
		if (pos >= len || buf[pos] != 0)
			return AE_EFORMAT;
		pos++;
		if ((d.name = malloc(nlen + 1)) == NULL)
			return AE_ENOMEM;
		memcpy(d.name, name, nlen);
		d.name[nlen] = '\0';
		d.dumpdir = (uint8_t *)(buf + start);
		d.dumpdir_len = pos - 1 - start;
		err = ae_snapshot_add(s, &d);
		free(d.name);
		if (err != AE_OK)
			return err;
	}
	return AE_OK;
}

int
ae_snapshot_encode(const struct ae_snapshot *s, uint8_t **out, size_t *len)
{
	size_t cap = 96, used, i;
	uint8_t *b;
	int k;

	for (i = 0; i < s->n; i++)
		cap += 6 * 21 + strlen(s->dirs[i].name) + s->dirs[i].dumpdir_len
		    + 2;
	if ((b = malloc(cap)) == NULL)
		return AE_ENOMEM;
	if (s->level >= 0 && s->level <= 9999)
		k = snprintf((char *)b, cap, "GNU tar-1.34 aescrypt level=%d-2"
		    "\n%lld%c%u%c", s->level, (long long)s->time, 0,
		    (unsigned)s->time_nsec, 0);
	else
		k = snprintf((char *)b, cap, "GNU tar-1.34-2\n%lld%c%u%c",
		    (long long)s->time, 0, (unsigned)s->time_nsec, 0);
	used = (size_t)k;
	for (i = 0; i < s->n; i++) {
		const struct ae_snap_dir *d = &s->dirs[i];

		k = snprintf((char *)b + used, cap - used,
		    "%d%c%lld%c%u%c%llu%c%llu%c%s%c", d->nfs, 0,
		    (long long)d->mtime, 0, (unsigned)d->mtime_nsec, 0,
		    (unsigned long long)d->dev, 0, (unsigned long long)d->ino,
		    0, d->name, 0);
		used += (size_t)k;
		memcpy(b + used, d->dumpdir, d->dumpdir_len);
		used += d->dumpdir_len;
		b[used++] = 0;
	}
	*out = b;
	*len = used;
	return AE_OK;
}
