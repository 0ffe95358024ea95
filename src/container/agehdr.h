/*
 * agehdr.h -- an age v1 file's header (C2SP age.md, "Header"), read
 * from the input exactly as far as its MAC line, parsed by age's rules
 * (each a failure of its own: canonical base64 only, arguments of
 * visible characters, body lines of 64 columns ended by a shorter one,
 * LF only), and its MAC checked.  The input is buffered here, so the
 * bytes read past the header are the payload's: ae_age_input_reader
 * hands them on.
 */
#ifndef AE_AGEHDR_H
#define AE_AGEHDR_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "common/io.h"

/* The most header bytes read: far past any real header (a
 * post-quantum stanza is 1.6 KB), short of memory trouble. */
#define AE_AGE_HEADER_MAX ((size_t)1 << 20)
/* The most stanzas, and arguments in one (the type counted). */
#define AE_AGE_STANZAS_MAX 4096
#define AE_AGE_ARGS_MAX 16
#define AE_AGE_FILE_KEY_LEN 16
#define AE_AGE_MAC_LEN 32
#define AE_AGE_NONCE_LEN 16

/* A buffered input: the header's lines are taken from it, and what it
 * read past them is the payload's.  Zeroed, then src set. */
struct ae_age_input {
	struct ae_reader *src;
	uint8_t buf[65536];
	size_t pos, len;
	uint64_t consumed;          /* bytes handed out: the offset */
	int eof;
};

/* The rest of `in` as a reader (what is buffered first, then src). */
void ae_age_input_reader(struct ae_age_input *in, struct ae_reader *out);

struct ae_age_stanza {
	size_t nargs;               /* 1 or more: arg[0] is the type */
	const char *arg[AE_AGE_ARGS_MAX];
	const uint8_t *body;
	size_t bodylen;
};

struct ae_age_header {
	uint8_t *raw;               /* the header's bytes, as read */
	size_t rawlen;
	size_t maclen;              /* of them, the bytes the MAC covers
	                             * (through "---") */
	uint8_t mac[AE_AGE_MAC_LEN];
	struct ae_age_stanza *st;
	size_t n;
	char *text;                 /* the arguments, NUL-terminated */
	uint8_t *bodies;            /* the bodies, decoded */
};

/*
 * Read and parse the header from in, leaving in at the payload.
 * Returns 0; AE_EFORMAT (d->what says which rule, d->offset the line's
 * start) for a header age refuses, AE_ENOTSUP for another version of
 * the format ("age-encryption.org/v2"); AE_ETRUNC if the input ends
 * inside it; AE_ELIMIT past AE_AGE_HEADER_MAX bytes or the stanza and
 * argument caps; the input's errors; AE_ENOMEM.  On failure h holds
 * nothing to free; on success ae_age_header_free frees it.
 */
int ae_age_header_read(struct ae_age_input *in, struct ae_age_header *h,
    struct ae_diag *d);
void ae_age_header_free(struct ae_age_header *h);

/*
 * One stanza from text[*at, len): whole lines, each ending in LF (the
 * header's, or the plugin protocol's, which speaks in stanzas).  text
 * is changed: the arguments end in NUL where their spaces and LF were.
 * The body is decoded into body (room: len bytes).  *at moves past the
 * stanza's last line.  0; AE_EFORMAT (d->what says which rule);
 * AE_ETRUNC if the lines end before the body's last; AE_ELIMIT for over
 * AE_AGE_ARGS_MAX - 1 arguments.
 */
int ae_age_stanza_parse(char *text, size_t len, size_t *at,
    struct ae_age_stanza *s, uint8_t *body, struct ae_diag *d);

/* Whether the header's MAC is right for file_key (HMAC-SHA-256 under
 * HKDF(file key, "header"), compared in constant time): 0 or
 * AE_EAUTH. */
int ae_age_header_check_mac(const struct ae_age_header *h,
    const uint8_t file_key[AE_AGE_FILE_KEY_LEN]);

/* The 16-byte payload nonce that follows the header.  0; AE_ETRUNC
 * (the input ends first: a header failure, age says); the input's
 * errors. */
int ae_age_read_nonce(struct ae_age_input *in,
    uint8_t nonce[AE_AGE_NONCE_LEN], struct ae_diag *d);

#endif
