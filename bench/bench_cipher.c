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
 * table GHASH).  On aarch64 the child gets OPENSSL_armcap=0 instead,
 * which hides the Crypto Extensions (its vector-permute AES).  Without
 * libcrypto only our tiers are measured.
 *
 * Beside the ratios it reports cycles per byte, with the core clock
 * measured by a chain of dependent adds (one a cycle), and how many AES
 * rounds a cycle the CPU issues on 256- and 512-bit vectors: that, and
 * not the vector width, bounds what a wider tier can gain.
 *
 * usage: bench_cipher [--quick]
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "crypto/cpu.h"
#include "crypto/gcm.h"
#include "crypto/gcm_vaes512.h"

#if defined(__x86_64__) && defined(HAVE_TARGET_AVX512)
#include <immintrin.h>
#endif

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

#if defined(HAVE_TARGET_AESNI) && defined(HAVE_TARGET_AVX512)
/* CTR alone on the widest tier, no GHASH: what the 0.85x is
 * measured against (the same key schedule, loads, XOR and stores). */
static int
ctr_only(void *ctx, size_t len)
{
	uint8_t ctr[16] = { 0 };

	ae_gcm_vaes512_ctr32(ctx, ctr, in, out, len / 16);
	return 0;
}
#endif

static int
our_seal(void *ctx, size_t len)
{
	return ae_gcm_seal(ctx, iv, 12, NULL, 0, in, len, out, tagbuf);
}

