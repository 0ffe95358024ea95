/*
 * test_sign.c -- the signing pieces below the command: SSHSIG's signed
 * data and armour (read back field by field), a key's fingerprint
 * against ssh-keygen -l's, and OpenSSH's allowed_signers file: its
 * fields, options, quotes, times and namespaces, what is left out (other
 * key types, certificate authorities) and what is refused, by line; the
 * signer slot's rules in a header (format 6.10), each broken once.
 * (tests/cli/209-sign.bats has ssh-keygen -Y verify check whole
 * signatures.)
 */
#include "check.h"

#include <zlib.h>

#include "common/base64.h"
#include "container/allowed.h"
#include "container/header.h"
#include "container/sshsig.h"
#include "container/sshwire.h"
#include "common/bytes.h"
#include "crypto/ed25519.h"

/* A key made by ssh-keygen -t ed25519, and what ssh-keygen -l says. */
#define KEY_B64 "AAAAC3NzaC1lZDI1NTE5AAAAIPkUEWVQKsBFnTBDPPxT1ygZUz4SiIkbrRAMgzRBiFZj"
#define KEY_PK "f9141165502ac0459d30433cfc53d72819533e1288891bad100c833441885663"
#define KEY_FP "SHA256:5jxoPAVjlwYcQYoZuetQ1g7FEm//isducOonY0i5deU"
#define OTHER_B64 "AAAAC3NzaC1lZDI1NTE5AAAAIGvKGG7m/esP0HCbCr/aU1ee9PpR/fTPndlkqhg/ojvp"

static uint8_t *
pk_of(const char *hex)
{
	size_t n;

	return t_unhex(hex, strlen(hex), &n);
}

static void
test_fingerprint(void)
{
	uint8_t *pk = pk_of(KEY_PK), blob[AE_SSH_ED25519_BLOB_LEN], b[64];
	char fp[AE_SSH_FINGERPRINT_MAX];
	size_t n, bad;

	ae_ssh_fingerprint(pk, fp);
	CHECK(strcmp(fp, KEY_FP) == 0, "fingerprint %s, ssh-keygen says %s",
	    fp, KEY_FP);
	/* the blob is the one in the .pub line */
	ae_ssh_ed25519_blob(pk, blob);
	CHECK(ae_base64_decode(KEY_B64, strlen(KEY_B64), b, sizeof b, &n,
	    &bad) == 0 && n == sizeof blob && memcmp(b, blob, n) == 0,
	    "the key's wire blob is the .pub line's");
	free(pk);
}

