#include "config.h"
#include "signals.h"

#include <string.h>

atomic_int signals_stop;
static atomic_int caught;

static void
on_signal(int sig)
{
	atomic_store(&caught, sig);
	atomic_store(&signals_stop, 1);
}

void
signals_init(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
}

int
signals_caught(void)
{
	return atomic_load(&caught);
}
