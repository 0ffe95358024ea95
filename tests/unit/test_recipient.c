/*
 * test_recipient.c -- public-key recipients (format 4.5, 4.6): Bech32
 * against BIP-173's vectors, base64, X25519 against RFC 7748, keys made
 * by age-keygen and ssh-keygen (committed below), slot secrets both
 * ways, and the refusals: low-order points, wrong lengths, mixed case,
 * the wrong kind of key, passphrase-protected and RSA SSH keys.
 */
#include "check.h"
#include "../samples/test_keys.h"

#include "common/base64.h"
#include "container/bech32.h"
#include "container/recipient.h"
#include "container/recipient_slot.h"
#include "crypto/rsa.h"
#include "common/wipe.h"
#include "crypto/x25519.h"

/* BIP-173's valid strings: each checksum verifies.  The decoder also
 * turns the data into bytes and refuses left-over bits that are not zero
 * (-2, *bad at the end), which some of these have; no other failure is
 * allowed. */
static void
test_bech32(void)
{
	static const char *valid[] = {
		"A12UEL5L",
		"a12uel5l",
		"an83characterlonghumanreadablepartthatcontainsthenumber1andtheexcludedcharactersbio1tt5tgs",
		"abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw",
		"11qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqc8247j",
		"split1checkupstagehandshakeupstreamerranterredcaperred2y9e3w",
		"?1ezyfcl",
	};
	/* BIP-173's invalid strings, with the failure expected here (the
	 * 90-character limit is not age's, so its vector is left out) */
	static const struct { const char *s; int want; size_t bad; } invalid[] = {
		{ "\x20" "1nwldj5", -1, 0 },    /* HRP character out of range */
		{ "\x7f" "1axkwrx", -1, 0 },
		{ "\x80" "1eym55h", -1, 0 },
		{ "pzry9x8gf2tvdw0s3jn54khce6mua7l", -1, 31 },  /* no separator */
		{ "1pzry9x8gf2tvdw0s3jn54khce6mua7l", -1, 0 },  /* empty HRP */
		{ "x1b4n0q5v", -1, 2 },         /* 'b' is not in the charset */
		{ "li1dgmt3", -2, 8 },          /* checksum too short */
		{ "de1lg7wt\xff", -1, 8 },      /* bad character in checksum */
		{ "A1G7SGD8", -2, 8 },          /* checksummed with upper HRP */
		{ "10a06t8", -1, 0 },           /* empty HRP */
		{ "1qzzfhee", -1, 0 },          /* empty HRP */
		{ "A12uEL5L", -4, 3 },          /* mixed case */
	};
	uint8_t data[128], key[32];
	char hrp[100], out[200];
	size_t i, len, bad;
	int r;

	for (i = 0; i < sizeof valid / sizeof *valid; i++) {
		r = ae_bech32_decode(valid[i], strlen(valid[i]), hrp, sizeof hrp, data,
		    sizeof data, &len, &bad);
		CHECK(r == 0 || r == -2, "bip173 valid %zu: %d", i, r);
		if (r == -2)    /* only the padding may be refused: */
			CHECK(bad == strlen(valid[i]), "valid %zu", i);
	}
	CHECK(ae_bech32_decode("abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw",
	    45, hrp, sizeof hrp, data, sizeof data, &len, &bad) == 0
	    && strcmp(hrp, "abcdef") == 0 && len == 20, "abcdef: 20 bytes");
	for (i = 0; i < sizeof invalid / sizeof *invalid; i++) {
		r = ae_bech32_decode(invalid[i].s, strlen(invalid[i].s), hrp, sizeof hrp, data,
		    sizeof data, &len, &bad);
		CHECK(r == invalid[i].want && bad == invalid[i].bad,
		    "bip173 invalid %zu: %d at %zu", i, r, bad);
	}
	/* Round trips at every length to 64 bytes, and every single
	 * character change is caught. */
	for (len = 0; len <= 64; len++) {
		uint8_t back[64];
		size_t n, k, blen;

		for (i = 0; i < len; i++)
			data[i] = (uint8_t)(i * 37 + len);
		n = ae_bech32_encode(out, sizeof out, "age", data, len);
		CHECK(n > 0 && ae_bech32_decode(out, n, hrp, sizeof hrp, back,
		    sizeof back, &blen, &bad) == 0 && blen == len
		    && memcmp(back, data, len) == 0, "round trip %zu", len);
		for (k = 4; k < n; k++) {
			char saved = out[k];

			out[k] = saved == 'q' ? 'p' : 'q';
			CHECK(ae_bech32_decode(out, n, hrp, sizeof hrp, back,
			    sizeof back, &blen, &bad) != 0, "change %zu/%zu",
			    len, k);
			out[k] = saved;
		}
	}
	CHECK(ae_bech32_encode(out, 10, "age", data, 32) == 0,
	    "encode refuses a small buffer");
	(void)key;
}

