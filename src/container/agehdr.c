/*
 * agehdr.c -- an age v1 file's header (contracts in agehdr.h).
 *
 * The header is read to the end of its "---" line first, then parsed
 * as a whole by the spec's ABNF: age's rules are strict so that a
 * header has one encoding, which is what its MAC covers; so the MAC is
 * computed over the bytes as read.  Everything here is public.
 */
#include "config.h"
#include "agehdr.h"

#include <stdlib.h>
#include <string.h>

#include "common/base64.h"
#include "common/grow.h"
#include "common/wipe.h"
#include "crypto/hkdf.h"
#include "crypto/hmac_sha256.h"

#define INTRO "age-encryption.org/v1\n"
#define COLUMNS 64              /* a full body line */
#define LINE_BYTES 48           /* what it decodes to */

/* The buffered bytes first, then src: n bytes, fewer only at the end
 * (as the pipeline's reader expects a piece to be whole). */
static int
input_read(void *ctx, uint8_t *buf, size_t n, size_t *got)
{
	struct ae_age_input *in = ctx;
	size_t k = in->len - in->pos, more;
	int r;

	if (k > n)
		k = n;
	memcpy(buf, in->buf + in->pos, k);
	in->pos += k;
	*got = k;
	while (*got < n && !in->eof) {
		if ((r = in->src->read(in->src->ctx, buf + *got, n - *got,
		    &more)) != AE_OK) {
			in->consumed += *got;
			return r;
		}
		if (more == 0)
			in->eof = 1;
		*got += more;
	}
	in->consumed += *got;
	return AE_OK;
}

void
ae_age_input_reader(struct ae_age_input *in, struct ae_reader *out)
{
	out->read = input_read;
	out->ctx = in;
	out->seek = NULL;
}

/* The next byte of in: 1 with *c, 0 at the end, or an error. */
static int
next_byte(struct ae_age_input *in, uint8_t *c)
{
	int r;

	if (in->pos == in->len) {
		if (in->eof)
			return 0;
		in->pos = in->len = 0;
		if ((r = in->src->read(in->src->ctx, in->buf, sizeof in->buf,
		    &in->len)) != AE_OK)
			return r;
		if (in->len == 0) {
			in->eof = 1;
			return 0;
		}
	}
	*c = in->buf[in->pos++];
	in->consumed++;
	return 1;
}

/* Read one line (through its LF) onto h->raw.  0, AE_ETRUNC, AE_ELIMIT,
 * AE_ENOMEM or the input's error. */
static int
read_line(struct ae_age_input *in, struct ae_age_header *h, size_t *cap,
    struct ae_diag *d)
{
	size_t start = h->rawlen;
	uint8_t c = 0;
	int r;

	for (;;) {
		if ((r = next_byte(in, &c)) < 0)
			return ae_fail(d, r, AE_AT_INPUT, "reading the header",
			    0, h->rawlen);
		if (r == 0)
			return ae_fail(d, AE_ETRUNC, AE_AT_HEADER, start == 0
			    && h->rawlen == 0 ? "is empty: the file has no age "
			    "header" : "ends before its MAC line: the file is "
			    "truncated", 0, h->rawlen);
		if (h->rawlen == AE_AGE_HEADER_MAX)
			return ae_fail(d, AE_ELIMIT, AE_AT_HEADER,
			    "is over 1 MiB", 0, h->rawlen);
		if (h->rawlen == *cap && ae_grow(&h->raw, cap, h->rawlen + 1,
		    1, 1024, AE_AGE_HEADER_MAX) != 0)
			return ae_fail(d, AE_ENOMEM, AE_AT_NONE, "out of memory",
			    0, 0);
		h->raw[h->rawlen++] = c;
		if (c == '\n')
			return AE_OK;
	}
}

static int
bad(struct ae_diag *d, const char *what, size_t off)
{
	return ae_fail(d, AE_EFORMAT, AE_AT_HEADER, what, 0, off);
}

/* An argument: one or more of VCHAR (33 to 126). */
static int
valid_arg(const char *s)
{
	if (*s == 0)
		return 0;
	for (; *s != 0; s++)
		if ((unsigned char)*s < 33 || (unsigned char)*s > 126)
			return 0;
	return 1;
}

