/*
 * main.c -- the aescrypt command line.
 *
 * Only the CLI prints and exits; everything under src/ (but src/cli/)
 * returns error codes.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <argon2.h>
#include <zlib.h>

#include "../cpu.h"
#include "../gcm.h"
#include "../version.h"
#include "exitcode.h"

static const char *progname = "aescrypt";

static void
usage(FILE *fp)
{
	fprintf(fp,
	    "Usage: %s [OPTION]...\n"
	    "Encrypted, compressed, streamed archives (AES-256-GCM).\n"
	    "\n"
	    "Options:\n"
	    "  --no-hw        use the portable constant-time cipher, not AES-NI\n"
	    "  -h, --help     show this help and exit\n"
	    "  -V, --version  show version, cipher tiers and library versions\n"
	    "\n"
	    "The archive, stream and benchmark modes are not built yet.\n",
	    progname);
}

static void
version(void)
{
	char feat[256];
	int t;

	cpu_describe(feat, sizeof feat);
	printf("aescrypt %s\n", AESCRYPT_VERSION);
	printf("cipher: AES-256-GCM, tier in use: %s\n",
	    gcm_tier_name(gcm_default_tier()));
	printf("tiers available:");
	for (t = 0; t < GCM_TIER_COUNT; t++)
		if (gcm_tier_available((enum gcm_tier)t))
			printf(" %s", gcm_tier_name((enum gcm_tier)t));
	printf("\ncpu features: %s\n", feat);
	printf("zlib %s, libargon2 (Argon2 v%x)\n", zlibVersion(),
	    ARGON2_VERSION_NUMBER);
}

int
main(int argc, char **argv)
{
	enum { OPT_NO_HW = 256 };
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "no-hw", no_argument, NULL, OPT_NO_HW },
		{ NULL, 0, NULL, 0 }
	};
	int c, want_version = 0;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case 'V':
			want_version = 1;
			break;
		case OPT_NO_HW:
			gcm_force_software();
			break;
		default:
			if (optopt && optopt < 256)
				fprintf(stderr, "%s: error: unknown option '-%c'\n",
				    progname, optopt);
			else
				fprintf(stderr, "%s: error: unknown option '%s'\n",
				    progname, argv[optind - 1]);
			fprintf(stderr, "%s: hint: run '%s --help' for usage\n",
			    progname, progname);
			return EXIT_USAGE;
		}
	}
	if (want_version) {
		version();
		return EXIT_OK;
	}
	if (optind < argc) {
		fprintf(stderr, "%s: error: unexpected argument '%s'\n",
		    progname, argv[optind]);
		return EXIT_USAGE;
	}
	usage(stderr);
	return EXIT_USAGE;
}