static void
test_base64(void)
{
	static const struct { const char *in, *out; } v[] = {
		{ "", "" }, { "Zg==", "f" }, { "Zm8=", "fo" }, { "Zm9v", "foo" },
		{ "Zm9vYg==", "foob" }, { "Zm9vYmE=", "fooba" },
		{ "Zm9vYmFy", "foobar" }, { "Zm9v\nYmFy", "foobar" },
		{ "Zm9vYmE", "fooba" },
	};
	static const char *bad[] = { "Z", "Zg=a", "Z===", "Zm9v!", "=Zg" };
	uint8_t out[32];
	size_t i, n, at;

	for (i = 0; i < sizeof v / sizeof *v; i++)
		CHECK(ae_base64_decode(v[i].in, strlen(v[i].in), out, sizeof out,
		    &n, &at) == 0 && n == strlen(v[i].out)
		    && memcmp(out, v[i].out, n) == 0, "base64 %zu", i);
	for (i = 0; i < sizeof bad / sizeof *bad; i++)
		CHECK(ae_base64_decode(bad[i], strlen(bad[i]), out, sizeof out,
		    &n, &at) == -1, "base64 refuses '%s'", bad[i]);
	CHECK(ae_base64_decode("Zm9vYmFy", 8, out, 5, &n, &at) == -2,
	    "base64: output too small");
}

/* The list of low-order points that needs no secret (x25519.h) says
 * what X25519 itself says, for every point on it, with the top bit set
 * or not, and for points off it, under two scalars. */
static void
test_low_order(const uint8_t *a, const uint8_t *b)
{
	static const char *small[] = {
		"0000000000000000000000000000000000000000000000000000000000000000",
		"0100000000000000000000000000000000000000000000000000000000000000",
		"e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800",
		"5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157",
		"ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
		"edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
		"eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
	};
	uint64_t seed = 0x10e0;
	uint8_t p[32], out[32];
	size_t i, n, top, k;

	for (i = 0; i < sizeof small / sizeof *small; i++)
		for (top = 0; top < 2; top++) {
			uint8_t *u = t_unhex(small[i], 64, &n);

			memcpy(p, u, 32);
			free(u);
			p[31] |= (uint8_t)(top << 7);
			CHECK(ae_x25519_low_order(p), "low order %zu/%zu: listed",
			    i, top);
			CHECK(ae_x25519(out, a, p) == AE_EINVAL
			    && ae_x25519(out, b, p) == AE_EINVAL,
			    "low order %zu/%zu: X25519 refuses it too", i, top);
		}
	for (k = 0; k < 500; k++) {
		t_fill(&seed, p, 32);
		CHECK(!ae_x25519_low_order(p) && ae_x25519(out, a, p) == AE_OK,
		    "random point %zu: not of low order, and X25519 agrees", k);
	}
}

/* RFC 7748, 5.2 and 6.1. */
static void
test_x25519(void)
{
	uint8_t *k, *u, *a, *b, out[32], pa[32], pb[32], s1[32], s2[32];
	uint8_t zero[32] = { 0 }, one[32] = { 1 };
	size_t n;

	k = t_unhex("a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4", 64, &n);
	u = t_unhex("e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c", 64, &n);
	CHECK(ae_x25519(out, k, u) == AE_OK, "rfc7748 5.2");
	t_check_hex(out, "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552", "rfc7748 5.2");
	a = t_unhex("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a", 64, &n);
	b = t_unhex("5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb", 64, &n);
	CHECK(ae_x25519_base(pa, a) == AE_OK && ae_x25519_base(pb, b) == AE_OK,
	    "base");
	t_check_hex(pa, "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a", "alice's public key");
	t_check_hex(pb, "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f", "bob's public key");
	CHECK(ae_x25519(s1, a, pb) == AE_OK && ae_x25519(s2, b, pa) == AE_OK,
	    "dh");
	t_check_hex(s1, "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742", "shared (alice)");
	t_check_hex(s2, "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742", "shared (bob)");
	/* low-order points give an all-zero secret: refused */
	CHECK(ae_x25519(out, a, zero) == AE_EINVAL, "u = 0 refused");
	CHECK(ae_x25519(out, a, one) == AE_EINVAL, "u = 1 refused");
	test_low_order(a, b);
	free(k);
	free(u);
	free(a);
	free(b);
}

