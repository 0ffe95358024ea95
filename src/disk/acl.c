/*
 * acl.c -- POSIX ACLs, kernel form and tar text (contract in acl.h).
 */
#include "config.h"
#include "acl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"

/* The kernel's tags (linux/posix_acl.h), in the order it wants. */
enum {
	TAG_USER_OBJ = 0x01, TAG_USER = 0x02, TAG_GROUP_OBJ = 0x04,
	TAG_GROUP = 0x08, TAG_MASK = 0x10, TAG_OTHER = 0x20
};
#define ACL_VERSION 2
#define NO_ID 0xffffffffu
#define ENTRY 8
#define MAX_ENTRIES ((AE_ACL_MAX - 4) / ENTRY)

struct entry {
	unsigned tag, perm;
	uint32_t id;
};

ssize_t
ae_acl_to_text(struct ae_owners *o, const uint8_t *x, size_t n, char *out,
    size_t cap)
{
	size_t used = 0, i;

	if (cap == 0 || n < 4 || (n - 4) % ENTRY != 0
	    || load_le32(x) != ACL_VERSION)
		return -1;
	out[0] = '\0';
	for (i = 4; i < n; i += ENTRY) {
		unsigned tag = (unsigned)x[i] | (unsigned)x[i + 1] << 8;
		unsigned perm = (unsigned)x[i + 2] | (unsigned)x[i + 3] << 8;
		uint32_t id = load_le32(x + i + 4);
		const char *kind, *name = "";
		char num[16];
		int k;

		switch (tag) {
		case TAG_USER_OBJ: kind = "user"; break;
		case TAG_USER:
			kind = "user";
			name = ae_owners_user_name(o, (uid_t)id);
			break;
		case TAG_GROUP_OBJ: kind = "group"; break;
		case TAG_GROUP:
			kind = "group";
			name = ae_owners_group_name(o, (gid_t)id);
			break;
		case TAG_MASK: kind = "mask"; break;
		case TAG_OTHER: kind = "other"; break;
		default: return -1;
		}
		if ((tag == TAG_USER || tag == TAG_GROUP) && *name == '\0') {
			snprintf(num, sizeof num, "%lu", (unsigned long)id);
			name = num;
		}
		k = snprintf(out + used, cap - used, "%s:%s:%c%c%c\n", kind,
		    name, perm & 4 ? 'r' : '-', perm & 2 ? 'w' : '-',
		    perm & 1 ? 'x' : '-');
		if (k < 0 || (size_t)k >= cap - used)
			return -1;
		used += (size_t)k;
	}
	return (ssize_t)used;
}

/* Whether s[0, n) is all digits (and not empty); its value in *v. */
static int
number(const char *s, size_t n, uint32_t *v)
{
	uint64_t x = 0;
	size_t i;

	if (n == 0 || n > 10)
		return 0;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
		x = x * 10 + (uint64_t)(s[i] - '0');
	}
	if (x >= NO_ID)
		return 0;
	*v = (uint32_t)x;
	return 1;
}

/* Split e[0, n) at ':' into at most 4 fields.  How many. */
static int
fields(const char *e, size_t n, const char *f[4], size_t fl[4])
{
	int k = 0;
	size_t start = 0, i;

	for (i = 0; i <= n; i++) {
		if (i < n && e[i] != ':')
			continue;
		if (k == 4)
			return 5;
		f[k] = e + start;
		fl[k++] = i - start;
		start = i + 1;
	}
	return k;
}

