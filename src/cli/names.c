/*
 * names.c -- quoting and stripping of member names (contracts in
 * names.h).
 */
#include "config.h"
#include "names.h"

#include <string.h>
#include <wchar.h>
#include <wctype.h>

/* Append c to buf[*n], keeping room for the NUL. */
static void
put(char *buf, size_t cap, size_t *n, char c)
{
	if (*n + 1 < cap)
		buf[(*n)++] = c;
}

static void
put_octal(char *buf, size_t cap, size_t *n, unsigned char c)
{
	put(buf, cap, n, '\\');
	put(buf, cap, n, (char)('0' + (c >> 6)));
	put(buf, cap, n, (char)('0' + ((c >> 3) & 7)));
	put(buf, cap, n, (char)('0' + (c & 7)));
}

const char *
names_quote(const char *name, char *buf, size_t cap)
{
	static const char esc_from[] = "\a\b\f\n\r\t\v";
	static const char esc_to[] = "abfnrtv";
	size_t len = strlen(name), i = 0, n = 0, k;
	mbstate_t st;
	wchar_t wc;
	const char *e;

	memset(&st, 0, sizeof st);
	while (i < len) {
		unsigned char c = (unsigned char)name[i];

		if (c == '\\') {
			put(buf, cap, &n, '\\');
			put(buf, cap, &n, '\\');
			i++;
			continue;
		}
		k = mbrtowc(&wc, name + i, len - i, &st);
		if (k != (size_t)-1 && k != (size_t)-2 && k != 0
		    && iswprint((wint_t)wc)) {
			while (k-- > 0)
				put(buf, cap, &n, name[i++]);
			continue;
		}
		/* Not printable, or not a character at all: one byte. */
		memset(&st, 0, sizeof st);
		if (c != 0 && (e = strchr(esc_from, c)) != NULL) {
			put(buf, cap, &n, '\\');
			put(buf, cap, &n, esc_to[e - esc_from]);
		} else {
			put_octal(buf, cap, &n, c);
		}
		i++;
	}
	buf[n] = '\0';
	return buf;
}

void
names_print(FILE *fp, const char *name)
{
	/* Four bytes out per byte in is the worst case (\ooo). */
	char buf[4 * 4096 + 16];

	fputs(names_quote(name, buf, sizeof buf), fp);
}

const char *
names_strip(const char *name, size_t *prefix)
{
	const char *p = name, *cut = name;

	while (*p != '\0') {
		if (p[0] == '.' && p[1] == '.' && (p[2] == '/' || p[2] == '\0'))
			cut = p + 2;
		p += strcspn(p, "/");
		if (*p == '/')
			p++;
	}
	while (*cut == '/')
		cut++;
	*prefix = (size_t)(cut - name);
	return cut;
}

int
names_has_dotdot(const char *name)
{
	const char *p = name;

	while (*p != '\0') {
		if (p[0] == '.' && p[1] == '.' && (p[2] == '/' || p[2] == '\0'))
			return 1;
		p += strcspn(p, "/");
		while (*p == '/')
			p++;
	}
	return 0;
}
