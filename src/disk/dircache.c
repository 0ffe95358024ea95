/*
 * dircache.c -- open directories under a root, by longest prefix
 * (contract in dircache.h).
 */
#include "config.h"
#include "dircache.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "beneath.h"
#include "common/error.h"

/* A directory is kept every this many components down a long path. */
#define CHECKPOINT 32

void
ae_dircache_init(struct ae_dircache *c, int root)
{
	size_t i;

	memset(c, 0, sizeof *c);
	c->root = root;
	for (i = 0; i < AE_DIRCACHE_SLOTS; i++)
		c->slot[i].fd = -1;
}

static void
drop(struct ae_dircache_slot *s)
{
	if (s->fd >= 0)
		close(s->fd);
	free(s->path);
	s->path = NULL;
	s->fd = -1;
}

/* Keep fd as the directory path[0, len): in a free slot, or the least
 * recently used one's.  fd is closed if it cannot be kept. */
static void
keep(struct ae_dircache *c, const char *path, size_t len, int fd)
{
	struct ae_dircache_slot *s = &c->slot[0];
	char *p;
	size_t i;

	for (i = 0; i < AE_DIRCACHE_SLOTS; i++) {
		if (c->slot[i].fd < 0) {
			s = &c->slot[i];
			break;
		}
		if (c->slot[i].used < s->used)
			s = &c->slot[i];
	}
	if ((p = malloc(len + 1)) == NULL) {
		close(fd);
		return;
	}
	memcpy(p, path, len);
	p[len] = '\0';
	drop(s);
	s->path = p;
	s->len = len;
	s->fd = fd;
	s->used = ++c->clock;
}

/* The entry that is dir, or the longest that is a directory above it
 * (*exact says which); NULL for none. */
static struct ae_dircache_slot *
lookup(struct ae_dircache *c, const char *dir, size_t len, int *exact)
{
	struct ae_dircache_slot *best = NULL;
	size_t i;

	*exact = 0;
	for (i = 0; i < AE_DIRCACHE_SLOTS; i++) {
		struct ae_dircache_slot *s = &c->slot[i];

		if (s->fd < 0 || s->len > len
		    || memcmp(s->path, dir, s->len) != 0)
			continue;
		if (s->len == len) {
			*exact = 1;
			return s;
		}
		if (dir[s->len] == '/' && (best == NULL || s->len > best->len))
			best = s;
	}
	return best;
}

int
ae_dircache_open(struct ae_dircache *c, const char *dir, int create,
    mode_t mode, int *fd)
{
	size_t len = strlen(dir), at, end, n;
	struct ae_dircache_slot *s;
	int cur, exact, err;

	if (len == 0) {
		*fd = c->root;
		return AE_OK;
	}
	if (!ae_beneath_path_ok(dir))
		return AE_EINVAL;
	s = lookup(c, dir, len, &exact);
	if (s != NULL && exact) {
		s->used = ++c->clock;
		*fd = s->fd;
		return AE_OK;
	}
	cur = c->root;
	at = 0;
	if (s != NULL) {
		s->used = ++c->clock;
		cur = s->fd;
		at = s->len + 1;
	}
	/* Down from there, CHECKPOINT components at a time, each step kept
	 * (the last one is dir itself). */
	for (;;) {
		char *step;
		int nfd;

		for (end = at, n = 0; end < len && n < CHECKPOINT; n++) {
			end += strcspn(dir + end, "/");
			if (n + 1 < CHECKPOINT && end < len)
				end++;
		}
		if ((step = malloc(end - at + 1)) == NULL)
			return AE_ENOMEM;
		memcpy(step, dir + at, end - at);
		step[end - at] = '\0';
		err = ae_beneath_opendir(cur, step, create ?
		    AE_BENEATH_CREATE : 0, mode, &nfd);
		c->opens += n;
		free(step);
		if (err != AE_OK)
			return err;
		keep(c, dir, end, nfd);
		cur = nfd;
		if (end >= len)
			break;
		at = end + 1;
	}
	*fd = cur;
	return AE_OK;
}

void
ae_dircache_forget(struct ae_dircache *c, int keep_fd)
{
	size_t i;

	for (i = 0; i < AE_DIRCACHE_SLOTS; i++)
		if (c->slot[i].fd >= 0 && c->slot[i].fd != keep_fd)
			drop(&c->slot[i]);
}

void
ae_dircache_free(struct ae_dircache *c)
{
	ae_dircache_forget(c, -1);
}