static void
test_sshsig(void)
{
	uint8_t seed[32], pk[32], h[64], tbs[AE_SSHSIG_TBS_MAX], sig[64];
	uint8_t raw[1024], blob[AE_SSH_ED25519_BLOB_LEN];
	const uint8_t *p, *end, *s, *in;
	char armor[AE_SSHSIG_ARMOR_MAX], long_ns[AE_SSHSIG_NS_MAX + 2];
	size_t n, tn, rn, bad, sl, il, i;

	for (i = 0; i < 32; i++)
		seed[i] = (uint8_t)(i * 7 + 1);
	for (i = 0; i < 64; i++)
		h[i] = (uint8_t)(255 - i);
	CHECK(ae_ed25519_public(pk, seed) == 0, "public key");
	tn = ae_sshsig_tbs("aescrypt", h, tbs);
	/* "SSHSIG" string(ns) string("") string("sha512") string(h) */
	CHECK(tn == 6 + 4 + 8 + 4 + 4 + 6 + 4 + 64, "signed data length %zu",
	    tn);
	CHECK(memcmp(tbs, "SSHSIG", 6) == 0, "signed data preamble");
	p = tbs + 6;
	end = tbs + tn;
	CHECK(ae_ssh_string(&p, end, &s, &sl) == 0 && ae_ssh_string_is(s, sl,
	    "aescrypt"), "signed data namespace");
	CHECK(ae_ssh_string(&p, end, &s, &sl) == 0 && sl == 0,
	    "signed data reserved");
	CHECK(ae_ssh_string(&p, end, &s, &sl) == 0 && ae_ssh_string_is(s, sl,
	    "sha512"), "signed data hash name");
	CHECK(ae_ssh_string(&p, end, &s, &sl) == 0 && sl == 64
	    && memcmp(s, h, 64) == 0 && p == end, "signed data digest");
	/* namespaces out of range make nothing */
	CHECK(ae_sshsig_tbs("", h, tbs) == 0, "an empty namespace");
	memset(long_ns, 'n', sizeof long_ns - 1);
	long_ns[sizeof long_ns - 1] = 0;
	CHECK(ae_sshsig_tbs(long_ns, h, tbs) == 0, "a namespace too long");
	tn = ae_sshsig_tbs("aescrypt", h, tbs);
	CHECK(ae_ed25519_sign(sig, tbs, tn, seed) == 0, "sign");

	/* the armour, read back: lines of 70, the blob's fields */
	n = ae_sshsig_armor(pk, "aescrypt", sig, armor, sizeof armor);
	CHECK(n > 0 && n == strlen(armor), "armour length");
	CHECK(strncmp(armor, "-----BEGIN SSH SIGNATURE-----\n", 30) == 0
	    && strcmp(armor + n - 28, "-----END SSH SIGNATURE-----\n") == 0,
	    "armour lines");
	{
		const char *b = armor + 30, *e = armor + n - 28, *nl;

		for (; b < e; b = nl + 1) {
			nl = memchr(b, '\n', (size_t)(e - b));
			CHECK(nl != NULL && (nl - b == 70 || nl + 1 == e),
			    "armour line of %d", nl != NULL ? (int)(nl - b) : -1);
			if (nl == NULL)
				break;
		}
	}
	CHECK(ae_base64_decode(armor + 30, n - 58, raw, sizeof raw, &rn, &bad)
	    == 0, "armour is base64");
	p = raw;
	end = raw + rn;
	ae_ssh_ed25519_blob(pk, blob);
	CHECK(rn > 10 && memcmp(p, "SSHSIG\0\0\0\1", 10) == 0,
	    "blob preamble and version 1");
	p += 10;
	CHECK(ae_ssh_string(&p, end, &s, &sl) == 0 && sl == sizeof blob
	    && memcmp(s, blob, sl) == 0, "blob public key");
	CHECK(ae_ssh_string(&p, end, &s, &sl) == 0 && ae_ssh_string_is(s, sl,
	    "aescrypt"), "blob namespace");
	CHECK(ae_ssh_string(&p, end, &s, &sl) == 0 && sl == 0,
	    "blob reserved");
	CHECK(ae_ssh_string(&p, end, &s, &sl) == 0 && ae_ssh_string_is(s, sl,
	    "sha512"), "blob hash name");
	CHECK(ae_ssh_string(&p, end, &in, &il) == 0 && p == end,
	    "blob signature, last");
	CHECK(ae_ssh_ed25519_sig(in, il, raw) == 0 && memcmp(raw, sig, 64)
	    == 0, "the signature blob holds the signature");
	CHECK(ae_ed25519_verify(raw, tbs, tn, pk) == 0,
	    "and it verifies over the signed data");
	/* a signature blob of another type, or with bytes after, is none */
	{
		uint8_t sb[4 + 11 + 4 + 64 + 1];
		struct ae_ssh_out o = { sb, 0, sizeof sb, 0 };

		ae_ssh_put_string(&o, "ssh-rsa", 7);
		ae_ssh_put_string(&o, sig, 64);
		CHECK(o.over == 0 && ae_ssh_ed25519_sig(sb, o.len, raw) != 0,
		    "an ssh-rsa signature blob is not an Ed25519 one");
		o.len = 0;
		ae_ssh_put_string(&o, "ssh-ed25519", 11);
		ae_ssh_put_string(&o, sig, 64);
		ae_ssh_put(&o, "x", 1);
		CHECK(o.over == 0 && ae_ssh_ed25519_sig(sb, o.len, raw) != 0,
		    "a signature blob with a byte after it");
		CHECK(ae_ssh_ed25519_sig(sb, o.len - 1, raw) == 0,
		    "... and without it");
		o.len = 0;
		ae_ssh_put_string(&o, "ssh-ed25519", 11);
		ae_ssh_put_string(&o, sig, 64);
		ae_ssh_put(&o, "xy", 2);
		CHECK(o.over == 1 && o.len == sizeof sb - 1,
		    "a writer past its room says so, and writes nothing more");
	}
	CHECK(ae_sshsig_armor(pk, "aescrypt", sig, armor, 100) == 0,
	    "an armour that does not fit makes nothing");
}

