/*
 * main.c -- the aescrypt command line: options, then one mode.
 *
 * Only the CLI prints and exits; everything under src/ (but src/cli/)
 * returns error codes.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <locale.h>
#include <malloc.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <argon2.h>
#include <zlib.h>

#include "container/deflate.h"

#include "crypto/cpu.h"
#include "container/format.h"
#include "crypto/gcm.h"
#include "crypto/x25519.h"
#include "pipeline/pipeline.h"
#include "common/version.h"
#include "benchmark.h"
#include "exitcode.h"
#include "msg.h"
#include "opts.h"
#include "identity.h"
#include "secret.h"
#include "signals.h"

/* --help: one screen, grouped as tar's is; --help=all has the rest. */
static void
usage(FILE *fp)
{
	fprintf(fp,
	    "Usage: aescrypt -c [-f ARCHIVE] [OPTION]... PATH...        create an archive\n"
	    "       aescrypt -t|-x [-f ARCHIVE] [OPTION]... [PATTERN]... list or extract\n"
	    "       aescrypt -e|-d [OPTION]... [-o OUT] [IN]        encrypt or decrypt a stream\n"
	    "       aescrypt --test|--info [-f] FILE                check or describe a file\n"
	    "Tar-like archives and byte streams, compressed and encrypted (AES-256-GCM).\n"
	    "ARCHIVE, IN and OUT default to standard input and output ('-' too).\n"
	    "\n"
	    "Modes: -c --create, -t --list, -x --extract, -e --encrypt, -d --decrypt,\n"
	    "       --test, --info[=json], --gen-key F, --gen-identity F, --benchmark\n"
	    "\n"
	    "Archives:\n"
	    "  -f, --file ARCHIVE        the archive to write (-c) or read\n"
	    "  -C, --directory DIR       -c: the paths after it are in DIR; -x: into DIR\n"
	    "  -v, --verbose             name members as they go (-t: ls -l style)\n"
	    "  -T, --files-from FILE     paths (-c) or patterns (-t, -x) from FILE\n"
	    "      --exclude PATTERN     leave out what matches PATTERN\n"
	    "  -O, --to-stdout           -x: write the members' data to standard output\n"
	    "      --strip-components N  -x: drop N leading parts of every name\n"
	    "  -h, --dereference         -c: archive what symlinks point to\n"
	    "  -o, --output FILE         -e, -d: where the stream goes\n"
	    "\n"
	    "Keys (secrets never on the command line):\n"
	    "  -r, --recipient KEY       -c, -e: to a public key (age1..., ssh-ed25519)\n"
	    "  -i, --identity FILE       -d, -t, -x: its private key (age, OpenSSH)\n"
	    "  -k, --key-file FILE       a key file (made by --gen-key)\n"
	    "  -P, --passphrase          a passphrase too; else from --passphrase-file F,\n"
	    "                            --passphrase-fd N, AESCRYPT_PASSPHRASE, the tty\n"
	    "\n"
	    "Other:  -0..-9 deflate level (-6)  -j N threads  -q, --quiet  --stats[=json]\n"
	    "        --no-hw  -V, --version  --help=all (every option)\n"
	    "\n"
	    "Examples:\n"
	    "  $ aescrypt -cf home.aes ~/docs ~/mail         # asks for a passphrase\n"
	    "  $ aescrypt -tvf home.aes\n"
	    "  $ aescrypt -xf home.aes -C /restore 'home/me/docs/*.odt'\n"
	    "  $ pg_dump db | aescrypt -e > db.aes; aescrypt -d db.aes | psql db\n"
	    "  $ aescrypt --gen-key backup.key; aescrypt -c -k backup.key -f etc.aes /etc\n"
	    "Exit status: 0 ok, 1 some members skipped, 2 usage, 3 wrong key, 4 damaged,\n"
	    "5 over a limit, 6 system error, 141 broken pipe.  See aescrypt(1).\n");
}

