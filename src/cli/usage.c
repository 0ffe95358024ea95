/*
 * usage.c -- what --help, --help=all and --version print (contract in
 * usage.h).
 */
#include "config.h"
#include "usage.h"

#include <stdio.h>

#include <argon2.h>
#include <zlib.h>

#include "common/version.h"
#define AESCRYPT_STATIC_LINKING_ONLY
#include "aescrypt.h"

/* No mode at all: the four forms and where the rest is, as tar says
 * "You must specify one of ..." and points to --help, not a screen. */
static void
synopsis(FILE *fp)
{
	fputs(
	    "Usage: aescrypt -c [-f ARCHIVE] [OPTION]... PATH...        create an archive\n"
	    "       aescrypt -t|-x [-f ARCHIVE] [OPTION]... [PATTERN]... list or extract\n"
	    "       aescrypt -e|-d [OPTION]... [-o OUT] [IN]        encrypt or decrypt a stream\n"
	    "       aescrypt --test|--info [-f] FILE...             check or describe files\n", fp);
}

void
usage_brief(FILE *fp)
{
	synopsis(fp);
	fputs("Try 'aescrypt --help' for more information.\n", fp);
}

/* --help: one screen, grouped as tar's is; --help=all has the rest. */
void
usage_short(FILE *fp)
{
	synopsis(fp);
	fprintf(fp,
	    "Tar-like archives and byte streams, compressed and encrypted (AES-256-GCM).\n"
	    "ARCHIVE, IN and OUT default to standard input and output ('-' too).\n"
	    "\n"
	    "Modes: -c --create, -t --list, -x --extract, -e --encrypt, -d --decrypt,\n"
	    "       --test, --info[=json], --mount DIR, --gen-key F, --gen-identity F,\n"
	    "       --benchmark\n"
	    "\n"
	    "Archives:\n"
	    "  -f, --file ARCHIVE        the archive to write (-c) or read\n"
	    "  -C, --directory DIR       -c: the paths after it are in DIR; -x: into DIR\n"
	    "  -v, --verbose             name members as they go (-t, -cvv: ls -l style)\n"
	    "  -T, --files-from FILE     paths (-c) or patterns (-t, -x) from FILE\n"
	    "      --exclude PATTERN     leave out what matches PATTERN\n"
	    "  -O, --to-stdout           -x: write the members' data to standard output\n"
	    "      --strip-components N  -x: drop N leading parts of every name\n"
	    "  -h, --dereference         -c: archive what symlinks point to\n"
	    "  -o, --output FILE         -e, -d: where the stream goes\n"
	    "\n"
	    "Keys (secrets never on the command line):\n"
	    "  -r, --recipient KEY       -c, -e: to a public key (age1..., age1pq1...,\n"
	    "                            ssh-ed25519, ssh-rsa)\n"
	    "  -i, --identity FILE       -d, -t, -x: its private key (age, OpenSSH)\n"
	    "  -k, --key-file FILE       a key file (made by --gen-key)\n"
	    "  -P, --passphrase          a passphrase too; else from --passphrase-file F,\n"
	    "                            --passphrase-fd N, AESCRYPT_PASSPHRASE, the tty\n"
	    "\n"
	    "Other:  -0..-9 level (-6)  --zstd  -j N threads  -q, --quiet  --stats[=json]\n"
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

/* --help=all, the synopsis of every mode. */
static void
all_synopsis(FILE *fp)
{
	fputs(
	    "Usage: aescrypt -c [OPTION]... [-f ARCHIVE] PATH...     create an archive\n"
	    "       aescrypt -t [OPTION]... [-f ARCHIVE] [PATTERN]... list one\n"
	    "       aescrypt -x [OPTION]... [-f ARCHIVE] [PATTERN]... extract one\n"
	    "       aescrypt --test [-v] [OPTION]... [-f] FILE...    authenticate them (-v: verdicts)\n"
	    "       aescrypt --info[=json] [-f] FILE...              their headers; whole?\n"
	    "       aescrypt --mount DIR -f ARCHIVE [-f LEVEL]...    mount one, or a chain, read-only\n"
	    "       aescrypt -e [OPTION]... [-o OUT] [IN]            encrypt a stream\n"
	    "       aescrypt -d [OPTION]... [-o OUT] [IN]            decrypt a stream\n"
	    "       aescrypt --gen-key FILE                          make a key file\n"
	    "       aescrypt --gen-identity [--pq] FILE              make a key pair\n"
	    "       aescrypt --benchmark[=[all,]json|csv] [-j N]     measure, in memory\n", fp);
}

/* --help=all, -c, -t, -x and their options. */
static void
all_archives(FILE *fp)
{
	fputs(
	    "\n"
	    "Archives (a POSIX pax tar stream inside: 'aescrypt -d | tar -t' works):\n"
	    "  -f, --file ARCHIVE        the archive to write (-c) or read (-t, -x;\n"
	    "                            several: read in order, as a chain of -g levels)\n"
	    "  -C, --directory DIR       -c: the paths after it are relative to DIR\n"
	    "                            (each -C relative to the one before, as in tar);\n"
	    "                            -x: extract into DIR (default: .)\n"
	    "  -v, --verbose             name members as they go (-t, -cvv: ls -l style;\n"
	    "                            -d: a note once verified)\n"
	    "  -h, --dereference         -c: archive what symlinks point to\n"
	    "      --exclude PATTERN     skip paths or members matching PATTERN\n"
	    "  -X, --exclude-from FILE   the same, a pattern a line from FILE\n"
	    "      --exclude-vcs         skip version control files (.git, CVS, ...)\n"
	    "      --exclude-caches      -c: of a directory with a CACHEDIR.TAG, the\n"
	    "                            tag alone; --exclude-caches-under: not even\n"
	    "                            it; --exclude-caches-all: nothing\n"
	    "      --exclude-tag FILE    -c: the same for directories holding FILE\n"
	    "                            (and --exclude-tag-under, --exclude-tag-all)\n"
	    "      --one-file-system     -c: stay on each operand's file system\n"
	    "  -N, --newer DATE          -c: files changed after DATE (or a file's\n"
	    "                            mtime, '/...' or './...'); --after-date\n"
	    "      --newer-mtime DATE    -c: the same, by mtime alone\n"
	    "  -g, --listed-incremental SNAPSHOT\n"
	    "                            -c: a level after SNAPSHOT's (GNU tar's);\n"
	    "                            -x -g /dev/null: apply removals, renames\n"
	    "      --level=0             -c -g: a full dump\n"
	    "  -T, --files-from FILE     -c: paths; -t, -x: patterns ('-': stdin)\n"
	    "      --null                -T's list is NUL-separated\n"
	    "  -O, --to-stdout           -x: the members' data to standard output\n"
	    "      --strip-components N  -x: drop N leading parts of every name\n"
	    "      --max-size SIZE       -x: skip members larger; -O: stop at one\n"
	    "      --keep-old-files      -x: do not replace existing files (exit 1)\n"
	    "      --skip-old-files      -x: the same, quietly (exit 0)\n"
	    "      --keep-newer-files    -x: keep existing files as new or newer\n"
	    "      --overwrite, -U, --unlink-first, --overwrite-dir\n"
	    "                            -x: replace what exists (the default)\n"
	    "      --no-overwrite-dir    -x: existing directories keep owner, mode\n"
	    "      --no-devices          -x: make no device nodes\n"
	    "  -p, --preserve-permissions\n"
	    "                            -x: exact modes, setuid/setgid included\n"
	    "                            (the default for root, as in GNU tar; also\n"
	    "                            --same-permissions)\n"
	    "      --no-same-permissions -x: umask, no setuid, no devices (others'\n"
	    "                            default)\n"
	    "      --same-owner          -x as root: restore owners (its default)\n"
	    "      --no-same-owner       -x as root: files belong to root, no devices\n"
	    "      --xattrs              -c: extended attributes too (not system.*);\n"
	    "                            -x: the user.* ones; off by default, as GNU tar\n"
	    "      --xattrs-include PAT  which attributes travel (a shell pattern;\n"
	    "                            security.capability also needs -p)\n"
	    "      --xattrs-exclude PAT  which do not\n"
	    "      --acls                -c, -x: POSIX ACLs too\n"
	    "      --no-xattrs, --no-acls  the defaults\n"
	    "      --wildcards           accepted: patterns are always shell patterns\n"
	    "  PATTERN                   a shell pattern (fnmatch); a directory\n"
	    "                            selects what is under it\n", fp);
}

/* --help=all, streams, and where keys come from. */
static void
all_keys(FILE *fp)
{
	fputs(
	    "\n"
	    "Streams:\n"
	    "  -o, --output FILE         -e, -d: write FILE (default: standard output)\n"
	    "\n"
	    "Keys (secrets never on the command line):\n"
	    "  -r, --recipient KEY       -c, -e: encrypt to a public key: age1...,\n"
	    "                            age1pq1... (post-quantum: ML-KEM-768 +\n"
	    "                            X25519; at most 3 a file), 'ssh-ed25519\n"
	    "                            AAAA...' or 'ssh-rsa AAAA...' (2048-8192\n"
	    "                            bits) (repeatable)\n"
	    "  -R, --recipients-file F   -c, -e: recipients from F, one a line ('#'\n"
	    "                            comments; a .pub or authorized_keys file;\n"
	    "                            lines of other key types are skipped; -:\n"
	    "                            standard input)\n"
	    "  -i, --identity FILE       -d, -t, -x: a private key: an age identity\n"
	    "                            file (X25519 or post-quantum) or an OpenSSH\n"
	    "                            ed25519 or RSA key (its\n"
	    "                            passphrase asked for, as ssh does)\n"
	    "                            (-: standard input)\n"
	    "  -k, --key-file FILE       use a key file (from --gen-key)\n"
	    "  -P, --passphrase          a passphrase too, when -k is given\n"
	    "      --passphrase-file F   read the passphrase from F's first line\n"
	    "      --passphrase-fd N     read the passphrase from descriptor N\n"
	    "  (or AESCRYPT_PASSPHRASE in the environment, or the terminal)\n", fp);
}

/* --help=all, encrypting, signing and mounting. */
static void
all_writing(FILE *fp)
{
	fputs(
	    "\n"
	    "Encrypting (-c, -e):\n"
	    "  -0 ... -9                 level, fast to small; -0 stores (default -6)\n"
	    "      --zstd                compress with zstd (faster, smaller; 8M\n"
	    "                            chunks); DEFLATE is the default\n"
	    "  -z, --gzip                DEFLATE (the default)\n"
	    "      --chunk-size SIZE     64K..4M, a power of two (default 256K;\n"
	    "                            with --zstd up to 8M, default 8M)\n"
	    "      --kdf-memory SIZE     Argon2id memory (default 256M)\n"
	    "      --kdf-time N          Argon2id passes (default 3)\n"
	    "      --kdf-parallelism N   Argon2id lanes (default 4)\n"
	    "\n"
	    "Mounting (--mount DIR -f ARCHIVE [-f LEVEL]..., the keys as for -x):\n"
	    "      --mount DIR           mount the archive read-only on DIR (FUSE), from\n"
	    "                            its index; fusermount3 -u DIR ends it; several\n"
	    "                            -f: a chain of -g levels, as -x -g restores it\n"
	    "      --foreground          stay attached (else it serves in the background)\n"
	    "      --levels              also each level alone, under .aescrypt-levels/N\n"
	    "      --mount-cache SIZE    plaintext cache (default 64M; 0: none)\n"
	    "      --xattrs, --acls      serve the stored xattrs and ACLs\n"
	    "      --allow-other         let other users in (with default_permissions)\n", fp);
}

/* --help=all, decrypting. */
static void
all_reading(FILE *fp)
{
	fputs(
	    "\n"
	    "Decrypting (-t, -x, -d, --test):\n"
	    "      --max-kdf-memory SIZE refuse files whose Argon2id needs more\n"
	    "                            (default: 2G or half the RAM)\n"
	    "      --max-work-factor N   age files: refuse an scrypt work factor\n"
	    "                            (log2 N) over N (default 22, age's)\n"
	    "      --plugin-timeout SECS age plugins: how long one may say nothing\n"
	    "                            before it is stopped (default 120)\n"
	    "      --salvage             -d, -t, -x: go on past damaged chunks; keep\n"
	    "                            what is whole, list what was lost\n"
	    "      --no-index            -c: write no index; -t, -x: read the\n"
	    "                            whole archive, not its index\n"
	    "      --no-chain-check      -t, -x of several -g dumps: read them as\n"
	    "                            given, not checked as one chain first\n"
	    "      --totals              say the bytes written or read when done (and,\n"
	    "                            -c -g: files new, changed and unchanged)\n"
	    "      --checksum FILE       -c, -e: append the output's SHA-256 to FILE,\n"
	    "                            as sha256sum prints it (sha256sum -c FILE)\n"
	    "      --sign KEY            -c, -e: sign inside the container; KEY: an\n"
	    "                            ssh-ed25519 private key, or the .pub of one\n"
	    "                            ssh-agent holds\n"
	    "      --sig-file FILE       -c, -e, with --sign: an OpenSSH signature of\n"
	    "                            the output to FILE (ssh-keygen -Y verify -n\n"
	    "                            aescrypt)\n"
	    "      --signer FILE         -d, -t, -x, --info: fail (exit 7) unless\n"
	    "                            signed by a key FILE allows (allowed_signers,\n"
	    "                            or a .pub); --info checks every signature\n"
	    "                            without a key\n"
	    "  (-d, --test and --info also read AES Crypt files, versions 0-3;\n"
	    "  other formats are named, with what reads them)\n", fp);
}

/* --help=all, output, performance and the exit statuses. */
static void
all_output(FILE *fp)
{
	fputs(
	    "\n"
	    "Output and performance:\n"
	    "  -q, --quiet               no progress line (-c: nor cache-tag and\n"
	    "                            leading-/ warnings)\n"
	    "      --progress            a progress line even if stderr is not a\n"
	    "                            terminal (by default: on a terminal)\n"
	    "      --stats[=json]        after the run, print where the time went\n"
	    "  -j, --threads N           worker threads (default: one per CPU)\n"
	    "      --no-hw               use the portable constant-time cipher\n"
	    "      --deflate ENGINE      libdeflate (default if built) or zlib\n"
	    "      --benchmark-time SECS with --benchmark: how long at most (default\n"
	    "                            10; what does not fit is skipped, and said)\n"
	    "      --help[=all]          one screen of help, or this\n"
	    "  -V, --version             show version, cipher tiers, libraries\n"
	    "\n"
	    "Exit status: 0 ok, 1 some members skipped or not found, 2 usage or a\n"
	    "missing input, 3 wrong key, 4 damaged or not an aescrypt file, 5 over a\n"
	    "limit, 6 I/O or system error, 7 not signed by a key --signer allows,\n"
	    "8 several -g dumps that make no one chain, 141 standard output\n"
	    "closed (as SIGPIPE), 128+N interrupted by signal N.\n"
	    "See aescrypt(1).\n", fp);
}

/* --help=all: every option, a section at a time. */
void
usage_all(FILE *fp)
{
	all_synopsis(fp);
	all_archives(fp);
	all_keys(fp);
	all_writing(fp);
	all_reading(fp);
	all_output(fp);
}

/*
 * The system calls this build uses, and the POSIX fallback it uses
 * where it has not the Linux call (configure; --portable forces every
 * fallback).  The names are what configure probes.
 */
static void
version_system(void)
{
	static const struct { int have; const char *call, *instead; } s[] = {
#define SYS(have, call, instead) { have, call, instead }
#ifdef HAVE_OPENAT2
		SYS(1, "openat2", ""),
#else
		SYS(0, "openat2", "a path walk with O_NOFOLLOW"),
#endif
#ifdef HAVE_O_TMPFILE
		SYS(1, "O_TMPFILE", ""),
#else
		SYS(0, "O_TMPFILE", "temp names"),
#endif
#ifdef HAVE_RENAMEAT2
		SYS(1, "renameat2", ""),
#else
		SYS(0, "renameat2", "linkat and unlinkat"),
#endif
#ifdef HAVE_GETRANDOM
		SYS(1, "getrandom", ""),
#elif defined(HAVE_GETENTROPY)
		SYS(0, "getrandom", "getentropy"),
#else
		SYS(0, "getrandom", "/dev/urandom"),
#endif
#ifdef HAVE_SEEK_HOLE
		SYS(1, "SEEK_HOLE", ""),
#else
		SYS(0, "SEEK_HOLE", "reading files with holes in full"),
#endif
#ifdef HAVE_LINUX_XATTR
		SYS(1, "xattrs", ""),
#else
		SYS(0, "xattrs", "none: no xattrs or ACLs"),
#endif
#ifdef HAVE_PRCTL
		SYS(1, "prctl", ""),
#else
		SYS(0, "prctl", "RLIMIT_CORE alone: no ptrace guard"),
#endif
#ifdef HAVE_MADV_DONTDUMP
		SYS(1, "MADV_DONTDUMP", ""),
#else
		SYS(0, "MADV_DONTDUMP", "none: core dumps are off anyway"),
#endif
#ifdef HAVE_MALLOPT
		SYS(1, "mallopt", ""),
#else
		SYS(0, "mallopt", "the allocator's defaults: --benchmark "
		    "trials fault their buffers in again, and take longer"),
#endif
#undef SYS
	};
	size_t i;
	int any = 0;

	printf("system calls:");
	for (i = 0; i < sizeof s / sizeof s[0]; i++)
		if (s[i].have)
			printf(" %s", s[i].call), any = 1;
	printf("%s\n", any ? "" : " none of Linux's");
	any = 0;
	for (i = 0; i < sizeof s / sizeof s[0]; i++)
		if (!s[i].have)
			printf("%s%s: %s", any++ ? "; " : "fallbacks: ",
			    s[i].call, s[i].instead);
	if (any)
		printf("\n");
}

void
usage_version(void)
{
	struct aescrypt_codec_info zstd;
	const char *rsa = aescrypt_rsa_version();
	char feat[256];
	int t;

	(void)aescrypt_codec_info(AESCRYPT_CODEC_ZSTD, 0, &zstd);
	aescrypt_cpu_describe(feat, sizeof feat);
	printf("aescrypt %s (container format v%d)\n", AESCRYPT_VERSION,
	    aescrypt_format_version());
	printf("cipher: AES-256-GCM, tier in use: %s\n",
	    aescrypt_tier_name(aescrypt_tier_default()));
	printf("tiers available:");
	for (t = 0; t < aescrypt_tier_count(); t++)
		if (aescrypt_tier_available(t))
			printf(" %s", aescrypt_tier_name(t));
	printf("\ncpu features: %s\n", feat);
	printf("codecs: DEFLATE (the default), %s\n", zstd.available ?
	    "zstd (--zstd)" : "no zstd (built without libzstd)");
	printf("deflate engine: %s %s",
	    aescrypt_engine_name(AESCRYPT_ENGINE_DEFAULT),
	    aescrypt_engine_version(AESCRYPT_ENGINE_DEFAULT));
	if (aescrypt_engine_available(AESCRYPT_ENGINE_LIBDEFLATE))
		printf(" (zlib also built in: --deflate zlib)");
	printf("\nzlib %s (built with %s), libargon2 %s (at build time; "
	    "Argon2 v%d.%d)\n", zlibVersion(), ZLIB_VERSION, AE_ARGON2_VERSION,
	    ARGON2_VERSION_NUMBER >> 4, ARGON2_VERSION_NUMBER & 15);
	printf("libsodium %s (X25519 for public-key recipients)\n",
	    aescrypt_sodium_version());
	printf("post-quantum recipients: ML-KEM-768 (FIPS 203) and SHA-3 "
	    "(FIPS 202), this tree's own, in X-Wing with X25519\n");
	if (zstd.available)
		printf("libzstd %s\n", zstd.version);
	if (rsa != NULL)
		printf("libcrypto: %s (RSA-OAEP for ssh-rsa recipients)\n", rsa);
	else
		printf("libcrypto: not built in (no ssh-rsa recipients)\n");
	version_system();
}
