/*
 * test_gcm_vectors.c -- every GCM tier against NIST CAVP and Wycheproof.
 *
 * usage: test_gcm_vectors TESTS-DIR
 * A tier the CPU lacks is reported as skipped, never silently passed.
 */
#include "check.h"

#include "common/error.h"
#include "crypto/gcm.h"

struct vec {
	uint8_t *key, *iv, *aad, *pt, *ct, *tag;
	size_t keylen, ivlen, aadlen, ptlen, ctlen, taglen;
	int valid;        /* 1: must verify; 0: must be rejected */
	int have_pt;
};

static void
vec_free(struct vec *v)
{
	free(v->key); free(v->iv); free(v->aad);
	free(v->pt); free(v->ct); free(v->tag);
	memset(v, 0, sizeof *v);
}

static unsigned long n_seal, n_open_ok, n_open_bad;

/* Run one vector on one tier: seal (if it is a valid encryption with a
 * known plaintext) must match; open must accept exactly the valid ones
 * and must not touch out when it rejects. */
static void
run(enum ae_gcm_tier tier, const struct vec *v, const char *where)
{
	ae_gcm_ctx ctx;
	uint8_t tag[16];
	size_t len = v->valid ? v->ptlen : v->ctlen;
	uint8_t *out = malloc(len + 1);
	int err;

	if (ae_gcm_init_tier(&ctx, v->key, tier) != 0) {
		CHECK(0, "%s: init failed", where);
		free(out);
		return;
	}
	if (v->valid && v->have_pt) {
		err = ae_gcm_seal(&ctx, v->iv, v->ivlen, v->aad, v->aadlen, v->pt,
		    v->ptlen, out, tag);
		CHECK(err == 0, "%s: seal returned %d", where, err);
		CHECK(err == 0 && memcmp(out, v->ct, v->ctlen) == 0
		    && memcmp(tag, v->tag, v->taglen) == 0,
		    "%s [%s]: seal mismatch", where, ae_gcm_tier_name(tier));
		n_seal++;
	}
	memset(out, 0xA5, len + 1);
	err = ae_gcm_open(&ctx, v->iv, v->ivlen, v->aad, v->aadlen, v->ct,
	    v->ctlen, v->tag, v->taglen, out);
	if (v->valid) {
		CHECK(err == 0, "%s [%s]: valid case rejected (%d)", where,
		    ae_gcm_tier_name(tier), err);
		if (v->have_pt)
			CHECK(err == 0 && memcmp(out, v->pt, v->ptlen) == 0,
			    "%s [%s]: open gave wrong plaintext", where,
			    ae_gcm_tier_name(tier));
		n_open_ok++;
	} else {
		size_t i;
		int untouched = 1, zeroed = 1;

		CHECK(err == AE_EAUTH || err == AE_EINVAL,
		    "%s [%s]: invalid case accepted (%d)", where,
		    ae_gcm_tier_name(tier), err);
		/* no plaintext: out untouched, or (a tier that decrypts as
		 * it hashes) wiped to zeros, and never past its end */
		for (i = 0; i < len; i++) {
			untouched &= out[i] == 0xA5;
			zeroed &= out[i] == 0;
		}
		CHECK(untouched || zeroed, "%s [%s]: rejected open left "
		    "output that is neither untouched nor wiped", where,
		    ae_gcm_tier_name(tier));
		CHECK(out[len] == 0xA5, "%s [%s]: rejected open wrote past "
		    "the end", where, ae_gcm_tier_name(tier));
		n_open_bad++;
	}
	CHECK(out[len] == 0xA5 || !v->valid, "%s: wrote past the end", where);
	ae_gcm_wipe(&ctx);
	free(out);
}

/* ---- NIST CAVP .rsp ---- */

/* Point *val at the value of a "Name = value" line; return 1 if the line
 * has that name. */
static int
field(const char *line, size_t len, const char *name, const char **val,
    size_t *vlen)
{
	size_t n = strlen(name);

	if (len < n + 2 || strncmp(line, name, n) != 0 || line[n] != ' ')
		return 0;
	*val = line + n + 2;   /* skip " =" */
	if (*val < line + len && **val == ' ')
		(*val)++;
	*vlen = (size_t)(line + len - *val);
	return 1;
}

