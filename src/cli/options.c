/*
 * options.c -- the command line (contract in options.h).
 *
 * One table lists every option.  A row either sets an int field of
 * struct opts to a constant (flags, levels, modes) or calls a small
 * function that reads the value; getopt_long's tables are made from it,
 * so an option is named in one place.  getopt runs in "-" mode, which
 * hands operands back in place, so each -C applies to the paths after
 * it, as in tar.
 */
#include "config.h"
#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define AESCRYPT_STATIC_LINKING_ONLY
#include "aescrypt.h"
#include "disk/xattr.h"
#include "exitcode.h"
#include "msg.h"

/* Keys of the options without a letter (getopt's val). */
enum {
	OPT_NO_HW = 256, OPT_PASS_FILE, OPT_PASS_FD, OPT_GEN_KEY,
	OPT_KDF_MEM, OPT_KDF_TIME, OPT_KDF_PAR, OPT_MAX_KDF_MEM, OPT_MAX_WORK, OPT_PLUGIN_TIMEOUT,
	OPT_CHUNK,
	OPT_STATS, OPT_BENCH, OPT_BENCH_TIME, OPT_NULL, OPT_EXCLUDE,
	OPT_KEEP_OLD, OPT_SAME_OWNER, OPT_HELP, OPT_PROGRESS, OPT_DEFLATE,
	OPT_STRIP, OPT_TEST, OPT_INFO, OPT_MOUNT, OPT_FOREGROUND, OPT_LEVELS, OPT_MOUNT_CACHE, OPT_ALLOW_OTHER, OPT_WILDCARDS, OPT_SEALED, OPT_VERIFY,
	OPT_XATTRS, OPT_NO_XATTRS, OPT_ACLS, OPT_NO_ACLS, OPT_GEN_IDENTITY,
	OPT_SALVAGE, OPT_NO_INDEX, OPT_NO_CHAIN_CHECK, OPT_LEVEL, OPT_XATTRS_INCLUDE,
	OPT_XATTRS_EXCLUDE, OPT_MAX_SIZE, OPT_ZSTD, OPT_EXCLUDE_VCS,
	OPT_EXCLUDE_CACHES, OPT_EXCLUDE_CACHES_UNDER, OPT_EXCLUDE_CACHES_ALL,
	OPT_EXCLUDE_TAG, OPT_EXCLUDE_TAG_UNDER, OPT_EXCLUDE_TAG_ALL,
	OPT_ONE_FS, OPT_SKIP_OLD, OPT_KEEP_NEWER, OPT_OVERWRITE,
	OPT_OVERWRITE_DIR, OPT_SAME_PERMS, OPT_NO_SAME_PERMS, OPT_NO_SAME_OWNER,
	OPT_NEWER_MTIME, OPT_LEVEL_INC, OPT_NO_OVERWRITE_DIR, OPT_NO_DEVICES,
	OPT_CHECKSUM, OPT_TOTALS, OPT_PQ, OPT_SIGN, OPT_SIG_FILE, OPT_SIGNER
};

/* What a row does: set an int of struct opts, or call a function. */
typedef int (*opt_fn)(struct cmdline *c, int key, const char *arg,
    char **argv);

struct optdef {
	const char *name;           /* long name, or NULL */
	int key;                    /* the letter, or OPT_* */
	int has_arg;                /* no_argument, required_, optional_ */
	size_t field;               /* offsetof(struct opts, ...), or ... */
	int value;                  /* ... the value it gets; */
	opt_fn fn;                  /* or this, when set */
};

#define NONE ((size_t)-1)
#define SET(f, v) offsetof(struct opts, f), (v), NULL
#define CALL(fn) NONE, 0, (fn)

/* ---- values ---- */

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
	return n > AESCRYPT_THREADS_MAX ? AESCRYPT_THREADS_MAX : (unsigned)n;
}

/* ---- the rows' functions ---- */

static int
set_mode(struct cmdline *c, int m)
{
	if (c->o.run.mode != 0 && c->o.run.mode != m) {
		msg_error("only one of -e, -d, -c, -t, -x, --test, --info, "
		    "--gen-key, --gen-identity and --benchmark may be given");
		return EXIT_USAGE;
	}
	c->o.run.mode = m;
	return EXIT_OK;
}

static int
opt_mode(struct cmdline *c, int key, const char *arg, char **argv)
{
	switch (key) {
	case OPT_TEST:
		c->o.run.test = 1;
		return set_mode(c, 't');
	case OPT_GEN_KEY:
	case OPT_GEN_IDENTITY:
		/* "--gen-identity --pq FILE": getopt took the option after
		 * it for the file.  Give it back to be read as the option it
		 * is, and take the file from the operands (options_check):
		 * an option is never taken for a file name. */
		if (arg[0] == '-' && arg[1] != '\0') {
			if (argv[optind - 1] != arg) {
				msg_error("--gen-%s=%s: a file name that starts "
				    "with '-' (write ./%s)", key == OPT_GEN_KEY ?
				    "key" : "identity", arg, arg);
				return EXIT_USAGE;
			}
			optind--;
			arg = NULL;
		}
		c->genkey = arg;
		return set_mode(c, key == OPT_GEN_KEY ? 'g' : 'G');
	}
	return set_mode(c, key);
}