/* Passphrase-protected OpenSSH keys, made by ssh-keygen: the right
 * passphrase opens each to the key its .pub names; a wrong one, none,
 * and a damaged section are each refused as what they are. */
static void
test_locked(void)
{
	static const struct {
		const char *key, *pub, *name;
	} k[] = {
		{ test_ssh_locked_ctr, test_ssh_locked_ctr_public, "ctr" },
		{ test_ssh_locked_gcm, test_ssh_locked_gcm_public, "gcm" },
	};
	const uint8_t *pass = (const uint8_t *)TEST_SSH_LOCKED_PASS;
	size_t plen = strlen(TEST_SSH_LOCKED_PASS), i;
	struct ae_identity id;
	struct ae_recipient r;
	struct ae_diag d;

	for (i = 0; i < 2; i++) {
		char bad[1024];
		char *body;

		memset(&d, 0, sizeof d);
		CHECK(ae_identity_parse_ssh(k[i].key, strlen(k[i].key), pass,
		    plen, &id, &d) == AE_OK, "locked %s: %s", k[i].name,
		    d.what ? d.what : "");
		CHECK(ae_recipient_parse(k[i].pub, &r, NULL) == AE_OK
		    && ae_recipient_equal(&id.r, &r), "locked %s: its .pub",
		    k[i].name);
		memset(&d, 0, sizeof d);
		CHECK(ae_identity_parse_ssh(k[i].key, strlen(k[i].key), NULL, 0,
		    &id, &d) == AE_EKEY && d.what != NULL
		    && strcmp(d.what, AE_SSH_NEEDS_PASSPHRASE) == 0,
		    "locked %s: no passphrase", k[i].name);
		memset(&d, 0, sizeof d);
		CHECK(ae_identity_parse_ssh(k[i].key, strlen(k[i].key),
		    (const uint8_t *)"test pasS", plen, &id, &d) == AE_EKEY
		    && strstr(d.what, "wrong passphrase") != NULL,
		    "locked %s: a wrong passphrase", k[i].name);
		/* a changed byte inside the private section (the line
		 * before the last base64 line) */
		snprintf(bad, sizeof bad, "%s", k[i].key);
		body = strstr(bad, "-----END") - 20;
		*body = *body == 'A' ? 'B' : 'A';
		CHECK(ae_identity_parse_ssh(bad, strlen(bad), pass, plen, &id,
		    &d) != AE_OK, "locked %s: damaged", k[i].name);
	}
}