/* One entry of the text, e[0, n), into *out.  0, or -1. */
static int
parse_entry(struct ae_owners *o, const char *e, size_t n, struct entry *out)
{
	const char *f[4];
	size_t fl[4], i;
	int k;

	if (n > 8 && memcmp(e, "default:", 8) == 0)
		e += 8, n -= 8;
	else if (n > 2 && memcmp(e, "d:", 2) == 0)
		e += 2, n -= 2;
	k = fields(e, n, f, fl);
	if (k < 2 || k > 4)
		return -1;
	/* "mask::rwx" and "other::r--"; star also writes "mask:rwx" */
	if (k == 2) {
		f[2] = f[1], fl[2] = fl[1];
		fl[1] = 0;
	}
#define IS(s) ((fl[0] == sizeof s - 1 && memcmp(f[0], s, fl[0]) == 0))
	if (IS("user") || IS("u"))
		out->tag = fl[1] ? TAG_USER : TAG_USER_OBJ;
	else if (IS("group") || IS("g"))
		out->tag = fl[1] ? TAG_GROUP : TAG_GROUP_OBJ;
	else if (IS("mask") || IS("m"))
		out->tag = TAG_MASK;
	else if (IS("other") || IS("o"))
		out->tag = TAG_OTHER;
	else
		return -1;
#undef IS
	out->perm = 0;
	for (i = 0; i < fl[2]; i++) {
		switch (f[2][i]) {
		case 'r': out->perm |= 4; break;
		case 'w': out->perm |= 2; break;
		case 'x': out->perm |= 1; break;
		case '-': break;
		default: return -1;
		}
	}
	out->id = NO_ID;
	if (out->tag == TAG_USER || out->tag == TAG_GROUP) {
		char name[256];
		uint32_t v;
		unsigned long id;

		if (fl[1] >= sizeof name)
			return -1;
		memcpy(name, f[1], fl[1]);
		name[fl[1]] = '\0';
		id = out->tag == TAG_USER ?
		    (unsigned long)ae_owners_user_id(o, name, (uid_t)-1) :
		    (unsigned long)ae_owners_group_id(o, name, (gid_t)-1);
		if (id != (unsigned long)(uid_t)-1 && id < NO_ID)
			out->id = (uint32_t)id;
		else if (k == 4 && number(f[3], fl[3], &v))
			out->id = v;
		else if (number(f[1], fl[1], &v))
			out->id = v;
		else
			return -1;
	} else if ((k > 2 && fl[1] != 0) || k == 4) {
		return -1;
	}
	return 0;
}

static int
by_tag_id(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	if (x->tag != y->tag)
		return x->tag < y->tag ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

ssize_t
ae_acl_from_text(struct ae_owners *o, const char *text, size_t n,
    uint8_t *out, size_t cap)
{
	struct entry *v = NULL;
	size_t nv = 0, i = 0, len;
	unsigned seen = 0, group_class = 0;
	ssize_t r = -1;

	if ((v = calloc(MAX_ENTRIES + 1, sizeof *v)) == NULL)
		return -1;
	while (i < n) {
		size_t j = i, b, e;

		while (j < n && text[j] != ',' && text[j] != '\n')
			j++;
		b = i, e = j;
		while (b < e && (text[b] == ' ' || text[b] == '\t'))
			b++;
		while (e > b && (text[e - 1] == ' ' || text[e - 1] == '\t'
		    || text[e - 1] == '\r'))
			e--;
		i = j + 1;
		if (b == e || text[b] == '#')
			continue;
		if (nv == MAX_ENTRIES || parse_entry(o, text + b, e - b,
		    &v[nv]) != 0)
			goto out;
		nv++;
	}
	qsort(v, nv, sizeof *v, by_tag_id);
	for (i = 0; i < nv; i++) {
		if (i > 0 && v[i].tag == v[i - 1].tag && v[i].id == v[i - 1].id)
			goto out;       /* an entry twice */
		seen |= v[i].tag;
		if (v[i].tag & (TAG_USER | TAG_GROUP_OBJ | TAG_GROUP))
			group_class |= v[i].perm;
	}
	if ((seen & (TAG_USER_OBJ | TAG_GROUP_OBJ | TAG_OTHER))
	    != (TAG_USER_OBJ | TAG_GROUP_OBJ | TAG_OTHER))
		goto out;
	if ((seen & (TAG_USER | TAG_GROUP)) && !(seen & TAG_MASK)) {
		/* as setfacl: the union of the group class */
		v[nv].tag = TAG_MASK;
		v[nv].perm = group_class;
		v[nv++].id = NO_ID;
		qsort(v, nv, sizeof *v, by_tag_id);
	}
	len = 4 + nv * ENTRY;
	if (len > cap)
		goto out;
	store_le32(out, ACL_VERSION);
	for (i = 0; i < nv; i++) {
		uint8_t *p = out + 4 + i * ENTRY;

		p[0] = (uint8_t)v[i].tag;
		p[1] = (uint8_t)(v[i].tag >> 8);
		p[2] = (uint8_t)v[i].perm;
		p[3] = 0;
		store_le32(p + 4, v[i].id);
	}
	r = (ssize_t)len;
out:
	free(v);
	return r;
}
