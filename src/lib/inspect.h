/*
 * inspect.h -- what a header says, as the public struct aescrypt_info
 * (for aescrypt_inspect, and for a reader's unlock callback).
 */
#ifndef AE_LIB_INSPECT_H
#define AE_LIB_INSPECT_H

#define AESCRYPT_STATIC_LINKING_ONLY
#include "aescrypt.h"
#include "container/header.h"

/* info from header h (read and checked). */
void ae_lib_info_of(const struct ae_header *h, struct aescrypt_info *info);

#endif