/* Parse text; the error's line, or 0. */
static int
parse(struct ae_allowed *a, const char *text, unsigned long long *line)
{
	struct ae_diag d = { 0 };
	int r = ae_allowed_parse(a, text, strlen(text), &d);

	*line = d.index;
	return r;
}

/* One-line files: what ae_allowed_find says of key pk for ns at now. */
static long
find_in(const char *text, const uint8_t pk[32], const char *ns, int64_t now,
    int *why)
{
	struct ae_allowed a;
	unsigned long long line;
	long i = -2;

	if (parse(&a, text, &line) == AE_OK) {
		i = ae_allowed_find(&a, pk, ns, now, why);
		ae_allowed_free(&a);
	}
	return i;
}

static void
test_allowed(void)
{
	static const char file[] =
	    "# comment\n"
	    "\n"
	    "alice@example.org ssh-ed25519 " KEY_B64 " alice's laptop\n"
	    "bob@x,carol@y namespaces=\"file,aescrypt\" ssh-ed25519 " OTHER_B64 "\n"
	    "\"dave the ops\" NAMESPACES=\"git\" ssh-ed25519 " KEY_B64 "\r\n"
	    "eve@z valid-after=\"20200101\",valid-before=\"20300101Z\" ssh-ed25519 " OTHER_B64 "\n"
	    "ca@z cert-authority ssh-ed25519 " KEY_B64 "\n"
	    "rsa@z ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC7\n"
	    "  \t # an indented comment\n"
	    "ssh-ed25519 " OTHER_B64 " frank@bare";
	static const struct {
		const char *text, *why;
		unsigned line;
	} refused[] = {
		{ "x@y\n", "a principal alone", 1 },
		{ "\n# c\nx@y bogus=1 ssh-ed25519 " KEY_B64 "\n", "an unknown option", 3 },
		{ "x@y namespaces ssh-ed25519 " KEY_B64, "namespaces without a value", 1 },
		{ "x@y valid-after=\"2020\" ssh-ed25519 " KEY_B64, "a short time", 1 },
		{ "x@y valid-before=\"20201301\" ssh-ed25519 " KEY_B64, "month 13", 1 },
		{ "x@y valid-before=\"2020010112\" ssh-ed25519 " KEY_B64, "ten digits", 1 },
		{ "\"x@y ssh-ed25519 " KEY_B64, "an unclosed quote", 1 },
		{ "x@y ssh-ed25519\n", "a key type without its key", 1 },
		{ "x@y ssh-ed25519 AAAA!!!!", "a key that is not base64", 1 },
		{ "x@y ssh-ed25519 " OTHER_B64 "\nx@y namespaces=\"a\" notakey AAAA\n", "no key type", 2 },
	};
	uint8_t *k = pk_of(KEY_PK), other[32];
	struct ae_allowed a;
	unsigned long long line;
	int64_t t2025 = 1735689600, t2019 = 1546300800;
	size_t j;
	int why;
	long i;

	CHECK(parse(&a, file, &line) == AE_OK, "the file parses (line %llu)",
	    line);
	CHECK(a.n == 5, "five usable lines: %zu", a.n);
	CHECK(a.authorities == 1 && a.other_types == 1,
	    "a cert-authority and an ssh-rsa line left out (%zu, %zu)",
	    a.authorities, a.other_types);
	if (a.n == 5) {
		CHECK(strcmp(a.v[0].principals, "alice@example.org") == 0
		    && a.v[0].line == 3 && memcmp(a.v[0].pk, k, 32) == 0
		    && a.v[0].namespaces == NULL, "line 3");
		CHECK(strcmp(a.v[1].principals, "bob@x,carol@y") == 0
		    && strcmp(a.v[1].namespaces, "file,aescrypt") == 0,
		    "line 4");
		CHECK(strcmp(a.v[2].principals, "dave the ops") == 0
		    && strcmp(a.v[2].namespaces, "git") == 0, "line 5: %s",
		    a.v[2].principals);
		CHECK(strcmp(a.v[3].principals, "eve@z") == 0
		    && a.v[3].before == 1893456000
		    && a.v[3].after >= 1577836800 - 14 * 3600
		    && a.v[3].after <= 1577836800 + 12 * 3600,
		    "line 6's times (before: 2030-01-01 UTC; after: 2020-01-01 "
		    "local): %lld, %lld", (long long)a.v[3].before,
		    (long long)a.v[3].after);
		CHECK(strcmp(a.v[4].principals, "frank@bare") == 0
		    && a.v[4].line == 10, "a bare key named by its comment");
		memcpy(other, a.v[1].pk, 32);
		/* the first line that allows */
		CHECK(ae_allowed_find(&a, k, "aescrypt", t2025, &why) == 0,
		    "alice's key for aescrypt");
		CHECK(ae_allowed_find(&a, k, "git", t2025, &why) == 0,
		    "alice's line names no namespaces: any");
		CHECK(ae_allowed_find(&a, other, "aescrypt", t2025, &why) == 1,
		    "bob's key");
		i = ae_allowed_find(&a, other, "mail", t2025, &why);
		CHECK(i == 3, "for another namespace, eve's line: %ld", i);
		i = ae_allowed_find(&a, other, "mail", t2019, &why);
		CHECK(i == 4, "before eve's time, frank's line: %ld", i);
	}
	ae_allowed_free(&a);
	CHECK(a.n == 0 && a.v == NULL, "freed and zeroed");

	/* why a key is not allowed */
	i = find_in("x@y ssh-ed25519 " KEY_B64, other, "aescrypt", t2025, &why);
	CHECK(i == -1 && why == AE_ALLOWED_UNLISTED, "another key: unlisted");
	i = find_in("x@y namespaces=\"git\" ssh-ed25519 " KEY_B64, k,
	    "aescrypt", t2025, &why);
	CHECK(i == -1 && why == AE_ALLOWED_NAMESPACE, "another namespace");
	i = find_in("x@y namespaces=\"*,!aescrypt\" ssh-ed25519 " KEY_B64, k,
	    "aescrypt", t2025, &why);
	CHECK(i == -1 && why == AE_ALLOWED_NAMESPACE, "a negated namespace");
	i = find_in("x@y namespaces=\"*,!aescrypt\" ssh-ed25519 " KEY_B64, k,
	    "file", t2025, &why);
	CHECK(i == 0, "... allows the others");
	i = find_in("x@y namespaces=\"aes*\" ssh-ed25519 " KEY_B64, k,
	    "aescrypt", t2025, &why);
	CHECK(i == 0, "a wildcard namespace");
	i = find_in("x@y valid-after=\"20300101Z\" ssh-ed25519 " KEY_B64, k,
	    "aescrypt", t2025, &why);
	CHECK(i == -1 && why == AE_ALLOWED_NOT_YET, "not yet valid");
	i = find_in("x@y valid-before=\"202001011200Z\" ssh-ed25519 " KEY_B64,
	    k, "aescrypt", t2025, &why);
	CHECK(i == -1 && why == AE_ALLOWED_EXPIRED, "expired");
	i = find_in("x@y valid-before=\"20250101000001Z\" ssh-ed25519 " KEY_B64,
	    k, "aescrypt", t2025, &why);
	CHECK(i == 0, "valid to the second");
	i = find_in("x@y cert-authority ssh-ed25519 " KEY_B64, k, "aescrypt",
	    t2025, &why);
	CHECK(i == -1 && why == AE_ALLOWED_UNLISTED,
	    "a certificate authority's key is not a signer's");

	for (j = 0; j < sizeof refused / sizeof *refused; j++) {
		int r = parse(&a, refused[j].text, &line);

		CHECK(r == AE_EFORMAT && line == refused[j].line,
		    "%s: refused on line %u (%d, line %llu)", refused[j].why,
		    refused[j].line, r, line);
		CHECK(a.n == 0 && a.v == NULL, "%s: nothing kept",
		    refused[j].why);
	}
	free(k);
}

