/*
 * allowed.h -- OpenSSH's allowed_signers file (ssh-keygen(1), ALLOWED
 * SIGNERS), the list of keys a reader trusts to sign, and a single
 * public key line taken as a list of one.
 *
 * A line is "principals [options] keytype base64 [comment]"; '#' lines
 * and blank ones are comments.  principals is a comma-separated list
 * (double quotes allow spaces); the options, comma-separated, are
 * cert-authority, namespaces="list", valid-after="time" and
 * valid-before="time", their names in any case, a time being
 * YYYYMMDD[Z] or YYYYMMDDHHMM[SS][Z] (local time unless Z: UTC).  Only
 * ssh-ed25519 keys can sign an aescrypt file: lines of other key types
 * are counted and left out, and so are cert-authority lines (a
 * certificate's signature is not checked here), so that what cannot be
 * checked never counts as allowed.
 */
#ifndef AE_ALLOWED_H
#define AE_ALLOWED_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

struct ae_allowed_entry {
	char *principals;           /* as written (quotes removed); for a
	                             * bare key line its comment, or "" */
	char *namespaces;           /* the namespaces= list, or NULL: any */
	int64_t after, before;      /* valid-after/-before, in seconds of
	                             * the epoch; INT64_MIN/MAX if absent */
	uint8_t pk[32];             /* the Ed25519 key */
	unsigned line;              /* from 1 */
};

struct ae_allowed {
	struct ae_allowed_entry *v;
	size_t n, cap;
	size_t other_types;         /* lines of keys other than ssh-ed25519 */
	size_t authorities;         /* cert-authority lines */
};

/*
 * Parse text[0, len) into a (zeroed first).  0; AE_EFORMAT for a line
 * that is not one (d->index: its number, from 1; d->what: why);
 * AE_ENOMEM.  A file with no usable line is not an error here: the
 * caller says what it held.
 */
int ae_allowed_parse(struct ae_allowed *a, const char *text, size_t len,
    struct ae_diag *d);
void ae_allowed_free(struct ae_allowed *a);

/* Why ae_allowed_find found no entry. */
enum {
	AE_ALLOWED_UNLISTED = 1,    /* the key is on no line */
	AE_ALLOWED_NAMESPACE,       /* ... only on lines for other
	                             * namespaces */
	AE_ALLOWED_NOT_YET,         /* ... only before its valid-after */
	AE_ALLOWED_EXPIRED          /* ... only after its valid-before */
};

/*
 * The first entry of a for the key pk whose namespaces allow ns (a
 * pattern list: * and ? wildcards, ! to refuse) and whose times hold at
 * now: its index, or -1 with *why set (for the first line of pk, when
 * it is listed).
 */
long ae_allowed_find(const struct ae_allowed *a, const uint8_t pk[32],
    const char *ns, int64_t now, int *why);

/* why in words, to follow "signed by KEY, which the signers file": a
 * static string ("does not list", ...). */
const char *ae_allowed_why(int why);

#endif
