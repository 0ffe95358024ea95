/*
 * agearmor.c -- age's ASCII armor, decoded as read (contracts in
 * agearmor.h).  Everything here is ciphertext or public.
 */
#include "config.h"
#include "agearmor.h"

#include <string.h>

#include "common/base64.h"
#include "common/error.h"

#define COLUMNS 64
#define LINE_BYTES 48
#define WHITESPACE_MAX 1024     /* before and after, as age allows */
#define LINE_MAX_READ (WHITESPACE_MAX + 2)

void
ae_age_armor_init(struct ae_age_armor *a, struct ae_reader *src)
{
	memset(a, 0, sizeof *a);
	a->src = src;
}

static int
fail(struct ae_age_armor *a, const char *why)
{
	a->why = why;
	return AE_EFORMAT;
}

static int
space(uint8_t c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v'
	    || c == '\f';
}

/* The next byte: 1 with *c, 0 at the end, or src's error. */
static int
next(struct ae_age_armor *a, uint8_t *c)
{
	int r;

	if (a->ipos == a->ilen) {
		if (a->ieof)
			return 0;
		a->ipos = 0;
		if ((r = a->src->read(a->src->ctx, a->in, sizeof a->in,
		    &a->ilen)) != AE_OK)
			return r;
		if (a->ilen == 0) {
			a->ieof = 1;
			return 0;
		}
	}
	*c = a->in[a->ipos++];
	return 1;
}

/* A line without its LF (or CRLF) into buf (cap bytes): its length in
 * *n; 0, AE_ETRUNC at the end of the input with nothing read, or an
 * error.  A last line without LF is a line. */
static int
get_line(struct ae_age_armor *a, char *buf, size_t cap, size_t *n)
{
	uint8_t c = 0;
	int r;

	*n = 0;
	for (;;) {
		if ((r = next(a, &c)) < 0)
			return r;
		if (r == 0) {
			if (*n == 0)
				return AE_ETRUNC;
			break;
		}
		if (c == '\n')
			break;
		if (*n == cap)
			return fail(a, "a line is longer than age's armor "
			    "allows");
		buf[(*n)++] = (char)c;
	}
	a->line++;
	if (*n > 0 && buf[*n - 1] == '\r')
		(*n)--;
	return AE_OK;
}

static int
is(const char *buf, size_t n, const char *s)
{
	return n == strlen(s) && memcmp(buf, s, n) == 0;
}

/* After the END line: whitespace only, less than 1 KiB of it. */
static int
drain(struct ae_age_armor *a)
{
	size_t n = 0;
	uint8_t c = 0;
	int r;

	while ((r = next(a, &c)) == 1) {
		if (!space(c))
			return fail(a, "there is data after its END line");
		if (++n == WHITESPACE_MAX)
			return fail(a, "there is too much whitespace after its "
			    "END line");
	}
	if (r < 0)
		return r;
	a->over = 1;
	return AE_OK;
}

/* Decode the next line into a->out.  0 (a->olen 0 once over), or the
 * failure. */
static int
fill(struct ae_age_armor *a)
{
	char buf[LINE_MAX_READ];
	size_t n, i, ws = 0;
	int r;

	while (!a->started) {
		if ((r = get_line(a, buf, sizeof buf, &n)) != AE_OK)
			return r == AE_ETRUNC ? fail(a, "the input ends before "
			    "its BEGIN line") : r;
		for (i = 0; i < n && space((uint8_t)buf[i]); i++)
			;
		if (i == n) {
			/* (leading blank lines) */
			if ((ws += n + 1) > WHITESPACE_MAX)
				return fail(a, "there is too much whitespace "
				    "before its BEGIN line");
			continue;
		}
		if (!is(buf, n, AE_AGE_ARMOR_BEGIN))
			return fail(a, "its first line is not \""
			    AE_AGE_ARMOR_BEGIN "\"");
		a->started = 1;
	}
	if ((r = get_line(a, buf, COLUMNS + 2, &n)) != AE_OK)
		return r == AE_ETRUNC ? fail(a, "the input ends before its "
		    "END line") : r == AE_EFORMAT ? fail(a, "a line is "
		    "longer than 64 columns") : r;
	if (is(buf, n, AE_AGE_ARMOR_END))
		return drain(a);
	if (n == 0)
		return fail(a, "it has an empty line");
	if (n > COLUMNS)
		return fail(a, "a line is longer than 64 columns");
	if (ae_base64_decode_strict(buf, n, 1, a->out, sizeof a->out,
	    &a->olen) != 0)
		return fail(a, "a line is not canonical, padded base64");
	a->opos = 0;
	if (a->olen < LINE_BYTES) {
		/* the short line is the last: the END line follows */
		if ((r = get_line(a, buf, sizeof buf, &n)) != AE_OK)
			return r == AE_ETRUNC ? fail(a, "the input ends "
			    "before its END line") : r;
		if (!is(buf, n, AE_AGE_ARMOR_END))
			return fail(a, "a line shorter than 64 columns is not "
			    "followed by its END line");
		/* (as age: this line's bytes are given, then the
		 * failure of what follows the END line, if any) */
		if ((r = drain(a)) != AE_OK) {
			a->late = r;
			a->over = 1;
		}
	}
	return AE_OK;
}

static int
armor_read(void *ctx, uint8_t *buf, size_t n, size_t *got)
{
	struct ae_age_armor *a = ctx;
	size_t k;
	int r;

	*got = 0;
	while (*got < n) {
		if (a->err != AE_OK)
			return *got > 0 ? AE_OK : a->err;
		if (a->opos == a->olen) {
			if (a->over && a->late != AE_OK) {
				a->err = a->late;
				continue;
			}
			if (a->over)
				break;
			a->olen = a->opos = 0;
			if ((r = fill(a)) != AE_OK) {
				a->err = r;
				continue;
			}
			if (a->olen == 0)
				continue;
		}
		k = a->olen - a->opos;
		if (k > n - *got)
			k = n - *got;
		memcpy(buf + *got, a->out + a->opos, k);
		a->opos += k;
		*got += k;
	}
	return AE_OK;
}

void
ae_age_armor_reader(struct ae_age_armor *a, struct ae_reader *out)
{
	out->read = armor_read;
	out->ctx = a;
	out->seek = NULL;
}