/* A signed header's raw bytes into out (*len), with the key file slot
 * first and the signer slot (k = 6) second; the slot's offset in *at. */
static void
signed_header(uint8_t *out, size_t *len, size_t *at)
{
	static struct ae_header h;
	uint8_t fk[32], key[32], *pk = pk_of(KEY_PK);

	memset(key, 7, sizeof key);
	CHECK(ae_header_new(&h, AE_PAYLOAD_STREAM, AE_CODEC_DEFLATE, 18, fk)
	    == AE_OK && ae_header_add_keyfile(&h, key, fk) == AE_OK,
	    "a header");
	CHECK(ae_header_set_signer(&h, pk, 17) == AE_EINVAL,
	    "an interval over 16 is refused");
	CHECK(ae_header_set_signer(&h, pk, 6) == AE_OK, "the signer");
	CHECK(ae_header_set_signer(&h, pk, 6) == AE_EINVAL,
	    "a second signer is refused");
	CHECK(ae_header_encode(&h, fk) == AE_OK, "encoded");
	memcpy(out, h.raw, h.len);
	*len = h.len;
	*at = h.stanza[1].offset;
	free(pk);
}

/* Parse raw[0, len) after its CRC is made again: the status, d. */
static int
reparse(uint8_t *raw, size_t len, struct ae_diag *d)
{
	static struct ae_header h;

	store_be32(raw + len - 36, (uint32_t)crc32(crc32(0, Z_NULL, 0), raw,
	    (uInt)(len - 36)));
	memset(d, 0, sizeof *d);
	return ae_header_parse(raw, len, &h, d);
}