/* Split line (its LF replaced by NUL) at single spaces into args. */
static size_t
split(char *line, const char **args, size_t max, int *over)
{
	size_t n = 0;
	char *p = line, *sp;

	*over = 0;
	for (;;) {
		if (n == max) {
			*over = 1;
			return n;
		}
		args[n++] = p;
		if ((sp = strchr(p, ' ')) == NULL)
			return n;
		*sp = 0;
		p = sp + 1;
	}
}

int
ae_age_stanza_parse(char *text, size_t len, size_t *at,
    struct ae_age_stanza *s, uint8_t *body, struct ae_diag *d)
{
	const char *args[AE_AGE_ARGS_MAX + 1];
	char *line, *nl;
	size_t n, k, eol, out = 0;
	int over;

	memset(s, 0, sizeof *s);
	line = text + *at;
	if ((nl = memchr(line, '\n', len - *at)) == NULL)
		return ae_fail(d, AE_ETRUNC, AE_AT_HEADER, "ends inside a "
		    "stanza", 0, *at);
	eol = (size_t)(nl - text);
	text[eol] = 0;
	if (strncmp(line, "->", 2) != 0)
		return bad(d, "has a stanza that does not start with \"-> \"",
		    *at);
	n = split(line, args, AE_AGE_ARGS_MAX + 1, &over);
	if (over || n - 1 > AE_AGE_ARGS_MAX)
		return ae_fail(d, AE_ELIMIT, AE_AT_HEADER,
		    "has a stanza with more than 15 arguments", 0, *at);
	if (strcmp(args[0], "->") != 0 || n < 2)
		return bad(d, "has a malformed stanza line (\"-> \", its "
		    "type and arguments, one space between)", *at);
	for (k = 1; k < n; k++)
		if (!valid_arg(args[k]))
			return bad(d, "has a stanza argument that is empty or "
			    "not printable ASCII", *at);
	s->nargs = n - 1;
	memcpy(s->arg, args + 1, (n - 1) * sizeof *args);
	s->body = body;
	/* body lines: full ones of 64 columns, ended by a shorter one
	 * (maybe empty) */
	for (;;) {
		*at = eol + 1;
		line = text + *at;
		if (*at >= len || (nl = memchr(line, '\n', len - *at)) == NULL)
			return ae_fail(d, AE_ETRUNC, AE_AT_HEADER, "ends inside "
			    "a stanza", 0, *at);
		eol = (size_t)(nl - text);
		text[eol] = 0;
		if (strncmp(line, "---", 3) == 0 || strncmp(line, "->", 2) == 0)
			return bad(d, "has a stanza whose body does not end with "
			    "a line shorter than 64 columns", *at);
		if (eol - *at > COLUMNS)
			return bad(d, "has a stanza body line longer than 64 "
			    "columns", *at);
		if (ae_base64_decode_strict(line, eol - *at, 0, body + out,
		    len - out, &k) != 0)
			return bad(d, "has a stanza body line that is not "
			    "canonical unpadded base64", *at);
		out += k;
		s->bodylen += k;
		if (k < LINE_BYTES)
			break;
	}
	*at = eol + 1;
	return AE_OK;
}

