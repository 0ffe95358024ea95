/*
 * foreign.h -- naming the input's format before reading it as a
 * container: "FILE is a gzip file", with what to run instead.
 */
#ifndef AE_FOREIGN_H
#define AE_FOREIGN_H

#define AESCRYPT_STATIC_LINKING_ONLY
#include "aescrypt.h"
#include "opts.h"
#include "run.h"

/*
 * Look at io's first bytes without using them up: on a regular file
 * they are read with pread at the current offset; on a pipe they are
 * kept in io->peek and io->reader hands them back first.  *kind is what
 * they show (enum aescrypt_format).  Returns 0, or an exit status after saying why the input
 * could not be read.
 */
int foreign_peek(struct streams *io, int *kind);

/*
 * For the modes that read a container: EXIT_OK if kind is aescrypt's
 * (or unknown: the header's own checks then speak), else says "NAME is
 * a KIND file" with what to run instead and returns EXIT_DATA.  AES
 * Crypt files are the caller's (legacy.h) and not reported here.
 */
int foreign_refuse(const char *name, int kind);

#endif
