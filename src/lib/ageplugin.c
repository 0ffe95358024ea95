/*
 * ageplugin.c -- age's plugin protocol, the client's side of
 * identity-v1 (contracts in ageplugin.h).
 *
 * The plugin talks over a socket pair rather than pipes: a write to
 * one that died is EPIPE by MSG_NOSIGNAL, not a SIGPIPE, which the
 * command takes as its reader leaving.  Every wait on the plugin is
 * bounded by ui->timeout_ms; a wait on the user (a prompt) is not.
 */
#include "config.h"
#include "ageplugin.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/base64.h"
#include "common/clock.h"
#include "common/wipe.h"

extern char **environ;

#define NAME_MAX_LEN 64
#define STANZA_MAX ((size_t)1 << 20)    /* one stanza from the plugin */
#define REPLY_MAX 4096                  /* a PIN or public string */

struct plug {
	int fd;
	pid_t pid;
	unsigned timeout_ms;
	uint8_t in[16384];
	size_t ipos, ilen;
	char *err;
	size_t cap;
	const char *name;
};

static void
say(struct plug *p, const char *fmt, const char *a, const char *b)
{
	if (p->err != NULL && p->cap > 0)
		snprintf(p->err, p->cap, fmt, a, b);
}

int
ae_lib_plugin_name(const char *s, char *name, size_t cap)
{
	const char *sep = strrchr(s, '1'), *n;
	size_t len, i;

	if (strncasecmp(s, "AGE-PLUGIN-", 11) != 0 || sep == NULL
	    || sep < s + 12 || sep[-1] != '-')
		return -1;
	n = s + 11;
	len = (size_t)(sep - 1 - n);
	if (len == 0 || len >= cap || len > NAME_MAX_LEN)
		return -1;
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)n[i];

		if (!isalnum(c) && c != '-' && c != '_' && c != '.' && c != '+')
			return -1;
		name[i] = (char)tolower(c);
	}
	name[len] = 0;
	return 0;
}

/* The plugin's binary on PATH: absolute entries only.  0 or -1. */
static int
find(const char *name, char *path, size_t cap)
{
	const char *env = getenv("PATH"), *p, *e;
	struct stat st;

	if (env == NULL)
		return -1;
	for (p = env; *p != 0; p = *e != 0 ? e + 1 : e) {
		size_t len;

		e = strchr(p, ':');
		if (e == NULL)
			e = p + strlen(p);
		len = (size_t)(e - p);
		/* (an empty or relative entry means the working
		 * directory: never searched, as the spec says) */
		if (len == 0 || p[0] != '/')
			continue;
		if ((size_t)snprintf(path, cap, "%.*s/age-plugin-%s", (int)len,
		    p, name) >= cap)
			continue;
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode)
		    && access(path, X_OK) == 0)
			return 0;
	}
	return -1;
}

static int
start(struct plug *p, const char *name)
{
	char path[4096], arg[] = "--age-plugin=identity-v1";
	char *argv[3];
	posix_spawn_file_actions_t fa;
	int sv[2], r;

	if (find(name, path, sizeof path) != 0) {
		say(p, "age-plugin-%s is not on PATH%s", name, "");
		return AE_ENOTSUP;
	}
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
		return AE_ENOMEM;
	argv[0] = path;
	argv[1] = arg;
	argv[2] = NULL;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, sv[1], 0);
	posix_spawn_file_actions_adddup2(&fa, sv[1], 1);
	r = posix_spawn(&p->pid, path, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(sv[1]);
	if (r != 0) {
		close(sv[0]);
		say(p, "age-plugin-%s could not be started: %s", name,
		    strerror(r));
		return AE_ENOTSUP;
	}
	p->fd = sv[0];
	return AE_OK;
}

/* Stop the plugin: closed, then waited for, killed if it lingers (at
 * once if it hung: it would not notice the close). */
static void
stop(struct plug *p, int hung)
{
	uint64_t until;
	int st;

	if (p->fd >= 0)
		close(p->fd);
	p->fd = -1;
	if (p->pid <= 0)
		return;
	until = ae_wall_ns() + (hung ? 0 : (uint64_t)1000000000);
	while (waitpid(p->pid, &st, WNOHANG) == 0) {
		if (ae_wall_ns() > until) {
			kill(p->pid, SIGKILL);
			(void)waitpid(p->pid, &st, 0);
			break;
		}
		(void)poll(NULL, 0, 10);
	}
	p->pid = 0;
}

static int
put(struct plug *p, const char *buf, size_t n)
{
	struct pollfd pf = { p->fd, POLLOUT, 0 };
	ssize_t w;

	while (n > 0) {
		int r = poll(&pf, 1, (int)p->timeout_ms);

		if (r == 0) {
			say(p, "age-plugin-%s stopped reading%s", p->name, "");
			return AE_ELIMIT;
		}
		if (r < 0 && errno == EINTR)
			continue;
		w = send(p->fd, buf, n, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			say(p, "age-plugin-%s exited during the exchange%s",
			    p->name, "");
			return AE_EFORMAT;
		}
		buf += w;
		n -= (size_t)w;
	}
	return AE_OK;
}

