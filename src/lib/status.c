/*
 * status.c -- the library's versions, status words and sizes (contract
 * in aescrypt.h).
 */
#include "config.h"
#define AESCRYPT_STATIC_LINKING_ONLY
#include "aescrypt.h"
#include "pipeline/pipeline.h"

#include "common/error.h"
#include "common/version.h"

/* The public codes are the core's, so that a core error passes through
 * unchanged: a change to either side breaks the build here. */
/* A lost record's number and the pipeline's for bytes passed over. */
_Static_assert(AESCRYPT_NO_RECORD == AE_PIPE_NO_RECORD,
    "the salvage callback's no-record value is the pipeline's");
_Static_assert((int)AESCRYPT_EINVAL == (int)AE_EINVAL
    && (int)AESCRYPT_EAUTH == (int)AE_EAUTH
    && (int)AESCRYPT_ENOMEM == (int)AE_ENOMEM
    && (int)AESCRYPT_EIO == (int)AE_EIO
    && (int)AESCRYPT_EFORMAT == (int)AE_EFORMAT
    && (int)AESCRYPT_ETOOBIG == (int)AE_ETOOBIG
    && (int)AESCRYPT_ENOTSUP == (int)AE_ENOTSUP
    && (int)AESCRYPT_EKEY == (int)AE_EKEY
    && (int)AESCRYPT_ETRUNC == (int)AE_ETRUNC
    && (int)AESCRYPT_ELIMIT == (int)AE_ELIMIT
    && (int)AESCRYPT_EINTR == (int)AE_EINTR, "public and core codes agree");

unsigned
aescrypt_version_number(void)
{
	return AESCRYPT_VERSION_NUMBER;
}

const char *
aescrypt_version_string(void)
{
	return AESCRYPT_VERSION;
}

const char *
aescrypt_strerror(int status)
{
	switch (status) {
	case AESCRYPT_END:    return "end of archive";
	case AESCRYPT_ESTATE: return "call out of order";
	case AESCRYPT_ESIGNER: return "not signed by an allowed key";
	}
	return ae_strerror(status);
}

size_t
aescrypt_entry_size(void)
{
	return sizeof(struct aescrypt_entry);
}

size_t
aescrypt_source_size(void)
{
	return sizeof(struct aescrypt_source);
}

size_t
aescrypt_stats_size(void)
{
	return sizeof(struct aescrypt_stats);
}

size_t
aescrypt_info_size(void)
{
	return sizeof(struct aescrypt_info);
}
