/*
 * bench_cipher.c -- AES-256-GCM throughput of each tier against OpenSSL.
 *
 * Not a test: it prints numbers.  The machine is shared and noisy, so
 * every configuration is measured in several interleaved rounds in this
 * one run and the median is kept; the ratios ours/OpenSSL compare
 * medians taken side by side.
 *
 * OpenSSL's EVP_aes_256_gcm is the peer: in-process with AES-NI, and in
 * a child process started with OPENSSL_ia32cap=~0x200000200000000, which
 * hides AES-NI and PCLMULQDQ from libcrypto (its bitsliced AES and 4-bit
 * table GHASH).  Without libcrypto only our tiers are measured.
 *
 * usage: bench_cipher [--quick]
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gcm.h"

#ifdef HAVE_OPENSSL
#include <openssl/evp.h>
#endif

#define ROUNDS 7
#define NSIZES 2

static const size_t sizes[NSIZES] = { 16 * 1024, 1024 * 1024 };
static const char *size_names[NSIZES] = { "16 KiB", "1 MiB" };
static double min_time = 0.15;    /* seconds per measurement */

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double
median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	return v[n / 2];
}

static uint8_t key[32], iv[12], tagbuf[16];
static uint8_t *in, *out;

/* Run op(len) until min_time passes; return GB/s. */
static double
measure(int (*op)(void *, size_t), void *arg, size_t len)
{
	double t0 = now(), t;
	unsigned long n = 0;

	do {
		if (op(arg, len) != 0) {
			fprintf(stderr, "bench: operation failed\n");
			exit(1);
		}
		n++;
	} while ((t = now() - t0) < min_time);
	return (double)n * (double)len / t / 1e9;
}

static int
our_seal(void *ctx, size_t len)
{
	return gcm_seal(ctx, iv, 12, NULL, 0, in, len, out, tagbuf);
}

static int
our_open(void *ctx, size_t len)
{
	/* open verifies first, so feed it a genuine ciphertext and tag */
	return gcm_open(ctx, iv, 12, NULL, 0, out, len, tagbuf, 16, in);
}

#ifdef HAVE_OPENSSL
static int
ossl_seal(void *arg, size_t len)
{
	EVP_CIPHER_CTX *c = arg;
	int n;

	if (!EVP_EncryptInit_ex(c, NULL, NULL, NULL, iv)
	    || !EVP_EncryptUpdate(c, out, &n, in, (int)len)
	    || !EVP_EncryptFinal_ex(c, out + n, &n)
	    || !EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_GET_TAG, 16, tagbuf))
		return -1;
	return 0;
}

static int
ossl_open(void *arg, size_t len)
{
	EVP_CIPHER_CTX *c = arg;
	int n;

	if (!EVP_DecryptInit_ex(c, NULL, NULL, NULL, iv)
	    || !EVP_DecryptUpdate(c, in, &n, out, (int)len)
	    || !EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_TAG, 16, tagbuf)
	    || EVP_DecryptFinal_ex(c, in + n, &n) <= 0)
		return -1;
	return 0;
}

/* GB/s for [seal 16K, open 16K, seal 1M, open 1M], median of ROUNDS. */
static void
bench_openssl(double res[4])
{
	EVP_CIPHER_CTX *e = EVP_CIPHER_CTX_new(), *d = EVP_CIPHER_CTX_new();
	double v[4][ROUNDS];
	int r, s;

	EVP_EncryptInit_ex(e, EVP_aes_256_gcm(), NULL, key, iv);
	EVP_DecryptInit_ex(d, EVP_aes_256_gcm(), NULL, key, iv);
	for (r = 0; r < ROUNDS; r++)
		for (s = 0; s < NSIZES; s++) {
			v[2 * s][r] = measure(ossl_seal, e, sizes[s]);
			v[2 * s + 1][r] = measure(ossl_open, d, sizes[s]);
		}
	for (s = 0; s < 4; s++)
		res[s] = median(v[s], ROUNDS);
	EVP_CIPHER_CTX_free(e);
	EVP_CIPHER_CTX_free(d);
}

