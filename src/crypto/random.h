/*
 * random.h -- bytes from the operating system's CSPRNG.
 *
 * The core never makes up its own randomness: file keys and salts come
 * from here, or from the caller (tests and the sample generator pass
 * fixed bytes to get reproducible files).
 */
#ifndef AE_RANDOM_H
#define AE_RANDOM_H

#include <stddef.h>

/*
 * Fill buf with n bytes from getrandom(2) where the build has it, else
 * getentropy(3) (FreeBSD, macOS, OpenBSD, glibc 2.25+), else
 * /dev/urandom; the first two block until the kernel's pool is seeded.
 * Returns 0, or AE_EIO (errno set) if the system refuses.  Never
 * returns partial output as success.
 */
int ae_random(void *buf, size_t n);

#endif
