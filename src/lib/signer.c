/*
 * signer.c -- aescrypt_signer (contract in aescrypt.h, "signing"): an
 * ssh-ed25519 key that signs here, or one ssh-agent holds.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#define AESCRYPT_STATIC_LINKING_ONLY
#include "aescrypt.h"
#include "common/wipe.h"
#include "container/recipient.h"
#include "container/sshagent.h"
#include "container/sshsig.h"
#include "crypto/ed25519.h"
#include "signer.h"

struct aescrypt_signer {
	uint8_t pk[32];
	uint8_t seed[32];           /* a key that signs here */
	int local;
	char *agent;                /* otherwise, the agent's socket */
};

static aescrypt_signer *
new_signer(void)
{
	/* (it may hold a private key: kept as identities are) */
	return ae_secret_alloc(sizeof(aescrypt_signer));
}

int
aescrypt_signer_open(aescrypt_signer **out, const char *text, size_t len,
    const void *pass, size_t passlen, const char *agent, struct ae_diag *d)
{
	aescrypt_signer *s;
	int e;

	if (out == NULL || text == NULL || d == NULL)
		return AESCRYPT_EINVAL;
	*out = NULL;
	memset(d, 0, sizeof *d);
	if ((s = new_signer()) == NULL)
		return AESCRYPT_ENOMEM;
	if (memmem(text, len, "-----BEGIN", 10) != NULL) {
		struct ae_identity id;

		e = ae_identity_parse_ssh(text, len, pass, passlen, &id, d);
		if (e == AE_OK && id.type != AE_STANZA_SSH_ED25519)
			e = ae_fail(d, AE_ENOTSUP, AE_AT_NONE, "only ssh-ed25519 "
			    "keys sign (this is an ssh-rsa key)", 0, 0);
		if (e == AE_OK) {
			memcpy(s->seed, id.edseed, 32);
			memcpy(s->pk, id.r.ed, 32);
			s->local = 1;
		}
		ae_wipe(&id, sizeof id);
	} else {
		struct ae_recipient r;
		char line[AE_RECIPIENT_TEXT_MAX];
		size_t n = len < sizeof line - 1 ? len : sizeof line - 1;

		/* the first line: "ssh-ed25519 AAAA... comment" */
		memcpy(line, text, n);
		line[n] = 0;
		line[strcspn(line, "\r\n")] = 0;
		e = ae_recipient_parse(line, &r, d);
		if (e == AE_EFORMAT)
			e = ae_fail(d, AE_EFORMAT, AE_AT_NONE, "neither an "
			    "OpenSSH private key nor an ssh-ed25519 public key",
			    0, 0);
		if (e == AE_OK && r.type != AE_STANZA_SSH_ED25519)
			e = ae_fail(d, AE_ENOTSUP, AE_AT_NONE, "only ssh-ed25519 "
			    "keys sign", 0, 0);
		if (e == AE_OK && agent == NULL)
			e = ae_fail(d, AE_EINVAL, AE_AT_NONE, "a public key "
			    "signs only through ssh-agent, and none is running "
			    "(SSH_AUTH_SOCK is not set)", 0, 0);
		if (e == AE_OK) {
			memcpy(s->pk, r.ed, 32);
			e = ae_agent_holds(agent, s->pk, d);
		}
		if (e == AE_OK && (s->agent = strdup(agent)) == NULL)
			e = AE_ENOMEM;
	}
	if (e != AE_OK) {
		aescrypt_signer_free(s);
		return e;
	}
	*out = s;
	return AESCRYPT_OK;
}

void
aescrypt_signer_free(aescrypt_signer *s)
{
	if (s == NULL)
		return;
	free(s->agent);
	ae_secret_free(s, sizeof *s);
}

void
aescrypt_signer_fingerprint(const aescrypt_signer *s,
    char out[AESCRYPT_FINGERPRINT_MAX])
{
	ae_ssh_fingerprint(s->pk, out);
}

const uint8_t *
ae_lib_signer_pk(const aescrypt_signer *s)
{
	return s->pk;
}

int
ae_lib_signer_sign(aescrypt_signer *s, const uint8_t *tbs, size_t n,
    uint8_t sig[64], struct ae_diag *d)
{
	if (s->local)
		return ae_ed25519_sign(sig, tbs, n, s->seed);
	return ae_agent_sign(s->agent, s->pk, tbs, n, sig, d);
}

int
aescrypt_signer_sshsig(aescrypt_signer *s, const char *ns,
    const uint8_t h[64], char *out, size_t cap, size_t *len,
    struct ae_diag *d)
{
	uint8_t tbs[AE_SSHSIG_TBS_MAX], sig[64];
	size_t n;
	int e;

	if (s == NULL || ns == NULL || h == NULL || out == NULL || len == NULL
	    || d == NULL || (n = ae_sshsig_tbs(ns, h, tbs)) == 0)
		return AESCRYPT_EINVAL;
	memset(d, 0, sizeof *d);
	if ((e = ae_lib_signer_sign(s, tbs, n, sig, d)) != AE_OK)
		return e;
	if ((*len = ae_sshsig_armor(s->pk, ns, sig, out, cap)) == 0)
		return AESCRYPT_EINVAL;
	return AESCRYPT_OK;
}