static void
test_signer_slot(void)
{
	static struct ae_header h;
	uint8_t raw[AE_HEADER_MAX], b[AE_HEADER_MAX];
	struct ae_diag d;
	size_t len, at, n;

	signed_header(raw, &len, &at);
	CHECK(ae_header_parse(raw, len, &h, &d) == AE_OK && h.is_signed
	    && h.sig_log2 == 6 && raw[11] == (AE_PAYLOAD_SIGNED | 0x80),
	    "a signed header parses: bit 3, the interval");
	CHECK(raw[at] == AE_STANZA_SIGNER && raw[at + 2] == 34
	    && raw[at + 3] == 1 && raw[at + 4] == 6, "the slot's bytes");
	/* bit 3 cleared: a slot the type does not announce */
	memcpy(b, raw, len);
	b[11] &= (uint8_t)~AE_PAYLOAD_SIGNED;
	CHECK(reparse(b, len, &d) == AE_EFORMAT && strstr(d.what,
	    "does not say it is signed") != NULL, "slot without bit 3: %s",
	    d.what);
	memcpy(b, raw, len);
	b[at + 3] = 2;
	CHECK(reparse(b, len, &d) == AE_ENOTSUP, "another key type: %s",
	    d.what);
	memcpy(b, raw, len);
	b[at + 4] = 17;
	CHECK(reparse(b, len, &d) == AE_EFORMAT && strstr(d.what, "interval")
	    != NULL, "an interval over 16: %s", d.what);
	/* a second signer slot, the lengths and count made to fit */
	memcpy(b, raw, at + 37);
	memcpy(b + at + 37, raw + at, 37);
	memcpy(b + at + 74, raw + at + 37, len - at - 37);
	n = len + 37;
	b[9] = (uint8_t)(n >> 8);
	b[10] = (uint8_t)n;
	b[13]++;
	CHECK(reparse(b, n, &d) == AE_EFORMAT && strstr(d.what, "second")
	    != NULL, "two signer slots: %s", d.what);
	/* a slot one byte short */
	memcpy(b, raw, at);
	memcpy(b + at, raw + at, 36);
	b[at + 2] = 33;
	memcpy(b + at + 36, raw + at + 37, len - at - 37);
	n = len - 1;
	b[9] = (uint8_t)(n >> 8);
	b[10] = (uint8_t)n;
	CHECK(reparse(b, n, &d) == AE_EFORMAT && strstr(d.what, "length")
	    != NULL, "a short signer slot: %s", d.what);
}

int
main(void)
{
	test_fingerprint();
	test_sshsig();
	test_allowed();
	test_signer_slot();
	return t_finish("sign");
}
