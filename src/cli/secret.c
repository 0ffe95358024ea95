#include "config.h"
#include "secret.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#define AESCRYPT_STATIC_LINKING_ONLY
#include "aescrypt.h"
#include "common/error.h"
#include "common/wipe.h"
#include "exitcode.h"
#include "msg.h"
#include "names.h"
#include "signals.h"

#define ENV_NAME "AESCRYPT_PASSPHRASE"

/* secret_keep: a passphrase that can be read only once (a descriptor's
 * line, the environment, which from_env wipes) kept for the next file
 * of the same run. */
static struct {
	int on;
	enum pass_source src;
	struct passphrase *p;
} kept;

enum pass_source
secret_env_source(void)
{
	/* (from_env unsets the variable; a kept copy still counts) */
	if (kept.p != NULL && kept.src == PASS_ENV)
		return PASS_ENV;
	return getenv(ENV_NAME) != NULL ? PASS_ENV : PASS_NONE;
}

void
secret_wipe(struct passphrase *p)
{
	ae_wipe(p, sizeof *p);
}

/*
 * Read one line from fd, a byte at a time so that nothing after the
 * newline is consumed (--passphrase-fd 0 may be followed by the data).
 * Returns the length, -1 on a read error, -2 if the line is too long,
 * -3 if interrupted.
 */
static long
read_line(int fd, uint8_t *buf, size_t cap)
{
	size_t n = 0;

	for (;;) {
		uint8_t c;
		ssize_t r = read(fd, &c, 1);

		if (r < 0) {
			if (errno == EINTR && !atomic_load(&signals_stop))
				continue;
			return errno == EINTR ? -3 : -1;
		}
		if (r == 0 || c == '\n')
			break;
		if (n == cap)
			return -2;
		buf[n++] = c;
	}
	if (n > 0 && buf[n - 1] == '\r')
		n--;
	return (long)n;
}

/* Prompt on the terminal with echo off (or on, with echo).  0 or an
 * exit status. */
static int
prompt_echo(int tty, const char *text, int echo, struct passphrase *p)
{
	struct termios old, quiet;
	int have_old;
	long n;

	have_old = tcgetattr(tty, &old) == 0;
	if (have_old) {
		quiet = old;
		if (!echo)
			quiet.c_lflag &= ~(tcflag_t)(ECHO | ECHONL);
		quiet.c_lflag |= ICANON;
		tcsetattr(tty, TCSAFLUSH, &quiet);
	}
	if (write(tty, text, strlen(text)) < 0) {
		/* the read below will fail too, and say why */
	}
	n = read_line(tty, p->buf, sizeof p->buf);
	if (have_old)
		tcsetattr(tty, TCSAFLUSH, &old);
	if (write(tty, "\n", 1) < 0) {
		/* nothing more to say on a broken terminal */
	}
	if (n == -3)
		return msg_interrupted();
	if (n == -2) {
		msg_error("passphrase is longer than %d bytes (1,024 characters "
		    "of up to 4 bytes)", PASS_MAX);
		return EXIT_USAGE;
	}
	if (n < 0) {
		msg_error("reading the passphrase from the terminal: %s",
		    strerror(errno));
		return EXIT_SYSTEM;
	}
	p->len = (size_t)n;
	return EXIT_OK;
}

static int
prompt(int tty, const char *text, struct passphrase *p)
{
	return prompt_echo(tty, text, 0, p);
}

int
secret_ask(const char *text, int echo, struct passphrase *p)
{
	int tty, st;

	if ((tty = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)) < 0)
		return -1;
	st = prompt_echo(tty, text, echo, p);
	close(tty);
	return st;
}

/* Ask on the terminal: 0 or an exit status; -1 if there is none. */
static int
ask_tty(const char *text, int confirm, struct passphrase *p)
{
	struct passphrase again;
	int tty, st;

	if ((tty = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)) < 0)
		return -1;
	st = prompt(tty, text, p);
	if (st == EXIT_OK && confirm && p->len > 0) {
		st = prompt(tty, "Confirm passphrase: ", &again);
		if (st == EXIT_OK && (again.len != p->len
		    || !ae_ct_equal(again.buf, p->buf, p->len))) {
			msg_error("the passphrases do not match");
			st = EXIT_USAGE;
		}
		secret_wipe(&again);
	}
	close(tty);
	return st;
}

static int
from_tty(int confirm, struct passphrase *p)
{
	int st = ask_tty(confirm ? "Enter passphrase: " : "Passphrase: ",
	    confirm, p);

	if (st < 0) {
		msg_error("a passphrase is needed and there is no terminal "
		    "to ask for it");
		msg_hint("use --passphrase-file FILE, --passphrase-fd N, "
		    "AESCRYPT_PASSPHRASE, or -k KEYFILE");
		return EXIT_KEY;
	}
	return st;
}

