/*
 * build.h -- what this build has, for the handles' own setters
 * (build.c; the public calls are in aescrypt.h).
 */
#ifndef AE_LIB_BUILD_H
#define AE_LIB_BUILD_H

/* Whether a writer or reader may be set to DEFLATE engine `engine`:
 * AESCRYPT_OK; AESCRYPT_EINVAL (not an engine) or AESCRYPT_ENOTSUP
 * (this build lacks it), with *why the words for its message. */
int ae_lib_engine_check(int engine, const char **why);

#endif
