/*
 * command.c -- one command line, run (contract in command.h).
 */
#include "config.h"

#include <dirent.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "aescrypt.h"

#include "benchmark.h"
#include "chain.h"
#include "command.h"
#include "exitcode.h"
#include "identity.h"
#include "members.h"
#include "msg.h"
#include "names.h"
#include "options.h"
#include "secret.h"
#include "signals.h"
#include "usage.h"

/* --info and --test on each file named, as gzip -t: every file is
 * looked at, and the exit status is the worst of theirs. */
static int
each_file(const struct opts *o, int (*cmd)(const struct opts *))
{
	struct opts one = *o;
	size_t i;
	int st, s;

	one.sel.operands = NULL;
	one.sel.noperands = 0;
	secret_keep(1);   /* one passphrase line or variable for them all */
	st = cmd(&one);
	for (i = 0; i < o->sel.noperands && !atomic_load(&signals_stop); i++) {
		one.archive = o->sel.operands[i];
		if ((s = cmd(&one)) > st)
			st = s;
	}
	secret_keep(0);
	/* --info of several with a key: the chains they make, after them */
	if (cmd == cmd_info && !atomic_load(&signals_stop)
	    && (s = chain_report(stdout, o->info_json)) > st)
		st = s;
	return st;
}

/* The last line of a chain's run: what each archive came to, or which
 * were not read after the one that stopped it (status[i] -1). */
static void
chain_summary(const struct opts *o, const int *status, size_t stopped_at)
{
	char q[1024], line[4096];
	size_t i, len = 0, n;
	int any_damaged = 0;

	for (i = 0; i < o->narchives; i++)
		any_damaged |= status[i] == EXIT_DATA;
	if (stopped_at < o->narchives) {
		for (i = stopped_at + 1; i < o->narchives && len < sizeof line
		    - 1; i++) {
			n = (size_t)snprintf(line + len, sizeof line - len,
			    "%s%s", len > 0 ? ", " : "",
			    names_quote(o->archives[i], q, sizeof q));
			len += n < sizeof line - len ? n : sizeof line - len - 1;
		}
		if (len > 0)
			msg_error("not read: %s; the chain stops at %s%s", line,
			    names_quote(o->archives[stopped_at], q, sizeof q),
			    o->run.salvage ? "" : " (--salvage goes on past a "
			    "damaged archive)");
		return;
	}
	if (!o->run.salvage || !any_damaged)
		return;
	for (i = 0; i < o->narchives && len < sizeof line - 1; i++) {
		n = (size_t)snprintf(line + len, sizeof line - len, "%s%s %s",
		    i > 0 ? "; " : "", names_quote(o->archives[i], q, sizeof q),
		    status[i] == EXIT_DATA ? "damaged (its losses are named "
		    "above)" : status[i] == EXIT_OK ? "whole" : "read, with "
		    "warnings");
		len += n < sizeof line - len ? n : sizeof line - len - 1;
	}
	msg_hint("the chain of %zu archives, each read: %s", o->narchives, line);
}

/*
 * -x or -t with several -f: each archive in the order given, as if run
 * one after another (a chain of levels restored with -g, one passphrase
 * for all), the exit status the worst of theirs.  A member named on the
 * command line is missing only if no archive has it.  -t names the
 * archive on each line it lists (list.c).  Stops at the first archive
 * that fails, as a run of commands joined by && would, unless it only
 * warned (exit 1), and names the archives it did not read; with
 * --salvage a damaged archive (exit 4) does not stop it, since the
 * later levels' changes and deletions stand on their own, and the last
 * line says what each archive came to.
 */
static int
each_archive(const struct opts *o, int (*cmd)(const struct opts *))
{
	struct opts one = *o;
	struct members sel;
	char q[1024];
	size_t i, stopped_at = SIZE_MAX;
	int st = EXIT_OK, s, *status;

	if ((s = members_init(&sel, &o->sel)) != EXIT_OK)
		return s;
	if ((one.sel.found = calloc(sel.pats.n + 1, 1)) == NULL
	    || (status = calloc(o->narchives, sizeof *status)) == NULL) {
		free(one.sel.found);
		members_free(&sel);
		msg_error("out of memory");
		return EXIT_SYSTEM;
	}
	for (i = 0; i < o->narchives; i++)
		status[i] = -1;
	if (o->run.mode == 'x' && o->listed != NULL
	    && (s = extract_chain_new(&one.dw_chain)) != EXIT_OK) {
		free(status);
		free(one.sel.found);
		members_free(&sel);
		return s;
	}
	secret_keep(1);
	/* several dumps: one chain, checked before any is read */
	if ((st = chain_check(o)) != EXIT_OK) {
		secret_keep(0);
		extract_chain_free(one.dw_chain);
		free(status);
		free(one.sel.found);
		members_free(&sel);
		return st;
	}
	for (i = 0; i < o->narchives; i++) {
		if (atomic_load(&signals_stop)) {
			stopped_at = i > 0 ? i - 1 : 0;
			break;
		}
		one.archive = o->archives[i];
		if ((s = status[i] = cmd(&one)) > st)
			st = s;
		if (s > EXIT_PARTIAL && !(o->run.salvage && s == EXIT_DATA)) {
			stopped_at = i;
			break;
		}
	}
	secret_keep(0);
	extract_chain_free(one.dw_chain);
	chain_summary(o, status, stopped_at);
	free(status);
	if (st <= EXIT_PARTIAL)
		for (i = 0; i < sel.pats.n; i++)
			if (!one.sel.found[i]) {
				msg_error("%s: not found in any of the %zu "
				    "archives", names_quote(sel.pats.v[i], q,
				    sizeof q), o->narchives);
				st = EXIT_PARTIAL;
			}
	free(one.sel.found);
	members_free(&sel);
	return st;
}