static int
opt_info(struct cmdline *c, int key, const char *arg, char **argv)
{
	(void)key, (void)argv;
	if (arg != NULL && strcmp(arg, "json") == 0)
		c->o.info_json = 1;
	else if (arg != NULL)
		return bad_value("--info", arg, "no value, or =json");
	return set_mode(c, 'i');
}

static int
opt_mount(struct cmdline *c, int key, const char *arg, char **argv)
{
	(void)key, (void)argv;
	c->o.mount_dir = arg;
	return set_mode(c, 'm');
}

static int
opt_bench(struct cmdline *c, int key, const char *arg, char **argv)
{
	const char *p = arg;

	(void)key, (void)argv;
	c->bench_format = BENCH_TEXT;
	/* "all", a format, or both: "all,json" */
	while (p != NULL && *p != '\0') {
		size_t n = strcspn(p, ",");

		if (n == 3 && strncmp(p, "all", 3) == 0)
			c->bench_all = 1;
		else if (n == 4 && strncmp(p, "text", 4) == 0)
			c->bench_format = BENCH_TEXT;
		else if (n == 4 && strncmp(p, "json", 4) == 0)
			c->bench_format = BENCH_JSON;
		else if (n == 3 && strncmp(p, "csv", 3) == 0)
			c->bench_format = BENCH_CSV;
		else
			return bad_value("--benchmark", arg, "'all', 'text', "
			    "'json' or 'csv', or 'all,' and a format");
		p += n + (p[n] == ',');
	}
	return set_mode(c, 'b');
}

/* Operands, and options that list things (-r, -R, -i, --exclude, -X,
 * the tags, -C). */
static int
opt_list(struct cmdline *c, int key, const char *arg, char **argv)
{
	struct opts *o = &c->o;

	(void)argv;
	switch (key) {
	case 1:
		o->operand_cdir[o->sel.noperands] = o->ncdirs;
		o->sel.operands[o->sel.noperands++] = (char *)arg;
		break;
	case 'r':
		o->keys.recipients[o->keys.nrecipients++] = (char *)arg;
		break;
	case 'R':
		o->keys.recipient_files[o->keys.nrecipient_files++] = (char *)arg;
		break;
	case 'i':
		o->keys.identity_files[o->keys.nidentity_files++] = (char *)arg;
		break;
	case OPT_EXCLUDE:
		o->sel.exclude[o->sel.nexclude++] = (char *)arg;
		break;
	case 'X':
		o->exclude_from[o->nexclude_from++] = (char *)arg;
		break;
	case OPT_EXCLUDE_CACHES:
	case OPT_EXCLUDE_CACHES_UNDER:
	case OPT_EXCLUDE_CACHES_ALL:
		o->tags[o->ntags].name = "CACHEDIR.TAG";
		o->tags[o->ntags].cachedir = 1;
		o->tags[o->ntags++].how = key == OPT_EXCLUDE_CACHES ?
		    AE_DR_TAG_CONTENTS : key == OPT_EXCLUDE_CACHES_UNDER ?
		    AE_DR_TAG_UNDER : AE_DR_TAG_ALL;
		break;
	case OPT_EXCLUDE_TAG:
	case OPT_EXCLUDE_TAG_UNDER:
	case OPT_EXCLUDE_TAG_ALL:
		if (*arg == '\0' || strchr(arg, '/') != NULL)
			return bad_value(key == OPT_EXCLUDE_TAG ? "--exclude-tag"
			    : key == OPT_EXCLUDE_TAG_UNDER ? "--exclude-tag-under"
			    : "--exclude-tag-all", arg, "a file name (no '/')");
		o->tags[o->ntags].name = arg;
		o->tags[o->ntags].cachedir = 0;
		o->tags[o->ntags++].how = key == OPT_EXCLUDE_TAG ?
		    AE_DR_TAG_CONTENTS : key == OPT_EXCLUDE_TAG_UNDER ?
		    AE_DR_TAG_UNDER : AE_DR_TAG_ALL;
		break;
	case OPT_XATTRS_INCLUDE:
		/* as in GNU tar, a pattern turns --xattrs on */
		o->xattrs_include[o->nxattrs_include++] = (char *)arg;
		o->xattrs = 1;
		break;
	case OPT_XATTRS_EXCLUDE:
		o->xattrs_exclude[o->nxattrs_exclude++] = (char *)arg;
		o->xattrs = 1;
		break;
	case 'C':
		o->directory = arg;
		o->cdirs[o->ncdirs++] = (char *)arg;
		break;
	}
	return EXIT_OK;
}

/* -q: no progress line, and none of the warnings GNU tar gives only
 * with -v (create.c). */
static int
opt_quiet(struct cmdline *c, int key, const char *arg, char **argv)
{
	(void)key;
	(void)arg;
	(void)argv;
	c->o.run.quiet = 1;
	c->o.run.progress = 0;
	return EXIT_OK;
}

