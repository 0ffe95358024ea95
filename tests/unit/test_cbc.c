/*
 * test_cbc.c -- what reading AES Crypt files needs: AES-256-CBC
 * decryption on every tier (crypto/cbc.h) and PBKDF2-HMAC-SHA512.
 *
 * usage: test_cbc TESTS-DIR
 * Runs tests/vectors/cbc256.rsp (SP 800-38A, AESAVS-structured KATs and
 * multi-block cases; the file says where each comes from) on each tier
 * the CPU has, whole, in place and one block a call; then compares the
 * tiers with each other on random lengths.  A tier the CPU lacks is
 * reported as skipped.
 */
#include "check.h"

#include "common/error.h"
#include "crypto/cbc.h"
#include "crypto/pbkdf2.h"

static const enum ae_gcm_tier tiers[] = { AE_GCM_TIER_SOFT, AE_GCM_TIER_NI,
    AE_GCM_TIER_VAES };
#define NTIERS (sizeof tiers / sizeof tiers[0])

static unsigned long ncase;

static void
run_case(const uint8_t *key, const uint8_t *iv, const uint8_t *ct,
    const uint8_t *pt, size_t len, int line)
{
	size_t t, i;

	for (t = 0; t < NTIERS; t++) {
		struct ae_cbc_key k;
		uint8_t v[16], *out = malloc(len + 16);

		if (ae_cbc_init_tier(&k, key, tiers[t]) != 0) {
			free(out);
			continue;
		}
		memcpy(v, iv, 16);
		ae_cbc_decrypt(&k, v, ct, out, len / 16);
		CHECK_MEM(out, pt, len, "line %d tier %s: whole", line,
		    ae_gcm_tier_name(tiers[t]));
		CHECK_MEM(v, ct + len - 16, 16, "line %d: iv is the last block",
		    line);
		memcpy(out, ct, len);
		memcpy(v, iv, 16);
		ae_cbc_decrypt(&k, v, out, out, len / 16);
		CHECK_MEM(out, pt, len, "line %d tier %s: in place", line,
		    ae_gcm_tier_name(tiers[t]));
		memcpy(v, iv, 16);
		for (i = 0; i < len; i += 16)
			ae_cbc_decrypt(&k, v, ct + i, out + i, 1);
		CHECK_MEM(out, pt, len, "line %d tier %s: a block a call", line,
		    ae_gcm_tier_name(tiers[t]));
		ae_cbc_wipe(&k);
		free(out);
	}
	ncase++;
}

static void
run_file(const char *dir)
{
	char path[4096], line[8192];
	uint8_t *key = NULL, *iv = NULL, *ct = NULL, *pt = NULL;
	size_t kl = 0, il = 0, cl = 0, pl;
	FILE *f;
	int no = 0;

	snprintf(path, sizeof path, "%s/vectors/cbc256.rsp", dir);
	if ((f = fopen(path, "r")) == NULL) {
		CHECK(0, "cannot open %s", path);
		return;
	}
	while (fgets(line, sizeof line, f) != NULL) {
		size_t n = strcspn(line, "\r\n");
		char *eq = strstr(line, " = ");

		no++;
		line[n] = '\0';
		if (eq == NULL)
			continue;
		eq += 3;
		if (strncmp(line, "KEY", 3) == 0) {
			free(key);
			key = t_unhex(eq, strlen(eq), &kl);
		} else if (strncmp(line, "IV", 2) == 0) {
			free(iv);
			iv = t_unhex(eq, strlen(eq), &il);
		} else if (strncmp(line, "CIPHERTEXT", 10) == 0) {
			free(ct);
			ct = t_unhex(eq, strlen(eq), &cl);
		} else if (strncmp(line, "PLAINTEXT", 9) == 0) {
			pt = t_unhex(eq, strlen(eq), &pl);
			CHECK(kl == 32 && il == 16 && cl == pl && cl % 16 == 0
			    && cl > 0, "line %d: malformed case", no);
			if (kl == 32 && il == 16 && cl == pl && cl % 16 == 0
			    && cl > 0)
				run_case(key, iv, ct, pt, cl, no);
			free(pt);
		}
	}
	fclose(f);
	free(key); free(iv); free(ct);
	CHECK(ncase == 426, "cbc256.rsp: %lu cases run, 426 expected", ncase);
}

/* Every tier equals the software one on random data and lengths, which
 * crosses the 8- and 16-block batches at every offset. */
