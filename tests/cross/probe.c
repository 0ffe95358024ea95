/*
 * probe.c -- can this qemu-user run a threaded program?  One thread,
 * one mutex, one condition variable, a thousand hand-overs.  Run by
 * tests/cross/run.sh under a timeout before anything else.
 */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int turn, rounds = 1000;

static void *
other(void *arg)
{
	int i;

	(void)arg;
	pthread_mutex_lock(&lock);
	for (i = 0; i < rounds; i++) {
		while (turn != 1)
			pthread_cond_wait(&cv, &lock);
		turn = 0;
		pthread_cond_signal(&cv);
	}
	pthread_mutex_unlock(&lock);
	return NULL;
}

int
main(void)
{
	pthread_t t;
	int i;

	if (pthread_create(&t, NULL, other, NULL) != 0)
		return 1;
	pthread_mutex_lock(&lock);
	for (i = 0; i < rounds; i++) {
		turn = 1;
		pthread_cond_signal(&cv);
		while (turn != 0)
			pthread_cond_wait(&cv, &lock);
	}
	pthread_mutex_unlock(&lock);
	pthread_join(t, NULL);
	puts("threads ok");
	return 0;
}
