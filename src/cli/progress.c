/*
 * progress.c -- the progress line (contract in progress.h).
 *
 * The state is process-wide, as the terminal is: one line on standard
 * error, shared by the writer that redraws it, the threads that name
 * members, and msg.c, which erases it before a message.  A mutex keeps
 * their writes whole.
 */
#include "config.h"
#include "progress.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "common/clock.h"
#include "words.h"
#include "names.h"

#define SHOW_AFTER_NS 1000000000ull     /* a second */
#define REDRAW_NS     100000000ull      /* ten a second at most */
/* Off a terminal (--progress into a log): a whole line this often. */
#define LOG_NS        5000000000ull

static struct {
	pthread_mutex_t lock;
	atomic_int on;      /* read without the lock on the fast path */
	int shown;
	int tty;            /* stderr is a terminal: redraw one line */
	enum progress_count count;
	uint64_t total, base, done;
	uint64_t plain;     /* payload bytes so far (written, on decode) */
	uint64_t t0, last;
	char member[4097];
} P = { .lock = PTHREAD_MUTEX_INITIALIZER };

int
progress_wanted(int opt)
{
	if (opt >= 0)
		return opt;
	return isatty(STDERR_FILENO);
}

void
progress_start(int on, enum progress_count count, uint64_t total,
    uint64_t base)
{
	pthread_mutex_lock(&P.lock);
	atomic_store(&P.on, on);
	P.shown = 0;
	P.tty = isatty(STDERR_FILENO);
	P.count = count;
	P.total = total;
	P.base = base;
	P.done = base;
	P.plain = 0;
	P.t0 = ae_wall_ns();
	P.last = 0;
	P.member[0] = '\0';
	pthread_mutex_unlock(&P.lock);
}

/* "1:05" or "2:03:07" */
static void
clock_text(uint64_t s, char *buf, size_t cap)
{
	if (s >= 3600)
		snprintf(buf, cap, "%llu:%02llu:%02llu",
		    (unsigned long long)(s / 3600),
		    (unsigned long long)(s / 60 % 60),
		    (unsigned long long)(s % 60));
	else
		snprintf(buf, cap, "%llu:%02llu", (unsigned long long)(s / 60),
		    (unsigned long long)(s % 60));
}

static unsigned
columns(void)
{
	struct winsize ws;

	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
		return ws.ws_col;
	return 80;
}

/* Draw the line; P.lock is held.  Encoding counts what was read (the
 * plaintext); decoding counts the container read, for the share and the
 * ETA, and shows the plaintext written, which is what the user gets. */
static void
draw(uint64_t now)
{
	char line[1024], done[32], total[32], rate[32], el[32], eta[32];
	char out[32], name[256];
	uint64_t ns = now - P.t0, bps;
	size_t n, width = columns() - 1, room;

	bps = ns > 0 ? (uint64_t)((double)(P.done - P.base) * 1e9 /
	    (double)ns) : 0;
	bytes_words(P.done, done, sizeof done);
	bytes_words(bps, rate, sizeof rate);
	clock_text(ns / 1000000000ull, el, sizeof el);
	n = 0;
	if (P.count == PROGRESS_WIRE) {
		bytes_words(P.plain, out, sizeof out);
		n = (size_t)snprintf(line, sizeof line, "%s written, ", out);
	}
	if (P.total > 0 && P.done <= P.total && bps > 0) {
		bytes_words(P.total, total, sizeof total);
		clock_text((P.total - P.done) / bps, eta, sizeof eta);
		n += (size_t)snprintf(line + n, sizeof line - n, "%s of %s%s "
		    "(%u%%), %s/s, %s, ETA %s", done, total,
		    P.count == PROGRESS_WIRE ? " read" : "",
		    (unsigned)(P.done * 100 / P.total), rate, el, eta);
	} else {
		n += (size_t)snprintf(line + n, sizeof line - n, "%s%s, %s/s, "
		    "%s", done, P.count == PROGRESS_WIRE ? " read" : "", rate,
		    el);
	}
	/* On a narrow terminal (-x and -d say more: what was written and
	 * what was read), the short form keeps the share, the rate and the
	 * ETA, which the cut at the width would lose first. */
	if (P.tty && n + (P.member[0] != '\0' ? 2 + 16 : 0) > width) {
		if (P.total > 0 && P.done <= P.total && bps > 0)
			n = (size_t)snprintf(line, sizeof line, "%u%% of %s, "
			    "%s/s, ETA %s", (unsigned)(P.done * 100 /
			    P.total), total, rate, eta);
		else
			n = (size_t)snprintf(line, sizeof line, "%s, %s/s",
			    P.count == PROGRESS_WIRE ? out : done, rate);
	}
	/* The member gets what the terminal has left, shortened in the
	 * middle ("usr/share/...ME.md"), never cut to a stub. */
	room = width > n + 2 ? width - n - 2 : 0;
	if (P.member[0] != '\0' && room >= 16) {
		names_quote(P.member, name, room + 1 < sizeof name ? room + 1 :
		    sizeof name);
		snprintf(line + n, sizeof line - n, "  %s", name);
	}
	if (!P.tty) {
		/* a log: one plain line, no \r and no escapes, the member
		 * named as the listings name it */
		if (P.member[0] != '\0')
			snprintf(line + n, sizeof line - n, "  %s",
			    names_quote(P.member, name, sizeof name));
		fprintf(stderr, "aescrypt: progress: %s\n", line);
		fflush(stderr);
		P.last = now;
		return;
	}
	if (strlen(line) > width)
		line[width] = '\0';
	/* \r, the line, then erase what a longer line left behind. */
	fprintf(stderr, "\r%s\033[K", line);
	fflush(stderr);
	P.shown = 1;
	P.last = now;
}

void
progress_tick(void *ctx, uint64_t plain_bytes, uint64_t wire_bytes)
{
	uint64_t now;

	(void)ctx;
	if (!atomic_load(&P.on))
		return;
	now = ae_wall_ns();
	pthread_mutex_lock(&P.lock);
	P.done = P.base + (P.count == PROGRESS_PLAIN ? plain_bytes :
	    wire_bytes);
	P.plain = plain_bytes;
	if (now - P.t0 >= SHOW_AFTER_NS
	    && now - P.last >= (P.tty ? REDRAW_NS : LOG_NS))
		draw(now);
	pthread_mutex_unlock(&P.lock);
}

void
progress_member(const char *name)
{
	if (!atomic_load(&P.on))
		return;
	pthread_mutex_lock(&P.lock);
	/* kept whole up to 4096 bytes; draw() fits it to the terminal */
	snprintf(P.member, sizeof P.member, "%s", name);
	pthread_mutex_unlock(&P.lock);
}

void
progress_total(uint64_t total)
{
	pthread_mutex_lock(&P.lock);
	P.total = total;
	pthread_mutex_unlock(&P.lock);
}

void
progress_hide(void)
{
	pthread_mutex_lock(&P.lock);
	if (P.shown) {
		fputs("\r\033[K", stderr);
		P.shown = 0;
		/* redraw at the next tick */
		P.last = 0;
	}
	pthread_mutex_unlock(&P.lock);
}

void
progress_stop(void)
{
	progress_hide();
	atomic_store(&P.on, 0);
}
