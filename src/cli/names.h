/*
 * names.h -- member names as a terminal shows them, and the name a path
 * is stored or extracted under.
 */
#ifndef AE_CLI_NAMES_H
#define AE_CLI_NAMES_H

#include <stddef.h>
#include <stdio.h>

/*
 * Print name to fp as GNU tar's default "escape" quoting does, so that
 * `aescrypt -t` and `aescrypt -d | tar -t` print the same lines: a
 * character the locale (LC_CTYPE) can print is written as is, a
 * backslash as "\\", a control character as its C escape (\n, \t, ...)
 * or \ooo, and any byte that is not part of a printable character as
 * \ooo.  A name can thus never start a fake line or a terminal escape.
 * Unicode format characters (bidi overrides and isolates, directional
 * marks, zero-width characters) are escaped as \ooo bytes too, so a
 * name cannot make the listing show it in another order (tar prints
 * them raw; here safety wins over byte-identical output).
 */
void names_print(FILE *fp, const char *name);

/* The same into buf (cap > 0; cut short if it does not fit).  Returns
 * buf, for messages. */
const char *names_quote(const char *name, char *buf, size_t cap);

/*
 * The part of name that tar stores or extracts: GNU tar drops any
 * leading '/' and everything up to and including the last ".."
 * component.  Returns a pointer into name; *prefix is set to the
 * length of what was dropped (0 if nothing).
 */
const char *names_strip(const char *name, size_t *prefix);

/* Whether name has a ".." component anywhere.  1 or 0. */
int names_has_dotdot(const char *name);

/* Which option keeps an extended attribute, by its name: */
enum names_xattr {
	NAMES_XATTR_PLAIN,      /* --xattrs: user.*, trusted.*, security.* */
	NAMES_XATTR_ACL,        /* --acls: system.posix_acl_{access,default} */
	NAMES_XATTR_NEVER       /* any other system.* (the kernel's) */
};
enum names_xattr names_xattr_kind(const char *name);

#endif