/* Options that name a file or another string. */
static int
opt_string(struct cmdline *c, int key, const char *arg, char **argv)
{
	struct opts *o = &c->o;

	(void)argv;
	switch (key) {
	case 'f':
		o->archive = arg;
		o->archives[o->narchives++] = arg;
		break;
	case 'o': o->output = arg; break;
	case 'k':
		/* tar's -k is --keep-old-files: "-xkf a.aes" would take
		 * "-f" for the key file's name, silently */
		if (arg[0] == '-' && arg[1] != '\0') {
			msg_error("-k takes a key file, not the option '%s'",
			    arg);
			msg_hint("tar's -k (keep old files) is --keep-old-files "
			    "here; a key file whose name starts with '-' can "
			    "be given as ./%s", arg);
			return EXIT_USAGE;
		}
		o->keys.keyfile = arg;
		break;
	case 'g': o->listed = arg; break;
	case OPT_CHECKSUM: o->checksum = arg; break;
	case OPT_SIGN: o->sign = arg; break;
	case OPT_SIG_FILE: o->sig_file = arg; break;
	case OPT_SIGNER:
		o->keys.signers = arg;
		o->run.signer = 1;
		break;
	case OPT_LEVEL_INC:
		/* GNU tar takes 0 alone too: any other level is what the
		 * snapshot file says */
		if (strcmp(arg, "0") != 0)
			return bad_value("--level", arg, "0 (a full dump; the "
			    "snapshot file gives the other levels)");
		o->level0 = 1;
		break;
	case 'T':
		o->sel.files_from = arg;
		o->files_from_cdir = o->ncdirs;
		break;
	}
	return EXIT_OK;
}

static int
opt_pass(struct cmdline *c, int key, const char *arg, char **argv)
{
	(void)argv;
	if (c->o.keys.pass_src != PASS_NONE) {
		msg_error("only one of --passphrase-file and --passphrase-fd "
		    "may be given");
		return EXIT_USAGE;
	}
	c->o.keys.pass_src = key == OPT_PASS_FILE ? PASS_FILE : PASS_FD;
	c->o.keys.pass_arg = arg;
	return EXIT_OK;
}

static int
opt_level(struct cmdline *c, int key, const char *arg, char **argv)
{
	(void)arg, (void)argv;
	c->o.run.level = key - '0';
	return EXIT_OK;
}

static int
opt_chunk(struct cmdline *c, int key, const char *arg, char **argv)
{
	uint64_t size;

	(void)key, (void)argv;
	if (parse_size(arg, &size) != 0 || size == 0 || (size & (size - 1)) != 0
	    || size < (1u << AESCRYPT_CHUNK_LOG2_MIN)
	    || size > (1u << AESCRYPT_CHUNK_LOG2_MAX_ZSTD))
		return bad_value("--chunk-size", arg,
		    "a power of two from 64K to 4M (8M with --zstd)");
	for (c->o.run.chunk_log2 = 0; (1ull << c->o.run.chunk_log2) < size;
	    c->o.run.chunk_log2++)
		;
	c->o.run.chunk_set = 1;
	return EXIT_OK;
}

/* The Argon2id costs and their cap. */
static int
opt_kdf(struct cmdline *c, int key, const char *arg, char **argv)
{
	struct opts *o = &c->o;
	uint64_t size;

	(void)argv;
	switch (key) {
	case OPT_KDF_MEM:
		if (parse_size(arg, &size) != 0 || size % 1024 != 0
		    || size < 8 * 1024 || size / 1024 > UINT32_MAX)
			return bad_value("--kdf-memory", arg, "a size of at "
			    "least 8K, in whole KiB (e.g. 64M, 1G)");
		o->keys.kdf.m_kib = (uint32_t)(size / 1024);
		break;
	case OPT_KDF_TIME:
		if (parse_u32(arg, 1, AESCRYPT_KDF_MAX_T, &o->keys.kdf.t) != 0)
			return bad_value("--kdf-time", arg,
			    "a number of passes from 1 to 10");
		break;
	case OPT_KDF_PAR:
		if (parse_u32(arg, 1, AESCRYPT_KDF_MAX_P, &o->keys.kdf.p) != 0)
			return bad_value("--kdf-parallelism", arg,
			    "a number of lanes from 1 to 16");
		break;
	case OPT_MAX_KDF_MEM:
		if (parse_size(arg, &size) != 0 || size < 1024)
			return bad_value("--max-kdf-memory", arg,
			    "a size (e.g. 4G)");
		o->keys.max_kdf_kib = size / 1024;
		break;
	case OPT_MAX_WORK:
		if (parse_u32(arg, 1, AESCRYPT_AGE_WORK_FACTOR_MAX,
		    &o->keys.max_work_factor) != 0)
			return bad_value("--max-work-factor", arg, "a log2 of "
			    "scrypt's N from 1 to 30 (age's cap is 22)");
		break;
	case OPT_PLUGIN_TIMEOUT:
		if (parse_u32(arg, 1, 3600, &o->keys.plugin_timeout_ms) != 0)
			return bad_value("--plugin-timeout", arg, "a number of "
			    "seconds from 1 to 3600");
		o->keys.plugin_timeout_ms *= 1000;
		break;
	case OPT_MAX_SIZE:
		if (parse_size(arg, &size) != 0 || size == 0)
			return bad_value("--max-size", arg, "a size (e.g. 10G)");
		o->max_size = size;
		break;
	case OPT_MOUNT_CACHE:
		if (parse_size(arg, &size) != 0 || size > ((uint64_t)1 << 40))
			return bad_value("--mount-cache", arg, "a size up to 1T "
			    "(e.g. 256M; 0 for none)");
		o->mount_cache = size;
		o->mount_cache_set = 1;
		break;
	}
	return EXIT_OK;
}