/* --help=all: every option. */
static void
usage_all(FILE *fp)
{
	fprintf(fp,
	    "Usage: aescrypt -c [OPTION]... [-f ARCHIVE] PATH...     create an archive\n"
	    "       aescrypt -t [OPTION]... [-f ARCHIVE] [PATTERN]... list one\n"
	    "       aescrypt -x [OPTION]... [-f ARCHIVE] [PATTERN]... extract one\n"
	    "       aescrypt --test [OPTION]... [-f] FILE            authenticate all of it\n"
	    "       aescrypt --info[=json] [-f] FILE                 describe its header\n"
	    "       aescrypt -e [OPTION]... [-o OUT] [IN]            encrypt a stream\n"
	    "       aescrypt -d [OPTION]... [-o OUT] [IN]            decrypt a stream\n"
	    "       aescrypt --gen-key FILE                          make a key file\n"
	    "       aescrypt --gen-identity FILE                     make a key pair\n"
	    "       aescrypt --benchmark[=json|csv] [-j N]           measure, in memory\n"
	    "\n"
	    "Archives (a POSIX pax tar stream inside: 'aescrypt -d | tar -t' works):\n"
	    "  -f, --file ARCHIVE        the archive to write (-c) or read (-t, -x)\n"
	    "  -C, --directory DIR       -c: the paths after it are relative to DIR\n"
	    "                            (each -C relative to the one before, as in tar);\n"
	    "                            -x: extract into DIR (default: .)\n"
	    "  -v, --verbose             name members as they go (-t: ls -l style)\n"
	    "  -h, --dereference         -c: archive what symlinks point to\n"
	    "      --exclude PATTERN     skip paths or members matching PATTERN\n"
	    "  -T, --files-from FILE     -c: paths; -t, -x: patterns ('-': stdin)\n"
	    "      --null                -T's list is NUL-separated\n"
	    "  -O, --to-stdout           -x: the members' data to standard output\n"
	    "      --strip-components N  -x: drop N leading parts of every name\n"
	    "      --keep-old-files      -x: do not replace existing files\n"
	    "  -p, --preserve-permissions\n"
	    "                            -x: exact modes, setuid/setgid included\n"
	    "      --same-owner          -x as root: restore owners\n"
	    "      --xattrs              -c, -x: extended attributes too (not\n"
	    "                            system.*); off by default, as GNU tar\n"
	    "      --acls                -c, -x: POSIX ACLs too\n"
	    "      --no-xattrs, --no-acls  the defaults\n"
	    "      --wildcards           accepted: patterns are always shell patterns\n"
	    "  PATTERN                   a shell pattern (fnmatch); a directory\n"
	    "                            selects what is under it\n"
	    "\n"
	    "Streams:\n"
	    "  -o, --output FILE         -e, -d: write FILE (default: standard output)\n"
	    "\n"
	    "Keys (secrets never on the command line):\n"
	    "  -r, --recipient KEY       -c, -e: encrypt to a public key: age1... or\n"
	    "                            'ssh-ed25519 AAAA...' (repeatable)\n"
	    "  -R, --recipients-file F   -c, -e: recipients from F, one a line ('#'\n"
	    "                            comments; a .pub or authorized_keys file)\n"
	    "  -i, --identity FILE       -d, -t, -x: a private key: an age identity\n"
	    "                            file or an unencrypted OpenSSH ed25519 key\n"
	    "  -k, --key-file FILE       use a key file (from --gen-key)\n"
	    "  -P, --passphrase          a passphrase too, when -k is given\n"
	    "      --passphrase-file F   read the passphrase from F's first line\n"
	    "      --passphrase-fd N     read the passphrase from descriptor N\n"
	    "  (or AESCRYPT_PASSPHRASE in the environment, or the terminal)\n"
	    "\n"
	    "Encrypting (-c, -e):\n"
	    "  -0 ... -9                 deflate level; -0 stores (default -6)\n"
	    "      --chunk-size SIZE     64K..4M, a power of two (default 256K)\n"
	    "      --kdf-memory SIZE     Argon2id memory (default 256M)\n"
	    "      --kdf-time N          Argon2id passes (default 3)\n"
	    "      --kdf-parallelism N   Argon2id lanes (default 4)\n"
	    "  -z, --gzip                accepted and ignored: always compressed\n"
	    "\n"
	    "Decrypting (-t, -x, -d, --test):\n"
	    "      --max-kdf-memory SIZE refuse files whose Argon2id needs more\n"
	    "                            (default: 2G or half the RAM)\n"
	    "      --salvage             -d, -x: go on past damaged chunks; keep\n"
	    "                            what is whole, list what was lost\n"
	    "      --no-index            -c: write no index; -t, -x: read the\n"
	    "                            whole archive, not its index\n"
	    "\n"
	    "Output and performance:\n"
	    "  -q, --quiet               no progress line\n"
	    "      --progress            a progress line even if stderr is not a\n"
	    "                            terminal (by default: on a terminal)\n"
	    "      --stats[=json]        after the run, print where the time went\n"
	    "  -j, --threads N           worker threads (default: one per CPU)\n"
	    "      --no-hw               use the portable constant-time cipher\n"
	    "      --deflate ENGINE      libdeflate (default if built) or zlib\n"
	    "      --benchmark-time SECS with --benchmark: how long (default 10)\n"
	    "      --help[=all]          one screen of help, or this\n"
	    "  -V, --version             show version, cipher tiers, libraries\n"
	    "\n"
	    "Exit status: 0 ok, 1 some members skipped or not found, 2 usage or a\n"
	    "missing input, 3 wrong key, 4 damaged or not an aescrypt file, 5 over a\n"
	    "limit, 6 I/O or system error, 141 standard output closed (as SIGPIPE),\n"
	    "128+N interrupted by signal N.  See aescrypt(1).\n");
}