static void
test_keys(void)
{
	struct ae_identity id, sid;
	struct ae_recipient r, sr, t;
	struct ae_diag d;
	char buf[200], line[300];
	uint8_t thirty_one[31] = { 1 };

	/* age: the identity gives the public key age-keygen printed, and
	 * both format back to the same text */
	CHECK(ae_identity_parse_age(test_age_secret, &id, NULL) == AE_OK, "age id");
	CHECK(ae_recipient_parse(test_age_public, &r, NULL) == AE_OK, "age rcpt");
	CHECK(ae_recipient_equal(&id.r, &r), "identity -> recipient");
	CHECK(ae_recipient_format(&r, buf, sizeof buf) > 0
	    && strcmp(buf, test_age_public) == 0, "recipient formats back");
	CHECK(ae_identity_format(&id, buf, sizeof buf) > 0
	    && strcmp(buf, test_age_secret) == 0, "identity formats back");
	/* lower case is fine, mixed case is not, with its position */
	snprintf(line, sizeof line, "%s", test_age_public);
	line[0] = 'A';
	line[1] = 'G';
	line[2] = 'E';
	CHECK(ae_recipient_parse(line, &t, &d) == AE_EFORMAT && d.offset == 4,
	    "mixed case refused at %llu", d.offset);
	snprintf(line, sizeof line, "%s", test_age_public);
	line[20] = 'b';
	CHECK(ae_recipient_parse(line, &t, &d) == AE_EFORMAT && d.offset == 20,
	    "bad character named at %llu", d.offset);
	snprintf(line, sizeof line, "%s", test_age_public);
	line[20] = line[20] == 'q' ? 'p' : 'q';
	CHECK(ae_recipient_parse(line, &t, &d) == AE_EFORMAT
	    && d.offset == strlen(line), "checksum");
	/* a wrong length, the wrong prefix */
	ae_bech32_encode(line, sizeof line, "age", thirty_one, 31);
	CHECK(ae_recipient_parse(line, &t, &d) == AE_EFORMAT
	    && strstr(d.what, "length") != NULL, "31-byte key refused");
	CHECK(ae_recipient_parse(test_age_secret, &t, &d) != AE_OK,
	    "a secret key is no recipient");
	CHECK(ae_identity_parse_age(test_age_public, &id, &d)
	    != AE_OK, "a recipient is no identity");

	/* ssh: the private key's public half is the .pub line's key, and
	 * an authorized_keys line with options reads the same */
	CHECK(ae_identity_parse_ssh(test_ssh_private, strlen(test_ssh_private),
	    NULL, 0, &sid, &d) == AE_OK, "ssh id: %s", d.what ? d.what : "");
	CHECK(ae_recipient_parse(test_ssh_public, &sr, &d) == AE_OK, "ssh rcpt");
	CHECK(ae_recipient_equal(&sid.r, &sr) && sr.type ==
	    AE_STANZA_SSH_ED25519 && memcmp(sid.r.tag, sr.tag, 4) == 0,
	    "ssh identity -> recipient");
	snprintf(line, sizeof line, "from=\"10.0.0.1\",no-pty %s", test_ssh_public);
	CHECK(ae_recipient_parse(line, &t, &d) == AE_OK
	    && ae_recipient_equal(&t, &sr), "authorized_keys options");
	CHECK(ae_recipient_parse("ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ x",
	    &t, &d) == AE_EFORMAT && strstr(d.what, "ssh-rsa") != NULL,
	    "a cut rsa key");
	CHECK(ae_recipient_parse("ecdsa-sha2-nistp256 AAAAE2VjZHNh x", &t, &d)
	    == AE_ENOTSUP && strstr(d.what, "ssh-rsa") != NULL, "ecdsa");
	CHECK(ae_recipient_parse("ssh-ed25519 AAAA!!!!", &t, &d) == AE_EFORMAT
	    && d.offset == 16, "bad base64 at %llu", d.offset);
	/* the blob of another type under the ssh-ed25519 name */
	CHECK(ae_recipient_parse("ssh-ed25519 AAAAB3NzaC1yc2EAAAADAQAB", &t,
	    &d) == AE_EFORMAT, "mismatched blob");
	{
		char enc[sizeof test_ssh_private];

		/* "none" cipher -> "aes2": a cipher this code does not read,
		 * refused before any passphrase is asked for.  (Change the
		 * base64 of the cipher name's first bytes.) */
		memcpy(enc, test_ssh_private, sizeof enc);
		memcpy(strstr(enc, "AAAABG5vbmUA"), "AAAABGFlczIA", 12);
		CHECK(ae_identity_parse_ssh(enc, strlen(enc), NULL, 0, &id, &d)
		    == AE_ENOTSUP && strstr(d.what, "aes256-ctr") != NULL,
		    "an unknown cipher, before the passphrase");
		static const char rsa[] =
		    "-----BEGIN RSA PRIVATE KEY-----\nx\n";
		static const char rsa_enc[] =
		    "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n";

		/* PEM RSA is libcrypto's to read: a damaged one is malformed
		 * with it, not read without it; an encrypted one, never */
		CHECK(ae_identity_parse_ssh(rsa, strlen(rsa), NULL, 0, &id, &d)
		    == (ae_rsa_available() ? AE_EFORMAT : AE_ENOTSUP),
		    "a damaged rsa pem");
		CHECK(ae_identity_parse_ssh(rsa_enc, strlen(rsa_enc), NULL, 0, &id,
		    &d) == AE_ENOTSUP && strstr(d.what, "ssh-keygen -p -f KEY")
		    != NULL, "an encrypted rsa pem");
		memcpy(enc, test_ssh_private, sizeof enc);
		enc[200] = enc[200] == 'A' ? 'B' : 'A';
		CHECK(ae_identity_parse_ssh(enc, strlen(enc), NULL, 0, &id, &d)
		    != AE_OK, "a damaged key is refused");
	}
	test_locked();
}