static void
differential(void)
{
	uint8_t key[32], iv[16], v[16], ct[16 * 100], ref[16 * 100], out[16 * 100];
	size_t t, i, n;
	int rep;

	srand(26);
	for (rep = 0; rep < 400; rep++) {
		struct ae_cbc_key soft, k;

		for (i = 0; i < sizeof key; i++)
			key[i] = (uint8_t)rand();
		for (i = 0; i < sizeof iv; i++)
			iv[i] = (uint8_t)rand();
		n = 1 + (size_t)rand() % 100;
		for (i = 0; i < 16 * n; i++)
			ct[i] = (uint8_t)rand();
		(void)ae_cbc_init_tier(&soft, key, AE_GCM_TIER_SOFT);
		memcpy(v, iv, 16);
		ae_cbc_decrypt(&soft, v, ct, ref, n);
		for (t = 1; t < NTIERS; t++) {
			if (ae_cbc_init_tier(&k, key, tiers[t]) != 0)
				continue;
			memcpy(v, iv, 16);
			ae_cbc_decrypt(&k, v, ct, out, n);
			CHECK_MEM(out, ref, 16 * n, "differential %d: %s != soft-ct",
			    rep, ae_gcm_tier_name(tiers[t]));
		}
	}
}

/* PBKDF2-HMAC-SHA512: the widely published cases for "password" /
 * "salt" (also in RFC 7914's neighbours), checked here against Python's
 * hashlib (OpenSSL), plus a NUL in both inputs and a short output. */
static void
test_pbkdf2(void)
{
	static const struct {
		const char *p, *s;
		size_t pl, sl;
		uint32_t c;
		const char *dk;
	} v[] = {
		{ "password", "salt", 8, 4, 1,
		  "867f70cf1ade02cff3752599a3a53dc4af34c7a669815ae5d513554e1c8cf252"
		  "c02d470a285a0501bad999bfe943c08f050235d7d68b1da55e63f73b60a57fce" },
		{ "password", "salt", 8, 4, 2,
		  "e1d9c16aa681708a45f5c7c4e215ceb66e011a2e9f0040713f18aefdb866d53c"
		  "f76cab2868a39b9f7840edce4fef5a82be67335c77a6068e04112754f27ccf4e" },
		{ "password", "salt", 8, 4, 4096,
		  "d197b1b33db0143e018b12f3d1d1479e6cdebdcc97c5c0f87f6902e072f457b5"
		  "143f30602641b3d55cd335988cb36b84376060ecd532e039b742a239434af2d5" },
		{ "passwordPASSWORDpassword",
		  "saltSALTsaltSALTsaltSALTsaltSALTsalt", 24, 36, 4096,
		  "8c0511f4c6e597c6ac6315d8f0362e225f3c501495ba23b868c005174dc4ee71"
		  "115b59f9e60cd9532fa33e0f75aefe30225c583a186cd82bd4daea9724a3d3b8" },
		{ "pass\0word", "sa\0lt", 9, 5, 4096,
		  "9d9e9c4cd21fe4be24d5b8244c759665" },
	};
	uint8_t out[128], big[130];
	size_t i, n;

	for (i = 0; i < sizeof v / sizeof v[0]; i++) {
		uint8_t *dk = t_unhex(v[i].dk, strlen(v[i].dk), &n);

		CHECK(ae_pbkdf2_sha512((const uint8_t *)v[i].p, v[i].pl,
		    (const uint8_t *)v[i].s, v[i].sl, v[i].c, out, n) == 0,
		    "pbkdf2 %zu", i);
		CHECK_MEM(out, dk, n, "pbkdf2-sha512 case %zu", i);
		free(dk);
	}
	/* more than one block: block 1 must equal the 64-byte answer */
	CHECK(ae_pbkdf2_sha512((const uint8_t *)"password", 8,
	    (const uint8_t *)"salt", 4, 1, big, sizeof big) == 0, "pbkdf2 130");
	CHECK(ae_pbkdf2_sha512((const uint8_t *)"password", 8,
	    (const uint8_t *)"salt", 4, 1, out, 64) == 0, "pbkdf2 64");
	CHECK_MEM(big, out, 64, "pbkdf2: block 1 of a longer output");
	CHECK(memcmp(big + 64, out, 64) != 0, "pbkdf2: block 2 differs");
	CHECK(ae_pbkdf2_sha512((const uint8_t *)"p", 1, NULL, 0, 0, out, 32)
	    != 0, "pbkdf2: 0 iterations refused");
}

int
main(int argc, char **argv)
{
	size_t t;
	struct ae_cbc_key k;
	uint8_t key[32] = { 0 };

	if (argc != 2) {
		fprintf(stderr, "usage: test_cbc TESTS-DIR\n");
		return 2;
	}
	for (t = 0; t < NTIERS; t++)
		if (ae_cbc_init_tier(&k, key, tiers[t]) != 0)
			t_skip(ae_gcm_tier_name(tiers[t]));
	run_file(argv[1]);
	differential();
	test_pbkdf2();
	return t_finish("cbc");
}