/* Parse h->raw[0, rawlen), whose last line starts with "---". */
static int
parse(struct ae_age_header *h, struct ae_diag *d)
{
	size_t at = sizeof INTRO - 1, out = 0, cap = 0, eol, n, k;
	char *line;
	const char *args[3];
	int over, r;

	if ((h->text = malloc(h->rawlen + 1)) == NULL
	    || (h->bodies = malloc(h->rawlen)) == NULL)
		return ae_fail(d, AE_ENOMEM, AE_AT_NONE, "out of memory", 0, 0);
	memcpy(h->text, h->raw, h->rawlen);
	h->text[h->rawlen] = 0;
	for (;;) {
		struct ae_age_stanza *s;

		/* (the last line starts with "---", which no stanza takes:
		 * so this holds, and is checked all the same) */
		if (at >= h->rawlen)
			return bad(d, "ends inside a stanza", at);
		line = h->text + at;
		eol = (size_t)((char *)memchr(line, '\n', h->rawlen - at) -
		    h->text);
		h->text[eol] = 0;
		if (strncmp(line, "---", 3) == 0) {
			/* "--- " and 43 characters of base64: the MAC */
			h->maclen = at + 3;
			n = split(line, args, 3, &over);
			if (over || n != 2 || strcmp(args[0], "---") != 0)
				return bad(d, "has a malformed MAC line (\"--- \" "
				    "and the MAC, one space between)", at);
			if (ae_base64_decode_strict(args[1], strlen(args[1]), 0,
			    h->mac, sizeof h->mac, &k) != 0 || k != sizeof h->mac)
				return bad(d, "has a MAC that is not 32 bytes of "
				    "canonical base64", at);
			return AE_OK;
		}
		if (strncmp(line, "->", 2) != 0)
			return bad(d, "has a line that is neither a stanza "
			    "(\"-> \") nor the MAC (\"--- \")", at);
		if (h->n == AE_AGE_STANZAS_MAX)
			return ae_fail(d, AE_ELIMIT, AE_AT_HEADER,
			    "has more than 4096 stanzas", 0, at);
		if (ae_grow(&h->st, &cap, h->n + 1, sizeof *h->st, 4, 0) != 0)
			return ae_fail(d, AE_ENOMEM, AE_AT_NONE,
			    "out of memory", 0, 0);
		s = &h->st[h->n++];
		/* (the text is NUL-terminated where its lines end, so the
		 * stanza's LFs are put back for the parser) */
		h->text[eol] = '\n';
		if ((r = ae_age_stanza_parse(h->text, h->rawlen, &at, s,
		    h->bodies + out, d)) != AE_OK)
			return r;
		out += s->bodylen;
	}
}

int
ae_age_header_read(struct ae_age_input *in, struct ae_age_header *h,
    struct ae_diag *d)
{
	size_t cap = 0, start;
	int r;

	memset(h, 0, sizeof *h);
	if ((r = read_line(in, h, &cap, d)) != AE_OK)
		goto fail;
	if (h->rawlen != sizeof INTRO - 1
	    || memcmp(h->raw, INTRO, h->rawlen) != 0) {
		r = h->rawlen > 19 && memcmp(h->raw, INTRO, 19) == 0 ?
		    ae_fail(d, AE_ENOTSUP, AE_AT_HEADER, "is of a version of "
		    "age's format other than v1", 0, 0) :
		    bad(d, "does not start with \"age-encryption.org/v1\"", 0);
		goto fail;
	}
	do {
		start = h->rawlen;
		if ((r = read_line(in, h, &cap, d)) != AE_OK)
			goto fail;
	} while (h->rawlen - start < 3 || memcmp(h->raw + start, "---", 3)
	    != 0);
	if ((r = parse(h, d)) == AE_OK)
		return AE_OK;
fail:
	ae_age_header_free(h);
	return r;
}

void
ae_age_header_free(struct ae_age_header *h)
{
	free(h->raw);
	free(h->text);
	free(h->bodies);
	free(h->st);
	memset(h, 0, sizeof *h);
}

int
ae_age_header_check_mac(const struct ae_age_header *h,
    const uint8_t file_key[AE_AGE_FILE_KEY_LEN])
{
	uint8_t key[32], mac[AE_AGE_MAC_LEN];
	int ok;

	(void)ae_hkdf_sha256(NULL, 0, file_key, AE_AGE_FILE_KEY_LEN,
	    (const uint8_t *)"header", 6, key, sizeof key);
	ae_hmac_sha256(key, sizeof key, h->raw, h->maclen, mac);
	ok = ae_ct_equal(mac, h->mac, sizeof mac);
	ae_wipe(key, sizeof key);
	ae_wipe(mac, sizeof mac);
	return ok ? AE_OK : AE_EAUTH;
}

int
ae_age_read_nonce(struct ae_age_input *in, uint8_t nonce[AE_AGE_NONCE_LEN],
    struct ae_diag *d)
{
	size_t i;
	uint8_t c = 0;
	int r;

	for (i = 0; i < AE_AGE_NONCE_LEN; i++) {
		if ((r = next_byte(in, &c)) < 0)
			return ae_fail(d, r, AE_AT_INPUT, "reading the payload "
			    "nonce", 0, in->consumed);
		if (r == 0)
			return ae_fail(d, AE_ETRUNC, AE_AT_HEADER, "is not "
			    "followed by the payload's 16-byte nonce: the file "
			    "is truncated", 0, in->consumed);
		nonce[i] = c;
	}
	return AE_OK;
}
