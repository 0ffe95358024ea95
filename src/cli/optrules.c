/*
 * optrules.c -- the rules between options, checked once the command line
 * is parsed (options_check, contract in options.h): which options belong
 * to which modes, which pairs cannot go together, the codec and chunk
 * size, the operands, the exclude patterns expanded, and what standard
 * input may carry.  Parsing the options themselves is options.c's.
 */
#include "config.h"
#include "options.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define AESCRYPT_STATIC_LINKING_ONLY
#include "aescrypt.h"
#include "disk/xattr.h"
#include "exitcode.h"
#include "msg.h"
#include "namelist.h"

/* Options that belong to some modes only are refused elsewhere, so a
 * mistyped command fails instead of doing something else. */
static int
check_mode_options(const struct opts *o)
{
	/* each row: the option, the modes it belongs to, and whether this
	 * command line gave it (an initialiser evaluated here, C99) */
	const struct {
		const char *name, *modes;
		int given;
	} *t, tab[] = {
		{ "-o", "ed", o->output != NULL },
		{ "-f", "ctxm", o->archive != NULL },
		{ "--foreground", "m", o->foreground },
		{ "--levels", "m", o->levels },
		{ "--mount-cache", "m", o->mount_cache_set },
		{ "--allow-other", "m", o->allow_other },
		{ "-C", "cx", o->directory != NULL },
		{ "-v", "ctxdm", o->run.verbose },
		{ "-T", "ctx", o->sel.files_from != NULL },
		{ "--null", "ctx", o->sel.null_sep },
		{ "--exclude", "ctx", o->sel.nexclude > 0 },
		{ "--keep-old-files (or another overwrite policy)", "x",
		    o->old_files != OLD_REPLACE },
		{ "-p (or --no-same-permissions)", "x", o->preserve >= 0 },
		{ "--same-owner (or --no-same-owner)", "x", o->same_owner >= 0 },
		{ "-O", "x", o->to_stdout },
		{ "--strip-components", "x", o->strip > 0 },
		{ "--xattrs", "cxm", o->xattrs },
		{ "--acls", "cxm", o->acls },
		{ "-r", "ce", o->keys.nrecipients > 0 },
		{ "-R", "ce", o->keys.nrecipient_files > 0 },
		{ "-i", "dtxm", o->keys.nidentity_files > 0 },
		{ "--salvage", "dtx", o->run.salvage },
		{ "--no-index", "ctx", o->run.no_index },
		{ "--no-chain-check", "tx", o->no_chain_check },
		{ "--xattrs-include", "cx", o->nxattrs_include > 0 },
		{ "--xattrs-exclude", "cx", o->nxattrs_exclude > 0 },
		{ "--max-size", "xd", o->max_size > 0 },
		{ "-X", "ctx", o->nexclude_from > 0 },
		{ "--exclude-vcs", "ctx", o->exclude_vcs },
		{ "--exclude-tag or --exclude-caches", "c", o->ntags > 0 },
		{ "--one-file-system", "c", o->one_fs },
		{ "-N (--newer)", "c", o->newer_set },
		{ "-g (--listed-incremental)", "ctx", o->listed != NULL },
		{ "--level", "c", o->level0 },
		{ "--no-overwrite-dir", "x", o->no_overwrite_dir },
		{ "--no-devices", "x", o->no_devices },
		{ "--checksum", "ce", o->checksum != NULL },
		{ "--sign", "ce", o->sign != NULL },
		{ "--sig-file", "ce", o->sig_file != NULL },
		{ "--signer", "dtxi", o->keys.signers != NULL },
		{ "--totals", "ctxed", o->run.totals },
		{ "--max-work-factor", "dtx", o->keys.max_work_factor > 0 },
		{ "--plugin-timeout", "dtx", o->keys.plugin_timeout_ms > 0 },
		{ NULL, NULL, 0 }
	};

	for (t = tab; t->name != NULL; t++) {
		if (!t->given || strchr(t->modes, o->run.mode) != NULL)
			continue;
		msg_error("%s does not apply to -%c", t->name, o->run.mode);
		if (strcmp(t->name, "-o") == 0)
			msg_hint("archives are named with -f FILE");
		else if (strcmp(t->name, "-f") == 0)
			msg_hint("streams take the input as an operand and "
			    "the output with -o FILE");
		else if (t->name[1] == 'p' && (o->run.mode == 'd'
		    || o->run.mode == 'e'))
			/* AES Crypt's own syntax: "aescrypt -d -p PASS f" */
			msg_hint("AES Crypt's -p PASS puts the passphrase on the "
			    "command line, where every user can see it; here "
			    "it comes from the terminal (asked), "
			    "--passphrase-file FILE, --passphrase-fd N or "
			    "AESCRYPT_PASSPHRASE, as in: aescrypt -%c "
			    "--passphrase-file pass.txt FILE", o->run.mode);
		return EXIT_USAGE;
	}
	if (o->sel.null_sep && o->sel.files_from == NULL) {
		msg_error("--null applies to the list given with -T");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* A passphrase or a key file beside recipients (-c, -e): refused, as
 * age refuses a passphrase beside other recipients. */
static int
check_slots(const struct opts *o)
{
	if (o->keys.nrecipients + o->keys.nrecipient_files == 0
	    || (o->keys.keyfile == NULL && !o->keys.want_pass
	    && o->keys.pass_src == PASS_NONE))
		return EXIT_OK;
	msg_error("%s cannot be given beside recipients (-r, -R): anyone "
	    "holding a recipient's key could then write a file that the %s "
	    "opens as one of yours", o->keys.keyfile != NULL ? "-k" :
	    "a passphrase", o->keys.keyfile != NULL ? "key file"
	    : "passphrase");
	msg_hint("to open the file yourself too, add your own public key as "
	    "another recipient (aescrypt --gen-identity, or age-keygen)");
	return EXIT_USAGE;
}

/* Options that do not go together whatever the mode. */
static int
check_pairs(const struct opts *o)
{
	if (o->run.mode == 'i') {
		if (o->output != NULL || o->directory != NULL || o->run.verbose
		    || o->sel.files_from != NULL || o->sel.nexclude > 0) {
			msg_error("--info takes only the file to describe");
			return EXIT_USAGE;
		}
		return EXIT_OK;
	}
	if (o->sig_file != NULL && o->sign == NULL) {
		msg_error("--sig-file needs the key that signs: --sign KEY");
		return EXIT_USAGE;
	}
	if (o->run.salvage && o->to_stdout) {
		msg_error("--salvage writes whole members only, and -O cannot "
		    "take back what it wrote");
		msg_hint("extract with --salvage into a directory (-C DIR)");
		return EXIT_USAGE;
	}
	if (o->run.test && (o->run.verbose > 1 || o->output != NULL)) {
		msg_error("--test prints nothing but, with -v, a verdict; use "
		    "-t -v to list");
		return EXIT_USAGE;
	}
	if ((o->run.mode == 'c' || o->run.mode == 'e')
	    && check_slots(o) != EXIT_OK)
		return EXIT_USAGE;
	return check_mode_options(o);
}

/* How many operands each mode takes: --test and --info files (as gzip
 * -t takes them), -e and -d one input, the others none. */
static int
check_operands(struct opts *o)
{
	if ((o->run.mode == 'i' || o->run.test) && o->archive == NULL
	    && o->sel.noperands > 0) {
		o->archive = o->sel.operands[0];
		o->sel.operands++;
		o->sel.noperands--;
	}
	/* more operands of --info and --test are more files (main.c) */
	if ((o->run.mode == 'b' || o->run.mode == 'g' || o->run.mode == 'G')
	    && o->sel.noperands > 0) {
		msg_error("unexpected argument '%s'", o->sel.operands[0]);
		return EXIT_USAGE;
	}
	if ((o->run.mode == 'e' || o->run.mode == 'd')
	    && o->sel.noperands > 1) {
		msg_error("unexpected argument '%s'", o->sel.operands[1]);
		msg_hint("-%c takes one input; use -c for archives of many "
		    "files", o->run.mode);
		return EXIT_USAGE;
	}
	if (o->run.mode == 0 && o->sel.noperands > 0) {
		const char *a = o->sel.operands[0];

		msg_error("unexpected argument '%s'", a);
		/* tar's old dashless bundle ("tar xf a.tar") */
		if (strlen(a) <= 8 && strspn(a, "ctxvfzCpkO") == strlen(a)
		    && strcspn(a, "ctx") < strlen(a))
			msg_hint("did you mean -%s? (aescrypt's options take a "
			    "dash: tar's old form without one is not read)", a);
		else
			msg_hint("give a mode: -e or -d for a stream, -c, -t or "
			    "-x for an archive");
		return EXIT_USAGE;
	}
	if (o->narchives > 1 && o->run.mode != 't' && o->run.mode != 'x'
	    && o->run.mode != 'm') {
		msg_error("-f may be given once with -%c", o->run.mode);
		msg_hint("-x, -t and --mount take several archives (-f A -f B "
		    "...), read in that order");
		return EXIT_USAGE;
	}
	/* each archive reads the -T list again: standard input cannot be */
	if (o->narchives > 1 && o->sel.files_from != NULL
	    && strcmp(o->sel.files_from, "-") == 0) {
		msg_error("-T - with several -f: the list on standard input can "
		    "be read for one archive only");
		msg_hint("put the patterns in a file: -T FILE");
		return EXIT_USAGE;
	}
	if (o->run.mode != 'c' && o->ncdirs > 1 && o->run.mode != 0) {
		msg_error("-C may be given once with -%c", o->run.mode);
		msg_hint("with -c, each -C applies to the paths after it");
		return EXIT_USAGE;
	}
	if (o->run.mode == 'e' || o->run.mode == 'd')
		o->input = o->sel.noperands > 0 ? o->sel.operands[0] : NULL;
	o->run.operand = o->sel.noperands > 0 ? o->sel.operands[0] : NULL;
	return EXIT_OK;
}

/* --pq belongs to --gen-identity: a recipient's own string says its
 * kind, so -r and -R need no such option. */
static int
check_pq(const struct cmdline *c)
{
	if (c->pq && c->o.run.mode != 'G') {
		msg_error("--pq goes with --gen-identity (it makes a "
		    "post-quantum key pair)");
		msg_hint("to encrypt to a post-quantum recipient, give its "
		    "age1pq1... string to -r or -R");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* The codec for a new file (-c, -e): DEFLATE unless --zstd, whose
 * chunks are larger (6.6); and the chunk size it allows. */
static int
check_codec(struct cmdline *c)
{
	struct opts *o = &c->o;
	struct aescrypt_codec_info ci, big;

	if (c->zstd_seen && c->deflate_seen) {
		msg_error("--zstd and %s choose different codecs", o->run.engine
		    ? "--deflate" : "-z (--gzip)");
		return EXIT_USAGE;
	}
	if (o->run.mode != 'c' && o->run.mode != 'e') {
		/* tar's habit (tar --zstd -xf): the file says its codec */
		if (c->zstd_seen && o->run.mode != 0)
			msg_note("--zstd is not needed to read: the file's "
			    "header names its codec");
		return EXIT_OK;
	}
	o->run.codec = c->zstd_seen ? AESCRYPT_CODEC_ZSTD :
	    AESCRYPT_CODEC_DEFLATE;
	(void)aescrypt_codec_info(o->run.codec, o->run.engine, &ci);
	if (!ci.available) {
		msg_error("%s: this build has no %s (configure found no "
		    "lib%s-dev, or was run --without-%s)", ci.option, ci.name,
		    ci.name, ci.name);
		return EXIT_USAGE;
	}
	if (!o->run.chunk_set)
		o->run.chunk_log2 = ci.chunk_log2_default;
	if (o->run.chunk_log2 > ci.chunk_log2_max) {
		(void)aescrypt_codec_info(AESCRYPT_CODEC_ZSTD, 0, &big);
		msg_error("--chunk-size %uM is for %s; %s chunks are 64K to "
		    "%uM", 1u << (o->run.chunk_log2 - 20), big.option,
		    ci.title, 1u << (ci.chunk_log2_max - 20));
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/*
 * The exclusion patterns in one list: --exclude's, then each -X file's
 * lines, then --exclude-vcs's names.  The last are GNU tar 1.34's list;
 * as there, they match a name anywhere in a path (a file or a
 * directory: GNU tar's trailing '/' on some is not kept).
 */
static int
expand_excludes(struct opts *o)
{
	static const char *const vcs[] = {
		"CVS", ".cvsignore", "RCS", "SCCS", ".git", ".gitignore",
		".gitattributes", ".gitmodules", ".arch-ids", "{arch}",
		"=RELEASE-ID", "=meta-update", "=update", ".bzr", ".bzrignore",
		".bzrtags", ".hg", ".hgignore", ".hgtags", "_darcs"
	};
	size_t nvcs = o->exclude_vcs ? sizeof vcs / sizeof vcs[0] : 0;
	size_t i, j, total = o->sel.nexclude + nvcs;
	char **t;
	int st;

	if (o->nexclude_from == 0 && nvcs == 0)
		return EXIT_OK;
	if ((o->exclude_text = calloc(o->nexclude_from,
	    sizeof *o->exclude_text)) == NULL && o->nexclude_from > 0)
		goto nomem;
	for (i = 0; i < o->nexclude_from; i++) {
		if ((st = namelist_read(&o->exclude_text[i], o->exclude_from[i],
		    0, 0)) != EXIT_OK)
			return st;
		total += o->exclude_text[i].n;
	}
	if ((t = realloc(o->sel.exclude, (total + 1) * sizeof *t)) == NULL)
		goto nomem;
	o->sel.exclude = t;
	for (i = 0; i < o->nexclude_from; i++)
		for (j = 0; j < o->exclude_text[i].n; j++)
			o->sel.exclude[o->sel.nexclude++] = o->exclude_text[i].v[j];
	for (i = 0; i < nvcs; i++)
		o->sel.exclude[o->sel.nexclude++] = (char *)vcs[i];
	return EXIT_OK;
nomem:
	msg_error("out of memory");
	return EXIT_SYSTEM;
}

static int
is_stdin(const char *path)
{
	return path != NULL && strcmp(path, "-") == 0;
}

/* Standard input can carry one thing: a key list (-R -, -i -) or the
 * data, not both and not two lists. */
static int
check_stdin(const struct opts *o)
{
	const char *first = NULL, *second = NULL;
	size_t i;

#define USE(what) do { if (first == NULL) first = (what); \
	else if (second == NULL) second = (what); } while (0)
	for (i = 0; i < o->keys.nrecipient_files; i++)
		if (is_stdin(o->keys.recipient_files[i]))
			USE("-R -");
	for (i = 0; i < o->keys.nidentity_files; i++)
		if (is_stdin(o->keys.identity_files[i]))
			USE("-i -");
	if (is_stdin(o->keys.keyfile))
		USE("-k -");
	if (first == NULL)
		return EXIT_OK;
	if (((o->run.mode == 'd' || o->run.mode == 'e')
	    && (o->input == NULL || is_stdin(o->input)))
	    || ((o->run.mode == 't' || o->run.mode == 'x')
	    && (o->archive == NULL || is_stdin(o->archive))))
		USE("the data");
	if (is_stdin(o->sel.files_from))
		USE("-T -");
	if (o->keys.pass_src == PASS_FD && o->keys.pass_arg != NULL
	    && strcmp(o->keys.pass_arg, "0") == 0)
		USE("--passphrase-fd 0");
#undef USE
	if (second == NULL)
		return EXIT_OK;
	msg_error("%s and %s cannot both come from standard input", first,
	    second);
	msg_hint("give one of them as a file");
	return EXIT_USAGE;
}

int
options_check(struct cmdline *c)
{
	struct opts *o = &c->o;
	int st;

	if ((uint64_t)o->keys.kdf.m_kib < 8ull * o->keys.kdf.p) {
		msg_error("--kdf-memory must be at least 8K per lane "
		    "(%u lanes need %uK)", o->keys.kdf.p, 8 * o->keys.kdf.p);
		return EXIT_USAGE;
	}
	if (o->run.mode != 0 && o->run.mode != 'g' && o->run.mode != 'b'
	    && o->run.mode != 'G' && (st = check_pairs(o)) != EXIT_OK)
		return st;
	if ((st = check_codec(c)) != EXIT_OK || (st = check_pq(c)) != EXIT_OK)
		return st;
	if ((st = expand_excludes(o)) != EXIT_OK)
		return st;
	if ((o->xattrs || o->acls) && !ae_xattr_supported()) {
		msg_error("--%s: this build has no extended attributes "
		    "(built with --portable, or for a system without Linux's "
		    "xattr calls)", o->xattrs ? "xattrs" : "acls");
		return EXIT_USAGE;
	}
	if ((o->run.mode == 'g' || o->run.mode == 'G') && c->genkey == NULL) {
		/* the file after the options (--gen-identity --pq FILE) */
		if (o->sel.noperands == 0) {
			msg_error("--gen-%s needs the file to write",
			    o->run.mode == 'g' ? "key" : "identity");
			return EXIT_USAGE;
		}
		c->genkey = o->sel.operands[0];
		o->sel.operands++;
		o->sel.noperands--;
	}
	if ((st = check_operands(o)) != EXIT_OK)
		return st;
	return check_stdin(o);
}
