/*
 * options.h -- the command line, parsed and checked into struct opts.
 *
 * Each option is a row of one table (options.c): its long name, its
 * letter, whether it takes a value, and what it sets.  Parsing stops at
 * the first mistake, which is reported in the CLI's words with a hint;
 * the rules between options (what belongs to which mode) are checked
 * after the whole line has been read.
 */
#ifndef AE_CLI_OPTIONS_H
#define AE_CLI_OPTIONS_H

#include "benchmark.h"
#include "opts.h"

/* What the command line asks for, beside a mode's options. */
struct cmdline {
	struct opts o;
	const char *genkey;         /* --gen-key / --gen-identity FILE */
	double bench_time;          /* --benchmark-time */
	enum bench_format bench_format;
	int bench_all;              /* --benchmark=all: every cell */
	int want_help;              /* 1: --help (or -h outside -c); 2: =all */
	int want_version;
	int h_seen;                 /* -h: --dereference with -c, else help */
	int deflate_seen;           /* -z, --gzip or --deflate: DEFLATE */
	int zstd_seen;              /* --zstd */
	int pq;                     /* --pq: --gen-identity makes a
	                             * post-quantum hybrid identity */
	char **operands0;           /* (o.operands as allocated) */
};

/* Defaults, and room for what the command line lists (argc entries
 * each).  0, or EXIT_SYSTEM (reported). */
int options_init(struct cmdline *c, int argc);
void options_free(struct cmdline *c);

/* Read argv into c.  Returns 0, or an exit status (reported). */
int options_parse(struct cmdline *c, int argc, char **argv);

/* The rules between options, once all are read (help and version are
 * the caller's to handle first).  Returns 0, or EXIT_USAGE
 * (reported). */
int options_check(struct cmdline *c);

#endif
