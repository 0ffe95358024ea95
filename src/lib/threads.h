/*
 * threads.h -- how many worker threads a handle starts with.
 */
#ifndef AE_LIB_THREADS_H
#define AE_LIB_THREADS_H

/* One worker per online CPU, as pigz and zstd -T0 do (1 to 256). */
unsigned ae_lib_default_threads(void);

#endif
