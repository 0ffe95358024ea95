/*
 * stats.h -- a pipeline's run (pipeline.h) as the public struct
 * aescrypt_stats.
 */
#ifndef AE_LIB_STATS_H
#define AE_LIB_STATS_H

#include "aescrypt.h"
#include "pipeline/pipeline.h"

void ae_lib_stats_of(const struct ae_pipe_stats *p, struct aescrypt_stats *st);

#endif
