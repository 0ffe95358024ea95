/*
 * error.h -- the one error enum of the aescrypt core.
 *
 * Core functions return 0 on success or a negative AE_E* code.  They never
 * print and never exit; only the CLI turns a code into a message.
 */
#ifndef AE_ERROR_H
#define AE_ERROR_H

enum ae_err {
	AE_OK = 0,
	AE_EINVAL = -1,   /* an argument is out of its documented range */
	AE_EAUTH = -2,    /* authentication failed: wrong key or tampered data */
	AE_ENOMEM = -3,   /* an allocation failed */
	AE_EIO = -4,      /* a read or write failed (errno holds the cause) */
	AE_EFORMAT = -5,  /* input is not in the expected format */
	AE_ETOOBIG = -6,  /* a length exceeds what the algorithm allows */
	AE_ENOTSUP = -7,  /* the requested feature is not available here */
	AE_EKEY = -8,     /* no key slot opens with the key given: wrong
	                   * passphrase or key file */
	AE_ETRUNC = -9,   /* the input ends before its end marker */
	AE_ELIMIT = -10,  /* a cost or size in the input is over the
	                   * caller's limit (e.g. the KDF memory cap) */
	AE_EINTR = -11    /* stopped on request (a signal) */
};

/*
 * Where an error happened, for messages like "chunk 17 at offset 17825792
 * failed authentication".  Core functions that parse untrusted input take
 * an optional struct ae_diag * and fill it when they fail; the CLI turns
 * it into words.  All strings are static.
 */
enum ae_where {
	AE_AT_NONE = 0,
	AE_AT_HEADER,     /* the container header; offset is set */
	AE_AT_STANZA,     /* key slot number `index` of the header */
	AE_AT_CHUNK,      /* payload chunk number `index` at `offset` */
	AE_AT_INPUT,      /* reading the input */
	AE_AT_OUTPUT,     /* writing the output */
	AE_AT_MEMBER,     /* a tar member that cannot be read; offset is
	                   * where its headers start in the tar stream */
	AE_AT_INDEX       /* an archive's index or footer, at offset */
};

struct ae_diag {
	enum ae_where where;
	const char *what;         /* e.g. "failed authentication" */
	unsigned long long index; /* stanza or chunk number (from 0) */
	unsigned long long offset;/* byte offset in the container */
	unsigned long long have;  /* AE_ELIMIT: the requested value ... */
	unsigned long long limit; /* ... and the limit it is over */
	int sys_errno;            /* AE_EIO: the errno of the failed call */
};

/* Record a failure in d (which may be NULL) and return err. */
int ae_fail(struct ae_diag *d, int err, enum ae_where where,
    const char *what, unsigned long long index, unsigned long long offset);

/*
 * Return a short, static, lower-case description of an AE_E* code.
 * Unknown codes give "unknown error".  Never returns NULL.
 */
const char *ae_strerror(int err);

#endif