/* A stanza: "-> " and args, then body in base64 lines of 64 columns and
 * a shorter last one. */
static int
put_stanza(struct plug *p, const char *const *args, size_t nargs,
    const uint8_t *body, size_t len)
{
	char line[96];
	size_t i, k;
	int r;

	if ((r = put(p, "->", 2)) != AE_OK)
		return r;
	for (i = 0; i < nargs; i++)
		if ((r = put(p, " ", 1)) != AE_OK
		    || (r = put(p, args[i], strlen(args[i]))) != AE_OK)
			return r;
	if ((r = put(p, "\n", 1)) != AE_OK)
		return r;
	for (i = 0;; i += 48) {
		k = len - i < 48 ? len - i : 48;
		if (ae_base64_encode(body + i, k, 0, line, sizeof line) == 0
		    && k > 0)
			return AE_ENOMEM;
		if (k == 0)
			line[0] = 0;
		if ((r = put(p, line, strlen(line))) != AE_OK
		    || (r = put(p, "\n", 1)) != AE_OK)
			return r;
		if (k < 48)
			return AE_OK;
	}
}

/* One line (its LF kept) onto buf at *len (cap).  0, or a failure. */
static int
get_line(struct plug *p, char *buf, size_t *len, size_t cap)
{
	struct pollfd pf = { p->fd, POLLIN, 0 };
	ssize_t got;
	int r;

	for (;;) {
		while (p->ipos < p->ilen) {
			char c = (char)p->in[p->ipos++];

			if (*len == cap) {
				say(p, "age-plugin-%s sent a stanza over 1 "
				    "MiB%s", p->name, "");
				return AE_EFORMAT;
			}
			buf[(*len)++] = c;
			if (c == '\n')
				return AE_OK;
		}
		r = poll(&pf, 1, (int)p->timeout_ms);
		if (r < 0 && errno == EINTR)
			continue;
		if (r == 0) {
			say(p, "age-plugin-%s said nothing for the timeout "
			    "(--plugin-timeout)%s", p->name, "");
			return AE_ELIMIT;
		}
		got = recv(p->fd, p->in, sizeof p->in, 0);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			say(p, "age-plugin-%s exited before it said done%s",
			    p->name, "");
			return AE_EFORMAT;
		}
		p->ipos = 0;
		p->ilen = (size_t)got;
	}
}

/* One stanza from the plugin into s (text and body in buf, STANZA_MAX
 * each). */
static int
get_stanza(struct plug *p, char *text, uint8_t *body,
    struct ae_age_stanza *s)
{
	struct ae_diag d = { 0 };
	size_t len = 0, at = 0, start;
	int r, first = 1;

	for (;;) {
		start = len;
		if ((r = get_line(p, text, &len, STANZA_MAX)) != AE_OK)
			return r;
		/* the argument line, then body lines to a short one */
		if (!first && len - start - 1 < 64)
			break;
		first = 0;
	}
	if (ae_age_stanza_parse(text, len, &at, s, body, &d) != AE_OK) {
		say(p, "age-plugin-%s broke the protocol: its stanza %s",
		    p->name, d.what != NULL ? d.what : "is malformed");
		return AE_EFORMAT;
	}
	return AE_OK;
}

static int
reply(struct plug *p, const char *a0, const char *a1, const uint8_t *body,
    size_t len)
{
	const char *args[2] = { a0, a1 };

	return put_stanza(p, args, a1 != NULL ? 2 : 1, body, len);
}

/* s's body as a NUL-terminated message, for the user (cap bytes). */
static void
message(const struct ae_age_stanza *s, char *out, size_t cap)
{
	size_t i, n = s->bodylen < cap - 1 ? s->bodylen : cap - 1;

	for (i = 0; i < n; i++)
		out[i] = isprint(s->body[i]) || s->body[i] == '\n' ?
		    (char)s->body[i] : '?';
	out[n] = 0;
}

/* A base64 argument as text (confirm's YES and NO). */
static void
arg_text(const char *arg, char *out, size_t cap)
{
	size_t n = 0, i;

	if (ae_base64_decode_strict(arg, strlen(arg), 0, (uint8_t *)out,
	    cap - 1, &n) != 0)
		n = 0;
	for (i = 0; i < n; i++)
		if (!isprint((unsigned char)out[i]))
			out[i] = '?';
	out[n] = 0;
}

