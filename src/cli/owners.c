/*
 * owners.c -- user and group names, cached (contract in owners.h).
 */
#include "config.h"
#include "owners.h"

#include <grp.h>
#include <pwd.h>
#include <string.h>

void
owners_init(struct owners *c)
{
	memset(c, 0, sizeof *c);
}

static struct owner_entry *
find_id(struct owner_cache *c, unsigned long id)
{
	unsigned i, n = c->n < OWNERS_CACHE ? c->n : OWNERS_CACHE;

	for (i = 0; i < n; i++)
		if (c->e[i].id == id)
			return &c->e[i];
	return NULL;
}

static struct owner_entry *
find_name(struct owner_cache *c, const char *name)
{
	unsigned i, n = c->n < OWNERS_CACHE ? c->n : OWNERS_CACHE;

	for (i = 0; i < n; i++)
		if (strcmp(c->e[i].name, name) == 0)
			return &c->e[i];
	return NULL;
}

/* The slot for a new answer: the oldest one goes. */
static struct owner_entry *
slot(struct owner_cache *c)
{
	return &c->e[c->n++ % OWNERS_CACHE];
}

/* e answers "which name has id": name, or NULL for none (a name too
 * long for a tar header counts as none). */
static const char *
put_name(struct owner_entry *e, unsigned long id, const char *name)
{
	size_t n = name != NULL ? strlen(name) : 0;

	e->id = id;
	e->found = name != NULL && n < sizeof e->name;
	if (e->found)
		memcpy(e->name, name, n + 1);
	else
		e->name[0] = '\0';
	return e->name;
}

const char *
owners_user_name(struct owners *c, uid_t id)
{
	struct owner_entry *e = find_id(&c->uid_name, id);
	struct passwd pw, *res = NULL;
	char tmp[4096];

	if (e != NULL)
		return e->name;
	return put_name(slot(&c->uid_name), id, getpwuid_r(id, &pw, tmp,
	    sizeof tmp, &res) == 0 && res != NULL ? pw.pw_name : NULL);
}

const char *
owners_group_name(struct owners *c, gid_t id)
{
	struct owner_entry *e = find_id(&c->gid_name, id);
	struct group gr, *res = NULL;
	char tmp[4096];

	if (e != NULL)
		return e->name;
	return put_name(slot(&c->gid_name), id, getgrgid_r(id, &gr, tmp,
	    sizeof tmp, &res) == 0 && res != NULL ? gr.gr_name : NULL);
}

/* e answers "which id has name"; the callers check that name fits. */
static void
put_id(struct owner_entry *e, const char *name, int found,
    unsigned long id)
{
	memcpy(e->name, name, strlen(name) + 1);
	e->found = found;
	e->id = id;
}

uid_t
owners_user_id(struct owners *c, const char *name, uid_t fallback)
{
	struct owner_entry *e;
	struct passwd pw, *res = NULL;
	char tmp[4096];

	if (name[0] == '\0' || strlen(name) >= sizeof e->name)
		return fallback;
	if ((e = find_name(&c->uname_id, name)) == NULL) {
		int ok = getpwnam_r(name, &pw, tmp, sizeof tmp, &res) == 0
		    && res != NULL;

		e = slot(&c->uname_id);
		put_id(e, name, ok, ok ? pw.pw_uid : 0);
	}
	return e->found ? (uid_t)e->id : fallback;
}

gid_t
owners_group_id(struct owners *c, const char *name, gid_t fallback)
{
	struct owner_entry *e;
	struct group gr, *res = NULL;
	char tmp[4096];

	if (name[0] == '\0' || strlen(name) >= sizeof e->name)
		return fallback;
	if ((e = find_name(&c->gname_id, name)) == NULL) {
		int ok = getgrnam_r(name, &gr, tmp, sizeof tmp, &res) == 0
		    && res != NULL;

		e = slot(&c->gname_id);
		put_id(e, name, ok, ok ? gr.gr_gid : 0);
	}
	return e->found ? (gid_t)e->id : fallback;
}
