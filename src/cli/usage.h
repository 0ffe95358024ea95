/*
 * usage.h -- the help texts and the version report.
 *
 * --help is one screen, grouped as tar's is; --help=all lists every
 * option; --version names the cipher tiers, the libraries and the
 * codecs this build has.
 */
#ifndef AE_CLI_USAGE_H
#define AE_CLI_USAGE_H

#include <stdio.h>

void usage_short(FILE *fp);
/* With no mode: the synopsis alone, and a pointer to --help. */
void usage_brief(FILE *fp);
void usage_all(FILE *fp);

/* --version, to standard output. */
void usage_version(void);

#endif
