/*
 * test_hash.c -- SHA-256 (FIPS 180-4 examples), HMAC-SHA-256 (RFC 4231)
 * and HKDF-SHA-256 (RFC 5869) known answers; SHA-512 and Ed25519 (RFC
 * 8032's first two tests) as crypto/ed25519 gives them; base64 (RFC
 * 4648's examples), which SSH signatures are written in.
 */
#include "check.h"

#include "common/base64.h"
/* AE_TEST_CORE_ONLY (tests/cross/run.sh's build of crypto/ alone):
 * Ed25519 and SHA-512 are libsodium's, so they are left out there. */
#ifndef AE_TEST_CORE_ONLY
#include "crypto/ed25519.h"
#include "common/error.h"
#include "crypto/chachapoly.h"
#include "crypto/scrypt.h"
#include <sodium.h>
#endif
#include "crypto/hkdf.h"
#include "crypto/hmac_sha256.h"
#include "crypto/sha256.h"

/* Hash msg whole, one byte at a time, and in ragged pieces. */
static void
sha_case(const char *msg, size_t len, const char *hex)
{
	uint8_t out[32];
	struct ae_sha256 s;
	size_t i, step;

	ae_sha256(msg, len, out);
	t_check_hex(out, hex, "sha256 one-shot");
	ae_sha256_init(&s);
	for (i = 0; i < len; i++)
		ae_sha256_update(&s, msg + i, 1);
	ae_sha256_final(&s, out);
	t_check_hex(out, hex, "sha256 byte by byte");
	ae_sha256_init(&s);
	for (i = 0, step = 1; i < len; i += step, step = step * 3 % 71 + 1)
		ae_sha256_update(&s, msg + i, len - i < step ? len - i : step);
	ae_sha256_final(&s, out);
	t_check_hex(out, hex, "sha256 ragged pieces");
}

