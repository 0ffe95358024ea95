/*
 * aescrypt_inproc.c -- the aescrypt command, many times in one process.
 *
 * The tamper and salvage campaigns run thousands of damaged files
 * through the command.  A process for each (aescrypt, and the shell
 * tools around it) cost most of their time in the kernel: the campaign
 * of 2,400 cases spent half its CPU in process creation.  This program
 * runs each case through command_main(), the function main() calls,
 * with the case's standard input, output and error, so the command is
 * the same code with the same messages and exit statuses, minus the
 * exec.  What it adds to the check: no case may leave a descriptor
 * open, which a process of its own would have hidden.
 *
 * Protocol (tests/cli/inproc.py speaks it): one request per line on
 * standard input, fields separated by tabs:
 *
 *     STDIN <TAB> ARG0 <TAB> ARG1 ...
 *
 * STDIN is "-" (/dev/null), "F" and a path (that file), or "P" and a
 * path (a pipe that a thread fills from that file: no seeking, as from
 * a real pipe).  The answer on standard output is a line
 * "STATUS OUTLEN ERRLEN", then OUTLEN bytes of the command's standard
 * output and ERRLEN bytes of its standard error.  The run ends at the
 * end of standard input; a case that leaks a descriptor ends it with
 * exit 1 and a message.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/command.h"

#define MAX_ARGS 256
#define MAX_LINE 65536

static int proto_in, proto_out;

static void
die(const char *what)
{
	fprintf(stderr, "aescrypt_inproc: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* The feeder of a "P" case: the file into the pipe, then close it. */
struct feeder {
	int src, dst;
};

static void *
feed(void *arg)
{
	struct feeder *f = arg;
	char buf[65536];
	ssize_t n;

	while ((n = read(f->src, buf, sizeof buf)) > 0) {
		char *p = buf;

		while (n > 0) {
			ssize_t w = write(f->dst, p, (size_t)n);

			if (w < 0) {
				if (errno == EINTR)
					continue;
				goto out;       /* the command stopped reading */
			}
			p += w;
			n -= w;
		}
	}
out:
	close(f->dst);
	close(f->src);
	return NULL;
}

/* The highest descriptor open, to see that a case leaves none. */
static int
top_fd(void)
{
	int fd, top = -1;

	for (fd = 0; fd < 1024; fd++)
		if (fcntl(fd, F_GETFD) != -1)
			top = fd;
	return top;
}

/* A whole file's bytes to the protocol's output. */
static void
send_file(int fd, off_t len)
{
	char buf[65536];
	ssize_t n;

	if (lseek(fd, 0, SEEK_SET) != 0)
		die("lseek");
	while (len > 0 && (n = read(fd, buf, sizeof buf)) > 0) {
		if (write(proto_out, buf, (size_t)n) != n)
			die("write");
		len -= n;
	}
}

static void
run_case(char *line, int devnull)
{
	char *argv[MAX_ARGS + 1], *save = NULL, *tok;
	struct feeder f = { -1, -1 };
	pthread_t t;
	FILE *fo, *fe;
	int argc = 0, in = devnull, out, err, st, pipefd[2], fed = 0;
	off_t outlen, errlen;
	char head[64];

	tok = strtok_r(line, "\t", &save);
	if (tok == NULL)
		return;
	if (tok[0] == 'F' || tok[0] == 'P') {
		if ((f.src = open(tok + 1, O_RDONLY | O_CLOEXEC)) < 0)
			die(tok + 1);
		if (tok[0] == 'F')
			in = f.src;
		else {
			if (pipe2(pipefd, O_CLOEXEC) != 0)
				die("pipe");
			f.dst = pipefd[1];
			in = pipefd[0];
			if (pthread_create(&t, NULL, feed, &f) != 0)
				die("pthread_create");
			fed = 1;
		}
	}
	while ((tok = strtok_r(NULL, "\t", &save)) != NULL && argc < MAX_ARGS)
		argv[argc++] = tok;
	argv[argc] = NULL;
	if ((fo = tmpfile()) == NULL || (fe = tmpfile()) == NULL)
		die("tmpfile");
	out = fileno(fo);
	err = fileno(fe);

	fflush(stdout);
	fflush(stderr);
	if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
		die("dup2");
	st = command_main(argc, argv);
	fflush(stdout);
	fflush(stderr);
	clearerr(stdin);
	if (dup2(devnull, 0) < 0 || dup2(devnull, 1) < 0
	    || dup2(proto_out + 1, 2) < 0)
		die("dup2");
	if (fed) {
		close(pipefd[0]);       /* a feeder still writing gets EPIPE */
		pthread_join(t, NULL);
	} else if (f.src >= 0)
		close(f.src);

	outlen = lseek(out, 0, SEEK_END);
	errlen = lseek(err, 0, SEEK_END);
	snprintf(head, sizeof head, "%d %lld %lld\n", st, (long long)outlen,
	    (long long)errlen);
	if (write(proto_out, head, strlen(head)) != (ssize_t)strlen(head))
		die("write");
	send_file(out, outlen);
	send_file(err, errlen);
	fclose(fo);
	fclose(fe);
}

int
main(void)
{
	static char line[MAX_LINE];
	size_t len = 0;
	ssize_t n;
	int devnull, base;

	/* The protocol moves off 0 and 1, which each case gets as its
	 * own; the runner's own stderr is kept beside them (proto_out + 1)
	 * for its messages between cases. */
	signal(SIGPIPE, SIG_IGN);
	if ((proto_in = fcntl(0, F_DUPFD_CLOEXEC, 10)) < 0
	    || (proto_out = fcntl(1, F_DUPFD_CLOEXEC, 10)) < 0
	    || fcntl(2, F_DUPFD_CLOEXEC, proto_out + 1) != proto_out + 1)
		die("moving the protocol's descriptors");
	if ((devnull = open("/dev/null", O_RDWR | O_CLOEXEC)) < 0
	    || dup2(devnull, 0) < 0 || dup2(devnull, 1) < 0)
		die("/dev/null");
	base = top_fd();
	for (;;) {
		char *nl = memchr(line, '\n', len);

		if (nl == NULL) {
			if (len == sizeof line)
				die("a request line over 64 KiB");
			n = read(proto_in, line + len, sizeof line - len);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				break;
			len += (size_t)n;
			continue;
		}
		*nl = '\0';
		run_case(line, devnull);
		if (top_fd() != base) {
			fprintf(stderr, "aescrypt_inproc: the command left "
			    "descriptor %d open: %s\n", top_fd(), line);
			return 1;
		}
		len -= (size_t)(nl + 1 - line);
		memmove(line, nl + 1, len);
	}
	return 0;
}
