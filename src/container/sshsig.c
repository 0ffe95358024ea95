/*
 * sshsig.c -- OpenSSH's signature format (contract in sshsig.h).
 */
#include "config.h"
#include "sshsig.h"

#include <string.h>

#include "common/base64.h"
#include "crypto/sha256.h"
#include "sshwire.h"

#define ED "ssh-ed25519"
#define BEGIN "-----BEGIN SSH SIGNATURE-----\n"
#define END "-----END SSH SIGNATURE-----\n"
/* ssh-keygen's line length in the armour */
#define LINE 70

void
ae_ssh_ed25519_blob(const uint8_t pk[32],
    uint8_t out[AE_SSH_ED25519_BLOB_LEN])
{
	struct ae_ssh_out o = { out, 0, AE_SSH_ED25519_BLOB_LEN, 0 };

	ae_ssh_put_string(&o, ED, strlen(ED));
	ae_ssh_put_string(&o, pk, 32);
}

void
ae_ssh_fingerprint(const uint8_t pk[32], char out[AE_SSH_FINGERPRINT_MAX])
{
	uint8_t blob[AE_SSH_ED25519_BLOB_LEN], h[AE_SHA256_LEN];

	ae_ssh_ed25519_blob(pk, blob);
	ae_sha256(blob, sizeof blob, h);
	memcpy(out, "SHA256:", 7);
	(void)ae_base64_encode(h, sizeof h, 0, out + 7,
	    AE_SSH_FINGERPRINT_MAX - 7);
}

size_t
ae_sshsig_tbs(const char *ns, const uint8_t h[64], uint8_t *out)
{
	struct ae_ssh_out o = { out, 0, AE_SSHSIG_TBS_MAX, 0 };
	size_t nl = strlen(ns);

	if (nl == 0 || nl > AE_SSHSIG_NS_MAX)
		return 0;
	ae_ssh_put(&o, "SSHSIG", 6);
	ae_ssh_put_string(&o, ns, nl);
	ae_ssh_put_string(&o, "", 0);
	ae_ssh_put_string(&o, "sha512", 6);
	ae_ssh_put_string(&o, h, 64);
	return o.over ? 0 : o.len;
}

size_t
ae_sshsig_armor(const uint8_t pk[32], const char *ns, const uint8_t sig[64],
    char *out, size_t cap)
{
	uint8_t blob[6 + 4 + 4 + AE_SSH_ED25519_BLOB_LEN + 4 + AE_SSHSIG_NS_MAX
	    + 4 + 4 + 6 + 4 + 4 + 11 + 4 + 64], key[AE_SSH_ED25519_BLOB_LEN];
	uint8_t sb[4 + 11 + 4 + 64];
	char b64[(sizeof blob + 2) / 3 * 4 + 1];
	struct ae_ssh_out o = { blob, 0, sizeof blob, 0 };
	struct ae_ssh_out s = { sb, 0, sizeof sb, 0 };
	size_t nl = strlen(ns), n, i, at;

	if (nl == 0 || nl > AE_SSHSIG_NS_MAX)
		return 0;
	ae_ssh_ed25519_blob(pk, key);
	ae_ssh_put_string(&s, ED, strlen(ED));
	ae_ssh_put_string(&s, sig, 64);
	ae_ssh_put(&o, "SSHSIG", 6);
	ae_ssh_put_u32(&o, 1);
	ae_ssh_put_string(&o, key, sizeof key);
	ae_ssh_put_string(&o, ns, nl);
	ae_ssh_put_string(&o, "", 0);
	ae_ssh_put_string(&o, "sha512", 6);
	ae_ssh_put_string(&o, sb, s.len);
	if (o.over || s.over
	    || (n = ae_base64_encode(blob, o.len, 1, b64, sizeof b64)) == 0)
		return 0;
	/* the armour: the lines, a newline after each */
	if (strlen(BEGIN) + n + n / LINE + 1 + strlen(END) >= cap)
		return 0;
	at = strlen(BEGIN);
	memcpy(out, BEGIN, at);
	for (i = 0; i < n; i += LINE) {
		size_t k = n - i < LINE ? n - i : LINE;

		memcpy(out + at, b64 + i, k);
		at += k;
		out[at++] = '\n';
	}
	memcpy(out + at, END, strlen(END) + 1);
	return at + strlen(END);
}

int
ae_ssh_ed25519_sig(const uint8_t *blob, size_t n, uint8_t sig[64])
{
	const uint8_t *p = blob, *end = blob + n, *t, *s;
	size_t tl, sl;

	if (ae_ssh_string(&p, end, &t, &tl) != 0 || !ae_ssh_string_is(t, tl,
	    ED) || ae_ssh_string(&p, end, &s, &sl) != 0 || sl != 64
	    || p != end)
		return -1;
	memcpy(sig, s, 64);
	return 0;
}
