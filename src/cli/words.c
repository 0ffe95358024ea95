/*
 * words.c -- numbers in words (contract in words.h).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "words.h"

void
bytes_words(uint64_t n, char *buf, size_t cap)
{
	static const char *unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double v = (double)n;
	int u = 0;

	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, cap, "%llu B", (unsigned long long)n);
	else
		snprintf(buf, cap, "%.1f %s", v, unit[u]);
}

void
count_words(uint64_t n, char *buf, size_t cap)
{
	char digits[32];
	size_t len, i, j = 0;

	snprintf(digits, sizeof digits, "%llu", (unsigned long long)n);
	len = strlen(digits);
	for (i = 0; i < len && j + 2 < cap; i++) {
		if (i > 0 && (len - i) % 3 == 0)
			buf[j++] = ',';
		buf[j++] = digits[i];
	}
	buf[j] = '\0';
}

void
kib_words(unsigned long long kib, char *buf, size_t n, int compact)
{
	/* Exact: the largest unit that divides it (1025 KiB stays 1025
	 * KiB; rounding made "1 MiB, over the limit of 1 MiB"). */
	const char *sep = compact ? "" : " ";

	if (kib >= 1024 * 1024 && kib % (1024 * 1024) == 0)
		snprintf(buf, n, "%llu%s%s", kib / (1024 * 1024), sep,
		    compact ? "G" : "GiB");
	else if (kib >= 1024 && kib % 1024 == 0)
		snprintf(buf, n, "%llu%s%s", kib / 1024, sep,
		    compact ? "M" : "MiB");
	else
		snprintf(buf, n, "%llu%s%s", kib, sep, compact ? "K" : "KiB");
}

void
time_words(int64_t t, char *buf, size_t cap)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (gmtime_r(&tt, &tm) == NULL
	    || strftime(buf, cap, "%Y-%m-%d %H:%M:%S UTC", &tm) == 0)
		snprintf(buf, cap, "%lld", (long long)t);
}