int
secret_key_passphrase(enum pass_source src, const char *arg,
    const char *name, struct passphrase *p)
{
	char text[1200];
	int st;

	if (src == PASS_NONE)
		src = secret_env_source();
	if (src != PASS_NONE && src != PASS_TTY)
		return secret_passphrase(src, arg, 0, p);
	snprintf(text, sizeof text, "Passphrase for %s: ", name);
	if ((st = ask_tty(text, 0, p)) < 0) {
		msg_error("%s: the OpenSSH key is protected by a passphrase, "
		    "and there is no terminal to ask for it", name);
		msg_hint("give it with --passphrase-file, --passphrase-fd or "
		    "AESCRYPT_PASSPHRASE");
		return EXIT_KEY;
	}
	return st;
}

static int
from_fd(int fd, const char *what, struct passphrase *p)
{
	long n = read_line(fd, p->buf, sizeof p->buf);

	if (n == -3)
		return msg_interrupted();
	if (n == -2) {
		msg_error("%s: passphrase is longer than %d bytes (1,024 "
		    "characters of up to 4 bytes)", what,
		    PASS_MAX);
		return EXIT_USAGE;
	}
	if (n < 0) {
		msg_error("%s: %s", what, strerror(errno));
		return EXIT_SYSTEM;
	}
	p->len = (size_t)n;
	return EXIT_OK;
}

static int
from_env(struct passphrase *p)
{
	char *v = getenv(ENV_NAME);
	size_t n = v != NULL ? strlen(v) : 0;

	if (n > PASS_MAX) {
		msg_error("%s is longer than %d bytes (1,024 characters of "
		    "up to 4 bytes)", ENV_NAME, PASS_MAX);
		return EXIT_USAGE;
	}
	if (n > 0)
		memcpy(p->buf, v, n);
	p->len = n;
	/* Our copy of the environment is ours to wipe; child processes
	 * (there are none) and /proc/PID/environ (read at exec time by
	 * anyone with our uid) are the documented risk. */
	if (v != NULL)
		ae_wipe(v, n);
	unsetenv(ENV_NAME);
	return EXIT_OK;
}

void
secret_keep(int on)
{
	kept.on = on;
	if (!on && kept.p != NULL) {
		ae_secret_free(kept.p, sizeof *kept.p);
		kept.p = NULL;
	}
}

int
secret_passphrase(enum pass_source src, const char *arg, int confirm,
    struct passphrase *p)
{
	int st = EXIT_OK, fd;
	char *end;
	long v;

	memset(p, 0, sizeof *p);
	if (kept.p != NULL && kept.src == src) {
		*p = *kept.p;
		return EXIT_OK;
	}
	switch (src) {
	case PASS_NONE:
	case PASS_TTY:
		st = from_tty(confirm, p);
		break;
	case PASS_FILE:
		fd = open(arg, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			int e = errno;

			/* a name that does not exist is a mistake on the
			 * command line, as for a key file */
			msg_file_error(arg, e);
			return e == ENOENT || e == ENOTDIR ? EXIT_USAGE :
			    EXIT_SYSTEM;
		}
		{
			/* as for a key file: the passphrase is the key */
			struct stat sb;

			if (fstat(fd, &sb) == 0)
				secret_warn_mode((unsigned)sb.st_mode, arg,
				    "passphrase file");
		}
		st = from_fd(fd, arg, p);
		close(fd);
		break;
	case PASS_FD:
		errno = 0;
		v = strtol(arg, &end, 10);
		if (errno != 0 || *end != '\0' || end == arg || v < 0
		    || v > 1 << 20) {
			msg_error("--passphrase-fd: '%s' is not a file "
			    "descriptor number", arg);
			return EXIT_USAGE;
		}
		st = from_fd((int)v, "--passphrase-fd", p);
		break;
	case PASS_ENV:
		st = from_env(p);
		break;
	}
	if (st == EXIT_OK && confirm && p->len == 0) {
		msg_error("the passphrase is empty");
		msg_hint("an empty passphrase protects nothing; use -k "
		    "KEYFILE for unattended use");
		st = EXIT_USAGE;
	}
	if (st != EXIT_OK)
		secret_wipe(p);
	else if (kept.on && (src == PASS_FD || src == PASS_ENV)
	    && kept.p == NULL
	    && (kept.p = ae_secret_alloc(sizeof *kept.p)) != NULL) {
		*kept.p = *p;
		kept.src = src;
	}
	return st;
}

