/*
 * benchmark.h -- aescrypt --benchmark: an in-memory measurement of the
 * pipeline, in the spirit of `7z b` and `openssl speed`.
 */
#ifndef AE_CLI_BENCHMARK_H
#define AE_CLI_BENCHMARK_H

enum bench_format {
	BENCH_TEXT,     /* tables (and the chart when tty is set) */
	BENCH_JSON,     /* one JSON object */
	BENCH_CSV       /* one row per measurement, with a header row */
};

/*
 * Run the benchmark for `seconds` with `threads` workers,
 * 2^chunk_log2-byte chunks for DEFLATE and 2^zstd_log2-byte chunks for
 * zstd (when built in), printing to stdout in `format`; tty says stdout
 * is a terminal, where the text output starts with a bar chart.  The
 * default set of measurements is small enough for a loaded machine:
 * every cipher tier at -0 and -6 with the default engine, and zstd; all
 * adds every level, the other engine and zstd with every tier.  The run
 * ends within the budget and a trial per measurement: a measurement
 * with no time left for its first trial is skipped, and said so (but
 * the first, -0 on the fastest tier both ways, always runs).
 * Returns an exit status.
 */
int benchmark_run(double seconds, unsigned threads, unsigned chunk_log2,
    unsigned zstd_log2, enum bench_format format, int all, int tty);

#endif