static void
version(void)
{
	char feat[256];
	int t;

	ae_cpu_describe(feat, sizeof feat);
	printf("aescrypt %s (container format v%d)\n", AESCRYPT_VERSION,
	    AE_VERSION);
	printf("cipher: AES-256-GCM, tier in use: %s\n",
	    ae_gcm_tier_name(ae_gcm_default_tier()));
	printf("tiers available:");
	for (t = 0; t < AE_GCM_TIER_COUNT; t++)
		if (ae_gcm_tier_available((enum ae_gcm_tier)t))
			printf(" %s", ae_gcm_tier_name((enum ae_gcm_tier)t));
	printf("\ncpu features: %s\n", feat);
	printf("deflate engine: %s %s", ae_deflate_name(AE_DEFLATE_DEFAULT),
	    ae_deflate_version(AE_DEFLATE_DEFAULT));
	if (ae_deflate_available(AE_DEFLATE_LIBDEFLATE))
		printf(" (zlib also built in: --deflate zlib)");
	printf("\nzlib %s (built with %s), libargon2 %s (at build time; "
	    "Argon2 v%d.%d)\n", zlibVersion(), ZLIB_VERSION, AE_ARGON2_VERSION,
	    ARGON2_VERSION_NUMBER >> 4, ARGON2_VERSION_NUMBER & 15);
	printf("libsodium %s (X25519 for public-key recipients)\n",
	    ae_x25519_library_version());
}

/* Parse "256M", "64K", "1G", "1048576" (bytes; K, M, G, T are binary
 * multiples, with an optional "iB" or "B").  0 or -1. */
static int
parse_size(const char *s, uint64_t *out)
{
	unsigned long long v;
	char *end;
	int shift = 0;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0)
		return -1;
	switch (*end) {
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	case 't': case 'T': shift = 40; end++; break;
	}
	if (shift != 0 && strcmp(end, "iB") == 0)
		end += 2;
	else if (strcmp(end, "B") == 0)
		end++;
	if (*end != '\0' || (shift != 0 && v > (UINT64_MAX >> shift)))
		return -1;
	*out = (uint64_t)v << shift;
	return 0;
}

static int
parse_u32(const char *s, uint32_t lo, uint32_t hi, uint32_t *out)
{
	unsigned long v;
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno != 0 || *end != '\0' || v < lo || v > hi)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

static int
bad_value(const char *opt, const char *val, const char *want)
{
	msg_error("%s: invalid value '%s'", opt, val);
	msg_hint("%s takes %s", opt, want);
	return EXIT_USAGE;
}

/* One worker per online CPU, as pigz and zstd -T0 do. */
static unsigned
default_threads(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (n < 1)
		return 1;
	return n > AE_PIPE_MAX_THREADS ? AE_PIPE_MAX_THREADS : (unsigned)n;
}

static int
set_mode(struct opts *o, int m)
{
	if (o->mode != 0 && o->mode != m) {
		msg_error("only one of -e, -d, -c, -t, -x, --test, --info, "
		    "--gen-key, --gen-identity and --benchmark may be given");
		return EXIT_USAGE;
	}
	o->mode = m;
	return EXIT_OK;
}

/* Options that belong to some modes only are refused elsewhere, so a
 * mistyped command fails instead of doing something else. */