void
secret_warn_mode(unsigned mode, const char *path, const char *what)
{
	char q[1024];

	/* As ssh does for private keys, but a warning: a key file on a
	 * shared backup volume may be meant to be read by a group. */
	if (S_ISREG(mode) && (mode & 077) != 0) {
		names_quote(path, q, sizeof q);
		msg_warn("%s: %s is accessible by others (mode %04o); anyone "
		    "who can read it can decrypt what it protects", q, what,
		    mode & 07777);
		msg_hint("chmod 600 %s", q);
	}
}

int
secret_read_file(const char *path, char *buf, size_t cap, size_t *len,
    const char *what, unsigned *mode)
{
	struct stat sb;
	ssize_t n;
	int fd, st = EXIT_OK, e;

	*len = 0;
	if (mode != NULL)
		*mode = 0;
	if (strcmp(path, "-") == 0) {
		/* -i - and -R -: options.c saw that nothing else is read
		 * from standard input */
		fd = STDIN_FILENO;
		path = "standard input";
	} else if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		e = errno;
		msg_file_error(path, e);
		return e == ENOENT || e == ENOTDIR ? EXIT_USAGE : EXIT_SYSTEM;
	}
	if (fd != STDIN_FILENO && fstat(fd, &sb) == 0) {
		if (what != NULL)
			secret_warn_mode((unsigned)sb.st_mode, path, what);
		if (mode != NULL)
			*mode = (unsigned)sb.st_mode;
	}
	while (*len < cap) {
		n = read(fd, buf + *len, cap - *len);
		if (n < 0 && errno == EINTR && !atomic_load(&signals_stop))
			continue;
		if (n < 0) {
			msg_file_error(path, errno);
			st = EXIT_SYSTEM;
			break;
		}
		if (n == 0)
			break;
		*len += (size_t)n;
	}
	if (fd != STDIN_FILENO)
		close(fd);
	return st;
}

int
secret_keyfile_read(const char *path, uint8_t key[32])
{
	char text[AESCRYPT_KEYFILE_MAX + 1];
	size_t len = 0;
	int st;

	/* (one byte more than a key file holds: a longer file fails the
	 * parse) */
	st = secret_read_file(path, text, sizeof text, &len, "key file", NULL);
	if (st == EXIT_OK && aescrypt_keyfile_parse(text, len, key)
	    != AESCRYPT_OK) {
		char q[1024];

		msg_error("%s: not an aescrypt key file", names_quote(path, q,
		    sizeof q));
		if (aescrypt_sniff(text, len) == AESCRYPT_FORMAT_AESCRYPT)
			msg_hint("it is an aescrypt file: -k names a key file "
			    "(tar's -k, keep old files, is --keep-old-files "
			    "here); name the archive with -f");
		else
			msg_hint("make one with 'aescrypt --gen-key FILE'");
		st = EXIT_KEY;
	}
	ae_wipe(text, sizeof text);
	return st;
}

int
secret_write_new(const char *path, const char *text, size_t len,
    const char *what)
{
	size_t off = 0;
	int fd, st = EXIT_OK, to_stdout = strcmp(path, "-") == 0;

	if (to_stdout) {
		fd = STDOUT_FILENO;
	} else {
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd < 0) {
			msg_file_error(path, errno);
			if (errno == EEXIST)
				msg_hint("%s is never overwritten; remove it "
				    "first if you mean to", what);
			return EXIT_SYSTEM;
		}
	}
	while (off < len) {
		ssize_t n = write(fd, text + off, len - off);
		if (n < 0 && errno == EINTR && !atomic_load(&signals_stop))
			continue;
		if (n < 0) {
			st = EXIT_SYSTEM;
			break;
		}
		off += (size_t)n;
	}
	if (st == EXIT_OK && !to_stdout && fsync(fd) != 0)
		st = EXIT_SYSTEM;
	if (st != EXIT_OK)
		msg_file_error(to_stdout ? "standard output" : path, errno);
	if (!to_stdout) {
		if (close(fd) != 0 && st == EXIT_OK) {
			msg_file_error(path, errno);
			st = EXIT_SYSTEM;
		}
		/* Never leave half a key behind under the name. */
		if (st != EXIT_OK)
			unlink(path);
	}
	return st;
}

int
secret_keyfile_generate(const char *path)
{
	char text[256];
	size_t len;
	int st;

	if ((len = aescrypt_keyfile_new(text, sizeof text)) == 0) {
		msg_error("the system random number generator failed: %s",
		    strerror(errno));
		return EXIT_SYSTEM;
	}
	st = secret_write_new(path, text, len, "a key file");
	ae_wipe(text, sizeof text);
	return st;
}