static void
test_slots(void)
{
	struct ae_identity id, sid, other;
	struct ae_recipient r, sr;
	struct ae_stanza s;
	uint8_t S1[32], S2[32];
	int i;

	ae_identity_parse_age(test_age_secret, &id, NULL);
	ae_recipient_parse(test_age_public, &r, NULL);
	ae_identity_parse_ssh(test_ssh_private, strlen(test_ssh_private), NULL,
	    0, &sid, NULL);
	ae_recipient_parse(test_ssh_public, &sr, NULL);
	CHECK(ae_identity_generate(&other, AE_STANZA_X25519) == AE_OK, "generate");
	for (i = 0; i < 2; i++) {
		const struct ae_recipient *rr = i == 0 ? &r : &sr;
		const struct ae_identity *ii = i == 0 ? &id : &sid;

		memset(&s, 0, sizeof s);
		CHECK(ae_stanza_secret_recipient(&s, rr, S1) == AE_OK, "wrap %d",
		    i);
		CHECK(ae_stanza_secret_identity(&s, ii, S2) == AE_OK
		    && memcmp(S1, S2, 32) == 0, "the identity finds S (%d)", i);
		CHECK(ae_stanza_secret_identity(&s, i == 0 ? &sid : &id, S2)
		    == AE_EKEY, "the other kind of key is not tried (%d)", i);
		if (i == 0)
			CHECK(ae_stanza_secret_identity(&s, &other, S2) == AE_OK
			    && memcmp(S1, S2, 32) != 0,
			    "another X25519 identity gets another S");
		else {
			s.tag[0] ^= 1;
			CHECK(ae_stanza_secret_identity(&s, &sid, S2) == AE_EKEY,
			    "another tag is not this key's slot");
			s.tag[0] ^= 1;
		}
		/* a low-order share is a malformed slot */
		memset(s.share, 0, sizeof s.share);
		CHECK(ae_stanza_secret_identity(&s, ii, S2) == AE_EFORMAT,
		    "low-order share (%d)", i);
		s.share[0] = 1;
		CHECK(ae_stanza_secret_identity(&s, ii, S2) == AE_EFORMAT,
		    "u = 1 share (%d)", i);
	}
	/* a recipient of low order is refused when writing */
	memset(&r.pub, 0, sizeof r.pub);
	CHECK(ae_stanza_secret_recipient(&s, &r, S1) == AE_EINVAL,
	    "low-order recipient");
}

