/*
 * opts.h -- the parsed command line, shared by the mode implementations.
 */
#ifndef AE_CLI_OPTS_H
#define AE_CLI_OPTS_H

#include <stddef.h>
#include <stdint.h>

#include "disk/reader.h"
#include "namelist.h"
#include "secret.h"

/* opts.old_files */
enum {
	OLD_REPLACE,        /* the default: a new file under the name */
	OLD_KEEP,           /* --keep-old-files: a warning, exit 1 */
	OLD_SKIP,           /* --skip-old-files: quietly */
	OLD_KEEP_NEWER,     /* --keep-newer-files */
	OLD_OVERWRITE       /* --overwrite, -U: the default, said */
};

/*
 * Where the keys come from (-k, -P and its sources, -r, -R, -i) and the
 * KDF's limits: all that keys.c, identity.c and legacy.c read.
 */
struct key_sources {
	const char *keyfile;        /* -k */
	const char *signers;        /* --signer FILE (-d, -t, -x) */
	int want_pass;              /* -P: a passphrase as well as -k */
	enum pass_source pass_src;  /* explicit source, or PASS_NONE */
	const char *pass_arg;
	char **recipients;          /* -r: public keys (-e, -c) */
	size_t nrecipients;
	char **recipient_files;     /* -R: files of them */
	size_t nrecipient_files;
	char **identity_files;      /* -i: identity files (-d, -t, -x) */
	size_t nidentity_files;
	struct {                    /* Argon2id's costs for new files */
		uint32_t m_kib, t, p;
	} kdf;
	uint64_t max_kdf_kib;       /* 0: the default cap */
	unsigned max_work_factor;   /* age's scrypt, log2 N (0: age's 22) */
	unsigned plugin_timeout_ms; /* age plugins (0: the library's) */
};

/*
 * How a run goes, whatever it reads or writes: the command, the
 * pipeline's preferences and what is reported.  run.c and keys.c read
 * nothing else.
 */
struct run_prefs {
	int mode;                   /* 'e', 'd', 'c', 't', 'x', 'i' (--info),
	                             * or 0 */
	int level;                  /* 0..9 */
	int codec;                  /* enum ae_codec, for new files */
	int engine;                 /* DEFLATE engine (deflate.h), 0: default */
	unsigned chunk_log2;
	int chunk_set;              /* --chunk-size was given */
	unsigned threads;           /* pipeline workers (-j) */
	int stats;                  /* 0 none, 1 table, 2 JSON */
	int quiet;                  /* -q: no progress, and -c leaves out the
	                             * warnings that are not about data
	                             * (cache tags, a leading '/') */
	int progress;               /* -1 if stderr is a terminal, 0 -q,
	                             * 1 --progress */
	int totals;                 /* --totals */
	int verbose;                /* -v: 1; -vv: 2 (-c lists as -tv) */
	int test;                   /* --test: -t that prints nothing */
	int signer;                 /* --signer: -t and -x read in full,
	                             * every signature checked, never
	                             * through the index */
	int no_index;               /* --no-index: -c writes none; -t, -x
	                             * read the archive in full */
	int salvage;                /* --salvage: -d, -x go on past a lost
	                             * chunk (salvage.h) */
	const char *operand;        /* the first operand (-t, -x), named in
	                             * the hint when a terminal would be read
	                             * as the archive */
};

/*
 * The names on the command line and what leaves some out: -c's paths or
 * -t/-x's member patterns, -T, --exclude.  members.c reads nothing else.
 */
struct selection {
	char **exclude;             /* --exclude patterns, then, once
	                             * options_check ran, -X's and
	                             * --exclude-vcs's */
	size_t nexclude;
	const char *files_from;     /* -T */
	int null_sep;               /* --null: -T's list is NUL-separated */
	char **operands;            /* paths for -c, members for -t/-x */
	size_t noperands;
	/* Several -f: per member pattern, whether some archive had it
	 * (members_report_missing fills it, command.c reports); else NULL */
	unsigned char *found;
};

/* The whole command line: the cmd_* entry points take it, and hand each
 * layer below only the part it reads. */
struct ae_dw_chain;

struct opts {
	struct key_sources keys;
	struct run_prefs run;
	struct selection sel;
	const char *input;          /* NULL or "-": standard input */
	const char *output;         /* NULL or "-": standard output */