/* scandir's filter: a name that ends in ".aes" and does not start with
 * a dot. */
static int
is_aes_name(const struct dirent *e)
{
	size_t n = strlen(e->d_name);

	return e->d_name[0] != '.' && n > 4
	    && strcmp(e->d_name + n - 4, ".aes") == 0;
}

/* Add a copy of name, or of dir/name, to *v (*n of *cap).  0 or -1. */
static int
push_name(char ***v, size_t *n, size_t *cap, const char *dir,
    const char *name)
{
	size_t len = (dir != NULL ? strlen(dir) + 1 : 0) + strlen(name) + 1;
	char **t;

	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 16;
		if ((t = realloc(*v, *cap * sizeof *t)) == NULL)
			return -1;
		*v = t;
	}
	if (((*v)[*n] = malloc(len)) == NULL)
		return -1;
	snprintf((*v)[(*n)++], len, "%s%s%s", dir != NULL ? dir : "",
	    dir != NULL ? "/" : "", name);
	return 0;
}

/*
 * --info (or --test) of files where some are directories: a directory
 * stands for the *.aes files in it, in name order (a backup directory,
 * whose chains --info with a key lists).  Then as each_file.
 */
static int
each_file_dirs(const struct opts *o, int (*cmd)(const struct opts *))
{
	struct opts all = *o;
	struct dirent **ents;
	struct stat sb;
	char **names = NULL, q[1024];
	size_t i, n = 0, cap = 0;
	int st = EXIT_OK, k, m;
	const char *f;

	for (i = 0; i <= o->sel.noperands && st == EXIT_OK; i++) {
		f = i == 0 ? o->archive : o->sel.operands[i - 1];
		if (f == NULL)
			continue;
		if (stat(f, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
			if (push_name(&names, &n, &cap, NULL, f) != 0)
				st = EXIT_SYSTEM;
			continue;
		}
		if ((m = scandir(f, &ents, is_aes_name, alphasort)) <= 0) {
			msg_error("%s: no .aes files in this directory",
			    names_quote(f, q, sizeof q));
			st = EXIT_USAGE;
			if (m == 0)
				free(ents);
			break;
		}
		for (k = 0; k < m; k++) {
			if (st == EXIT_OK && push_name(&names, &n, &cap, f,
			    ents[k]->d_name) != 0)
				st = EXIT_SYSTEM;
			free(ents[k]);
		}
		free(ents);
	}
	if (st == EXIT_SYSTEM)
		msg_error("out of memory");
	if (st == EXIT_OK) {
		all.archive = names[0];
		all.sel.operands = names + 1;
		all.sel.noperands = n - 1;
		st = n > 1 ? each_file(&all, cmd) : cmd(&all);
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return st;
}

/* The mode the command line chose; its exit status. */
static int
dispatch(const struct cmdline *c)
{
	const struct opts *o = &c->o;
	struct stat sb;

	/* (a command line before this one set it) */
	msg_on_cut_for(c->o.run.mode, c->o.run.salvage, 0);
	chain_forget();
	if ((o->run.mode == 'i' || o->run.test) && (o->sel.noperands > 0
	    || (o->archive != NULL && stat(o->archive, &sb) == 0
	    && S_ISDIR(sb.st_mode))))
		return each_file_dirs(o, o->run.mode == 'i' ? cmd_info :
		    cmd_list);
	if (o->narchives > 1 && o->run.mode != 'm')
		return each_archive(o, o->run.mode == 'x' ? cmd_extract
		    : cmd_list);
	switch (o->run.mode) {
	case 'b':
		return benchmark_run(c->bench_time, o->run.threads,
		    o->run.chunk_log2, o->run.chunk_set ? o->run.chunk_log2
		    : AESCRYPT_CHUNK_LOG2_DEFAULT_ZSTD, c->bench_format, c->bench_all,
		    isatty(STDOUT_FILENO));
	case 'g':
		return secret_keyfile_generate(c->genkey);
	case 'G':
		return identity_generate(c->genkey, c->pq);
	case 'i':
		return cmd_info(o);
	case 'e':
		return cmd_encrypt(o);
	case 'd':
		return cmd_decrypt(o);
	case 'c':
		return cmd_create(o);
	case 't':
		return cmd_list(o);
	case 'x':
		return cmd_extract(o);
	case 'm':
		return cmd_mount(o);
	}
	usage_brief(stderr);
	return EXIT_USAGE;
}

int
command_main(int argc, char **argv)
{
	struct cmdline c;
	int st;

	if ((st = options_init(&c, argc)) == EXIT_OK
	    && (st = options_parse(&c, argc, argv)) == EXIT_OK) {
		if (c.want_help)
			(c.want_help == 2 ? usage_all : usage_short)(stdout);
		else if (c.want_version)
			usage_version();
		else if ((st = options_check(&c)) == EXIT_OK) {
			signals_init();
			st = dispatch(&c);
			chain_forget();
		}
	}
	options_free(&c);
	return st;
}
