/*
 * owners.h -- user and group names for tar members, both ways, through
 * the system's databases (getpwuid_r and friends), with a small cache.
 *
 * The cache is why this exists: each lookup through NSS opens, reads
 * and closes /etc/passwd or /etc/group, and -x as root looked up both
 * names of every member: 4 system calls a file (a tree of 15,000 files
 * spent a fifth of its extraction time there).  An archive has few
 * owners, so the last few answers, found or not, serve nearly every
 * member.
 */
#ifndef AE_DISK_OWNERS_H
#define AE_DISK_OWNERS_H

#include <sys/types.h>

#define AE_OWNERS_CACHE 4

/* One answer of the database: id and name, or found = 0 for "it has
 * none" (then the key that was asked is kept in id or name). */
struct ae_owner_entry {
	unsigned long id;
	int found;
	char name[256];
};

/* The last answers, per question; n counts every answer ever put in,
 * so n % AE_OWNERS_CACHE is the slot to replace next. */
struct ae_owner_cache {
	struct ae_owner_entry e[AE_OWNERS_CACHE];
	unsigned n;
};

struct ae_owners {
	struct ae_owner_cache uid_name, gid_name, uname_id, gname_id;
};

/* An empty cache. */
void ae_owners_init(struct ae_owners *c);

/* The name of user id, or "" if the database has none (or it is too
 * long for a tar header's 255 bytes).  Valid until the next call. */
const char *ae_owners_user_name(struct ae_owners *c, uid_t id);
const char *ae_owners_group_name(struct ae_owners *c, gid_t id);

/* The id the database gives name, or fallback if name is "" or the
 * database does not know it (tar's rule: the name wins, else the
 * number). */
uid_t ae_owners_user_id(struct ae_owners *c, const char *name, uid_t fallback);
gid_t ae_owners_group_id(struct ae_owners *c, const char *name, gid_t fallback);

#endif
