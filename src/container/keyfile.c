#include "config.h"
#include "keyfile.h"

#include <stdio.h>
#include <string.h>

#include "common/error.h"
#include "common/wipe.h"

static const char comment[] =
    "# aescrypt key file.  Anyone who has it can decrypt what it encrypts.\n";

/*
 * The key is a secret, so its hex digits are made and read without
 * tables or branches on their values, as in the cipher code.
 */
static char
hexdigit(unsigned n)
{
	/* n + '0', plus 39 more when n > 9 (to land on 'a'). */
	return (char)(n + '0' + (((9u - n) >> 8) & 39u));
}

/* -1 as an all-ones mask if lo <= c <= hi, else 0. */
static unsigned
in_range(unsigned c, unsigned lo, unsigned hi)
{
	/* Both differences wrap (setting bit 8) exactly when c is in range. */
	return 0u - (((lo - 1 - c) & (c - hi - 1)) >> 8 & 1u);
}

size_t
ae_keyfile_format(const uint8_t key[32], char *buf, size_t bufsize)
{
	size_t n = sizeof comment - 1 + sizeof AE_KEYFILE_PREFIX - 1 + 64 + 1;
	char *p = buf;
	int i;

	if (bufsize < n + 1)
		return 0;
	memcpy(p, comment, sizeof comment - 1);
	p += sizeof comment - 1;
	memcpy(p, AE_KEYFILE_PREFIX, sizeof AE_KEYFILE_PREFIX - 1);
	p += sizeof AE_KEYFILE_PREFIX - 1;
	for (i = 0; i < 32; i++) {
		*p++ = hexdigit(key[i] >> 4);
		*p++ = hexdigit(key[i] & 15);
	}
	*p++ = '\n';
	*p = '\0';
	return n;
}

/* The value of hex digit c, or -1; no branch on c. */
static int
hexval(char ch)
{
	unsigned c = (unsigned char)ch, dm, lm, um, v;

	dm = in_range(c, '0', '9');
	lm = in_range(c, 'a', 'f');
	um = in_range(c, 'A', 'F');
	v = (dm & (c - '0')) | (lm & (c - 'a' + 10)) | (um & (c - 'A' + 10));
	/* All masks zero: not a digit, so -1. */
	return (int)(v | ~(dm | lm | um));
}

/* Parse one key line (without its line end) into key.  Returns 0 or -1. */
static int
parse_line(const char *s, size_t n, uint8_t key[32])
{
	size_t plen = sizeof AE_KEYFILE_PREFIX - 1;
	int i, bad = 0;

	if (n != plen + 64 || memcmp(s, AE_KEYFILE_PREFIX, plen) != 0)
		return -1;
	s += plen;

	for (i = 0; i < 32; i++) {
		int hi = hexval(s[2 * i]), lo = hexval(s[2 * i + 1]);
		bad |= hi | lo;         /* negative if either was not hex */
		key[i] = (uint8_t)((unsigned)hi << 4 | (unsigned)lo);
	}
	return bad < 0 ? -1 : 0;
}

int
ae_keyfile_parse(const char *text, size_t len, uint8_t key[32])
{
	const char *p = text, *end = text + len;
	uint8_t k[32];
	int found = 0;

	if (len > AE_KEYFILE_MAX)
		return AE_EFORMAT;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl != NULL ? nl : end;
		size_t n = (size_t)(e - p);

		/* A line ends in LF or CR LF; a CR anywhere else (a lone CR
		 * at the end of the file, "\n\r") is part of the line, and
		 * so not a key line. */
		if (nl != NULL && n > 0 && p[n - 1] == '\r')
			n--;
		if (n == 0 || p[0] == '#') {
			/* blank or comment */
		} else if (found || parse_line(p, n, k) != 0) {
			ae_wipe(k, sizeof k);
			return AE_EFORMAT;
		} else {
			found = 1;
		}
		p = nl != NULL ? nl + 1 : end;
	}
	if (found)
		memcpy(key, k, 32);
	ae_wipe(k, sizeof k);
	return found ? AE_OK : AE_EFORMAT;
}
