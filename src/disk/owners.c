/*
 * owners.c -- user and group names, cached (contract in owners.h).
 */
#include "config.h"
#include "owners.h"

#include <grp.h>
#include <pwd.h>
#include <string.h>

void
ae_owners_init(struct ae_owners *c)
{
	memset(c, 0, sizeof *c);
}

static struct ae_owner_entry *
find_id(struct ae_owner_cache *c, unsigned long id)
{
	unsigned i, n = c->n < AE_OWNERS_CACHE ? c->n : AE_OWNERS_CACHE;

	for (i = 0; i < n; i++)
		if (c->e[i].id == id)
			return &c->e[i];
	return NULL;
}

static struct ae_owner_entry *
find_name(struct ae_owner_cache *c, const char *name)
{
	unsigned i, n = c->n < AE_OWNERS_CACHE ? c->n : AE_OWNERS_CACHE;

	for (i = 0; i < n; i++)
		if (strcmp(c->e[i].name, name) == 0)
			return &c->e[i];
	return NULL;
}

/* The slot for a new answer: the oldest one goes. */
static struct ae_owner_entry *
slot(struct ae_owner_cache *c)
{
	return &c->e[c->n++ % AE_OWNERS_CACHE];
}

/* The database, one question each: 1 with the answer, or 0 for none
 * (a name too long for a tar header, 255 bytes, counts as none). */
static int
keep(const char *name, char out[256])
{
	size_t n = strlen(name);

	if (n >= 256)
		return 0;
	memcpy(out, name, n + 1);
	return 1;
}

static int
user_of(unsigned long id, char name[256])
{
	struct passwd pw, *res = NULL;
	char tmp[4096];

	return getpwuid_r((uid_t)id, &pw, tmp, sizeof tmp, &res) == 0
	    && res != NULL && keep(pw.pw_name, name);
}

static int
group_of(unsigned long id, char name[256])
{
	struct group gr, *res = NULL;
	char tmp[4096];

	return getgrgid_r((gid_t)id, &gr, tmp, sizeof tmp, &res) == 0
	    && res != NULL && keep(gr.gr_name, name);
}

static int
uid_of(const char *name, unsigned long *id)
{
	struct passwd pw, *res = NULL;
	char tmp[4096];

	if (getpwnam_r(name, &pw, tmp, sizeof tmp, &res) != 0 || res == NULL)
		return 0;
	*id = pw.pw_uid;
	return 1;
}

static int
gid_of(const char *name, unsigned long *id)
{
	struct group gr, *res = NULL;
	char tmp[4096];

	if (getgrnam_r(name, &gr, tmp, sizeof tmp, &res) != 0 || res == NULL)
		return 0;
	*id = gr.gr_gid;
	return 1;
}

/* An id's name ("" for none), from the cache or asked of the database
 * and kept. */
static const char *
name_by_id(struct ae_owner_cache *c, unsigned long id,
    int (*ask)(unsigned long, char[256]))
{
	struct ae_owner_entry *e = find_id(c, id);

	if (e == NULL) {
		e = slot(c);
		e->id = id;
		e->found = ask(id, e->name);
		if (!e->found)
			e->name[0] = '\0';
	}
	return e->name;
}

/* A name's id, or fallback: as name_by_id, the other way. */
static unsigned long
id_by_name(struct ae_owner_cache *c, const char *name, unsigned long fallback,
    int (*ask)(const char *, unsigned long *))
{
	struct ae_owner_entry *e;

	if (name[0] == '\0' || strlen(name) >= sizeof e->name)
		return fallback;
	if ((e = find_name(c, name)) == NULL) {
		e = slot(c);
		memcpy(e->name, name, strlen(name) + 1);    /* fits: above */
		e->found = ask(name, &e->id);
	}
	return e->found ? e->id : fallback;
}

const char *
ae_owners_user_name(struct ae_owners *c, uid_t id)
{
	return name_by_id(&c->uid_name, id, user_of);
}

const char *
ae_owners_group_name(struct ae_owners *c, gid_t id)
{
	return name_by_id(&c->gid_name, id, group_of);
}

uid_t
ae_owners_user_id(struct ae_owners *c, const char *name, uid_t fallback)
{
	return (uid_t)id_by_name(&c->uname_id, name, fallback, uid_of);
}

gid_t
ae_owners_group_id(struct ae_owners *c, const char *name, gid_t fallback)
{
	return (gid_t)id_by_name(&c->gname_id, name, fallback, gid_of);
}
