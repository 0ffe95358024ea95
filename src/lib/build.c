/*
 * build.c -- what this build has, for the command's options, --stats
 * and --version: the DEFLATE engines, the codecs' rows, the cipher's
 * tiers and the libraries behind the key slots (contract: aescrypt.h,
 * the unstable part).  Each call reads the core's own table; nothing
 * here decides anything.
 */
#include "config.h"
#define AESCRYPT_STATIC_LINKING_ONLY
#include "aescrypt.h"
#include "build.h"

#include <string.h>

#include "container/codec.h"
#include "container/deflate.h"
#include "container/format.h"
#include "container/kdf.h"
#include "container/recipient.h"
#include "crypto/cpu.h"
#include "crypto/sha256.h"
#include "crypto/gcm.h"
#include "crypto/rsa.h"
#include "crypto/x25519.h"
#include "pipeline/pipeline.h"

/* The public numbers are the core's (aescrypt.h promises them; the
 * core decides them). */
_Static_assert((int)AESCRYPT_ENGINE_DEFAULT == (int)AE_DEFLATE_DEFAULT
    && (int)AESCRYPT_ENGINE_ZLIB == (int)AE_DEFLATE_ZLIB
    && (int)AESCRYPT_ENGINE_LIBDEFLATE == (int)AE_DEFLATE_LIBDEFLATE,
    "aescrypt.h's engines are deflate.h's");
_Static_assert(AESCRYPT_CHUNK_LOG2_MIN == AE_CHUNK_LOG2_MIN
    && AESCRYPT_CHUNK_LOG2_MAX == AE_CHUNK_LOG2_MAX_DEFLATE
    && AESCRYPT_CHUNK_LOG2_MAX_ZSTD == AE_CHUNK_LOG2_MAX
    && AESCRYPT_CHUNK_LOG2_DEFAULT == AE_CHUNK_LOG2_DEFAULT
    && AESCRYPT_CHUNK_LOG2_DEFAULT_ZSTD == AE_CHUNK_LOG2_ZSTD,
    "aescrypt.h's chunk sizes are format.h's");
_Static_assert(AESCRYPT_THREADS_MAX == AE_PIPE_MAX_THREADS,
    "aescrypt.h's thread limit is the pipeline's");
_Static_assert(AESCRYPT_KDF_DEFAULT_T == AE_KDF_DEFAULT_T
    && AESCRYPT_KDF_DEFAULT_M_KIB == AE_KDF_DEFAULT_M_KIB
    && AESCRYPT_KDF_DEFAULT_P == AE_KDF_DEFAULT_P
    && AESCRYPT_KDF_MAX_T == AE_KDF_CAP_T
    && AESCRYPT_KDF_MAX_P == AE_KDF_CAP_P,
    "aescrypt.h's KDF costs are kdf.h's");

int
aescrypt_engine_available(int engine)
{
	return ae_deflate_available(engine);
}

int
ae_lib_engine_check(int engine, const char **why)
{
	if (engine < AE_DEFLATE_DEFAULT || engine > AE_DEFLATE_LIBDEFLATE) {
		*why = "unknown engine";
		return AESCRYPT_EINVAL;
	}
	if (!ae_deflate_available(engine)) {
		*why = "this build lacks the engine";
		return AESCRYPT_ENOTSUP;
	}
	return AESCRYPT_OK;
}

const char *
aescrypt_engine_name(int engine)
{
	return ae_deflate_name(engine);
}

const char *
aescrypt_engine_version(int engine)
{
	return ae_deflate_version(engine);
}

int
aescrypt_codec_info(int codec, int engine, struct aescrypt_codec_info *ci)
{
	const struct ae_codec_ops *cx = ae_codec_get(codec);

	if (cx == NULL || ci == NULL)
		return AESCRYPT_EINVAL;
	memset(ci, 0, sizeof *ci);
	ci->name = cx->name;
	ci->title = cx->title;
	ci->option = cx->option;
	ci->unzip = cx->unzip;
	ci->version = cx->version(engine);
	ci->chunk_log2_default = cx->chunk_log2_default;
	ci->chunk_log2_max = cx->chunk_log2_max;
	ci->max_level = cx->max_level(engine);
	ci->available = cx->available();
	ci->engines = cx->engines;
	return AESCRYPT_OK;
}

int
aescrypt_tier_count(void)
{
	return AE_GCM_TIER_COUNT;
}

const char *
aescrypt_tier_name(int tier)
{
	if (tier < 0 || tier >= AE_GCM_TIER_COUNT)
		return "unknown";
	return ae_gcm_tier_name((enum ae_gcm_tier)tier);
}

int
aescrypt_tier_available(int tier)
{
	if (tier < 0 || tier >= AE_GCM_TIER_COUNT)
		return 0;
	return ae_gcm_tier_available((enum ae_gcm_tier)tier);
}

int
aescrypt_tier_default(void)
{
	return (int)ae_gcm_default_tier();
}

void
aescrypt_force_software(void)
{
	ae_gcm_force_software();
	ae_sha256_force_portable(1);
}

void
aescrypt_cpu_describe(char *buf, size_t n)
{
	if (buf != NULL && n > 0)
		ae_cpu_describe(buf, (unsigned long)n);
}

const char *
aescrypt_sodium_version(void)
{
	return ae_x25519_library_version();
}

const char *
aescrypt_rsa_version(void)
{
	return ae_rsa_available() ? ae_rsa_version() : NULL;
}

int
aescrypt_format_version(void)
{
	return AE_VERSION;
}

int
aescrypt_is_secret_key_text(const char *s)
{
	return s != NULL && ae_recipient_is_secret(s);
}
