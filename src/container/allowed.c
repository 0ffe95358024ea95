/*
 * allowed.c -- OpenSSH's allowed_signers file (contract in allowed.h).
 */
#include "config.h"
#include "allowed.h"

#include <ctype.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "common/grow.h"
#include "recipient.h"

static int
bad(struct ae_diag *d, unsigned line, const char *what)
{
	return ae_fail(d, AE_EFORMAT, AE_AT_NONE, what, line, 0);
}

/* The next field of *p: up to white space outside double quotes (NUL
 * written after it).  NULL at the end of the line, or for an unclosed
 * quote (*open set). */
static char *
field(char **p, int *open)
{
	char *s = *p, *e;
	int q = 0;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == 0)
		return NULL;
	for (e = s; *e != 0 && (q || (*e != ' ' && *e != '\t')); e++)
		if (*e == '"')
			q = !q;
	if (q) {
		*open = 1;
		return NULL;
	}
	if (*e != 0)
		*e++ = 0;
	*p = e;
	return s;
}

static int
is_key_type(const char *s)
{
	return strncmp(s, "ssh-", 4) == 0 || strncmp(s, "ecdsa-", 6) == 0
	    || strncmp(s, "sk-", 3) == 0;
}

/* A value without its surrounding quotes, in place. */
static char *
unquote(char *s)
{
	size_t n = strlen(s);

	if (n >= 2 && s[0] == '"' && s[n - 1] == '"') {
		s[n - 1] = 0;
		return s + 1;
	}
	return s;
}

/* YYYYMMDD[Z] or YYYYMMDDHHMM[SS][Z]: seconds of the epoch, or -1. */
static int
timestamp(const char *s, int64_t *out)
{
	size_t n = strlen(s), digits, i;
	int utc = n > 0 && (s[n - 1] == 'Z' || s[n - 1] == 'z');
	struct tm tm;
	time_t t;
	int v[7] = { 0 };
	static const int w[7] = { 4, 2, 2, 2, 2, 2, 0 };
	size_t at = 0, k;

	digits = n - (size_t)utc;
	if (digits != 8 && digits != 12 && digits != 14)
		return -1;
	for (i = 0; i < digits; i++)
		if (!isdigit((unsigned char)s[i]))
			return -1;
	for (k = 0; k < 6 && at < digits; k++) {
		for (i = 0; i < (size_t)w[k]; i++)
			v[k] = v[k] * 10 + (s[at + i] - '0');
		at += (size_t)w[k];
	}
	if (v[1] < 1 || v[1] > 12 || v[2] < 1 || v[2] > 31 || v[3] > 23
	    || v[4] > 59 || v[5] > 60)
		return -1;
	memset(&tm, 0, sizeof tm);
	tm.tm_year = v[0] - 1900;
	tm.tm_mon = v[1] - 1;
	tm.tm_mday = v[2];
	tm.tm_hour = v[3];
	tm.tm_min = v[4];
	tm.tm_sec = v[5];
	tm.tm_isdst = -1;
	t = utc ? timegm(&tm) : mktime(&tm);
	if (t == (time_t)-1)
		return -1;
	*out = (int64_t)t;
	return 0;
}

/* The options field into e (and *ca); 0 or an error for line. */
static int
options(char *s, struct ae_allowed_entry *e, int *ca, unsigned line,
    struct ae_diag *d)
{
	char *o = s, *next, *eq, *val;
	int q;

	while (o != NULL && *o != 0) {
		/* the next comma outside quotes */
		for (next = o, q = 0; *next != 0 && (q || *next != ','); next++)
			if (*next == '"')
				q = !q;
		if (*next == ',')
			*next++ = 0;
		else
			next = NULL;
		eq = strchr(o, '=');
		if (eq != NULL)
			*eq = 0;
		val = eq != NULL ? unquote(eq + 1) : NULL;
		if (strcasecmp(o, "cert-authority") == 0 && val == NULL) {
			*ca = 1;
		} else if (strcasecmp(o, "namespaces") == 0 && val != NULL) {
			free(e->namespaces);
			if ((e->namespaces = strdup(val)) == NULL)
				return AE_ENOMEM;
		} else if (strcasecmp(o, "valid-after") == 0 && val != NULL) {
			if (timestamp(val, &e->after) != 0)
				return bad(d, line, "valid-after is not a time "
				    "(YYYYMMDD[Z] or YYYYMMDDHHMM[SS][Z])");
		} else if (strcasecmp(o, "valid-before") == 0 && val != NULL) {
			if (timestamp(val, &e->before) != 0)
				return bad(d, line, "valid-before is not a time "
				    "(YYYYMMDD[Z] or YYYYMMDDHHMM[SS][Z])");
		} else {
			return bad(d, line, "an option allowed_signers does not "
			    "have (cert-authority, namespaces=, valid-after=, "
			    "valid-before=), or one without its value");
		}
		o = next;
	}
	return AE_OK;
}

