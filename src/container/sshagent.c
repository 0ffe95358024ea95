/*
 * sshagent.c -- an ssh-agent client (contract in sshagent.h).
 */
#include "config.h"
#include "sshagent.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "common/bytes.h"
#include "common/io.h"
#include "crypto/ed25519.h"
#include "sshsig.h"
#include "sshwire.h"

/* message numbers (draft-miller-ssh-agent, section 6.1) */
enum {
	AGENT_FAILURE = 5,
	AGENTC_REQUEST_IDENTITIES = 11,
	AGENT_IDENTITIES_ANSWER = 12,
	AGENTC_SIGN_REQUEST = 13,
	AGENT_SIGN_RESPONSE = 14
};

static int
io_fail(struct ae_diag *d, int e, const char *what)
{
	int r = ae_fail(d, AE_EIO, AE_AT_NONE, what, 0, 0);

	if (d != NULL)
		d->sys_errno = e;
	return r;
}

/* Read exactly n bytes; -1 with errno (0 for the agent closing). */
static int
read_all(int fd, uint8_t *p, size_t n)
{
	while (n > 0) {
		ssize_t k = read(fd, p, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			if (k == 0)
				errno = 0;
			return -1;
		}
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

/*
 * Send the message q[0, qn) (its length is put in front here) to the
 * agent at path and read its answer into *a (malloc'd, *an bytes, the
 * type byte first).  0 or an error as the contract says.
 */
static int
ask(const char *path, const uint8_t *q, size_t qn, uint8_t **a, size_t *an,
    struct ae_diag *d)
{
	struct sockaddr_un sa;
	uint8_t len[4];
	uint32_t n;
	int fd, e;

	*a = NULL;
	memset(&sa, 0, sizeof sa);
	sa.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof sa.sun_path)
		return io_fail(d, ENAMETOOLONG, "cannot reach ssh-agent");
	memcpy(sa.sun_path, path, strlen(path) + 1);
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0)
		return io_fail(d, errno, "cannot reach ssh-agent");
	if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
		e = errno;
		close(fd);
		return io_fail(d, e, "cannot reach ssh-agent");
	}
	store_be32(len, (uint32_t)qn);
	/* (send, not write: an agent that has gone away is EPIPE, not a
	 * SIGPIPE that would end the caller) */
	if (send(fd, len, 4, MSG_NOSIGNAL) != 4
	    || send(fd, q, qn, MSG_NOSIGNAL) != (ssize_t)qn)
		goto failed;
	if (read_all(fd, len, 4) != 0)
		goto failed;
	n = load_be32(len);
	if (n == 0 || n > AE_AGENT_MAX_MSG) {
		close(fd);
		return ae_fail(d, AE_EFORMAT, AE_AT_NONE, "ssh-agent answered "
		    "with a message of a length the protocol does not allow",
		    0, 0);
	}
	if ((*a = malloc(n)) == NULL) {
		close(fd);
		return AE_ENOMEM;
	}
	if (read_all(fd, *a, n) != 0)
		goto failed;
	close(fd);
	*an = n;
	return AE_OK;
failed:
	e = errno;
	close(fd);
	free(*a);
	*a = NULL;
	return io_fail(d, e, e == 0 ? "ssh-agent closed the connection"
	    : "the connection to ssh-agent failed");
}

static int
malformed(struct ae_diag *d)
{
	return ae_fail(d, AE_EFORMAT, AE_AT_NONE, "ssh-agent's answer is "
	    "malformed", 0, 0);
}

int
ae_agent_holds(const char *path, const uint8_t pk[32], struct ae_diag *d)
{
	uint8_t q = AGENTC_REQUEST_IDENTITIES, *a, blob[AE_SSH_ED25519_BLOB_LEN];
	const uint8_t *p, *end, *k, *c;
	size_t an, kl, cl;
	uint32_t nkeys, i;
	int r;

	if ((r = ask(path, &q, 1, &a, &an, d)) != AE_OK)
		return r;
	ae_ssh_ed25519_blob(pk, blob);
	p = a + 1;
	end = a + an;
	if (a[0] != AGENT_IDENTITIES_ANSWER || end - p < 4) {
		r = malformed(d);
		goto out;
	}
	nkeys = load_be32(p);
	p += 4;
	r = ae_fail(d, AE_EKEY, AE_AT_NONE, "ssh-agent does not hold the "
	    "key (ssh-add adds it)", 0, 0);
	for (i = 0; i < nkeys; i++) {
		if (ae_ssh_string(&p, end, &k, &kl) != 0
		    || ae_ssh_string(&p, end, &c, &cl) != 0) {
			r = malformed(d);
			break;
		}
		if (kl == sizeof blob && memcmp(k, blob, kl) == 0) {
			r = AE_OK;
			break;
		}
	}
out:
	free(a);
	return r;
}

int
ae_agent_sign(const char *path, const uint8_t pk[32], const uint8_t *data,
    size_t n, uint8_t sig[64], struct ae_diag *d)
{
	uint8_t blob[AE_SSH_ED25519_BLOB_LEN], *q, *a;
	const uint8_t *p, *end, *s;
	struct ae_ssh_out o;
	size_t an, sl, qcap = 1 + 4 + sizeof blob + 4 + n + 4;
	int r;

	if (n > AE_AGENT_MAX_MSG - 64)
		return ae_fail(d, AE_ETOOBIG, AE_AT_NONE, "too much to ask "
		    "ssh-agent to sign", 0, 0);
	if ((q = malloc(qcap)) == NULL)
		return AE_ENOMEM;
	o = (struct ae_ssh_out){ q, 0, qcap, 0 };
	ae_ssh_ed25519_blob(pk, blob);
	q[o.len++] = AGENTC_SIGN_REQUEST;
	ae_ssh_put_string(&o, blob, sizeof blob);
	ae_ssh_put_string(&o, data, n);
	ae_ssh_put_u32(&o, 0);          /* flags: none (for ed25519) */
	r = ask(path, q, o.len, &a, &an, d);
	free(q);
	if (r != AE_OK)
		return r;
	p = a + 1;
	end = a + an;
	if (a[0] == AGENT_FAILURE)
		r = ae_fail(d, AE_EKEY, AE_AT_NONE, "ssh-agent refused to sign "
		    "(it does not hold the key, or its confirmation was "
		    "declined)", 0, 0);
	else if (a[0] != AGENT_SIGN_RESPONSE
	    || ae_ssh_string(&p, end, &s, &sl) != 0 || p != end
	    || ae_ssh_ed25519_sig(s, sl, sig) != 0)
		r = malformed(d);
	else if (ae_ed25519_verify(sig, data, n, pk) != AE_OK)
		r = ae_fail(d, AE_EAUTH, AE_AT_NONE, "ssh-agent's signature "
		    "does not verify under the key", 0, 0);
	free(a);
	return r;
}
