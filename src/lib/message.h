/*
 * message.h -- a core error and its place (common/error.h's ae_diag)
 * as the text a handle keeps for aescrypt_*_error(): the command's
 * words ("chunk 17 at offset 17825792 failed authentication"), without
 * its "aescrypt: error: " and without its hints.
 */
#ifndef AE_LIB_MESSAGE_H
#define AE_LIB_MESSAGE_H

#include <stddef.h>

#include "common/error.h"

/* A handle's message buffer: room for a long member name and more. */
#define MESSAGE_MAX 4608

/* The text for err with d (which may be NULL), prefixed with "name: "
 * when name is not NULL, into buf (cap bytes, always terminated). */
void ae_lib_message_describe(char *buf, size_t cap, const char *name, int err,
    const struct ae_diag *d);

/* A caller's callback's result as the core's: 0 is AE_OK; its
 * AESCRYPT_EINTR is AE_EINTR; anything else is AE_EIO, with errno set
 * to EIO for the message (the callback's own errno is not ours to
 * trust). */
int ae_lib_callback_status(int r);

/* The same with a plain phrase of the caller's for d. */
void ae_lib_message_plain(char *buf, size_t cap, const char *name, const char *what);

#endif