/* One line (a copy, changed in place); 0 or an error. */
static int
one_line(struct ae_allowed *a, char *s, unsigned line, struct ae_diag *d)
{
	struct ae_allowed_entry e;
	struct ae_recipient r;
	struct ae_diag kd = { 0 };
	char *f, *principals, *type, *key, *comment, *kl;
	int open = 0, ca = 0, err;

	memset(&e, 0, sizeof e);
	e.after = INT64_MIN;
	e.before = INT64_MAX;
	e.line = line;
	if ((f = field(&s, &open)) == NULL || *f == '#')
		return open ? bad(d, line, "a quote is not closed") : AE_OK;
	if (is_key_type(f)) {
		/* a bare public key: its comment names it */
		principals = NULL;
		type = f;
	} else {
		principals = unquote(f);
		if ((type = field(&s, &open)) == NULL)
			return bad(d, line, open ? "a quote is not closed" :
			    "a principal with no key after it");
		if (!is_key_type(type)) {
			if ((err = options(type, &e, &ca, line, d)) != AE_OK)
				goto fail;
			if ((type = field(&s, &open)) == NULL
			    || !is_key_type(type)) {
				err = bad(d, line, "no key type (ssh-ed25519) "
				    "where one belongs");
				goto fail;
			}
		}
	}
	if ((key = field(&s, &open)) == NULL) {
		err = bad(d, line, "a key type with no key after it");
		goto fail;
	}
	while (*s == ' ' || *s == '\t')
		s++;
	comment = s;
	if (ca || strcmp(type, "ssh-ed25519") != 0) {
		/* (what cannot be checked here never counts as allowed) */
		if (ca)
			a->authorities++;
		else
			a->other_types++;
		free(e.namespaces);
		return AE_OK;
	}
	if ((kl = malloc(strlen(type) + strlen(key) + 2)) == NULL) {
		err = AE_ENOMEM;
		goto fail;
	}
	strcpy(kl, type);
	strcat(kl, " ");
	strcat(kl, key);
	err = ae_recipient_parse(kl, &r, &kd);
	free(kl);
	if (err != AE_OK) {
		err = bad(d, line, "the key is not a valid ssh-ed25519 key");
		goto fail;
	}
	memcpy(e.pk, r.ed, 32);
	if ((e.principals = strdup(principals != NULL ? principals : comment))
	    == NULL || ae_grow(&a->v, &a->cap, a->n + 1, sizeof *a->v, 8, 0)
	    != 0) {
		err = AE_ENOMEM;
		goto fail;
	}
	a->v[a->n++] = e;
	return AE_OK;
fail:
	free(e.principals);
	free(e.namespaces);
	return err;
}

int
ae_allowed_parse(struct ae_allowed *a, const char *text, size_t len,
    struct ae_diag *d)
{
	size_t at = 0, n;
	unsigned line = 0;
	char *copy;
	int err = AE_OK;

	memset(a, 0, sizeof *a);
	while (at < len && err == AE_OK) {
		const char *nl = memchr(text + at, '\n', len - at);

		n = nl != NULL ? (size_t)(nl - (text + at)) : len - at;
		line++;
		if (memchr(text + at, 0, n) != NULL)
			err = bad(d, line, "a NUL byte in the line");
		else if ((copy = strndup(text + at, n)) == NULL)
			err = AE_ENOMEM;
		else {
			copy[strcspn(copy, "\r")] = 0;
			err = one_line(a, copy, line, d);
			free(copy);
		}
		at += n + (nl != NULL);
	}
	if (err != AE_OK)
		ae_allowed_free(a);
	return err;
}

void
ae_allowed_free(struct ae_allowed *a)
{
	size_t i;

	for (i = 0; i < a->n; i++) {
		free(a->v[i].principals);
		free(a->v[i].namespaces);
	}
	free(a->v);
	memset(a, 0, sizeof *a);
}

/* Whether the pattern list allows ns: a negated pattern that matches
 * refuses it whatever else matches (OpenSSH's match_pattern_list). */
static int
ns_allowed(const char *list, const char *ns)
{
	char *copy, *p, *save = NULL;
	int yes = 0;

	if (list == NULL)
		return 1;
	if ((copy = strdup(list)) == NULL)
		return 0;
	for (p = strtok_r(copy, ",", &save); p != NULL;
	    p = strtok_r(NULL, ",", &save)) {
		int neg = *p == '!';

		if (fnmatch(p + neg, ns, 0) == 0) {
			if (neg) {
				yes = 0;
				break;
			}
			yes = 1;
		}
	}
	free(copy);
	return yes;
}

const char *
ae_allowed_why(int why)
{
	switch (why) {
	case AE_ALLOWED_NAMESPACE:
		return "allows only for other namespaces than \"aescrypt\"";
	case AE_ALLOWED_NOT_YET:
		return "allows only from a later time";
	case AE_ALLOWED_EXPIRED:
		return "allowed only until an earlier time";
	}
	return "does not list";
}

long
ae_allowed_find(const struct ae_allowed *a, const uint8_t pk[32],
    const char *ns, int64_t now, int *why)
{
	size_t i;

	*why = AE_ALLOWED_UNLISTED;
	for (i = 0; i < a->n; i++) {
		const struct ae_allowed_entry *e = &a->v[i];

		if (memcmp(e->pk, pk, 32) != 0)
			continue;
		if (!ns_allowed(e->namespaces, ns)) {
			if (*why == AE_ALLOWED_UNLISTED)
				*why = AE_ALLOWED_NAMESPACE;
		} else if (now < e->after) {
			if (*why == AE_ALLOWED_UNLISTED)
				*why = AE_ALLOWED_NOT_YET;
		} else if (now > e->before) {
			if (*why == AE_ALLOWED_UNLISTED)
				*why = AE_ALLOWED_EXPIRED;
		} else {
			return (long)i;
		}
	}
	return -1;
}