/* Phase 2: the plugin asks, the client answers, until "done". */
static int
phase2(struct plug *p, const struct aescrypt_age_plugin_ui *ui,
    uint8_t file_key[AE_AGE_FILE_KEY_LEN], int *got_key)
{
	char *text = malloc(STANZA_MAX), msg[1024], yes[128], no[128];
	uint8_t *body = ae_secret_alloc(STANZA_MAX), *ans;
	struct ae_age_stanza s;
	size_t alen;
	int r, c;

	ans = ae_secret_alloc(REPLY_MAX);
	if (text == NULL || body == NULL || ans == NULL) {
		r = AE_ENOMEM;
		goto out;
	}
	for (;;) {
		if ((r = get_stanza(p, text, body, &s)) != AE_OK)
			break;
		if (strcmp(s.arg[0], "done") == 0)
			break;
		if (strcmp(s.arg[0], "msg") == 0) {
			message(&s, msg, sizeof msg);
			if (ui != NULL && ui->msg != NULL)
				ui->msg(ui->ctx, p->name, msg);
			r = reply(p, ui != NULL && ui->msg != NULL ? "ok" :
			    "fail", NULL, NULL, 0);
		} else if (strcmp(s.arg[0], "confirm") == 0 && s.nargs >= 2) {
			message(&s, msg, sizeof msg);
			arg_text(s.arg[1], yes, sizeof yes);
			no[0] = 0;
			if (s.nargs >= 3)
				arg_text(s.arg[2], no, sizeof no);
			c = ui != NULL && ui->confirm != NULL ? ui->confirm(
			    ui->ctx, p->name, msg, yes, s.nargs >= 3 ? no :
			    NULL) : -1;
			r = c < 0 ? reply(p, "fail", NULL, NULL, 0) :
			    reply(p, "ok", c ? "yes" : "no", NULL, 0);
		} else if (strcmp(s.arg[0], "request-secret") == 0
		    || strcmp(s.arg[0], "request-public") == 0) {
			message(&s, msg, sizeof msg);
			c = ui != NULL && ui->request != NULL ? ui->request(
			    ui->ctx, p->name, msg, s.arg[0][8] == 's',
			    (char *)ans, REPLY_MAX, &alen) : -1;
			r = c < 0 ? reply(p, "fail", NULL, NULL, 0) :
			    reply(p, "ok", NULL, ans, alen);
			ae_wipe(ans, REPLY_MAX);
		} else if (strcmp(s.arg[0], "file-key") == 0) {
			if (s.nargs != 2 || strcmp(s.arg[1], "0") != 0
			    || s.bodylen != AE_AGE_FILE_KEY_LEN) {
				say(p, "age-plugin-%s sent a file key that is "
				    "not one for this file (16 bytes, file "
				    "0)%s", p->name, "");
				r = AE_EFORMAT;
				break;
			}
			if (!*got_key)
				memcpy(file_key, s.body, AE_AGE_FILE_KEY_LEN);
			*got_key = 1;
			r = reply(p, "ok", NULL, NULL, 0);
		} else if (strcmp(s.arg[0], "error") == 0) {
			message(&s, msg, sizeof msg);
			say(p, "age-plugin-%s: %s", p->name, msg);
			r = reply(p, "ok", NULL, NULL, 0);
		} else
			r = reply(p, "unsupported", NULL, NULL, 0);
		if (r != AE_OK)
			break;
	}
out:
	free(text);
	ae_secret_free(body, STANZA_MAX);
	ae_secret_free(ans, REPLY_MAX);
	return r;
}

int
ae_lib_plugin_unwrap(const char *name, char *const *ids, size_t n,
    const struct ae_age_header *h, const struct aescrypt_age_plugin_ui *ui,
    uint8_t file_key[AE_AGE_FILE_KEY_LEN], char *err, size_t cap)
{
	struct plug p = { -1, 0, 0, { 0 }, 0, 0, err, cap, name };
	const char *args[AE_AGE_ARGS_MAX + 2];
	size_t i;
	int r, got = 0;

	if (err != NULL && cap > 0)
		err[0] = 0;
	p.timeout_ms = ui != NULL && ui->timeout_ms > 0 ? ui->timeout_ms :
	    AESCRYPT_AGE_PLUGIN_TIMEOUT_MS;
	if ((r = start(&p, name)) != AE_OK)
		return r;
	/* phase 1: the identities and the stanzas, all of file 0 */
	for (i = 0; r == AE_OK && i < n; i++) {
		args[0] = "add-identity";
		args[1] = ids[i];
		r = put_stanza(&p, args, 2, NULL, 0);
	}
	for (i = 0; r == AE_OK && i < h->n; i++) {
		args[0] = "recipient-stanza";
		args[1] = "0";
		memcpy(args + 2, h->st[i].arg, h->st[i].nargs * sizeof *args);
		r = put_stanza(&p, args, h->st[i].nargs + 2, h->st[i].body,
		    h->st[i].bodylen);
	}
	if (r == AE_OK) {
		args[0] = "done";
		r = put_stanza(&p, args, 1, NULL, 0);
	}
	if (r == AE_OK)
		r = phase2(&p, ui, file_key, &got);
	stop(&p, r == AE_ELIMIT);
	if (r != AE_OK) {
		ae_wipe(file_key, AE_AGE_FILE_KEY_LEN);
		return r;
	}
	return got ? AE_OK : AE_EKEY;
}
