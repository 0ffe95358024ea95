/*
 * bench_kem.c -- what a post-quantum recipient costs: X-Wing (ML-KEM-768
 * + X25519) key generation, encapsulation and decapsulation per second,
 * beside X25519 alone (libsodium) in the same run, and ML-KEM-768 alone.
 *
 * Not a test: it prints numbers.  Each operation is timed in several
 * interleaved rounds and the median kept, so the ratios compare
 * medians taken side by side on this shared machine.  What a file pays
 * is one encapsulation per PQ recipient when written and at most one
 * decapsulation per PQ slot and identity when read; the last table puts
 * that beside an X25519 slot's one or two scalar multiplications.
 *
 * usage: bench_kem [--quick]
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "crypto/mlkem.h"
#include "crypto/x25519.h"
#include "crypto/xwing.h"

#define ROUNDS 7

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

enum op {
	X_KEYGEN, X_DH, M_KEYGEN, M_ENCAPS, M_DECAPS, W_KEYGEN, W_ENCAPS,
	W_DECAPS, N_OPS
};
static const char *names[N_OPS] = {
	"X25519 key generation (scalar x base)",
	"X25519 shared secret (scalar x point)",
	"ML-KEM-768 key generation",
	"ML-KEM-768 encapsulation",
	"ML-KEM-768 decapsulation",
	"X-Wing key generation (seed expansion)",
	"X-Wing encapsulation",
	"X-Wing decapsulation",
};

static uint8_t seed[64], eseed[64], pk[AE_XWING_PK_LEN], ct[AE_XWING_CT_LEN];
static uint8_t ek[AE_MLKEM768_EK_LEN], dk[AE_MLKEM768_DK_LEN];
static uint8_t mct[AE_MLKEM768_CT_LEN], ss[32], xpub[32];
static struct ae_xwing_key key;
static volatile int sink;

static int run(enum op o, int i)
{
	seed[0] = (uint8_t)i;           /* a different input each call */
	switch (o) {
	case X_KEYGEN: return ae_x25519_base(xpub, seed);
	case X_DH: return ae_x25519(ss, seed, key.pk_x);
	case M_KEYGEN: ae_mlkem768_keygen(ek, dk, seed, seed + 32); return 0;
	case M_ENCAPS: return ae_mlkem768_encaps(mct, ss, pk, seed);
	case M_DECAPS: return ae_mlkem768_decaps(ss, mct, key.dk_m);
	case W_KEYGEN: return ae_xwing_expand(&key, NULL, seed + 32);
	case W_ENCAPS: eseed[0] = (uint8_t)i; return ae_xwing_encaps(ct, ss, pk, eseed);
	case W_DECAPS: return ae_xwing_decaps(ss, ct, &key);
	default: return -1;
	}
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
	double per[N_OPS][ROUNDS], med[N_OPS], slice = quick ? 0.02 : 0.15;
	int rounds = quick ? 3 : ROUNDS;

	for (int i = 0; i < 64; i++)
		seed[i] = eseed[i] = (uint8_t)(i * 37 + 11);
	if (ae_xwing_expand(&key, pk, seed + 32) != 0
	    || ae_xwing_encaps(ct, ss, pk, eseed) != 0
	    || ae_mlkem768_encaps(mct, ss, pk, seed) != 0) {
		fprintf(stderr, "bench_kem: setup failed\n");
		return 1;
	}
	/* interleaved: every operation once per round, in turn */
	for (int r = 0; r < rounds; r++)
		for (int o = 0; o < N_OPS; o++) {
			double t0 = now(), t;
			long n = 0;
			do {
				if (run((enum op)o, (int)n) != 0) {
					fprintf(stderr, "bench_kem: %s failed\n", names[o]);
					return 1;
				}
				n++;
			} while ((t = now() - t0) < slice);
			per[o][r] = t / (double)n;
		}
	sink = ss[0];
	printf("bench_kem: median of %d interleaved rounds, one core\n\n", rounds);
	printf("  %-40s %12s %10s\n", "operation", "per second", "us each");
	for (int o = 0; o < N_OPS; o++) {
		qsort(per[o], (size_t)rounds, sizeof per[o][0], cmp);
		med[o] = per[o][rounds / 2];
		printf("  %-40s %12.0f %10.1f\n", names[o], 1 / med[o], med[o] * 1e6);
	}
	/* an X25519 slot: the writer does base + DH, the reader one DH */
	double xw = med[X_KEYGEN] + med[X_DH], xr = med[X_DH];
	printf("\n  per slot                       X25519 (4.5)  X-Wing (4.8)   ratio\n");
	printf("  writing (encapsulate)          %9.1f us  %9.1f us  %6.1fx\n",
	    xw * 1e6, med[W_ENCAPS] * 1e6, med[W_ENCAPS] / xw);
	printf("  reading (decapsulate)          %9.1f us  %9.1f us  %6.1fx\n",
	    xr * 1e6, med[W_DECAPS] * 1e6, med[W_DECAPS] / xr);
	printf("  loading an identity            %9.1f us  %9.1f us  %6.1fx\n",
	    med[X_KEYGEN] * 1e6, med[W_KEYGEN] * 1e6, med[W_KEYGEN] / med[X_KEYGEN]);
	return 0;
}
