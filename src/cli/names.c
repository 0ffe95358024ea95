/*
 * names.c -- quoting and stripping of member names (contracts in
 * names.h).
 */
#include "config.h"
#include "names.h"

#include <stdlib.h>
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

/*
 * Unicode format characters that glibc counts as printable but that
 * change how the text around them is shown: the bidi overrides,
 * embeddings and isolates (U+202A-202E, U+2066-2069, which can show
 * "evil\u202etxt.exe" as "evilexe.txt"), the directional marks, the
 * zero-width characters, the BOM, the interlinear annotation marks and
 * the tag characters.  These are escaped byte by byte like controls.
 */
static int
is_format_char(wchar_t wc)
{
	unsigned long c = (unsigned long)wc;

	return c == 0x00ad || c == 0x061c || c == 0x180e
	    || (c >= 0x200b && c <= 0x200f) || (c >= 0x2028 && c <= 0x202e)
	    || (c >= 0x2060 && c <= 0x206f) || c == 0xfeff
	    || (c >= 0xfff9 && c <= 0xfffb) || (c >= 0xe0000 && c <= 0xe007f);
}

/* names_quote in full: buf must have room for 4 * strlen(name) + 1. */
static void
quote_all(const char *name, char *buf, size_t cap)
{
	static const char esc_from[] = "\a\b\f\n\r\t\v";
	static const char esc_to[] = "abfnrtv";
	size_t len = strlen(name), i = 0, n = 0, k;
	int decode = 1;
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
		/* printable ASCII at a character boundary is itself in
		 * every locale this runs in (a listing of 200,000 names
		 * spent a third of its time in mbrtowc otherwise) */
		if (c >= 0x20 && c < 0x7f) {
			put(buf, cap, &n, (char)c);
			i++;
			continue;
		}
		k = decode ? mbrtowc(&wc, name + i, len - i, &st) : (size_t)-1;
		if (k == (size_t)-1 || k == (size_t)-2 || k == 0) {
			/* Not a character at all: the name is not in this
			 * locale's encoding, and what follows is not guessed
			 * at either (bytes that happen to form a character
			 * there would be a wrong one), as bsdtar lists it. */
			decode = 0;
			memset(&st, 0, sizeof st);
			k = 1;
		} else if (iswprint((wint_t)wc) && !is_format_char(wc)) {
			while (k-- > 0)
				put(buf, cap, &n, name[i++]);
			continue;
		}
		/* Not printable, or not a character: each byte escaped. */
		for (; k > 0; k--, i++) {
			c = (unsigned char)name[i];
			if (c != 0 && (e = strchr(esc_from, c)) != NULL) {
				put(buf, cap, &n, '\\');
				put(buf, cap, &n, esc_to[e - esc_from]);
			} else {
				put_octal(buf, cap, &n, c);
			}
		}
	}
	buf[n] = '\0';
}

/* Step back from p (inside s) to the start of a UTF-8 character. */
static const char *
char_start(const char *s, const char *p)
{
	while (p > s && ((unsigned char)*p & 0xc0) == 0x80)
		p--;
	return p;
}

const char *
names_quote(const char *name, char *buf, size_t cap)
{
	size_t need = 4 * strlen(name) + 1, len, budget, head, tail;
	const char *t;
	char *all;

	if (need <= cap) {
		quote_all(name, buf, cap);
		return buf;
	}
	/* Too long for buf: keep the start and the end, which say the
	 * most, with "..." in the middle, so the rest of the message (the
	 * reason) is never cut off. */
	if ((all = malloc(need)) == NULL || cap < 16) {
		free(all);
		quote_all(name, buf, cap);
		return buf;
	}
	quote_all(name, all, need);
	len = strlen(all);
	if (len < cap) {
		memcpy(buf, all, len + 1);
		free(all);
		return buf;
	}
	/* head + "..." + tail + NUL fits in cap; neither side splits a
	 * UTF-8 character. */
	budget = cap - 4;
	head = (size_t)(char_start(all, all + budget / 2) - all);
	t = all + len - (budget - head);
	while (((unsigned char)*t & 0xc0) == 0x80)
		t++;
	tail = (size_t)(all + len - t);
	memcpy(buf, all, head);
	memcpy(buf + head, "...", 3);
	memcpy(buf + head + 3, t, tail);
	buf[head + 3 + tail] = '\0';
	free(all);
	return buf;
}

void
names_print(FILE *fp, const char *name)
{
	/* Four bytes out per byte in is the worst case (\ooo): the stack
	 * buffer holds any name the tar reader passes (AE_TAR_NAME_MAX),
	 * and a longer one (a path from the command line) gets a buffer of
	 * its own rather than being cut. */
	char buf[4 * 4096 + 16], *big = NULL;
	size_t need = 4 * strlen(name) + 1;

	if (need > sizeof buf && (big = malloc(need)) != NULL) {
		fputs(names_quote(name, big, need), fp);
		free(big);
		return;
	}
	fputs(names_quote(name, buf, sizeof buf), fp);
}

void
names_json(FILE *fp, const char *s)
{
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(fp, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			fprintf(fp, "\\u%04x", c);
		else
			putc(c, fp);
	}
}
