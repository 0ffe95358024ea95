/*
 * agearmor.h -- age's ASCII armor (C2SP age.md, "ASCII armor"),
 * decoded as it is read: a reader of the armored text that gives the
 * binary age file, by the rules age's own armor reader keeps
 * (-----BEGIN AGE ENCRYPTED FILE-----, lines of 64 columns of padded,
 * canonical base64 ended by a shorter one, the END line, LF or CRLF,
 * and at most 1 KiB of whitespace before and after, nothing else).
 */
#ifndef AE_AGEARMOR_H
#define AE_AGEARMOR_H

#include <stddef.h>
#include <stdint.h>

#include "common/io.h"

#define AE_AGE_ARMOR_BEGIN "-----BEGIN AGE ENCRYPTED FILE-----"
#define AE_AGE_ARMOR_END "-----END AGE ENCRYPTED FILE-----"

struct ae_age_armor {
	struct ae_reader *src;
	uint8_t in[16384];          /* the armored text, buffered */
	size_t ipos, ilen;
	int ieof;
	uint8_t out[48];            /* one line, decoded */
	size_t opos, olen;
	int started, over;
	int err;                    /* the failure, once there is one */
	int late;                   /* one met after the last line, given
	                             * once that line's bytes were read */
	const char *why;            /* its words, for an AE_EFORMAT */
	uint64_t line;              /* lines read (for messages) */
};

/* Start decoding src. */
void ae_age_armor_init(struct ae_age_armor *a, struct ae_reader *src);

/* a as a reader of the binary file.  A read fails with AE_EFORMAT when
 * the armor breaks a rule (a->why says which, and a->line where), or
 * with src's error. */
void ae_age_armor_reader(struct ae_age_armor *a, struct ae_reader *out);

#endif
