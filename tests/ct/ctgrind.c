/*
 * ctgrind.c -- constant-time check of seal and open under valgrind.
 *
 * The key, the plaintext and H are marked undefined with
 * VALGRIND_MAKE_MEM_UNDEFINED; memcheck then reports any branch or memory
 * address that depends on them.  Only the tag-check verdict is declared
 * public inside ae_gcm_open (AE_DECLASSIFY), since a caller must branch on
 * it.  The key handling of the container runs too: a key file's hex
 * encoding, and a key slot's wrap and unwrap (HKDF, HMAC, the XOR pad and
 * the MAC compare), with the slot secret and the file key undefined.
 * CBC decryption (both tiers) and PBKDF2-HMAC-SHA512, which read AES
 * Crypt files, run with their key and passphrase undefined.  X-Wing
 * (ML-KEM-768 and X25519) encapsulates with its randomness undefined
 * and decapsulates with the private key's secret parts (ML-KEM's s and
 * z, the X25519 scalar) and the ciphertext undefined, for a good
 * ciphertext and a changed one (implicit rejection).  The GF(2^128)
 * product of the salvage search runs with both operands undefined.  Run: valgrind --error-exitcode=1 ctgrind.  Zero errors is a pass.
 */
#include <stdio.h>
#include <string.h>

#include <valgrind/memcheck.h>

#include "crypto/cbc.h"
#include "crypto/gcm.h"
#include "crypto/ghash_ct.h"
#include "crypto/pbkdf2.h"
#include "container/bech32.h"
#include "container/keyfile.h"
#include "container/recipient.h"
#include "crypto/x25519.h"
#include "crypto/xwing.h"
#include "container/stanza.h"

#define LEN 1000   /* 62 full blocks and a tail: bulk and tail paths */

static int
run_tier(enum ae_gcm_tier t)
{
	static uint8_t key[32], pt[LEN], ct[LEN], back[LEN], aad[37];
	uint8_t iv[12] = { 1, 2, 3 }, iv_long[20] = { 9 }, tag[16], bad[16];
	ae_gcm_ctx ctx;
	int i, r1, r2, r3, r4;

	for (i = 0; i < 32; i++)
		key[i] = (uint8_t)(i * 29 + 7);
	for (i = 0; i < LEN; i++)
		pt[i] = (uint8_t)(i * 13);
	VALGRIND_MAKE_MEM_UNDEFINED(key, sizeof key);
	VALGRIND_MAKE_MEM_UNDEFINED(pt, sizeof pt);

	if (ae_gcm_init_tier(&ctx, key, t) != 0) {
		printf("tier %s: not available, skipped\n", ae_gcm_tier_name(t));
		return 0;
	}
	/* H and its powers live in ctx: mark the whole keyed state. */
	VALGRIND_MAKE_MEM_UNDEFINED(&ctx.u, sizeof ctx.u);

	ae_gcm_seal(&ctx, iv, sizeof iv, aad, sizeof aad, pt, LEN, ct, tag);
	/* The tag and ciphertext are public once produced. */
	VALGRIND_MAKE_MEM_DEFINED(tag, sizeof tag);
	VALGRIND_MAKE_MEM_DEFINED(ct, sizeof ct);
	r1 = ae_gcm_open(&ctx, iv, sizeof iv, aad, sizeof aad, ct, LEN, tag, 16, back);
	memcpy(bad, tag, 16);
	bad[15] ^= 1;
	r2 = ae_gcm_open(&ctx, iv, sizeof iv, aad, sizeof aad, ct, LEN, bad, 16, back);
	/* a non-96-bit IV: J0 comes from GHASH under the secret H */
	ae_gcm_seal(&ctx, iv_long, sizeof iv_long, NULL, 0, pt, LEN, ct, tag);
	VALGRIND_MAKE_MEM_DEFINED(tag, sizeof tag);
	VALGRIND_MAKE_MEM_DEFINED(ct, sizeof ct);
	r3 = ae_gcm_open(&ctx, iv_long, sizeof iv_long, NULL, 0, ct, LEN, tag, 16, back);
	r4 = ae_gcm_open(&ctx, iv_long, sizeof iv_long, NULL, 0, ct, LEN, bad, 16, back);
	ae_gcm_wipe(&ctx);
	printf("tier %s: seal/open ran (good tag %s, bad tag %s; long IV good %s, "
	    "bad %s)\n", ae_gcm_tier_name(t), r1 == 0 ? "accepted" : "REJECTED",
	    r2 != 0 ? "rejected" : "ACCEPTED", r3 == 0 ? "accepted" : "REJECTED",
	    r4 != 0 ? "rejected" : "ACCEPTED");
	return (r1 == 0 && r2 != 0 && r3 == 0 && r4 != 0) ? 0 : 1;
}

