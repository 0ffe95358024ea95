/*
 * names.h -- member names as a terminal shows them.
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

/* s as the body of a JSON string: quotes, backslashes and control
 * characters escaped, every other byte as it is (--info=json). */
void names_json(FILE *fp, const char *s);

#endif
