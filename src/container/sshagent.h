/*
 * sshagent.h -- a client of ssh-agent (draft-miller-ssh-agent), for
 * signing with an Ed25519 key the agent holds, so that a key that never
 * leaves the agent, or a token behind it, can sign.  The agent is
 * reached through the Unix socket whose path the caller gives (the
 * command takes it from SSH_AUTH_SOCK).
 *
 * Each call opens its own connection, asks one question and closes it:
 * signatures are few (one per file, or per interval of one), and an
 * agent that was restarted in between is then still found.
 */
#ifndef AE_SSHAGENT_H
#define AE_SSHAGENT_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

/* The largest answer read (OpenSSH's own limit on a message). */
#define AE_AGENT_MAX_MSG (256u * 1024)

/*
 * Whether the agent at path holds the Ed25519 key pk: 0 if it does;
 * AE_EKEY if it does not (d->what says so); AE_EIO (d->sys_errno) when
 * the socket cannot be reached or the connection fails; AE_EFORMAT for
 * an answer that is not the protocol's.
 */
int ae_agent_holds(const char *path, const uint8_t pk[32], struct ae_diag *d);

/*
 * Have the agent at path sign data[0, n) with pk: the signature's 64
 * bytes in sig, checked against pk (an agent that answers with another
 * key's, or a wrong, signature is refused: AE_EAUTH).  AE_EKEY when the
 * agent refuses (it does not hold the key, or its user said no to a
 * confirmation); errors otherwise as ae_agent_holds'.
 */
int ae_agent_sign(const char *path, const uint8_t pk[32],
    const uint8_t *data, size_t n, uint8_t sig[64], struct ae_diag *d);

#endif