static int
opt_number(struct cmdline *c, int key, const char *arg, char **argv)
{
	(void)argv;
	if (key == 'j' && parse_u32(arg, 1, AESCRYPT_THREADS_MAX,
	    &c->o.run.threads) != 0)
		return bad_value("-j", arg, "a thread count from 1 to 256");
	if (key == 'j')
		c->o.threads_set = 1;
	if (key == OPT_STRIP && parse_u32(arg, 0, 4096, &c->o.strip) != 0)
		return bad_value("--strip-components", arg,
		    "a number of leading name parts");
	if (key == OPT_BENCH_TIME) {
		char *end;

		errno = 0;
		c->bench_time = strtod(arg, &end);
		if (errno != 0 || *end != '\0' || end == arg
		    || !(c->bench_time >= 0.1 && c->bench_time <= 3600))
			return bad_value("--benchmark-time", arg,
			    "seconds, from 0.1 to 3600");
	}
	return EXIT_OK;
}

static int
opt_stats(struct cmdline *c, int key, const char *arg, char **argv)
{
	(void)key, (void)argv;
	if (arg == NULL)
		c->o.run.stats = 1;
	else if (strcmp(arg, "json") == 0)
		c->o.run.stats = 2;
	else
		return bad_value("--stats", arg, "no value, or =json");
	return EXIT_OK;
}