/* ssh-rsa (format 4.7): keys, slots, and what is refused. */
static void
test_rsa(void)
{
	struct ae_identity id, lid, ed;
	struct ae_recipient r, lr, t;
	struct ae_stanza s, s2;
	struct ae_diag d;
	uint8_t S1[32], S2[32], e[32];
	char line[1200];
	int i;

	memset(&d, 0, sizeof d);
	if (!ae_rsa_available()) {
		CHECK(ae_recipient_parse(test_rsa_public, &r, &d) == AE_ENOTSUP
		    && strstr(d.what, "libcrypto") != NULL,
		    "a build without libcrypto says so");
		printf("test_recipient: no libcrypto in this build: ssh-rsa "
		    "refused, as checked; the rest of the RSA tests skipped\n");
		return;
	}
	CHECK(ae_recipient_parse(test_rsa_public, &r, &d) == AE_OK
	    && r.type == AE_STANZA_SSH_RSA, "rsa rcpt: %s", d.what ? d.what : "");
	CHECK(ae_recipient_rsa_bits(&r) == 2048, "2048 bits");
	CHECK(ae_identity_parse_ssh(test_rsa_private, strlen(test_rsa_private),
	    NULL, 0, &id, &d) == AE_OK && id.type == AE_STANZA_SSH_RSA,
	    "rsa id: %s", d.what ? d.what : "");
	CHECK(ae_recipient_equal(&id.r, &r) && memcmp(id.r.tag, r.tag, 4) == 0,
	    "rsa identity -> recipient");
	CHECK(ae_identity_parse_ssh(test_rsa_locked, strlen(test_rsa_locked),
	    NULL, 0, &ed, &d) == AE_EKEY
	    && strcmp(d.what, AE_SSH_NEEDS_PASSPHRASE) == 0,
	    "a protected rsa key asks");
	CHECK(ae_identity_parse_ssh(test_rsa_locked, strlen(test_rsa_locked),
	    (const uint8_t *)"test pass", 9, &lid, &d) == AE_OK
	    && ae_recipient_parse(test_rsa_locked_public, &lr, NULL) == AE_OK
	    && ae_recipient_equal(&lid.r, &lr), "protected rsa key opens");
	CHECK(ae_identity_parse_ssh(test_rsa_locked, strlen(test_rsa_locked),
	    (const uint8_t *)"test pasS", 9, &ed, &d) == AE_EKEY,
	    "protected rsa key, wrong passphrase");
	CHECK(ae_recipient_parse(test_rsa_small_public, &t, &d) == AE_ENOTSUP
	    && strstr(d.what, "2048") != NULL, "1024 bits refused");
	snprintf(line, sizeof line, "no-pty,command=\"x\" %s",
	    test_rsa_public);
	CHECK(ae_recipient_parse(line, &t, &d) == AE_OK
	    && ae_recipient_equal(&t, &r), "rsa with options");
	CHECK(!ae_recipient_equal(&r, &lr), "two rsa keys differ");

	/* slots: each key opens its own, not the other's */
	for (i = 0; i < 2; i++) {
		const struct ae_recipient *rr = i == 0 ? &r : &lr;
		const struct ae_identity *ii = i == 0 ? &id : &lid;

		memset(&s, 0, sizeof s);
		CHECK(ae_stanza_secret_recipient(&s, rr, S1) == AE_OK
		    && s.ct_len == 256, "rsa wrap %d", i);
		CHECK(ae_stanza_secret_identity(&s, ii, S2) == AE_OK
		    && memcmp(S1, S2, 32) == 0, "rsa unwrap %d", i);
		CHECK(ae_stanza_secret_identity(&s, i ? &id : &lid, S2)
		    == AE_EKEY, "the other rsa key is not tried (%d)", i);
		/* the same tag by chance: OAEP refuses */
		s2 = s;
		memcpy(s2.tag, (i ? &id : &lid)->r.tag, 4);
		CHECK(ae_stanza_secret_identity(&s2, i ? &id : &lid, S2)
		    == AE_EKEY, "another key under a matching tag (%d)", i);
	}
	/* every byte of C matters (OAEP's checks) */
	memset(&s, 0, sizeof s);
	ae_stanza_secret_recipient(&s, &r, S1);
	for (i = 0; i < 256; i += 17) {
		s2 = s;
		s2.ct[i] ^= 0x40;
		CHECK(ae_stanza_secret_identity(&s2, &id, S2) == AE_EKEY,
		    "C byte %d flipped", i);
	}
	s2 = s;
	s2.ct_len = 255;
	CHECK(ae_stanza_secret_identity(&s2, &id, S2) == AE_EKEY,
	    "C of the wrong length");
	/* two slots to one key differ (fresh Z and seed) */
	ae_stanza_secret_recipient(&s2, &r, S2);
	CHECK(memcmp(s.ct, s2.ct, 256) != 0 && memcmp(S1, S2, 32) != 0,
	    "fresh secrets");
	/* the samples' OAEP encoding (seed given) decodes with libcrypto's
	 * OAEP, and is fixed by its inputs */
	memset(e, 7, sizeof e);
	CHECK(ae_stanza_secret_recipient_with(&s, &r, e, S1) == AE_OK
	    && ae_stanza_secret_recipient_with(&s2, &r, e, S2) == AE_OK
	    && memcmp(s.ct, s2.ct, 256) == 0 && memcmp(S1, S2, 32) == 0,
	    "a given seed repeats");
	CHECK(ae_stanza_secret_identity(&s, &id, S2) == AE_OK
	    && memcmp(S1, S2, 32) == 0, "our OAEP encoding, libcrypto's "
	    "decoding");
	/* an ed25519 identity is not tried on an rsa slot */
	ae_identity_parse_ssh(test_ssh_private, strlen(test_ssh_private), NULL,
	    0, &ed, NULL);
	CHECK(ae_stanza_secret_identity(&s, &ed, S2) == AE_EKEY,
	    "ed25519 identity, rsa slot");
	/* a slot's encoding parses back, with its length rules */
	{
		uint8_t enc[AE_STANZA_MAX_LEN + 8];
		size_t len = ae_stanza_len(&s);

		CHECK(len == 3 + 4 + 256 + 64, "rsa slot length %zu", len);
		ae_stanza_encode(&s, enc);
		CHECK(ae_stanza_parse(enc, len, &s2, &d) == AE_OK
		    && s2.ct_len == 256 && memcmp(s2.ct, s.ct, 256) == 0
		    && memcmp(s2.wrap, s.wrap, 64) == 0, "rsa slot parses back");
		enc[1] = (68 + 255) >> 8;
		enc[2] = (uint8_t)(68 + 255);
		CHECK(ae_stanza_parse(enc, len, &s2, &d) == AE_EFORMAT,
		    "an rsa slot below 2048 bits is malformed");
		enc[1] = (68 + 1025) >> 8;
		enc[2] = (uint8_t)(68 + 1025);
		CHECK(ae_stanza_parse(enc, sizeof enc, &s2, &d) == AE_EFORMAT,
		    "an rsa slot over 8192 bits is malformed");
	}
	/* a private key whose n is not its public half's is malformed */
	{
		char text[sizeof test_rsa_private];
		uint8_t blob[4096];
		size_t bl, at;
		const char *b = strchr(test_rsa_private, '\n') + 1;
		const char *en = strstr(test_rsa_private, "-----END");
		CHECK(ae_base64_decode(b, (size_t)(en - b), blob, sizeof blob,
		    &bl, &at) == 0, "the test key decodes");
		/* flip a bit of the private section's copy of n: after the
		 * last "ssh-rsa" string (the private section's: n, then e)
		 * come n's length, its sign byte, then n */
		{
			uint8_t *n1 = NULL;
			size_t j;

			for (j = 0; j + 11 < bl; j++)
				if (memcmp(blob + j, "\0\0\0\7ssh-rsa", 11) == 0)
					n1 = blob + j;
			CHECK(n1 != NULL && n1 + 11 + 4 + 1 + 16 < blob + bl,
			    "the private section's ssh-rsa");
			if (n1 != NULL)
				n1[11 + 4 + 1 + 15] ^= 1;
		}
		{
			size_t o = 0, j;
			static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "abcdefghijklmnopqrstuvwxyz0123456789+/";

			o = (size_t)snprintf(text, sizeof text,
			    "-----BEGIN OPENSSH PRIVATE KEY-----\n");
			for (j = 0; j < bl; j += 3) {
				uint32_t v = (uint32_t)blob[j] << 16
				    | (j + 1 < bl ? (uint32_t)blob[j + 1] << 8 : 0)
				    | (j + 2 < bl ? blob[j + 2] : 0);

				text[o++] = b64[v >> 18 & 63];
				text[o++] = b64[v >> 12 & 63];
				text[o++] = j + 1 < bl ? b64[v >> 6 & 63] : '=';
				text[o++] = j + 2 < bl ? b64[v & 63] : '=';
			}
			o += (size_t)snprintf(text + o, sizeof text - o,
			    "\n-----END OPENSSH PRIVATE KEY-----\n");
			CHECK(ae_identity_parse_ssh(text, o, NULL, 0, &lid,
			    &d) == AE_EFORMAT,
			    "n differs from the public half's");
		}
	}
	ae_wipe(&id, sizeof id);
	ae_wipe(&lid, sizeof lid);
}

