#include "config.h"
#include "msg.h"
#include "words.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "exitcode.h"
#include "names.h"
#include "progress.h"
#include "signals.h"

static int muted;

void
msg_mute(int on)
{
	muted = on;
}

static void
vmsg(const char *kind, const char *fmt, va_list ap)
{
	/* One fprintf-sized burst per line, so lines from different
	 * threads do not interleave mid-line. */
	char line[4096];     /* a quoted name (< 1024) and its reason */

	if (muted)
		return;
	vsnprintf(line, sizeof line, fmt, ap);
	progress_hide();
	fprintf(stderr, "aescrypt: %s: %s\n", kind, line);
}

void
msg_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("error", fmt, ap);
	va_end(ap);
}

void
msg_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("warning", fmt, ap);
	va_end(ap);
}

void
msg_hint(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("hint", fmt, ap);
	va_end(ap);
}

void
msg_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("note", fmt, ap);
	va_end(ap);
}

void
msg_file_error(const char *path, int err)
{
	char q[1024];

	msg_error("%s: %s", names_quote(path, q, sizeof q), strerror(err));
}

int
msg_sys_error(const char *what)
{
	if (errno == EPIPE)
		return EXIT_PIPE;   /* the reader left: silent (msg.h) */
	msg_error("%s: %s", what, strerror(errno));
	return EXIT_SYSTEM;
}

int
msg_interrupted(void)
{
	msg_error("interrupted");
	return EXIT_SIGNAL + signals_caught();
}

int
exit_for(int err)
{
	switch (err) {
	case AE_OK:
		return EXIT_OK;
	case AE_EKEY:
		return EXIT_KEY;
	case AE_EAUTH:
	case AE_EFORMAT:
	case AE_ETRUNC:
	case AE_ENOTSUP:
		return EXIT_DATA;
	case AE_ELIMIT:
		return EXIT_LIMIT;
	case AE_EINTR:
		return EXIT_SIGNAL + signals_caught();
	}
	return EXIT_SYSTEM;
}

static const char *cut_hint;

void
msg_on_cut_for(int mode, int salvage, int is_signed)
{
	if (salvage)
		cut_hint = NULL;
	else if (mode == 'd')
		cut_hint = is_signed ? "the file is cut short: to standard "
		    "output, -d writes what its signatures before the cut "
		    "cover (--salvage does not read signed files yet)"
		    : "the file is cut short: -d --salvage keeps every byte "
		    "verified before the cut (as OUTPUT.damaged)";
	else if ((mode == 'x' || mode == 't') && !is_signed)
		cut_hint = "the file is cut short: --salvage reads the members "
		    "that lie before the cut";
	else if (mode == 'x' || mode == 't')
		cut_hint = mode == 'x' ? "the file is cut short: the members "
		    "that its signatures before the cut cover were extracted "
		    "(--salvage does not read signed files yet)" : "the file "
		    "is cut short: the members that its signatures before the "
		    "cut cover were listed (--salvage does not read signed "
		    "files yet)";
	else
		cut_hint = NULL;
}

int
msg_core_error(const char *name, int err, const struct ae_diag *d)
{
	const char *what = d->what != NULL ? d->what : ae_strerror(err);

	if (err == AE_EIO && d->where == AE_AT_OUTPUT && d->sys_errno == EPIPE)
		return EXIT_PIPE;
	if (err == AE_EINTR) {
		msg_error("%s: interrupted", name);
		return exit_for(err);
	}
	switch (d->where) {
	case AE_AT_CHUNK:
		msg_error("%s: chunk %llu at offset %llu %s", name, d->index,
		    d->offset, what);
		if (err == AE_ETRUNC && cut_hint != NULL)
			msg_hint("%s", cut_hint);
		break;
	case AE_AT_INDEX:
		msg_error("%s: the archive's index (at offset %llu): %s", name,
		    d->offset, what);
		break;
	case AE_AT_STANZA:
		if (err == AE_ELIMIT) {
			char have[32], lim[32], arg[32];
			if (strcmp(what, "Argon2id memory") == 0) {
				kib_words(d->have, have, sizeof have, 0);
				kib_words(d->limit, lim, sizeof lim, 0);
				kib_words(d->have, arg, sizeof arg, 1);
			} else {
				snprintf(have, sizeof have, "%llu", d->have);
				snprintf(lim, sizeof lim, "%llu", d->limit);
			}
			msg_error("%s: key slot %llu asks for %s %s, over the "
			    "limit of %s", name, d->index, what, have, lim);
			if (strcmp(what, "Argon2id memory") == 0)
				msg_hint("if you trust this file, raise the "
				    "limit with --max-kdf-memory %s", arg);
			else
				msg_hint("the limits on Argon2id passes (10) "
				    "and lanes (16) cannot be raised");
			break;
		}
		msg_error("%s: key slot %llu: %s", name, d->index, what);
		break;
	case AE_AT_HEADER:
		if (err == AE_ENOTSUP)
			msg_error("%s: %s %llu", name, what, d->have);
		else
			msg_error("%s: %s", name, what);
		/* "aescrypt -t a.aes < /dev/null" from cron: the archive was
		 * given as a member pattern, and nothing came on stdin */
		if (err == AE_ETRUNC && d->what != NULL
		    && strcmp(d->what, "input is empty") == 0
		    && strcmp(name, "standard input") == 0)
			msg_hint("nothing came on standard input: missing -f? "
			    "(-t and -x name the archive with -f FILE, -d "
			    "its input as an operand)");
		break;
	case AE_AT_INPUT:
	case AE_AT_OUTPUT:
		if (err == AE_EIO)
			msg_error("%s: %s: %s", name, what,
			    strerror(d->sys_errno));
		else
			msg_error("%s: %s (at offset %llu)", name, what,
			    d->offset);
		break;
	case AE_AT_MEMBER:
		/* The offset counts bytes of the plaintext tar stream, not
		 * of the container: say so. */
		msg_error("%s: the member at byte %llu of the archive's tar "
		    "stream: %s", name, d->offset, what);
		break;
	case AE_AT_NONE:
		msg_error("%s: %s", name, what);
		break;
	}
	return exit_for(err);
}
