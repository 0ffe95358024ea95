/*
 * check.h -- the tiny test harness the unit tests share.
 *
 * Each test program counts its checks and ends with one line
 *     <name>: N passed, N failed[, N skipped]
 * and exits non-zero if anything failed or nothing ran.  A failing check
 * prints where and why; passing checks print nothing.
 */
#ifndef AE_TEST_CHECK_H
#define AE_TEST_CHECK_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long t_passed, t_failed, t_skipped;

static inline void
t_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	t_failed++;
	fprintf(stderr, "FAIL %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* CHECK(cond, printf-style message) */
#define CHECK(cond, ...) do {						\
	if (cond)							\
		t_passed++;						\
	else								\
		t_fail(__FILE__, __LINE__, __VA_ARGS__);		\
} while (0)

#define CHECK_MEM(a, b, n, ...) CHECK(memcmp((a), (b), (n)) == 0, __VA_ARGS__)

static inline void
t_skip(const char *why)
{
	t_skipped++;
	printf("skipped: %s\n", why);
}

static inline int
t_finish(const char *name)
{
	printf("%s: %lu passed, %lu failed, %lu skipped\n", name, t_passed,
	    t_failed, t_skipped);
	return (t_failed > 0 || t_passed == 0) ? 1 : 0;
}

static inline int
t_nibble(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Decode hex into a fresh malloc'd buffer; *n gets the length.  Exits on
 * malformed input: a broken vector file is a test bug, not a result. */
static inline uint8_t *
t_unhex(const char *s, size_t len, size_t *n)
{
	uint8_t *out;
	size_t i;

	if (len % 2) {
		fprintf(stderr, "odd-length hex: %.*s\n", (int)len, s);
		exit(2);
	}
	out = malloc(len / 2 + 1);
	if (out == NULL)
		exit(2);
	for (i = 0; i < len / 2; i++) {
		int hi = t_nibble(s[2 * i]), lo = t_nibble(s[2 * i + 1]);

		if (hi < 0 || lo < 0) {
			fprintf(stderr, "bad hex: %.*s\n", (int)len, s);
			exit(2);
		}
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	*n = len / 2;
	return out;
}

/* CHECK that got holds the bytes written in hex. */
#define t_check_hex(got, hex, what) do {				\
	size_t t_n_;							\
	uint8_t *t_want_ = t_unhex((hex), strlen(hex), &t_n_);		\
									\
	CHECK_MEM((got), t_want_, t_n_, "%s: wrong output", (what));	\
	free(t_want_);							\
} while (0)

/* Read a whole file; exits if it cannot. */
static inline char *
t_slurp(const char *dir, const char *name, size_t *n)
{
	char path[4096];
	FILE *fp;
	char *buf;
	long sz;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	if ((fp = fopen(path, "rb")) == NULL) {
		perror(path);
		exit(2);
	}
	fseek(fp, 0, SEEK_END);
	sz = ftell(fp);
	rewind(fp);
	buf = malloc((size_t)sz + 1);
	if (buf == NULL || fread(buf, 1, (size_t)sz, fp) != (size_t)sz) {
		perror(path);
		exit(2);
	}
	buf[sz] = '\0';
	fclose(fp);
	if (n)
		*n = (size_t)sz;
	return buf;
}

/* splitmix64: a small, replayable generator for randomized tests. */
static inline uint64_t
t_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
	return z ^ (z >> 31);
}

static inline void
t_fill(uint64_t *s, uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)t_rand(s);
}

#endif