static int
our_open(void *ctx, size_t len)
{
	/* open verifies first, so feed it a genuine ciphertext and tag */
	return ae_gcm_open(ctx, iv, 12, NULL, 0, out, len, tagbuf, 16, in);
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

/* One round of OpenSSL: GB/s for [seal 16K, open 16K, seal 1M, open 1M]. */
static void
round_openssl(double res[4])
{
	EVP_CIPHER_CTX *e = EVP_CIPHER_CTX_new(), *d = EVP_CIPHER_CTX_new();
	int s;

	EVP_EncryptInit_ex(e, EVP_aes_256_gcm(), NULL, key, iv);
	EVP_DecryptInit_ex(d, EVP_aes_256_gcm(), NULL, key, iv);
	for (s = 0; s < NSIZES; s++) {
		res[2 * s] = measure(ossl_seal, e, sizes[s]);
		res[2 * s + 1] = measure(ossl_open, d, sizes[s]);
	}
	EVP_CIPHER_CTX_free(e);
	EVP_CIPHER_CTX_free(d);
}

/* One round of OpenSSL with AES-NI and PCLMULQDQ masked, in a child
 * (the mask is read when libcrypto starts). */
static int
round_openssl_nohw(const char *self, double res[4])
{
	char cmd[4200];
	FILE *p;
	int ok;

#ifdef __aarch64__
	const char *mask = "OPENSSL_armcap=0";
#else
	const char *mask = "OPENSSL_ia32cap='~0x200000200000000'";
#endif

	snprintf(cmd, sizeof cmd, "%s '%s' --openssl-child%s", mask, self,
	    min_time < 0.1 ? " --quick" : "");
	if ((p = popen(cmd, "r")) == NULL)
		return -1;
	ok = fscanf(p, "%lf %lf %lf %lf", &res[0], &res[1], &res[2], &res[3]) == 4;
	return (pclose(p) == 0 && ok) ? 0 : -1;
}
#endif


/* The core clock in GHz: a chain of dependent adds runs one a cycle on
 * every x86 and ARM core this builds for.  0 where it cannot be run. */
static double
clock_ghz(void)
{
#if defined(__x86_64__) || defined(__aarch64__)
	long n = 400000000, x = 0;
	double t0 = now();

#ifdef __x86_64__
	__asm__ volatile("1: add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
	    "add $1, %0\n\tsub $4, %1\n\tjnz 1b" : "+r"(x), "+r"(n));
#else
	__asm__ volatile("1: add %0, %0, #1\n\tadd %0, %0, #1\n\t"
	    "add %0, %0, #1\n\tadd %0, %0, #1\n\tsubs %1, %1, #4\n\t"
	    "b.ne 1b" : "+r"(x), "+r"(n) : : "cc");
#endif
	return 400000000.0 / (now() - t0) / 1e9;
#else
	return 0;
#endif
}

#if defined(__x86_64__) && defined(HAVE_TARGET_AVX512)
#define PROBE_CHAINS 12
#define PROBE_ITERS 20000000L

/* AES rounds a second on 512- and 256-bit vectors: twelve independent
 * chains, enough to cover the instruction's latency. */
__attribute__((target("vaes,avx512f,avx512bw"), noinline)) static double
rounds_zmm(void)
{
	__m512i s[PROBE_CHAINS], k = _mm512_set1_epi32(5), z;
	double t0 = now();
	long i;
	int j;

	for (j = 0; j < PROBE_CHAINS; j++)
		s[j] = _mm512_set1_epi32(j);
	for (i = 0; i < PROBE_ITERS; i++)
		_Pragma("GCC unroll 16") for (j = 0; j < PROBE_CHAINS; j++)
			s[j] = _mm512_aesenc_epi128(s[j], k);
	z = s[0];
	for (j = 1; j < PROBE_CHAINS; j++)
		z = _mm512_xor_si512(z, s[j]);
	tagbuf[0] ^= (uint8_t)_mm512_cvtsi512_si32(z);
	return (double)PROBE_ITERS * PROBE_CHAINS / (now() - t0);
}

__attribute__((target("vaes,avx2"), noinline)) static double
rounds_ymm(void)
{
	__m256i s[PROBE_CHAINS], k = _mm256_set1_epi32(5), z;
	double t0 = now();
	long i;
	int j;

	for (j = 0; j < PROBE_CHAINS; j++)
		s[j] = _mm256_set1_epi32(j);
	for (i = 0; i < PROBE_ITERS; i++)
		_Pragma("GCC unroll 16") for (j = 0; j < PROBE_CHAINS; j++)
			s[j] = _mm256_aesenc_epi128(s[j], k);
	z = s[0];
	for (j = 1; j < PROBE_CHAINS; j++)
		z = _mm256_xor_si256(z, s[j]);
	tagbuf[1] ^= (uint8_t)_mm256_cvtsi256_si32(z);
	return (double)PROBE_ITERS * PROBE_CHAINS / (now() - t0);
}
#endif

/* What bounds the wide tiers here: VAESENC instructions a cycle on each
 * width, and the AES bytes a cycle that makes. */
static void
probe_vaes(double ghz)
{
#if defined(__x86_64__) && defined(HAVE_TARGET_AVX512)
	double z, y;

	if (ghz <= 0 || !ae_gcm_tier_available(AE_GCM_TIER_VAES512))
		return;
	z = rounds_zmm() / (ghz * 1e9);
	y = rounds_ymm() / (ghz * 1e9);
	printf("VAESENC a cycle: %.2f on 512-bit vectors (%.0f bytes of "
	    "rounds), %.2f on 256-bit (%.0f bytes)\n", z, 64 * z, y, 32 * y);
	printf("so AES-256 alone costs at least %.3f cycles/byte on 512-bit "
	    "vectors here\n", 15.0 / (64 * z));
#else
	(void)ghz;
#endif
}

/* One round of one tier. */
static void
round_tier(const ae_gcm_ctx *ctx, double res[4])
{
	int s;

	for (s = 0; s < NSIZES; s++) {
		our_seal((void *)ctx, sizes[s]);
		res[2 * s] = measure(our_seal, (void *)ctx, sizes[s]);
		res[2 * s + 1] = measure(our_open, (void *)ctx, sizes[s]);
	}
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

/* Rows: our tiers, then OpenSSL with and without AES-NI. */
#define ROW_OSSL AE_GCM_TIER_COUNT
#define ROW_OSSL_NOHW (AE_GCM_TIER_COUNT + 1)
#define NROWS (AE_GCM_TIER_COUNT + 2)

int
main(int argc, char **argv)
{
	static double v[NROWS][4][ROUNDS];
	double res[NROWS][4];
	int have[NROWS] = { 0 };
	ae_gcm_ctx ctx[AE_GCM_TIER_COUNT];
	int t, i, r, s;

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
		round_openssl(res[0]);
		printf("%f %f %f %f\n", res[0][0], res[0][1], res[0][2], res[0][3]);
		return 0;
	}
	have[ROW_OSSL] = have[ROW_OSSL_NOHW] = 1;
#endif
	for (t = 0; t < AE_GCM_TIER_COUNT; t++)
		have[t] = ae_gcm_init_tier(&ctx[t], key, (enum ae_gcm_tier)t) == 0;

	/* Every implementation once per round, so a change in the machine's
	 * speed during the run hits all of them alike. */
	for (r = 0; r < ROUNDS; r++) {
		for (t = 0; t < AE_GCM_TIER_COUNT; t++)
			if (have[t]) {
				round_tier(&ctx[t], res[t]);
				for (s = 0; s < 4; s++)
					v[t][s][r] = res[t][s];
			}
#ifdef HAVE_OPENSSL
		round_openssl(res[ROW_OSSL]);
		if (have[ROW_OSSL_NOHW]
		    && round_openssl_nohw(argv[0], res[ROW_OSSL_NOHW]) != 0) {
			printf("OpenSSL with AES-NI masked: child run failed\n");
			have[ROW_OSSL_NOHW] = 0;
		}
		for (i = ROW_OSSL; i <= ROW_OSSL_NOHW; i++)
			for (s = 0; s < 4; s++)
				v[i][s][r] = res[i][s];
#endif
	}
	for (i = 0; i < NROWS; i++)
		if (have[i])
			for (s = 0; s < 4; s++)
				res[i][s] = median(v[i][s], ROUNDS);

	printf("AES-256-GCM throughput, GB/s (median of %d interleaved rounds)\n\n",
	    ROUNDS);
	printf("%-34s %8s %8s %8s %8s\n", "", "seal", "open", "seal", "open");
	printf("%-34s %8s %8s %8s %8s\n", "implementation", size_names[0],
	    size_names[0], size_names[1], size_names[1]);
	for (t = 0; t < AE_GCM_TIER_COUNT; t++) {
		char name[64];

		snprintf(name, sizeof name, "aescrypt %s (tier %d)",
		    ae_gcm_tier_name((enum ae_gcm_tier)t), t);
		if (have[t])
			row(name, res[t]);
		else
			printf("%-34s (not available on this CPU)\n", name);
		if (have[t])
			ae_gcm_wipe(&ctx[t]);
	}
#ifdef HAVE_OPENSSL
	row("OpenSSL EVP_aes_256_gcm (hardware)", res[ROW_OSSL]);
	if (have[ROW_OSSL_NOHW])
		row("OpenSSL, AES/PMULL/PCLMUL masked", res[ROW_OSSL_NOHW]);
	printf("\nratios ours / OpenSSL\n");
	if (have[AE_GCM_TIER_NI])
		ratio_row("tier 1 vs OpenSSL AES-NI", res[AE_GCM_TIER_NI],
		    res[ROW_OSSL], 1.0);
	if (have[AE_GCM_TIER_VAES])
		ratio_row("tier 2 vs OpenSSL AES-NI", res[AE_GCM_TIER_VAES],
		    res[ROW_OSSL], 1.0);
	if (have[AE_GCM_TIER_ARMV8])
		ratio_row("tier 3 vs OpenSSL ARMv8 CE", res[AE_GCM_TIER_ARMV8],
		    res[ROW_OSSL], 1.0);
	if (have[AE_GCM_TIER_VAES512])
		ratio_row("tier 4 vs OpenSSL AES-NI", res[AE_GCM_TIER_VAES512],
		    res[ROW_OSSL], 2.5);
	if (have[ROW_OSSL_NOHW])
		ratio_row("tier 0 vs OpenSSL, hw masked", res[AE_GCM_TIER_SOFT],
		    res[ROW_OSSL_NOHW], 0.5);
	printf("(OpenSSL's GHASH without hardware uses a 4-bit table: not "
	    "constant-time; ours is.)\n");
#else
	printf("\nOpenSSL libcrypto not found at configure time "
	    "(apt-get install libssl-dev): no peer measured.\n");
#endif
	if (have[AE_GCM_TIER_VAES512] && have[AE_GCM_TIER_VAES]) {
		const double *a = res[AE_GCM_TIER_VAES512];
		const double *b = res[AE_GCM_TIER_VAES];

		printf("\nratios tier 4 / tier 2\n");
		printf("%-34s %7.2fx %7.2fx %7.2fx %7.2fx   (target >= 1.3x at "
		    "16 KiB, 1.8x at 1 MiB)\n", "vaes-avx512 vs vaes-avx2",
		    a[0] / b[0], a[1] / b[1], a[2] / b[2], a[3] / b[3]);
	}
	{
		double ghz = clock_ghz();
		int best = ae_gcm_default_tier();

		if (have[AE_GCM_TIER_VAES512])
			best = AE_GCM_TIER_VAES512;
		if (ghz > 0 && have[best]) {
			const double *a = res[best];

			printf("\ncycles per byte at %.2f GHz (measured), %s\n",
			    ghz, ae_gcm_tier_name((enum ae_gcm_tier)best));
			printf("%-34s %8.3f %8.3f %8.3f %8.3f   (published "
			    "limit with 512-bit VAES: about 0.16)\n", "",
			    ghz / a[0], ghz / a[1], ghz / a[2], ghz / a[3]);
			probe_vaes(ghz);
		}
#if defined(HAVE_TARGET_AESNI) && defined(HAVE_TARGET_AVX512)
		if (have[AE_GCM_TIER_VAES512]) {
			struct ae_gcm_vaes512_key *k = aligned_alloc(64,
			    (sizeof *k + 63) / 64 * 64);
			const double *a = res[AE_GCM_TIER_VAES512];
			double cv[7], ctr;
			int ci;

			if (k == NULL)
				return 1;
			ae_gcm_vaes512_init(k, key);
			for (ci = 0; ci < 7; ci++)
				cv[ci] = measure(ctr_only, k, sizes[1]);
			ctr = median(cv, 7);
			printf("\nCTR alone, vaes-avx512, 1 MiB: %.3f GB/s", ctr);
			if (ghz > 0)
				printf(" (%.3f cycles/byte)", ghz / ctr);
			printf("\n%-34s %7.2fx %7.2fx   (target >= 0.85x)\n",
			    "seal, open at 1 MiB / CTR alone", a[2] / ctr,
			    a[3] / ctr);
			free(k);
		}
#endif
	}
	free(in);
	free(out);
	return 0;
}