static int
check_mode_options(const struct opts *o)
{
	static const struct {
		const char *name, *modes;
	} *t, tab[] = {
		{ "-o", "ed" }, { "-f", "ctx" }, { "-C", "cx" }, { "-v", "ctx" },
		{ "-T", "ctx" }, { "--null", "ctx" }, { "--exclude", "ctx" },
		{ "--keep-old-files", "x" }, { "-p", "x" },
		{ "--same-owner", "x" }, { "-O", "x" },
		{ "--strip-components", "x" }, { "--xattrs", "cx" },
		{ "--acls", "cx" }, { "-r", "ce" }, { "-R", "ce" },
		{ "-i", "dtx" }, { "--salvage", "dx" }, { "--no-index", "ctx" },
		{ NULL, NULL }
	};
	int set[] = {
		o->output != NULL, o->archive != NULL, o->directory != NULL,
		o->verbose, o->files_from != NULL, o->null_sep,
		o->nexclude > 0, o->keep_old, o->preserve, o->same_owner,
		o->to_stdout, o->strip > 0, o->xattrs, o->acls,
		o->nrecipients > 0, o->nrecipient_files > 0,
		o->nidentity_files > 0, o->salvage, o->no_index
	};
	int i;

	if (o->mode == 0 || o->mode == 'g' || o->mode == 'b' || o->mode == 'G')
		return EXIT_OK;
	if (o->mode == 'i') {
		if (o->output != NULL || o->directory != NULL || o->verbose
		    || o->files_from != NULL || o->nexclude > 0) {
			msg_error("--info takes only the file to describe");
			return EXIT_USAGE;
		}
		return EXIT_OK;
	}
	if (o->salvage && o->to_stdout) {
		msg_error("--salvage writes whole members only, and -O cannot "
		    "take back what it wrote");
		msg_hint("extract with --salvage into a directory (-C DIR)");
		return EXIT_USAGE;
	}
	if (o->test && (o->verbose || o->output != NULL)) {
		msg_error("--test prints nothing; use -t -v to list");
		return EXIT_USAGE;
	}
	for (t = tab, i = 0; t->name != NULL; t++, i++) {
		if (!set[i] || strchr(t->modes, o->mode) != NULL)
			continue;
		msg_error("%s does not apply to -%c", t->name, o->mode);
		if (strcmp(t->name, "-o") == 0)
			msg_hint("archives are named with -f FILE");
		else if (strcmp(t->name, "-f") == 0)
			msg_hint("streams take the input as an operand and "
			    "the output with -o FILE");
		return EXIT_USAGE;
	}
	if (o->null_sep && o->files_from == NULL) {
		msg_error("--null applies to the list given with -T");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static int
set_pass(struct opts *o, enum pass_source src, const char *arg)
{
	if (o->pass_src != PASS_NONE) {
		msg_error("only one of --passphrase-file and --passphrase-fd "
		    "may be given");
		return EXIT_USAGE;
	}
	o->pass_src = src;
	o->pass_arg = arg;
	return EXIT_OK;
}

/* Arrays with room for argc entries each, for what the command line
 * lists: main owns them, so they are freed whichever way run returns. */
struct room {
	char **exclude, **operands, **cdirs, **rcpts, **rfiles, **ifiles;
	size_t *operand_cdir;
};

/*
 * A value option in a bundle takes the rest of the bundle as its value,
 * as in tar: "-xkf a.aes" gives -k the value "f".  When that value is
 * only option letters and names no file, the user meant two options;
 * say so rather than fail later on a file called "f".  0 or EXIT_USAGE.
 */
static int
check_bundle(int c, const char *arg, const char *optarg_)
{
	static const char letters[] = "edctxvpqPhVOz0123456789fkCTjo";
	size_t len = strlen(arg);

	if (arg[0] != '-' || arg[1] == '-' || optarg_ <= arg
	    || optarg_ >= arg + len)
		return EXIT_OK;     /* not attached to a short option */
	if (strspn(optarg_, letters) != strlen(optarg_) || strlen(optarg_) > 4
	    || access(optarg_, F_OK) == 0)
		return EXIT_OK;
	msg_error("-%c took '%s' as its value (the rest of '%s')", c,
	    optarg_, arg);
	msg_hint("a letter that takes a value ends a bundle, as in tar; "
	    "write -%c VALUE on its own", c);
	return EXIT_USAGE;
}

/*
 * -r is age's recipient here, and tar's append there: a value that is
 * no recipient at all (as in "-rf a.aes", where -r takes "f") gets both
 * stories.  Recipients themselves are checked, with positions, when the
 * header is made.  0 or EXIT_USAGE.
 */
static int
check_recipient_arg(const char *v)
{
	if (strncasecmp(v, "age1", 4) == 0 || strstr(v, "ssh-") != NULL
	    || strstr(v, "ecdsa-") != NULL)
		return EXIT_OK;
	msg_error("-r names a recipient (an age1... key or an 'ssh-ed25519 "
	    "AAAA...' line), not '%s'", v);
	msg_hint("tar's -r (append) has no equivalent: an aescrypt archive "
	    "is a sealed, write-once stream; create a new archive, or a "
	    "second one beside it");
	return EXIT_USAGE;
}

/* Options tar users reach for that a sealed stream cannot offer. */
static int
refuse_tar_option(const char *name)
{
	if (strcmp(name, "--verify") == 0) {
		msg_error("--verify is not needed: every chunk is "
		    "authenticated as it is read");
		msg_hint("check a written archive with 'aescrypt --test -f "
		    "ARCHIVE'");
		return EXIT_USAGE;
	}
	msg_error("%s: an aescrypt archive is a sealed, write-once stream; "
	    "nothing can be added to it", name);
	msg_hint("create a new archive with everything in it, or a second "
	    "archive beside the first");
	return EXIT_USAGE;
}

/* Parse the command line and run the mode. */
static int
run(int argc, char **argv, struct room *rm)
{
	enum {
		OPT_NO_HW = 256, OPT_PASS_FILE, OPT_PASS_FD, OPT_GEN_KEY,
		OPT_KDF_MEM, OPT_KDF_TIME, OPT_KDF_PAR, OPT_MAX_KDF_MEM,
		OPT_CHUNK, OPT_STATS, OPT_BENCH, OPT_BENCH_TIME, OPT_NULL,
		OPT_EXCLUDE, OPT_KEEP_OLD, OPT_SAME_OWNER, OPT_HELP, OPT_PROGRESS,
		OPT_DEFLATE, OPT_STRIP, OPT_TEST, OPT_INFO, OPT_WILDCARDS,
		OPT_SEALED, OPT_VERIFY, OPT_XATTRS, OPT_NO_XATTRS, OPT_ACLS,
		OPT_NO_ACLS, OPT_GEN_IDENTITY, OPT_SALVAGE,
		OPT_NO_INDEX
	};
	static const struct option longopts[] = {
		{ "encrypt", no_argument, NULL, 'e' },
		{ "decrypt", no_argument, NULL, 'd' },
		{ "create", no_argument, NULL, 'c' },
		{ "list", no_argument, NULL, 't' },
		{ "extract", no_argument, NULL, 'x' },
		{ "file", required_argument, NULL, 'f' },
		{ "directory", required_argument, NULL, 'C' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "dereference", no_argument, NULL, 'h' },
		{ "exclude", required_argument, NULL, OPT_EXCLUDE },
		{ "files-from", required_argument, NULL, 'T' },
		{ "null", no_argument, NULL, OPT_NULL },
		{ "keep-old-files", no_argument, NULL, OPT_KEEP_OLD },
		{ "preserve-permissions", no_argument, NULL, 'p' },
		{ "same-owner", no_argument, NULL, OPT_SAME_OWNER },
		{ "to-stdout", no_argument, NULL, 'O' },
		{ "strip-components", required_argument, NULL, OPT_STRIP },
		{ "test", no_argument, NULL, OPT_TEST },
		{ "info", optional_argument, NULL, OPT_INFO },
		{ "wildcards", no_argument, NULL, OPT_WILDCARDS },
		{ "gzip", no_argument, NULL, 'z' },
		{ "append", no_argument, NULL, OPT_SEALED },
		{ "update", no_argument, NULL, OPT_SEALED },
		{ "concatenate", no_argument, NULL, OPT_SEALED },
		{ "catenate", no_argument, NULL, OPT_SEALED },
		{ "delete", no_argument, NULL, OPT_SEALED },
		{ "verify", no_argument, NULL, OPT_VERIFY },
		{ "salvage", no_argument, NULL, OPT_SALVAGE },
		{ "no-index", no_argument, NULL, OPT_NO_INDEX },
		{ "xattrs", no_argument, NULL, OPT_XATTRS },
		{ "no-xattrs", no_argument, NULL, OPT_NO_XATTRS },
		{ "acls", no_argument, NULL, OPT_ACLS },
		{ "no-acls", no_argument, NULL, OPT_NO_ACLS },
		{ "output", required_argument, NULL, 'o' },
		{ "key-file", required_argument, NULL, 'k' },
		{ "passphrase", no_argument, NULL, 'P' },
		{ "passphrase-file", required_argument, NULL, OPT_PASS_FILE },
		{ "passphrase-fd", required_argument, NULL, OPT_PASS_FD },
		{ "gen-key", required_argument, NULL, OPT_GEN_KEY },
		{ "gen-identity", required_argument, NULL, OPT_GEN_IDENTITY },
		{ "recipient", required_argument, NULL, 'r' },
		{ "recipients-file", required_argument, NULL, 'R' },
		{ "identity", required_argument, NULL, 'i' },
		{ "kdf-memory", required_argument, NULL, OPT_KDF_MEM },
		{ "kdf-time", required_argument, NULL, OPT_KDF_TIME },
		{ "kdf-parallelism", required_argument, NULL, OPT_KDF_PAR },
		{ "max-kdf-memory", required_argument, NULL, OPT_MAX_KDF_MEM },
		{ "chunk-size", required_argument, NULL, OPT_CHUNK },
		{ "threads", required_argument, NULL, 'j' },
		{ "stats", optional_argument, NULL, OPT_STATS },
		{ "benchmark", optional_argument, NULL, OPT_BENCH },
		{ "benchmark-time", required_argument, NULL, OPT_BENCH_TIME },
		{ "no-hw", no_argument, NULL, OPT_NO_HW },
		{ "deflate", required_argument, NULL, OPT_DEFLATE },
		{ "help", optional_argument, NULL, OPT_HELP },
		{ "progress", no_argument, NULL, OPT_PROGRESS },
		{ "quiet", no_argument, NULL, 'q' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct opts o;
	const char *genkey = NULL;
	double bench_time = 10.0;
	enum bench_format bench_format = BENCH_TEXT;
	uint64_t size;
	int c, rc, want_version = 0, want_help = 0, h_seen = 0, z_seen = 0;

	/* Only the character classes: member names are printed as the
	 * locale can show them, as tar does (names.c). */
	setlocale(LC_CTYPE, "");
	memset(&o, 0, sizeof o);
	o.level = 6;
	o.chunk_log2 = AE_CHUNK_LOG2_DEFAULT;
	o.kdf.m_kib = AE_KDF_DEFAULT_M_KIB;
	o.kdf.t = AE_KDF_DEFAULT_T;
	o.kdf.p = AE_KDF_DEFAULT_P;
	o.threads = default_threads();
	o.progress = -1;
	o.exclude = rm->exclude;
	o.operands = rm->operands;
	o.cdirs = rm->cdirs;
	o.operand_cdir = rm->operand_cdir;
	o.recipients = rm->rcpts;
	o.recipient_files = rm->rfiles;
	o.identity_files = rm->ifiles;

	/* "-" first: operands come back in place (as option 1), so each
	 * -C applies to the paths after it, as in tar. */
	opterr = 0;
	while ((c = getopt_long(argc, argv,
	    "-:edctxo:k:j:f:C:T:vpqPhVOzr:R:i:uA0123456789", longopts, NULL))
	    != -1) {
		rc = EXIT_OK;
		if (c == 'r' && (rc = check_recipient_arg(optarg)) != EXIT_OK)
			return rc;
		if (optarg != NULL && strchr("fkCToRi", c) != NULL
		    && (rc = check_bundle(c, argv[optind - 1], optarg))
		    != EXIT_OK)
			return rc;
		switch (c) {
		case 1:
			o.operand_cdir[o.noperands] = o.ncdirs;
			o.operands[o.noperands++] = optarg;
			break;
		case 'O':
			o.to_stdout = 1;
			break;
		case OPT_STRIP:
			if (parse_u32(optarg, 0, 4096, &o.strip) != 0)
				return bad_value("--strip-components", optarg,
				    "a number of leading name parts");
			break;
		case OPT_TEST:
			rc = set_mode(&o, 't');
			o.test = 1;
			break;
		case OPT_INFO:
			rc = set_mode(&o, 'i');
			if (optarg != NULL && strcmp(optarg, "json") == 0)
				o.info_json = 1;
			else if (optarg != NULL)
				return bad_value("--info", optarg,
				    "no value, or =json");
			break;
		case OPT_XATTRS:
		case OPT_NO_XATTRS:
			o.xattrs = c == OPT_XATTRS;
			break;
		case OPT_ACLS:
		case OPT_NO_ACLS:
			o.acls = c == OPT_ACLS;
			break;
		case OPT_SALVAGE:
			o.salvage = 1;
			break;
		case OPT_NO_INDEX:
			o.no_index = 1;
			break;
		case OPT_WILDCARDS:
			break;      /* patterns are always on (as bsdtar) */
		case 'z':
			z_seen = 1;
			break;
		case 'r':
			o.recipients[o.nrecipients++] = optarg;
			break;
		case 'R':
			o.recipient_files[o.nrecipient_files++] = optarg;
			break;
		case 'i':
			o.identity_files[o.nidentity_files++] = optarg;
			break;
		case OPT_GEN_IDENTITY:
			rc = set_mode(&o, 'G');
			genkey = optarg;
			break;
		case 'u':
			return refuse_tar_option("-u (--update)");
		case 'A':
			return refuse_tar_option("-A (--concatenate)");
		case OPT_SEALED:
			return refuse_tar_option(argv[optind - 1]);
		case OPT_VERIFY:
			return refuse_tar_option("--verify");
		case 'e':
		case 'd':
		case 'c':
		case 't':
		case 'x':
			rc = set_mode(&o, c);
			break;
		case 'f':
			o.archive = optarg;
			break;
		case 'C':
			o.directory = optarg;
			o.cdirs[o.ncdirs++] = optarg;
			break;
		case 'v':
			o.verbose = 1;
			break;
		case 'T':
			o.files_from = optarg;
			o.files_from_cdir = o.ncdirs;
			break;
		case OPT_NULL:
			o.null_sep = 1;
			break;
		case OPT_EXCLUDE:
			o.exclude[o.nexclude++] = optarg;
			break;
		case OPT_KEEP_OLD:
			o.keep_old = 1;
			break;
		case 'p':
			o.preserve = 1;
			break;
		case OPT_SAME_OWNER:
			o.same_owner = 1;
			break;
		case OPT_PROGRESS:
			o.progress = 1;
			break;
		case 'q':
			o.progress = 0;
			break;
		case OPT_GEN_KEY:
			rc = set_mode(&o, 'g');
			genkey = optarg;
			break;
		case 'o':
			o.output = optarg;
			break;
		case 'k':
			o.keyfile = optarg;
			break;
		case 'P':
			o.want_pass = 1;
			break;
		case OPT_PASS_FILE:
			rc = set_pass(&o, PASS_FILE, optarg);
			break;
		case OPT_PASS_FD:
			rc = set_pass(&o, PASS_FD, optarg);
			break;
		case '0': case '1': case '2': case '3': case '4':
		case '5': case '6': case '7': case '8': case '9':
			o.level = c - '0';
			break;
		case OPT_CHUNK:
			if (parse_size(optarg, &size) != 0 || size == 0
			    || (size & (size - 1)) != 0
			    || size < (1u << AE_CHUNK_LOG2_MIN)
			    || size > (1u << AE_CHUNK_LOG2_MAX))
				return bad_value("--chunk-size", optarg,
				    "a power of two from 64K to 4M");
			for (o.chunk_log2 = 0; (1ull << o.chunk_log2) < size;
			    o.chunk_log2++)
				;
			break;
		case OPT_KDF_MEM:
			if (parse_size(optarg, &size) != 0 || size % 1024 != 0
			    || size < 8 * 1024 || size / 1024 > UINT32_MAX)
				return bad_value("--kdf-memory", optarg,
				    "a size of at least 8K, in whole KiB "
				    "(e.g. 64M, 1G)");
			o.kdf.m_kib = (uint32_t)(size / 1024);
			break;
		case OPT_KDF_TIME:
			if (parse_u32(optarg, 1, AE_KDF_CAP_T, &o.kdf.t) != 0)
				return bad_value("--kdf-time", optarg,
				    "a number of passes from 1 to 10");
			break;
		case OPT_KDF_PAR:
			if (parse_u32(optarg, 1, AE_KDF_CAP_P, &o.kdf.p) != 0)
				return bad_value("--kdf-parallelism", optarg,
				    "a number of lanes from 1 to 16");
			break;
		case OPT_MAX_KDF_MEM:
			if (parse_size(optarg, &size) != 0 || size < 1024)
				return bad_value("--max-kdf-memory", optarg,
				    "a size (e.g. 4G)");
			o.max_kdf_kib = size / 1024;
			break;
		case 'j':
			if (parse_u32(optarg, 1, AE_PIPE_MAX_THREADS,
			    &o.threads) != 0)
				return bad_value("-j", optarg,
				    "a thread count from 1 to 256");
			break;
		case OPT_STATS:
			if (optarg == NULL)
				o.stats = 1;
			else if (strcmp(optarg, "json") == 0)
				o.stats = 2;
			else
				return bad_value("--stats", optarg,
				    "no value, or =json");
			break;
		case OPT_BENCH:
			rc = set_mode(&o, 'b');
			if (optarg == NULL || strcmp(optarg, "text") == 0)
				bench_format = BENCH_TEXT;
			else if (strcmp(optarg, "json") == 0)
				bench_format = BENCH_JSON;
			else if (strcmp(optarg, "csv") == 0)
				bench_format = BENCH_CSV;
			else
				return bad_value("--benchmark", optarg,
				    "'text', 'json' or 'csv'");
			break;
		case OPT_BENCH_TIME: {
			char *end;

			errno = 0;
			bench_time = strtod(optarg, &end);
			if (errno != 0 || *end != '\0' || end == optarg
			    || !(bench_time >= 0.1 && bench_time <= 3600))
				return bad_value("--benchmark-time", optarg,
				    "seconds, from 0.1 to 3600");
			break;
		}
		case OPT_NO_HW:
			ae_gcm_force_software();
			break;
		case OPT_DEFLATE:
			if (strcmp(optarg, "zlib") == 0)
				o.engine = AE_DEFLATE_ZLIB;
			else if (strcmp(optarg, "libdeflate") == 0)
				o.engine = AE_DEFLATE_LIBDEFLATE;
			else
				return bad_value("--deflate", optarg,
				    "'libdeflate' or 'zlib'");
			if (!ae_deflate_available(o.engine)) {
				msg_error("--deflate %s: this build has no %s "
				    "(configure found no libdeflate-dev, or was "
				    "run --without-libdeflate)", optarg, optarg);
				return EXIT_USAGE;
			}
			break;
		case 'h':
			/* tar's -h (dereference) with -c; help otherwise. */
			h_seen = 1;
			break;
		case OPT_HELP:
			if (optarg == NULL)
				want_help = 1;
			else if (strcmp(optarg, "all") == 0)
				want_help = 2;
			else
				return bad_value("--help", optarg,
				    "no value, or =all");
			break;
		case 'V':
			want_version = 1;
			break;
		case ':':
			msg_error("option '%s' needs a value",
			    argv[optind - 1]);
			msg_hint("run 'aescrypt --help' for usage");
			return EXIT_USAGE;
		default:
			if (optopt == 'P' && strncmp(argv[optind - 1],
			    "--passphrase=", 13) == 0) {
				msg_error("a passphrase is never taken from "
				    "the command line: other users can read it "
				    "in ps, and it stays in the shell's history");
				msg_hint("use --passphrase-file FILE, "
				    "--passphrase-fd N, AESCRYPT_PASSPHRASE, or "
				    "type it at the prompt");
				return EXIT_USAGE;
			}
			if (optopt != 0 && strncmp(argv[optind - 1], "--", 2)
			    == 0)
				msg_error("option '%.*s' does not take a value",
				    (int)strcspn(argv[optind - 1], "="),
				    argv[optind - 1]);
			else if (optopt != 0 && optopt < 256)
				msg_error("unknown option '-%c'", optopt);
			else
				msg_error("unknown option '%s'",
				    argv[optind - 1]);
			msg_hint("run 'aescrypt --help' for usage");
			return EXIT_USAGE;
		}
		if (rc != EXIT_OK)
			return rc;
	}
	if (h_seen && o.mode == 'c')
		o.follow = 1;
	else if (h_seen)
		want_help = 1;
	if (want_help) {
		if (want_help == 2)
			usage_all(stdout);
		else
			usage(stdout);
		return EXIT_OK;
	}
	/* getopt stops at "--": what follows is operands. */
	for (; optind < argc; optind++) {
		o.operand_cdir[o.noperands] = o.ncdirs;
		o.operands[o.noperands++] = argv[optind];
	}
	if (want_version) {
		version();
		return EXIT_OK;
	}
	if ((uint64_t)o.kdf.m_kib < 8ull * o.kdf.p) {
		msg_error("--kdf-memory must be at least 8K per lane "
		    "(%u lanes need %uK)", o.kdf.p, 8 * o.kdf.p);
		return EXIT_USAGE;
	}
	if ((rc = check_mode_options(&o)) != EXIT_OK)
		return rc;
	if (z_seen && (o.mode == 'c' || o.mode == 'e'))
		msg_note("-z is not needed: aescrypt always compresses "
		    "(deflate, -0 to -9)");
	if ((o.mode == 'i' || o.test) && o.archive == NULL
	    && o.noperands > 0) {
		/* "--test FILE", as gzip -t and age-inspect take it. */
		o.archive = o.operands[0];
		o.operands++;
		o.noperands--;
	}
	if ((o.mode == 'i' || o.test) && o.noperands > 0) {
		msg_error("unexpected argument '%s'", o.operands[0]);
		msg_hint("--%s takes one file", o.mode == 'i' ? "info" :
		    "test");
		return EXIT_USAGE;
	}
	if ((o.mode == 'b' || o.mode == 'g' || o.mode == 'G')
	    && o.noperands > 0) {
		msg_error("unexpected argument '%s'", o.operands[0]);
		return EXIT_USAGE;
	}
	if (o.mode != 'c' && o.ncdirs > 1 && o.mode != 0) {
		msg_error("-C may be given once with -%c", o.mode);
		msg_hint("with -c, each -C applies to the paths after it");
		return EXIT_USAGE;
	}
	signals_init();
	switch (o.mode) {
	case 'b':
		return benchmark_run(bench_time, o.threads, o.chunk_log2,
		    bench_format, isatty(STDOUT_FILENO));
	case 'g':
		return secret_keyfile_generate(genkey);
	case 'G':
		return identity_generate(genkey);
	case 'i':
		return cmd_info(&o);
	case 'e':
	case 'd':
		if (o.noperands > 1) {
			msg_error("unexpected argument '%s'", o.operands[1]);
			msg_hint("-%c takes one input; use -c for archives "
			    "of many files", o.mode);
			return EXIT_USAGE;
		}
		o.input = o.noperands > 0 ? o.operands[0] : NULL;
		return o.mode == 'e' ? cmd_encrypt(&o) : cmd_decrypt(&o);
	case 'c':
		return cmd_create(&o);
	case 't':
		return cmd_list(&o);
	case 'x':
		return cmd_extract(&o);
	}
	if (o.noperands > 0) {
		msg_error("unexpected argument '%s'", o.operands[0]);
		msg_hint("give a mode: -e or -d for a stream, -c, -t or -x "
		    "for an archive");
		return EXIT_USAGE;
	}
	usage(stderr);
	return EXIT_USAGE;
}

/*
 * No core dumps: a crash or a Ctrl-\ must not write the file key, the
 * passphrase or plaintext buffers to disk.  RLIMIT_CORE 0 stops the
 * kernel writing a core file; PR_SET_DUMPABLE 0 also stops core
 * handlers that ignore the limit (a core_pattern pipe such as
 * systemd-coredump) and ptrace attaches by other processes of the same
 * user.  Buffers of plaintext are also marked MADV_DONTDUMP where they
 * are allocated.  Memory is not locked (mlock): the chunk buffers are
 * tens of MiB, over the default RLIMIT_MEMLOCK, and keys live briefly on
 * the stack; encrypted swap is the system's answer to paging.
 */
static void
no_core_dumps(void)
{
	struct rlimit rl = { 0, 0 };

	(void)setrlimit(RLIMIT_CORE, &rl);
	(void)prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
}

int
main(int argc, char **argv)
{
	struct room rm;
	size_t n = (size_t)argc + 1;
	int rc;

	no_core_dumps();

#ifdef M_ARENA_MAX
	/* One malloc arena for all threads.  glibc gives each new thread
	 * that allocates (zlib's inflate window is allocated on first use,
	 * in a worker) an arena that reserves 64 MiB of address space, so
	 * the peak depended on which thread allocated first, and a run under
	 * ulimit -v failed at random.  The threads allocate almost nothing
	 * after start-up, so one arena costs no speed. */
	mallopt(M_ARENA_MAX, 1);
#endif
	rm.exclude = calloc(n, sizeof *rm.exclude);
	rm.operands = calloc(n, sizeof *rm.operands);
	rm.cdirs = calloc(n, sizeof *rm.cdirs);
	rm.operand_cdir = calloc(n, sizeof *rm.operand_cdir);
	rm.rcpts = calloc(n, sizeof *rm.rcpts);
	rm.rfiles = calloc(n, sizeof *rm.rfiles);
	rm.ifiles = calloc(n, sizeof *rm.ifiles);
	if (rm.exclude == NULL || rm.operands == NULL || rm.cdirs == NULL
	    || rm.operand_cdir == NULL || rm.rcpts == NULL || rm.rfiles == NULL
	    || rm.ifiles == NULL) {
		msg_error("out of memory");
		rc = EXIT_SYSTEM;
	} else {
		rc = run(argc, argv, &rm);
	}
	free(rm.exclude);
	free(rm.operands);
	free(rm.cdirs);
	free(rm.operand_cdir);
	free(rm.rcpts);
	free(rm.rfiles);
	free(rm.ifiles);
	return rc;
}