static void
test_sha256(void)
{
	static const char m448[] =
	    "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	static const char m896[] =
	    "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
	    "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
	char *million = malloc(1000000);
	uint8_t out[32];
	struct ae_sha256 s;
	int i;

	sha_case("abc", 3,
	    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	sha_case("", 0,
	    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	sha_case(m448, strlen(m448),
	    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	sha_case(m896, strlen(m896),
	    "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
	memset(million, 'a', 1000000);
	ae_sha256(million, 1000000, out);
	t_check_hex(out, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
	    "sha256 million a");
	ae_sha256_init(&s);
	for (i = 0; i < 1000; i++)
		ae_sha256_update(&s, million, 1000);
	ae_sha256_final(&s, out);
	t_check_hex(out, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
	    "sha256 million a in 1000-byte pieces");
	free(million);
}

static void
test_hmac(void)
{
	static const struct {
		const char *key, *data, *mac;   /* key and data as hex */
	} v[] = {
		{ "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", "4869205468657265",
		  "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7" },
		{ "4a656665",
		  "7768617420646f2079612077616e7420666f72206e6f7468696e673f",
		  "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843" },
		{ "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
		  "dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd"
		  "dddddddddddddddddddddddddddddddddddd",
		  "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe" },
		{ "0102030405060708090a0b0c0d0e0f10111213141516171819",
		  "cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd"
		  "cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd",
		  "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b" },
		/* case 5: the RFC gives the 128-bit truncation */
		{ "0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c",
		  "546573742057697468205472756e636174696f6e",
		  "a3b6167473100ee06e0c796c2955552b" },
	};
	char key131[263], d6[256], d7[400];
	uint8_t out[32];
	size_t i, kl, dl;

	for (i = 0; i < sizeof v / sizeof v[0]; i++) {
		uint8_t *k = t_unhex(v[i].key, strlen(v[i].key), &kl);
		uint8_t *d = t_unhex(v[i].data, strlen(v[i].data), &dl);

		ae_hmac_sha256(k, kl, d, dl, out);
		t_check_hex(out, v[i].mac, "hmac rfc4231");
		free(k);
		free(d);
	}
	/* cases 6 and 7: a 131-byte key, hashed first */
	memset(key131, 0xaa, 131);
	strcpy(d6, "Test Using Larger Than Block-Size Key - Hash Key First");
	ae_hmac_sha256(key131, 131, d6, strlen(d6), out);
	t_check_hex(out, "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
	    "hmac rfc4231 case 6");
	strcpy(d7, "This is a test using a larger than block-size key and a larger "
	    "than block-size data. The key needs to be hashed before being used "
	    "by the HMAC algorithm.");
	ae_hmac_sha256(key131, 131, d7, strlen(d7), out);
	t_check_hex(out, "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2",
	    "hmac rfc4231 case 7");
}

static void
hkdf_case(const uint8_t *ikm, size_t ikml, const uint8_t *salt, size_t sl,
    const uint8_t *info, size_t il, size_t L, const char *prk_hex,
    const char *okm_hex)
{
	uint8_t prk[32], okm[100], okm2[100];

	ae_hkdf_sha256_extract(salt, sl, ikm, ikml, prk);
	t_check_hex(prk, prk_hex, "hkdf prk");
	CHECK(ae_hkdf_sha256_expand(prk, info, il, okm, L) == 0, "hkdf expand");
	t_check_hex(okm, okm_hex, "hkdf okm");
	CHECK(ae_hkdf_sha256(salt, sl, ikm, ikml, info, il, okm2, L) == 0, "hkdf");
	CHECK_MEM(okm, okm2, L, "hkdf one-shot differs");
}

static void
test_hkdf(void)
{
	uint8_t ikm[80], salt[80], info[80], big[256 * 32];
	uint8_t prk[32] = { 0 };
	int i;

	memset(ikm, 0x0b, 22);
	for (i = 0; i < 13; i++) salt[i] = (uint8_t)i;
	for (i = 0; i < 10; i++) info[i] = (uint8_t)(0xf0 + i);
	hkdf_case(ikm, 22, salt, 13, info, 10, 42,
	    "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5",
	    "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf"
	    "34007208d5b887185865");
	for (i = 0; i < 80; i++) {
		ikm[i] = (uint8_t)i;
		salt[i] = (uint8_t)(0x60 + i);
		info[i] = (uint8_t)(0xb0 + i);
	}
	hkdf_case(ikm, 80, salt, 80, info, 80, 82,
	    "06a6b88c5853361a06104c9ceb35b45cef760014904671014a193f40c15fc244",
	    "b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c"
	    "59045a99cac7827271cb41c65e590e09da3275600c2f09b8367793a9aca3db71"
	    "cc30c58179ec3e87c14c01d5c1f3434f1d87");
	memset(ikm, 0x0b, 22);
	hkdf_case(ikm, 22, NULL, 0, NULL, 0, 42,
	    "19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04",
	    "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d"
	    "9d201395faa4b61a96c8");
	CHECK(ae_hkdf_sha256_expand(prk, NULL, 0, big, 255 * 32) == 0,
	    "hkdf: 255 blocks is the limit and allowed");
	CHECK(ae_hkdf_sha256_expand(prk, NULL, 0, big, 255 * 32 + 1) != 0,
	    "hkdf: more than 255 blocks must be refused");
}

#ifndef AE_TEST_CORE_ONLY
static void
test_ed25519(void)
{
	static const struct {
		const char *seed, *pk, *msg, *sig;
	} v[] = {
		{ "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
		  "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
		  "",
		  "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e0652249015"
		  "55fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b" },
		{ "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
		  "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
		  "72",
		  "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69d"
		  "a085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00" },
	};
	uint8_t pk[32], sig[64], *seed, *msg, *want;
	struct ae_sha512 h;
	uint8_t d[64];
	size_t i, n, mn;

	ae_sha512_init(&h);
	ae_sha512_update(&h, "a", 1);
	ae_sha512_update(&h, "bc", 2);
	ae_sha512_final(&h, d);
	t_check_hex(d, "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
	    "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
	    "sha512 abc in two pieces");
	for (i = 0; i < sizeof v / sizeof *v; i++) {
		seed = t_unhex(v[i].seed, strlen(v[i].seed), &n);
		msg = t_unhex(v[i].msg, strlen(v[i].msg), &mn);
		CHECK(ae_ed25519_public(pk, seed) == 0, "ed25519 public");
		t_check_hex(pk, v[i].pk, "ed25519 public key");
		CHECK(ae_ed25519_sign(sig, msg, mn, seed) == 0, "ed25519 sign");
		t_check_hex(sig, v[i].sig, "ed25519 signature");
		CHECK(ae_ed25519_verify(sig, msg, mn, pk) == 0,
		    "ed25519: the vector's signature verifies");
		want = t_unhex(v[i].sig, strlen(v[i].sig), &n);
		want[i * 13 % 64] ^= 0x40;
		CHECK(ae_ed25519_verify(want, msg, mn, pk) != 0,
		    "ed25519: a changed signature does not verify");
		CHECK(ae_ed25519_verify(sig, (const uint8_t *)"x", 1, pk) != 0,
		    "ed25519: another message does not verify");
		free(want);
		free(seed);
		free(msg);
	}
}


/* RFC 7914 section 12, the second vector (the first has an empty
 * passphrase and salt; the third and fourth take seconds). */
static void
test_scrypt(void)
{
	uint8_t out[64];

	CHECK(ae_scrypt((const uint8_t *)"password", 8,
	    (const uint8_t *)"NaCl", 4, 10, 8, 16, out, sizeof out) == 0,
	    "scrypt runs");
	t_check_hex(out, "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b373162"
	    "2eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640",
	    "scrypt: RFC 7914's password/NaCl, N = 1024, r = 8, p = 16");
	CHECK(ae_scrypt((const uint8_t *)"x", 1, (const uint8_t *)"y", 1,
	    0, 8, 1, out, 32) != 0, "scrypt: log2 N of 0 is refused");
	CHECK(ae_scrypt((const uint8_t *)"x", 1, (const uint8_t *)"y", 1,
	    AE_SCRYPT_LOG_N_MAX + 1, 8, 1, out, 32) != 0,
	    "scrypt: log2 N over the most is refused");
}
#endif

#ifndef AE_TEST_CORE_ONLY
/* RFC 8439's AEAD as age opens it, by libcrypto (where built in) and by
 * libsodium: what libsodium seals opens, a changed byte anywhere does
 * not, and then nothing of the plaintext is left in out. */
static void
test_chachapoly(void)
{
	static const size_t lens[] = { 0, 1, 63, 64, 65, 1000, 65536 };
	uint8_t key[32], nonce[12], *pt, *ct, *out;
	unsigned long long clen;
	size_t i, k, sodium;

	pt = malloc(65536);
	ct = malloc(65536 + 16);
	out = malloc(65536);
	randombytes_buf(key, sizeof key);
	randombytes_buf(nonce, sizeof nonce);
	randombytes_buf(pt, 65536);
	for (sodium = 0; sodium < 2; sodium++) {
		ae_chacha20poly1305_force_sodium((int)sodium);
		for (i = 0; i < sizeof lens / sizeof *lens; i++) {
			size_t n = lens[i];

			crypto_aead_chacha20poly1305_ietf_encrypt(ct, &clen, pt,
			    n, NULL, 0, NULL, nonce, key);
			CHECK(ae_chacha20poly1305_open(key, nonce, ct, n + 16,
			    out) == 0 && memcmp(out, pt, n) == 0,
			    "chachapoly (%s) opens %zu bytes", sodium ?
			    "libsodium" : "default", n);
			ct[(n * 7 + 3) % (n + 16)] ^= 0x20;
			memset(out, 0x55, 65536);
			CHECK(ae_chacha20poly1305_open(key, nonce, ct, n + 16,
			    out) == AE_EAUTH, "chachapoly (%s): a changed byte "
			    "of %zu fails", sodium ? "libsodium" : "default", n);
			for (k = 0; k < n && (out[k] == 0x55 || out[k] == 0);
			    k++)
				;
			CHECK(k == n, "chachapoly (%s): out holds nothing of the "
			    "plaintext after a failure (%zu bytes)", sodium ?
			    "libsodium" : "default", n);
		}
		CHECK(ae_chacha20poly1305_open(key, nonce, ct, 15, out)
		    == AE_EINVAL, "chachapoly: shorter than a tag");
	}
	ae_chacha20poly1305_force_sodium(0);
	free(pt);
	free(ct);
	free(out);
}
#endif

/* The strict decoder age needs: each case decodes or not, as RFC 4648
 * 3.5's canonical encoding says. */
static void
test_base64_strict(void)
{
	static const struct {
		const char *s;
		int pad, ok;
		const char *hex;
	} v[] = {
		{ "Zm9vYg", 0, 1, "666f6f62" },
		{ "Zm9vYg==", 1, 1, "666f6f62" },
		{ "Zm9vYg==", 0, 0, NULL },     /* padding where none may be */
		{ "Zm9vYg", 1, 0, NULL },       /* none where it must be */
		{ "Zm9vYh", 0, 0, NULL },       /* unused bits not zero */
		{ "Zm9vYmF", 0, 0, NULL },      /* ditto, 2 bits */
		{ "Zm9vYmE", 0, 1, "666f6f6261" },
		{ "Zm9v Yg", 0, 0, NULL },      /* whitespace */
		{ "Zm9vY", 0, 0, NULL },        /* a length base64 cannot have */
		{ "Zm9=Yg==", 1, 0, NULL },     /* '=' inside */
		{ "", 0, 1, "" },
	};
	uint8_t out[16];
	size_t i, n;

	for (i = 0; i < sizeof v / sizeof *v; i++) {
		int r = ae_base64_decode_strict(v[i].s, strlen(v[i].s), v[i].pad,
		    out, sizeof out, &n);

		CHECK((r == 0) == v[i].ok, "strict base64 \"%s\" (pad %d): %s",
		    v[i].s, v[i].pad, v[i].ok ? "decodes" : "refused");
		if (r == 0 && v[i].ok)
			t_check_hex(out, v[i].hex, "strict base64 bytes");
		if (r == 0 && v[i].ok)
			CHECK(n * 2 == strlen(v[i].hex), "strict base64 length");
	}
	CHECK(ae_base64_decode_strict("Zm9vYmFy", 8, 0, out, 5, &n) == -2,
	    "strict base64 into too small a buffer");
}

static void
test_base64(void)
{
	static const char *const in[] = { "", "f", "fo", "foo", "foob",
	    "fooba", "foobar" };
	static const char *const out[] = { "", "Zg==", "Zm8=", "Zm9v",
	    "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy" };
	char b[16], nopad[16];
	uint8_t back[16];
	size_t i, n, len, bad;

	for (i = 0; i < sizeof in / sizeof *in; i++) {
		n = ae_base64_encode((const uint8_t *)in[i], strlen(in[i]), 1,
		    b, sizeof b);
		CHECK(n == strlen(out[i]) && strcmp(b, out[i]) == 0,
		    "base64 of \"%s\": %s", in[i], b);
		memcpy(nopad, out[i], strlen(out[i]) + 1);
		nopad[strcspn(nopad, "=")] = 0;
		n = ae_base64_encode((const uint8_t *)in[i], strlen(in[i]), 0,
		    b, sizeof b);
		CHECK(n == strlen(nopad) && strcmp(b, nopad) == 0,
		    "base64 without padding of \"%s\": %s", in[i], b);
		CHECK(ae_base64_decode(out[i], strlen(out[i]), back,
		    sizeof back, &len, &bad) == 0 && len == strlen(in[i])
		    && memcmp(back, in[i], len) == 0, "base64 back: %s",
		    out[i]);
	}
	/* out too small by one (the NUL) is refused, not cut */
	CHECK(ae_base64_encode((const uint8_t *)"foobar", 6, 1, b, 8) == 0,
	    "base64 into a buffer without room for the NUL");
	CHECK(ae_base64_encode((const uint8_t *)"foobar", 6, 1, b, 9) == 8,
	    "base64 into a buffer just large enough");
}

/* The SHA-256 instructions against the portable code, where the CPU
 * has them: random lengths around the block, fed whole and in pieces. */
static void
test_sha256_paths(void)
{
	uint8_t *buf = malloc(70000), a[32], b[32];
	struct ae_sha256 s;
	size_t i, n, at, step;
	uint32_t x = 12345;

	if (!ae_sha256_accelerated()) {
		t_skip("sha256 paths: this CPU (or build) has no SHA instructions");
		free(buf);
		return;
	}
	for (i = 0; i < 70000; i++) {
		x = x * 1103515245u + 12345u;
		buf[i] = (uint8_t)(x >> 16);
	}
	for (i = 0; i < 300; i++) {
		n = i < 200 ? i : (size_t)(x = x * 1103515245u + 12345u) % 70000;
		ae_sha256_force_portable(1);
		ae_sha256(buf, n, a);
		ae_sha256_force_portable(0);
		ae_sha256(buf, n, b);
		CHECK(memcmp(a, b, 32) == 0, "sha256 paths differ at %zu bytes", n);
		ae_sha256_init(&s);
		for (at = 0, step = 1; at < n; at += step, step = step * 5 % 157 + 1)
			ae_sha256_update(&s, buf + at, n - at < step ? n - at : step);
		ae_sha256_final(&s, b);
		CHECK(memcmp(a, b, 32) == 0, "sha256 paths differ in pieces at "
		    "%zu bytes", n);
	}
	free(buf);
}

int
main(void)
{
	test_sha256();
	ae_sha256_force_portable(1);
	test_sha256();          /* (again, on the portable code) */
	ae_sha256_force_portable(0);
	test_sha256_paths();
	test_hmac();
	test_hkdf();
#ifndef AE_TEST_CORE_ONLY
	test_ed25519();
	test_scrypt();
	test_chachapoly();
#endif
	test_base64_strict();
	test_base64();
	return t_finish("hash");
}