/* CBC decryption (AES Crypt files) on the software tier and AES-NI:
 * the key and the plaintext it yields are secret, the ciphertext not.
 * 37 blocks cross the 8- and 16-block batches and a tail. */
static int
run_cbc(enum ae_gcm_tier t)
{
	static uint8_t key[32], ct[37 * 16], pt[37 * 16];
	uint8_t iv[16] = { 7 };
	struct ae_cbc_key k;
	int i;

	for (i = 0; i < 32; i++)
		key[i] = (uint8_t)(i * 31 + 5);
	for (i = 0; i < (int)sizeof ct; i++)
		ct[i] = (uint8_t)(i * 7);
	VALGRIND_MAKE_MEM_UNDEFINED(key, sizeof key);
	if (ae_cbc_init_tier(&k, key, t) != 0) {
		printf("cbc %s: not available, skipped\n", ae_gcm_tier_name(t));
		return 0;
	}
	/* the round keys are secret; which tier runs is not */
	VALGRIND_MAKE_MEM_UNDEFINED(&k.ct, sizeof k.ct);
	VALGRIND_MAKE_MEM_UNDEFINED(k.dk, sizeof k.dk);
	ae_cbc_decrypt(&k, iv, ct, pt, 37);
	ae_cbc_decrypt(&k, iv, ct, pt, 3);
	ae_cbc_wipe(&k);
	printf("cbc %s: decrypted 40 blocks under a secret key\n",
	    ae_gcm_tier_name(t));
	return 0;
}

/* PBKDF2-HMAC-SHA512 and the AES Crypt key derivation of versions 0-2
 * on a secret passphrase: no branch or index may depend on it. */
static int
run_pbkdf2(void)
{
	static uint8_t pass[24], out[32];
	const uint8_t salt[16] = { 1, 2, 3 };
	int r;

	memcpy(pass, "correct horse battery st", sizeof pass);
	VALGRIND_MAKE_MEM_UNDEFINED(pass, sizeof pass);
	r = ae_pbkdf2_sha512(pass, sizeof pass, salt, sizeof salt, 50, out,
	    sizeof out);
	printf("pbkdf2-sha512: %s\n", r == 0 ? "ran" : "FAILED");
	return r == 0 ? 0 : 1;
}

static int
run_keys(void)
{
	static uint8_t key[32], S[32], fk[32], out[32];
	struct ae_stanza s;
	char text[256];
	int i, r1, r2;

	for (i = 0; i < 32; i++) {
		key[i] = (uint8_t)(i * 7 + 1);
		S[i] = (uint8_t)(i * 11 + 3);
		fk[i] = (uint8_t)(i * 5 + 2);
	}
	VALGRIND_MAKE_MEM_UNDEFINED(key, sizeof key);
	VALGRIND_MAKE_MEM_UNDEFINED(S, sizeof S);
	VALGRIND_MAKE_MEM_UNDEFINED(fk, sizeof fk);
	/* The text is the secret written out: it stays undefined. */
	if (ae_keyfile_format(key, text, sizeof text) == 0)
		return 1;

	memset(&s, 0, sizeof s);
	s.type = AE_STANZA_KEYFILE;
	ae_stanza_secret_keyfile(&s, key, S);
	ae_stanza_wrap(&s, S, fk);
	/* The wrapped body is public once written. */
	VALGRIND_MAKE_MEM_DEFINED(s.wrap, sizeof s.wrap);
	r1 = ae_stanza_unwrap(&s, S, out);
	s.wrap[40] ^= 1;
	r2 = ae_stanza_unwrap(&s, S, out);
	printf("key slot: wrap/unwrap ran (good %s, tampered %s)\n",
	    r1 == 0 ? "accepted" : "REJECTED", r2 != 0 ? "rejected" :
	    "ACCEPTED");
	return (r1 == 0 && r2 != 0) ? 0 : 1;
}

/*
 * An age identity's text is its secret key: Bech32 both ways with the
 * scalar and the text undefined (only the length and the human-readable
 * part are public), then the X25519 a recipient slot runs with the
 * identity's scalar (libsodium's, checked here too), up to the slot
 * secret S.
 */
static int
run_identity(void)
{
	static struct ae_identity id;
	static uint8_t back[32], share[32], Z[32];
	char text[AE_IDENTITY_TEXT_MAX], hrp[32];
	size_t n, len, bad;
	int i, r, same, rz;

	memset(&id, 0, sizeof id);
	for (i = 0; i < 32; i++) {
		id.secret[i] = (uint8_t)(i * 29 + 7);
		share[i] = (uint8_t)(i * 3 + 9);
	}
	id.type = id.r.type = AE_STANZA_X25519;
	VALGRIND_MAKE_MEM_UNDEFINED(id.secret, sizeof id.secret);
	n = ae_identity_format(&id, text, sizeof text);
	if (n == 0)
		return 1;
	r = ae_bech32_decode(text, n, hrp, sizeof hrp, back, sizeof back,
	    &len, &bad);
	/* the slot's X25519 (share is public, written in the header) */
	rz = ae_x25519(Z, id.secret, share);
	/* (the test's own comparison is not the code under test) */
	VALGRIND_MAKE_MEM_DEFINED(back, sizeof back);
	VALGRIND_MAKE_MEM_DEFINED(id.secret, sizeof id.secret);
	same = memcmp(back, id.secret, 32) == 0;
	printf("identity: Bech32 out and back ran (%s), X25519 ran (%s)\n",
	    r == 0 && len == 32 && same ? "same key" : "DIFFERENT",
	    rz == 0 ? "ok" : "FAILED");
	return r == 0 && len == 32 && same && rz == 0 ? 0 : 1;
}