	/* Archives (-c, -t, -x). */
	const char *archive;        /* -f: NULL or "-" for stdin/stdout */
	const char *checksum;       /* --checksum FILE (-c, -e) */
	const char *sign;           /* --sign KEY (-c, -e) */
	const char *sig_file;       /* --sig-file FILE (-c, -e) */
	const char **archives;      /* every -f, in order (-x and -t take
	                             * several, applied one after another) */
	size_t narchives;
	int no_chain_check;         /* --no-chain-check: several -g dumps are
	                             * read as given (chain.h) */
	const char *directory;      /* -C: the last one (-t, -x) */
	char **cdirs;               /* -c: every -C, in order (each one
	                             * relative to the one before, as in
	                             * tar) */
	size_t ncdirs;
	size_t *operand_cdir;       /* -c: per operand, how many of cdirs
	                             * were given before it (0: none) */
	int follow;                 /* -h with -c: dereference symlinks */
	int xattrs;                 /* --xattrs (-c, -x) */
	char **xattrs_include;      /* --xattrs-include patterns */
	size_t nxattrs_include;
	char **xattrs_exclude;      /* --xattrs-exclude patterns */
	size_t nxattrs_exclude;
	int acls;                   /* --acls (-c, -x) */
	char **exclude_from;        /* -X files */
	size_t nexclude_from;
	struct namelist *exclude_text;  /* what each -X file held */
	int exclude_vcs;            /* --exclude-vcs */
	struct ae_dr_tag *tags;     /* --exclude-tag*, --exclude-caches* */
	size_t ntags;
	int one_fs;                 /* --one-file-system */
	int newer_set;              /* -N, --newer, --newer-mtime */
	int newer_mtime_only;       /* --newer-mtime */
	const char *listed;         /* -g: the snapshot file */
	/* -x -g of a chain (several -f): what the run made at the top of
	 * the target, across the archives (disk/writer.h); set by
	 * each_archive, else NULL */
	struct ae_dw_chain *dw_chain;
	int level0;                 /* --level=0: a full dump, whatever
	                             * the snapshot file holds */
	struct timespec newer;
	size_t files_from_cdir;     /* -c: how many -C came before -T */
	int old_files;              /* what -x does with what exists: the
	                             * last of --keep-old-files,
	                             * --skip-old-files, --keep-newer-files,
	                             * --overwrite, -U (OLD_*), as in GNU tar */
	int preserve;               /* -p: modes exactly, setuid included;
	                             * --no-same-permissions: 0; -1: not
	                             * said (as root yes, as GNU tar) */
	int same_owner;             /* --same-owner 1 (root only),
	                             * --no-same-owner 0, -1: not said (as
	                             * root yes, as GNU tar) */
	int no_overwrite_dir;       /* --no-overwrite-dir: an existing
	                             * directory keeps its metadata (last
	                             * of it and --overwrite-dir) */
	int no_devices;             /* --no-devices: -x makes no device
	                             * node (implied, for root, by
	                             * --no-same-owner and
	                             * --no-same-permissions) */
	int to_stdout;              /* -O: -x writes data to stdout */
	unsigned strip;             /* --strip-components */
	uint64_t max_size;          /* --max-size: -x skips, -O stops at a
	                             * member larger than this; 0: none */
	int info_json;              /* --info=json */
	const char *mount_dir;      /* --mount DIR */
	int foreground;             /* --foreground (--mount) */
	int levels;                 /* --levels (--mount) */
	int threads_set;            /* -j given (--mount: else 8 threads) */
	int allow_other;            /* --allow-other (--mount) */
	uint64_t mount_cache;       /* --mount-cache SIZE */
	int mount_cache_set;
};

/* -e: encrypt a byte stream.  Returns an exit status. */
int cmd_encrypt(const struct opts *o);

/* -d: decrypt a byte stream.  Returns an exit status. */
int cmd_decrypt(const struct opts *o);

/* -c: create an archive.  Returns an exit status. */
int cmd_create(const struct opts *o);

/* -t: list an archive.  Returns an exit status. */
int cmd_list(const struct opts *o);

/* -x: extract an archive.  Returns an exit status. */
int cmd_extract(const struct opts *o);
/* A chain's record for o->dw_chain (extract.c): 0, or EXIT_SYSTEM
 * (said); and its end. */
int extract_chain_new(struct ae_dw_chain **c);
void extract_chain_free(struct ae_dw_chain *c);
/* --mount DIR: the archive (-f) mounted read-only (mount.c). */
int cmd_mount(const struct opts *o);

/* --info: describe a container's header.  Returns an exit status. */
int cmd_info(const struct opts *o);

#endif