static void
run_rsp(const char *dir, const char *file, int decrypt)
{
	size_t size, count = 0;
	char *text = t_slurp(dir, file, &size);
	char *p = text, where[128];
	struct vec v;
	int t;

	memset(&v, 0, sizeof v);
	while (p < text + size) {
		char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		const char *val;
		size_t vlen;
		int done = 0;

		if (len > 0 && p[len - 1] == '\r')
			len--;
		if (field(p, len, "Key", &val, &vlen)) {
			vec_free(&v);
			v.key = t_unhex(val, vlen, &v.keylen);
		} else if (field(p, len, "IV", &val, &vlen)) {
			v.iv = t_unhex(val, vlen, &v.ivlen);
		} else if (field(p, len, "AAD", &val, &vlen)) {
			v.aad = t_unhex(val, vlen, &v.aadlen);
			/* AAD comes after CT in the decrypt file but before
			 * CT in the encrypt file; Tag is last in both. */
		} else if (field(p, len, "CT", &val, &vlen)) {
			v.ct = t_unhex(val, vlen, &v.ctlen);
		} else if (field(p, len, "PT", &val, &vlen)) {
			v.pt = t_unhex(val, vlen, &v.ptlen);
			v.have_pt = 1;
			v.valid = 1;
			done = decrypt;
		} else if (field(p, len, "Tag", &val, &vlen)) {
			v.tag = t_unhex(val, vlen, &v.taglen);
			done = !decrypt;
		} else if (decrypt && len == 4 && strncmp(p, "FAIL", 4) == 0) {
			v.valid = 0;
			done = 1;
		}
		if (done) {
			if (!decrypt)
				v.valid = 1;
			count++;
			for (t = 0; t < AE_GCM_TIER_COUNT; t++) {
				if (!ae_gcm_tier_available((enum ae_gcm_tier)t))
					continue;
				snprintf(where, sizeof where, "%s case %zu", file,
				    count);
				run((enum ae_gcm_tier)t, &v, where);
			}
			vec_free(&v);
		}
		p = nl ? nl + 1 : text + size;
	}
	vec_free(&v);
	printf("%s: %zu cases\n", file, count);
	CHECK(count == 7875, "%s: expected 7875 cases, parsed %zu", file, count);
	free(text);
}

/* ---- Wycheproof JSON ----
 * The file is pretty-printed one field per line, so a line scanner that
 * knows the few field names is enough; the case count is checked. */

static int
json_str(const char *line, const char *name, const char **val, size_t *vlen)
{
	char pat[32];
	const char *s, *e;

	snprintf(pat, sizeof pat, "\"%s\":", name);
	if ((s = strstr(line, pat)) == NULL)
		return 0;
	s = strchr(s + strlen(pat), '"');
	if (s == NULL || (e = strchr(s + 1, '"')) == NULL)
		return 0;
	*val = s + 1;
	*vlen = (size_t)(e - s - 1);
	return 1;
}

static void
run_wycheproof(const char *dir)
{
	char *text = t_slurp(dir, "wycheproof_aes_gcm_test.json", NULL);
	char *line, *save = NULL, where[64];
	struct vec v;
	long tcid = -1;
	size_t count = 0, valid = 0;
	int t;

	memset(&v, 0, sizeof v);
	for (line = strtok_r(text, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		const char *val, *tc;
		size_t vlen;

		if ((tc = strstr(line, "\"tcId\":")) != NULL) {
			vec_free(&v);
			tcid = strtol(tc + 7, NULL, 10);
		} else if (json_str(line, "key", &val, &vlen)) {
			v.key = t_unhex(val, vlen, &v.keylen);
		} else if (json_str(line, "iv", &val, &vlen)) {
			v.iv = t_unhex(val, vlen, &v.ivlen);
		} else if (json_str(line, "aad", &val, &vlen)) {
			v.aad = t_unhex(val, vlen, &v.aadlen);
		} else if (json_str(line, "msg", &val, &vlen)) {
			v.pt = t_unhex(val, vlen, &v.ptlen);
			v.have_pt = 1;
		} else if (json_str(line, "ct", &val, &vlen)) {
			v.ct = t_unhex(val, vlen, &v.ctlen);
		} else if (json_str(line, "tag", &val, &vlen)) {
			v.tag = t_unhex(val, vlen, &v.taglen);
		} else if (json_str(line, "result", &val, &vlen)) {
			if (v.keylen != 32) {
				vec_free(&v);
				continue;
			}
			v.valid = vlen == 5 && strncmp(val, "valid", 5) == 0;
			count++;
			valid += (size_t)v.valid;
			for (t = 0; t < AE_GCM_TIER_COUNT; t++) {
				if (!ae_gcm_tier_available((enum ae_gcm_tier)t))
					continue;
				snprintf(where, sizeof where, "wycheproof tcId %ld",
				    tcid);
				run((enum ae_gcm_tier)t, &v, where);
			}
			vec_free(&v);
		}
	}
	vec_free(&v);
	printf("wycheproof: %zu AES-256 cases (%zu valid)\n", count, valid);
	CHECK(count == 105, "wycheproof: expected 105 AES-256 cases, got %zu",
	    count);
	free(text);
}

int
main(int argc, char **argv)
{
	char dir[4096];
	int t;

	snprintf(dir, sizeof dir, "%s/vectors", argc > 1 ? argv[1] : "tests");
	for (t = 0; t < AE_GCM_TIER_COUNT; t++) {
		char why[128];

		if (ae_gcm_tier_available((enum ae_gcm_tier)t)) {
			printf("tier %s: running\n", ae_gcm_tier_name((enum ae_gcm_tier)t));
			continue;
		}
		snprintf(why, sizeof why, "tier %s: not available on this CPU/build",
		    ae_gcm_tier_name((enum ae_gcm_tier)t));
		t_skip(why);
	}
	run_rsp(dir, "gcmEncryptExtIV256.rsp", 0);
	run_rsp(dir, "gcmDecrypt256.rsp", 1);
	run_wycheproof(dir);
	printf("seal checks %lu, accepted opens %lu, rejected opens %lu\n",
	    n_seal, n_open_ok, n_open_bad);
	return t_finish("gcm_vectors");
}
