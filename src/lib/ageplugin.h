/*
 * ageplugin.h -- the client side of age's plugin protocol (C2SP
 * age-plugin.md), state machine identity-v1: age-plugin-NAME, found on
 * PATH (never by a relative entry), is given the identities for it and
 * every stanza of one header, and asked for the file key, with its
 * msg, confirm, request-public and request-secret passed to the
 * caller's user interface.  For aescrypt_age (age.c).
 */
#ifndef AE_LIB_AGEPLUGIN_H
#define AE_LIB_AGEPLUGIN_H

#include <stddef.h>
#include <stdint.h>

#define AESCRYPT_STATIC_LINKING_ONLY
#include "aescrypt.h"
#include "container/agehdr.h"

/* A plugin's name from its identity "AGE-PLUGIN-NAME-1...": the name in
 * lower case into name (cap bytes).  0, or -1 if s is not one. */
int ae_lib_plugin_name(const char *s, char *name, size_t cap);

/*
 * Run age-plugin-name with identities ids[0, n) (all of that plugin)
 * over header h.  Returns 0 with file_key (16 bytes); AE_EKEY when the
 * plugin gave none (err may hold its error's words); AE_ENOTSUP when
 * no such plugin is on PATH; AE_EFORMAT when it broke the protocol or
 * gave a key of another length; AE_ELIMIT when it said nothing for
 * ui->timeout_ms (then it is killed); AE_ENOMEM.  err (cap bytes) gets
 * words for the caller: the plugin's own error, or what went wrong.
 */
int ae_lib_plugin_unwrap(const char *name, char *const *ids, size_t n,
    const struct ae_age_header *h, const struct aescrypt_age_plugin_ui *ui,
    uint8_t file_key[AE_AGE_FILE_KEY_LEN], char *err, size_t cap);

#endif