/*
 * X-Wing.  Key generation is not checked: it samples the public matrix
 * from rho, which it derives from the secret seed, so its rejection
 * sampling would be flagged though rho is published in the key.  The
 * key is made in the clear, then everything secret in it is marked.
 */
static int
run_xwing(void)
{
	static struct ae_xwing_key k;
	static uint8_t seed[32], eseed[64], pk[AE_XWING_PK_LEN];
	static uint8_t ct[AE_XWING_CT_LEN], ss[32], ss2[32], ss3[32];
	int i, e1, e2, e3, good, rejected;

	for (i = 0; i < 32; i++)
		seed[i] = (uint8_t)(i * 13 + 1);
	for (i = 0; i < 64; i++)
		eseed[i] = (uint8_t)(i * 7 + 3);
	if (ae_xwing_expand(&k, pk, seed) != 0)
		return 1;
	VALGRIND_MAKE_MEM_UNDEFINED(eseed, sizeof eseed);
	e1 = ae_xwing_encaps(ct, ss, pk, eseed);
	VALGRIND_MAKE_MEM_DEFINED(ct, sizeof ct);   /* public: it is sent */
	/* dk = dk_pke (s) || ek || H(ek) || z: s and z are secret */
	VALGRIND_MAKE_MEM_UNDEFINED(k.dk_m, AE_PKE_DK_LEN);
	VALGRIND_MAKE_MEM_UNDEFINED(k.dk_m + AE_MLKEM768_DK_LEN - 32, 32);
	VALGRIND_MAKE_MEM_UNDEFINED(k.sk_x, sizeof k.sk_x);
	VALGRIND_MAKE_MEM_UNDEFINED(ct, sizeof ct);
	e2 = ae_xwing_decaps(ss2, ct, &k);
	VALGRIND_MAKE_MEM_DEFINED(ct, sizeof ct);
	ct[100] ^= 1;                               /* implicit rejection */
	VALGRIND_MAKE_MEM_UNDEFINED(ct, sizeof ct);
	e3 = ae_xwing_decaps(ss3, ct, &k);
	VALGRIND_MAKE_MEM_DEFINED(ss, sizeof ss);
	VALGRIND_MAKE_MEM_DEFINED(ss2, sizeof ss2);
	VALGRIND_MAKE_MEM_DEFINED(ss3, sizeof ss3);
	good = e1 == 0 && e2 == 0 && memcmp(ss, ss2, 32) == 0;
	rejected = e3 == 0 && memcmp(ss, ss3, 32) != 0;
	printf("x-wing: encapsulation and decapsulation ran (%s), a changed "
	    "ciphertext was rejected implicitly (%s)\n", good ? "same secret"
	    : "DIFFERENT", rejected ? "yes" : "NO");
	return good && rejected ? 0 : 1;
}

/* The product in GF(2^128) the salvage search uses (recscan.c), with
 * both operands secret (running GHASH sums, powers of H). */
static int
run_gf128(void)
{
	static uint8_t x[16], y[16], z[16];
	int i;

	for (i = 0; i < 16; i++) {
		x[i] = (uint8_t)(i * 37 + 1);
		y[i] = (uint8_t)(i * 91 + 5);
	}
	VALGRIND_MAKE_MEM_UNDEFINED(x, sizeof x);
	VALGRIND_MAKE_MEM_UNDEFINED(y, sizeof y);
	ae_gf128_mul(z, x, y);
	ae_gf128_mul(z, z, y);
	VALGRIND_MAKE_MEM_DEFINED(z, sizeof z);
	printf("gf128: the product ran with both operands secret\n");
	return 0;
}

int
main(void)
{
	int t, bad = 0;

	for (t = 0; t < AE_GCM_TIER_COUNT; t++)
		bad |= run_tier((enum ae_gcm_tier)t);
	bad |= run_cbc(AE_GCM_TIER_SOFT);
	bad |= run_cbc(AE_GCM_TIER_NI);
	bad |= run_pbkdf2();
	bad |= run_keys();
	bad |= run_identity();
	bad |= run_xwing();
	bad |= run_gf128();
	return bad;
}