/* The post-quantum recipient (4.8): its strings both ways, the slot
 * secret, and each way a slot fails. */
static void
test_pq(void)
{
	static struct ae_identity id, other, x;
	static struct ae_recipient r, r2;
	static struct ae_stanza s;
	static char text[AE_RECIPIENT_TEXT_MAX], sec[AE_IDENTITY_TEXT_MAX];
	uint8_t S1[32], S2[32];
	struct ae_diag d = { 0 };
	size_t n, bad = 0;

	CHECK(ae_identity_parse_age(test_pq_secret, &id, NULL) == AE_OK,
	    "the sample PQ identity parses");
	CHECK(id.type == AE_STANZA_MLKEM768X25519, "as a PQ identity");
	/* its text both ways, in age's case conventions */
	n = ae_identity_format(&id, sec, sizeof sec);
	CHECK(n == strlen(test_pq_secret) && strcmp(sec, test_pq_secret) == 0,
	    "the identity's text is written back upper case");
	n = ae_recipient_format(&id.r, text, sizeof text);
	CHECK(n == 1959 && strncmp(text, "age1pq1", 7) == 0,
	    "the recipient is age1pq1 and 1,959 characters (%zu)", n);
	CHECK(ae_recipient_format(&id.r, text, 1959) == 0,
	    "a buffer one short is refused, not overrun");
	ae_recipient_format(&id.r, text, sizeof text);
	CHECK(ae_recipient_parse(text, &r, NULL) == AE_OK
	    && ae_recipient_equal(&r, &id.r), "the recipient parses back");
	/* every 97th character changed: the checksum catches each */
	for (size_t i = 7; i < n; i += 97) {
		char c = text[i];
		text[i] = c == 'q' ? 'p' : 'q';
		bad += ae_recipient_parse(text, &r2, &d) != AE_EFORMAT;
		text[i] = c;
	}
	CHECK(bad == 0, "%zu changed age1pq1 strings accepted", bad);
	/* a key whose X25519 half is of low order is refused at parse */
	{
		static struct ae_recipient lo;
		static char t2[AE_RECIPIENT_TEXT_MAX];

		lo = id.r;
		memset(lo.pq + AE_MLKEM768_EK_LEN, 0, 32);
		ae_recipient_format(&lo, t2, sizeof t2);
		CHECK(ae_recipient_parse(t2, &r2, &d) == AE_EINVAL,
		    "a low-order X25519 half is refused");
	}
	/* the slot: the identity finds S; another PQ identity gets another
	 * S by tag (AE_EKEY); X25519's identity is not tried */
	CHECK(ae_identity_generate(&other, AE_STANZA_MLKEM768X25519) == AE_OK,
	    "generate a PQ identity");
	CHECK(ae_identity_parse_age(test_age_secret, &x, NULL) == AE_OK, "x");
	memset(&s, 0, sizeof s);
	CHECK(ae_stanza_secret_recipient(&s, &r, S1) == AE_OK, "PQ slot");
	CHECK(ae_stanza_len(&s) == 1191, "a PQ slot is 1191 bytes");
	CHECK(ae_stanza_secret_identity(&s, &id, S2) == AE_OK
	    && memcmp(S1, S2, 32) == 0, "the PQ identity finds S");
	CHECK(ae_stanza_secret_identity(&s, &other, S2) == AE_EKEY,
	    "another PQ key's tag: not tried");
	CHECK(ae_stanza_secret_identity(&s, &x, S2) == AE_EKEY,
	    "an X25519 identity is not tried on a PQ slot");
	/* a changed ML-KEM byte: implicit rejection, another S */
	s.ct[7] ^= 0x20;
	CHECK(ae_stanza_secret_identity(&s, &id, S2) == AE_OK
	    && memcmp(S1, S2, 32) != 0, "a changed ciphertext gives another S");
	s.ct[7] ^= 0x20;
	memset(s.ct + AE_PQ_CT_LEN - 32, 0, 32);
	CHECK(ae_stanza_secret_identity(&s, &id, S2) == AE_EFORMAT,
	    "a low-order X25519 half is a malformed slot");
	ae_wipe(&id, sizeof id);
	ae_wipe(&other, sizeof other);
}

int
main(void)
{
	test_bech32();
	test_base64();
	test_x25519();
	test_keys();
	test_slots();
	test_rsa();
	test_pq();
	return t_finish("recipient");
}