/* OpenSSL with AES-NI and PCLMULQDQ masked, measured in a child. */
static int
bench_openssl_nohw(const char *self, double res[4])
{
	char cmd[4200];
	FILE *p;
	int ok;

	snprintf(cmd, sizeof cmd,
	    "OPENSSL_ia32cap='~0x200000200000000' '%s' --openssl-child%s",
	    self, min_time < 0.1 ? " --quick" : "");
	if ((p = popen(cmd, "r")) == NULL)
		return -1;
	ok = fscanf(p, "%lf %lf %lf %lf", &res[0], &res[1], &res[2], &res[3]) == 4;
	return (pclose(p) == 0 && ok) ? 0 : -1;
}
#endif

static void
bench_tier(enum gcm_tier t, double res[4])
{
	double v[4][ROUNDS];
	gcm_ctx ctx;
	int r, s;

	gcm_init_tier(&ctx, key, t);
	for (r = 0; r < ROUNDS; r++)
		for (s = 0; s < NSIZES; s++) {
			our_seal(&ctx, sizes[s]);
			v[2 * s][r] = measure(our_seal, &ctx, sizes[s]);
			v[2 * s + 1][r] = measure(our_open, &ctx, sizes[s]);
		}
	for (s = 0; s < 4; s++)
		res[s] = median(v[s], ROUNDS);
	gcm_wipe(&ctx);
}

static void
row(const char *name, const double r[4])
{
	printf("%-34s %8.3f %8.3f %8.3f %8.3f\n", name, r[0], r[1], r[2], r[3]);
}

static void
ratio_row(const char *name, const double a[4], const double b[4],
    double target)
{
	printf("%-34s %7.2fx %7.2fx %7.2fx %7.2fx   (target >= %.1fx)\n", name,
	    a[0] / b[0], a[1] / b[1], a[2] / b[2], a[3] / b[3], target);
}

int
main(int argc, char **argv)
{
	double ours[GCM_TIER_COUNT][4];
	int t, i;

	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], "--quick") == 0)
			min_time = 0.03;
	in = calloc(1, sizes[NSIZES - 1]);
	out = calloc(1, sizes[NSIZES - 1] + 16);
	if (in == NULL || out == NULL)
		return 1;
	for (i = 0; i < 32; i++)
		key[i] = (uint8_t)(i * 7 + 1);

#ifdef HAVE_OPENSSL
	if (argc > 1 && strcmp(argv[1], "--openssl-child") == 0) {
		double r[4];

		bench_openssl(r);
		printf("%f %f %f %f\n", r[0], r[1], r[2], r[3]);
		return 0;
	}
#endif
	printf("AES-256-GCM throughput, GB/s (median of %d interleaved rounds)\n\n",
	    ROUNDS);
	printf("%-34s %8s %8s %8s %8s\n", "", "seal", "open", "seal", "open");
	printf("%-34s %8s %8s %8s %8s\n", "implementation", size_names[0],
	    size_names[0], size_names[1], size_names[1]);
	for (t = 0; t < GCM_TIER_COUNT; t++) {
		char name[64];

		if (!gcm_tier_available((enum gcm_tier)t)) {
			printf("%-34s (not available on this CPU)\n",
			    gcm_tier_name((enum gcm_tier)t));
			continue;
		}
		bench_tier((enum gcm_tier)t, ours[t]);
		snprintf(name, sizeof name, "aescrypt %s (tier %d)",
		    gcm_tier_name((enum gcm_tier)t), t);
		row(name, ours[t]);
	}
#ifdef HAVE_OPENSSL
	{
		double hw[4], sw[4];
		int have_sw;

		bench_openssl(hw);
		row("OpenSSL EVP_aes_256_gcm (AES-NI)", hw);
		have_sw = bench_openssl_nohw(argv[0], sw) == 0;
		if (have_sw)
			row("OpenSSL, AES-NI/PCLMUL masked", sw);
		else
			printf("OpenSSL, AES-NI masked: child run failed\n");
		printf("\nratios ours / OpenSSL\n");
		if (gcm_tier_available(GCM_TIER_NI))
			ratio_row("tier 1 vs OpenSSL AES-NI", ours[GCM_TIER_NI], hw, 1.0);
		if (have_sw)
			ratio_row("tier 0 vs OpenSSL no-AES-NI", ours[GCM_TIER_SOFT],
			    sw, 0.5);
		printf("(OpenSSL's no-AES-NI GHASH uses a 4-bit table: not "
		    "constant-time; ours is.)\n");
	}
#else
	printf("\nOpenSSL libcrypto not found at configure time "
	    "(apt-get install libssl-dev): no peer measured.\n");
#endif
	free(in);
	free(out);
	return 0;
}
