/*
 * words.h -- numbers as the messages and listings write them: sizes in
 * binary units, counts grouped by thousands, KiB counts exactly, times
 * in UTC.  Below
 * both msg.c and progress.c, which use them, so neither needs the other
 * for them.
 */
#ifndef AE_CLI_WORDS_H
#define AE_CLI_WORDS_H

#include <stddef.h>
#include <stdint.h>

/* "1.5 GiB" (binary units, one decimal; bytes below 1 KiB). */
void bytes_words(uint64_t n, char *buf, size_t cap);

/* "21,344": digits grouped by thousands, as the verdicts print counts. */
void count_words(uint64_t n, char *buf, size_t cap);

/* A KiB count in the largest binary unit that divides it exactly
 * ("256 MiB"; compact: "256M", as options take it). */
void kib_words(unsigned long long kib, char *buf, size_t n, int compact);

/* A time (seconds since the epoch) as "2026-12-02 03:00:00 UTC". */
void time_words(int64_t t, char *buf, size_t cap);

#endif
