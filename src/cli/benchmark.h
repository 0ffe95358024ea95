/*
 * benchmark.h -- aescrypt --benchmark: an in-memory measurement of the
 * pipeline, in the spirit of `7z b` and `openssl speed`.
 */
#ifndef AE_CLI_BENCHMARK_H
#define AE_CLI_BENCHMARK_H

/*
 * Run the benchmark for about `seconds` with `threads` workers and
 * 2^chunk_log2-byte chunks, printing the tables to stdout.  Returns an
 * exit status.
 */
int benchmark_run(double seconds, unsigned threads, unsigned chunk_log2);

#endif