static int
opt_engine(struct cmdline *c, int key, const char *arg, char **argv)
{
	(void)argv;
	if (key == OPT_NO_HW) {
		aescrypt_force_software();
		return EXIT_OK;
	}
	c->deflate_seen = 1;
	if (strcmp(arg, "zlib") == 0)
		c->o.run.engine = AESCRYPT_ENGINE_ZLIB;
	else if (strcmp(arg, "libdeflate") == 0)
		c->o.run.engine = AESCRYPT_ENGINE_LIBDEFLATE;
	else
		return bad_value("--deflate", arg, "'libdeflate' or 'zlib'");
	if (!aescrypt_engine_available(c->o.run.engine)) {
		msg_error("--deflate %s: this build has no %s (configure found "
		    "no libdeflate-dev, or was run --without-libdeflate)", arg,
		    arg);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static int
opt_misc(struct cmdline *c, int key, const char *arg, char **argv)
{
	(void)argv;
	if (key == 'V')
		c->want_version = 1;
	else if (key == 'v')
		c->o.run.verbose++;     /* -vv: -c's long listing, as tar's */
	else if (key == 'h')
		c->h_seen = 1;  /* tar's -h (dereference) with -c; help
		                 * otherwise */
	else if (key == 'z')
		c->deflate_seen = 1;
	else if (key == OPT_ZSTD)
		c->zstd_seen = 1;
	else if (key == OPT_PQ)
		c->pq = 1;
	else if (arg == NULL)
		c->want_help = 1;
	else if (strcmp(arg, "all") == 0)
		c->want_help = 2;
	else
		return bad_value("--help", arg, "no value, or =all");
	return EXIT_OK;
}

/*
 * -N DATE, --newer=DATE, --after-date=DATE, --newer-mtime=DATE: DATE is
 * "@SECONDS", "YYYY-MM-DD", "YYYY-MM-DD HH:MM[:SS]" (or with a 'T'), in
 * local time, or, as in GNU tar, a file name when it starts with '/'
 * or '.': that file's mtime.
 */
static int
opt_newer(struct cmdline *c, int key, const char *arg, char **argv)
{
	static const char *const forms[] = {
		"%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M",
		"%Y-%m-%dT%H:%M", "%Y-%m-%d"
	};
	struct opts *o = &c->o;
	struct stat st;
	struct tm tm;
	size_t i;

	(void)argv;
	o->newer_set = 1;
	o->newer_mtime_only = key == OPT_NEWER_MTIME;
	o->newer.tv_nsec = 0;
	if (arg[0] == '/' || arg[0] == '.') {
		if (stat(arg, &st) != 0) {
			msg_file_error(arg, errno);
			msg_hint("-N takes a date, or a file whose mtime is "
			    "the date");
			return EXIT_USAGE;
		}
		o->newer = st.st_mtim;
		return EXIT_OK;
	}
	if (arg[0] == '@') {
		char *end;
		long long s;

		errno = 0;
		s = strtoll(arg + 1, &end, 10);
		if (errno == 0 && end != arg + 1 && *end == '\0') {
			o->newer.tv_sec = (time_t)s;
			return EXIT_OK;
		}
	}
	for (i = 0; arg[0] != '@' && i < sizeof forms / sizeof forms[0]; i++) {
		const char *end;

		memset(&tm, 0, sizeof tm);
		tm.tm_isdst = -1;
		if ((end = strptime(arg, forms[i], &tm)) != NULL
		    && *end == '\0') {
			o->newer.tv_sec = mktime(&tm);
			return EXIT_OK;
		}
	}
	return bad_value(key == OPT_NEWER_MTIME ? "--newer-mtime" : "-N", arg,
	    "a date: @SECONDS, YYYY-MM-DD or 'YYYY-MM-DD HH:MM[:SS]', or a "
	    "file name starting with '/' or '.'");
}

/* Options tar users reach for that a sealed stream cannot offer. */
static int
opt_refuse(struct cmdline *c, int key, const char *arg, char **argv)
{
	const char *name = key == 'u' ? "-u (--update)" :
	    key == 'A' ? "-A (--concatenate)" : argv[optind - 1];

	(void)c, (void)arg;
	if (key == OPT_VERIFY) {
		msg_error("--verify is not needed: every chunk is "
		    "authenticated as it is read");
		msg_hint("check a written archive with 'aescrypt --test -f "
		    "ARCHIVE'");
		return EXIT_USAGE;
	}
	if (strcmp(name, "--delete") == 0) {
		msg_error("--delete: an aescrypt archive is a sealed, "
		    "write-once stream; nothing can be removed from it");
		msg_hint("make a new archive without those members: aescrypt "
		    "-x them out, or aescrypt -c with --exclude");
		return EXIT_USAGE;
	}
	msg_error("%s: an aescrypt archive is a sealed, write-once stream; "
	    "nothing can be added to it", name);
	msg_hint("create a new archive with everything in it, or a second "
	    "archive beside the first");
	return EXIT_USAGE;
}

/* ---- the table ---- */

static const struct optdef table[] = {
	{ NULL, 1, no_argument, CALL(opt_list) },       /* an operand */
	{ "encrypt", 'e', no_argument, CALL(opt_mode) },
	{ "decrypt", 'd', no_argument, CALL(opt_mode) },
	{ "create", 'c', no_argument, CALL(opt_mode) },
	{ "list", 't', no_argument, CALL(opt_mode) },
	{ "extract", 'x', no_argument, CALL(opt_mode) },
	{ "test", OPT_TEST, no_argument, CALL(opt_mode) },
	{ "info", OPT_INFO, optional_argument, CALL(opt_info) },
	{ "mount", OPT_MOUNT, required_argument, CALL(opt_mount) },
	{ "foreground", OPT_FOREGROUND, no_argument, SET(foreground, 1) },
	{ "levels", OPT_LEVELS, no_argument, SET(levels, 1) },
	{ "mount-cache", OPT_MOUNT_CACHE, required_argument, CALL(opt_kdf) },
	{ "allow-other", OPT_ALLOW_OTHER, no_argument, SET(allow_other, 1) },
	{ "gen-key", OPT_GEN_KEY, required_argument, CALL(opt_mode) },
	{ "gen-identity", OPT_GEN_IDENTITY, required_argument, CALL(opt_mode) },
	{ "pq", OPT_PQ, no_argument, CALL(opt_misc) },
	{ "benchmark", OPT_BENCH, optional_argument, CALL(opt_bench) },
	{ "file", 'f', required_argument, CALL(opt_string) },
	{ "directory", 'C', required_argument, CALL(opt_list) },
	{ "verbose", 'v', no_argument, CALL(opt_misc) },
	{ "dereference", 'h', no_argument, CALL(opt_misc) },
	{ "exclude", OPT_EXCLUDE, required_argument, CALL(opt_list) },
	{ "exclude-from", 'X', required_argument, CALL(opt_list) },
	{ "exclude-vcs", OPT_EXCLUDE_VCS, no_argument, SET(exclude_vcs, 1) },
	{ "exclude-caches", OPT_EXCLUDE_CACHES, no_argument, CALL(opt_list) },
	{ "exclude-caches-under", OPT_EXCLUDE_CACHES_UNDER, no_argument,
	    CALL(opt_list) },
	{ "exclude-caches-all", OPT_EXCLUDE_CACHES_ALL, no_argument,
	    CALL(opt_list) },
	{ "exclude-tag", OPT_EXCLUDE_TAG, required_argument, CALL(opt_list) },
	{ "exclude-tag-under", OPT_EXCLUDE_TAG_UNDER, required_argument,
	    CALL(opt_list) },
	{ "exclude-tag-all", OPT_EXCLUDE_TAG_ALL, required_argument,
	    CALL(opt_list) },
	{ "one-file-system", OPT_ONE_FS, no_argument, SET(one_fs, 1) },
	{ "newer", 'N', required_argument, CALL(opt_newer) },
	{ "after-date", 'N', required_argument, CALL(opt_newer) },
	{ "newer-mtime", OPT_NEWER_MTIME, required_argument, CALL(opt_newer) },
	{ "listed-incremental", 'g', required_argument, CALL(opt_string) },
	{ "level", OPT_LEVEL_INC, required_argument, CALL(opt_string) },
	{ "files-from", 'T', required_argument, CALL(opt_string) },
	{ "null", OPT_NULL, no_argument, SET(sel.null_sep, 1) },
	{ "keep-old-files", OPT_KEEP_OLD, no_argument, SET(old_files, OLD_KEEP) },
	{ "skip-old-files", OPT_SKIP_OLD, no_argument, SET(old_files, OLD_SKIP) },
	{ "keep-newer-files", OPT_KEEP_NEWER, no_argument,
	    SET(old_files, OLD_KEEP_NEWER) },
	{ "overwrite", OPT_OVERWRITE, no_argument,
	    SET(old_files, OLD_OVERWRITE) },
	{ "unlink-first", 'U', no_argument, SET(old_files, OLD_OVERWRITE) },
	{ "overwrite-dir", OPT_OVERWRITE_DIR, no_argument,
	    SET(no_overwrite_dir, 0) },
	{ "no-overwrite-dir", OPT_NO_OVERWRITE_DIR, no_argument,
	    SET(no_overwrite_dir, 1) },
	{ "no-devices", OPT_NO_DEVICES, no_argument, SET(no_devices, 1) },
	{ "preserve-permissions", 'p', no_argument, SET(preserve, 1) },
	{ "same-permissions", OPT_SAME_PERMS, no_argument, SET(preserve, 1) },
	{ "no-same-permissions", OPT_NO_SAME_PERMS, no_argument,
	    SET(preserve, 0) },
	{ "same-owner", OPT_SAME_OWNER, no_argument, SET(same_owner, 1) },
	{ "no-same-owner", OPT_NO_SAME_OWNER, no_argument, SET(same_owner, 0) },
	{ "to-stdout", 'O', no_argument, SET(to_stdout, 1) },
	{ "strip-components", OPT_STRIP, required_argument, CALL(opt_number) },
	{ "wildcards", OPT_WILDCARDS, no_argument, NONE, 0, NULL },
	{ "gzip", 'z', no_argument, CALL(opt_misc) },
	{ "zstd", OPT_ZSTD, no_argument, CALL(opt_misc) },
	{ "append", OPT_SEALED, no_argument, CALL(opt_refuse) },
	{ "update", OPT_SEALED, no_argument, CALL(opt_refuse) },
	{ "concatenate", OPT_SEALED, no_argument, CALL(opt_refuse) },
	{ "catenate", OPT_SEALED, no_argument, CALL(opt_refuse) },
	{ "delete", OPT_SEALED, no_argument, CALL(opt_refuse) },
	{ "verify", OPT_VERIFY, no_argument, CALL(opt_refuse) },
	{ NULL, 'u', no_argument, CALL(opt_refuse) },
	{ NULL, 'A', no_argument, CALL(opt_refuse) },
	{ "salvage", OPT_SALVAGE, no_argument, SET(run.salvage, 1) },
	{ "no-index", OPT_NO_INDEX, no_argument, SET(run.no_index, 1) },
	{ "no-chain-check", OPT_NO_CHAIN_CHECK, no_argument, SET(no_chain_check, 1) },
	{ "checksum", OPT_CHECKSUM, required_argument, CALL(opt_string) },
	{ "sign", OPT_SIGN, required_argument, CALL(opt_string) },
	{ "sig-file", OPT_SIG_FILE, required_argument, CALL(opt_string) },
	{ "signer", OPT_SIGNER, required_argument, CALL(opt_string) },
	{ "totals", OPT_TOTALS, no_argument, SET(run.totals, 1) },
	{ "xattrs", OPT_XATTRS, no_argument, SET(xattrs, 1) },
	{ "no-xattrs", OPT_NO_XATTRS, no_argument, SET(xattrs, 0) },
	{ "xattrs-include", OPT_XATTRS_INCLUDE, required_argument,
	    CALL(opt_list) },
	{ "xattrs-exclude", OPT_XATTRS_EXCLUDE, required_argument,
	    CALL(opt_list) },
	{ "acls", OPT_ACLS, no_argument, SET(acls, 1) },
	{ "no-acls", OPT_NO_ACLS, no_argument, SET(acls, 0) },
	{ "output", 'o', required_argument, CALL(opt_string) },
	{ "key-file", 'k', required_argument, CALL(opt_string) },
	{ "passphrase", 'P', no_argument, SET(keys.want_pass, 1) },
	{ "passphrase-file", OPT_PASS_FILE, required_argument, CALL(opt_pass) },
	{ "passphrase-fd", OPT_PASS_FD, required_argument, CALL(opt_pass) },
	{ "recipient", 'r', required_argument, CALL(opt_list) },
	{ "recipients-file", 'R', required_argument, CALL(opt_list) },
	{ "identity", 'i', required_argument, CALL(opt_list) },
	{ "kdf-memory", OPT_KDF_MEM, required_argument, CALL(opt_kdf) },
	{ "kdf-time", OPT_KDF_TIME, required_argument, CALL(opt_kdf) },
	{ "kdf-parallelism", OPT_KDF_PAR, required_argument, CALL(opt_kdf) },
	{ "max-kdf-memory", OPT_MAX_KDF_MEM, required_argument, CALL(opt_kdf) },
	{ "max-work-factor", OPT_MAX_WORK, required_argument, CALL(opt_kdf) },
	{ "plugin-timeout", OPT_PLUGIN_TIMEOUT, required_argument, CALL(opt_kdf) },
	{ "max-size", OPT_MAX_SIZE, required_argument, CALL(opt_kdf) },
	{ "chunk-size", OPT_CHUNK, required_argument, CALL(opt_chunk) },
	{ "threads", 'j', required_argument, CALL(opt_number) },
	{ "stats", OPT_STATS, optional_argument, CALL(opt_stats) },
	{ "benchmark-time", OPT_BENCH_TIME, required_argument, CALL(opt_number) },
	{ "no-hw", OPT_NO_HW, no_argument, CALL(opt_engine) },
	{ "deflate", OPT_DEFLATE, required_argument, CALL(opt_engine) },
	{ "help", OPT_HELP, optional_argument, CALL(opt_misc) },
	{ "progress", OPT_PROGRESS, no_argument, SET(run.progress, 1) },
	{ "quiet", 'q', no_argument, CALL(opt_quiet) },
	{ "version", 'V', no_argument, CALL(opt_misc) },
	{ NULL, OPT_LEVEL, no_argument, CALL(opt_level) }   /* -0 ... -9 */
};

#define NOPTS (sizeof table / sizeof table[0])

/* The short options, with ':' after those that take a value; "-" first
 * (operands in place) and ":" (a missing value is reported as ':'). */
static void
short_options(char *out, size_t cap)
{
	size_t i, n = 0;

	out[n++] = '-';
	out[n++] = ':';
	for (i = 0; i < NOPTS && n + 3 < cap; i++) {
		if (table[i].key < 'A' || table[i].key > 'z')
			continue;
		out[n++] = (char)table[i].key;
		if (table[i].has_arg == required_argument)
			out[n++] = ':';
	}
	memcpy(out + n, "0123456789", 11);
}

static const struct optdef *
find(int key)
{
	size_t i;

	if (key >= '0' && key <= '9')
		key = OPT_LEVEL;
	for (i = 0; i < NOPTS; i++)
		if (table[i].key == key)
			return &table[i];
	return NULL;
}

/* ---- parsing ---- */

/*
 * A value option in a bundle takes the rest of the bundle as its value,
 * as in tar: "-xkf a.aes" gives -k the value "f".  When that value is
 * only option letters and names no file, the user meant two options;
 * say so rather than fail later on a file called "f".  0 or EXIT_USAGE.
 */
static int
check_bundle(int c, const char *arg, const char *value)
{
	static const char letters[] = "edctxvpqPhVOz0123456789fkCTjo";
	size_t len = strlen(arg);

	if (arg[0] != '-' || arg[1] == '-' || value <= arg
	    || value >= arg + len)
		return EXIT_OK;     /* not attached to a short option */
	if (strspn(value, letters) != strlen(value) || strlen(value) > 4
	    || access(value, F_OK) == 0)
		return EXIT_OK;
	msg_error("-%c took '%s' as its value (the rest of '%s')", c, value,
	    arg);
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
	    || strstr(v, "ecdsa-") != NULL || aescrypt_is_secret_key_text(v))
		return EXIT_OK;     /* (a secret is named later, unshown) */
	msg_error("-r names a recipient (an age1... key or an 'ssh-ed25519 "
	    "AAAA...' or 'ssh-rsa AAAA...' line), not '%s'", v);
	msg_hint("tar's -r (append) has no equivalent: an aescrypt archive "
	    "is a sealed, write-once stream; create a new archive, or a "
	    "second one beside it");
	return EXIT_USAGE;
}

/* What getopt could not take: a missing value, a value where none is
 * taken, an unknown option, a passphrase on the command line. */
static int
refuse_unknown(int key, char **argv)
{
	const char *arg = argv[optind - 1];

	if (key == ':') {
		msg_error("option '%s' needs a value", arg);
	} else if (optopt == 'P' && strncmp(arg, "--passphrase=", 13) == 0) {
		msg_error("a passphrase is never taken from the command line: "
		    "other users can read it in ps, and it stays in the "
		    "shell's history");
		msg_hint("use --passphrase-file FILE, --passphrase-fd N, "
		    "AESCRYPT_PASSPHRASE, or type it at the prompt");
		return EXIT_USAGE;
	} else if (optopt != 0 && strncmp(arg, "--", 2) == 0) {
		msg_error("option '%.*s' does not take a value",
		    (int)strcspn(arg, "="), arg);
	} else if (optopt != 0 && optopt < 256) {
		msg_error("unknown option '-%c'", optopt);
	} else {
		msg_error("unknown option '%s'", arg);
	}
	msg_hint("run 'aescrypt --help' for usage");
	return EXIT_USAGE;
}

/* Apply one option getopt returned. */
static int
apply(struct cmdline *c, int key, const char *arg, char **argv)
{
	const struct optdef *d = find(key);
	int st;

	if (d == NULL)
		return refuse_unknown(key, argv);
	if (key == 'r' && (st = check_recipient_arg(arg)) != EXIT_OK)
		return st;
	if (arg != NULL && strchr("fkCToRi", key) != NULL
	    && (st = check_bundle(key, argv[optind - 1], arg)) != EXIT_OK)
		return st;
	if (d->fn != NULL)
		return d->fn(c, key, arg, argv);
	if (d->field != NONE)
		*(int *)((char *)&c->o + d->field) = d->value;
	return EXIT_OK;
}

int
options_parse(struct cmdline *c, int argc, char **argv)
{
	struct option longopts[NOPTS + 1];
	char shortopts[160];
	size_t i, n = 0;
	int key, st;

	for (i = 0; i < NOPTS; i++) {
		if (table[i].name == NULL)
			continue;
		longopts[n].name = table[i].name;
		longopts[n].has_arg = table[i].has_arg;
		longopts[n].flag = NULL;
		longopts[n++].val = table[i].key;
	}
	memset(&longopts[n], 0, sizeof longopts[n]);
	short_options(shortopts, sizeof shortopts);
	opterr = 0;
	/* 0, not 1: glibc's and musl's getopt start afresh, so a second
	 * command line in one process (command.h) is read from its start. */
	optind = 0;
	while ((key = getopt_long(argc, argv, shortopts, longopts, NULL))
	    != -1)
		if ((st = apply(c, key, optarg, argv)) != EXIT_OK)
			return st;
	if (c->h_seen && c->o.run.mode == 'c')
		c->o.follow = 1;
	else if (c->h_seen)
		c->want_help = 1;
	/* getopt stops at "--": what follows is operands. */
	for (; optind < argc; optind++)
		opt_list(c, 1, argv[optind], argv);
	return EXIT_OK;
}

/* ---- set-up ---- */

int
options_init(struct cmdline *c, int argc)
{
	struct opts *o = &c->o;
	size_t n = (size_t)argc + 1;

	memset(c, 0, sizeof *c);
	c->bench_time = 10.0;
	c->bench_format = BENCH_TEXT;
	o->run.level = 6;
	o->run.chunk_log2 = AESCRYPT_CHUNK_LOG2_DEFAULT;
	o->keys.kdf.m_kib = AESCRYPT_KDF_DEFAULT_M_KIB;
	o->keys.kdf.t = AESCRYPT_KDF_DEFAULT_T;
	o->keys.kdf.p = AESCRYPT_KDF_DEFAULT_P;
	o->run.threads = default_threads();
	o->run.progress = -1;
	o->preserve = -1;
	o->same_owner = -1;
	o->sel.exclude = calloc(n, sizeof *o->sel.exclude);
	o->sel.operands = calloc(n, sizeof *o->sel.operands);
	o->cdirs = calloc(n, sizeof *o->cdirs);
	o->operand_cdir = calloc(n, sizeof *o->operand_cdir);
	o->keys.recipients = calloc(n, sizeof *o->keys.recipients);
	o->keys.recipient_files = calloc(n, sizeof *o->keys.recipient_files);
	o->keys.identity_files = calloc(n, sizeof *o->keys.identity_files);
	o->archives = calloc(n, sizeof *o->archives);
	o->xattrs_include = calloc(n, sizeof *o->xattrs_include);
	o->xattrs_exclude = calloc(n, sizeof *o->xattrs_exclude);
	c->operands0 = o->sel.operands;
	o->exclude_from = calloc(n, sizeof *o->exclude_from);
	o->tags = calloc(n, sizeof *o->tags);
	if (o->sel.exclude == NULL || o->exclude_from == NULL || o->tags == NULL
	    || o->sel.operands == NULL || o->cdirs == NULL
	    || o->operand_cdir == NULL || o->keys.recipients == NULL
	    || o->keys.recipient_files == NULL || o->keys.identity_files == NULL
	    || o->archives == NULL || o->xattrs_include == NULL || o->xattrs_exclude == NULL) {
		msg_error("out of memory");
		return EXIT_SYSTEM;
	}
	return EXIT_OK;
}

void
options_free(struct cmdline *c)
{
	struct opts *o = &c->o;

	size_t i;

	free(o->sel.exclude);
	if (o->exclude_text != NULL)
		for (i = 0; i < o->nexclude_from; i++)
			namelist_free(&o->exclude_text[i]);
	free(o->exclude_text);
	free(o->exclude_from);
	free(o->tags);
	free(c->operands0);
	free(o->cdirs);
	free(o->operand_cdir);
	free(o->keys.recipients);
	free(o->keys.recipient_files);
	free(o->keys.identity_files);
	free(o->archives);
	free(o->xattrs_include);
	free(o->xattrs_exclude);
}
