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
	AE_ENOTSUP = -7   /* the requested feature is not available here */
};

/*
 * Return a short, static, lower-case description of an AE_E* code.
 * Unknown codes give "unknown error".  Never returns NULL.
 */
const char *ae_strerror(int err);

#endif
