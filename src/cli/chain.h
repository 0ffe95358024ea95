/*
 * chain.h -- the archives of one -x or -t run (-f L0 -f L1 ...) checked
 * as one chain of listed-incremental dumps before any of them is read
 * (format 6.7: each dump records its level, when it was begun, and when
 * the dump it continues was begun).
 */
#ifndef AE_CLI_CHAIN_H
#define AE_CLI_CHAIN_H

#include <stdint.h>
#include <stdio.h>

#include "archive/tar.h"
#include "opts.h"

/*
 * -x of several archives (and -t with -g, which lists what -x -g would
 * read): if any archive o names is a listed-incremental dump (-c -g), check that
 * they make one chain, in order: a level 0 first, then each one
 * continuing the one given before it (its `continues` the time that one
 * was `created`, its level one more).  A gap, the wrong order, no level 0,
 * two chains mixed, or an archive that is no dump beside dumps stops the
 * run here, before anything is written, with what is wrong said:
 * EXIT_CHAIN.  Each archive is opened once more for this (its key
 * derived again, its first record read), silently.  Nothing is checked
 * with --no-chain-check, one archive, a pipe among them, or one that
 * cannot be opened (the run stops there and says why) or records no
 * level (made before 0.3, a tar sealed with -e): it could be the level
 * another continues, so no verdict would be sure.  0 or EXIT_CHAIN.
 */
int chain_check(const struct opts *o);

/*
 * --info of several archives with a key: chain_note takes each dump's
 * facts as it is described (name, its global header, its members and
 * size; archives that are no dump are not noted), and chain_report
 * prints, after them all, the chains they make: oldest first, an
 * archive a line (level, when begun, members, size), then those whose
 * chain is not among them, each with the time of the dump it continues,
 * which is missing.  As JSON, one last line: {"chains": [{"begun": T,
 * "archives": [names, oldest first]}, ...], "orphans": [names]}.  The
 * notes are freed.  0, or an exit status (reported).
 */
void chain_note(const char *name, const struct ae_tar_global *g,
    uint64_t members, uint64_t size);
int chain_report(FILE *fp, int json);

/* Drop the notes unprinted (one file was described: no chains to
 * list), so that a later command line in the process starts clean. */
void chain_forget(void);

#endif
