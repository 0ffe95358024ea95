/*
 * sshsig.h -- OpenSSH's signature format (PROTOCOL.sshsig: what
 * "ssh-keygen -Y sign" writes and "-Y verify" checks), for ssh-ed25519
 * keys, and the key names it needs: the key's wire blob and its
 * SHA256 fingerprint.
 *
 * An SSHSIG signature is not of the message but of
 *     "SSHSIG" || string(namespace) || string("") || string(hash name)
 *     || string(H(message))
 * whose preamble no SSH session's signed data can begin with, and whose
 * namespace keeps a signature made for one use from passing for
 * another.  Here the hash is always SHA-512.
 */
#ifndef AE_SSHSIG_H
#define AE_SSHSIG_H

#include <stddef.h>
#include <stdint.h>

/* string "ssh-ed25519", string key */
#define AE_SSH_ED25519_BLOB_LEN (4 + 11 + 4 + 32)
/* "SHA256:" and 43 base64 characters, with the NUL */
#define AE_SSH_FINGERPRINT_MAX 51
/* The longest namespace taken here (SSHSIG sets no limit). */
#define AE_SSHSIG_NS_MAX 64
/* What is signed: the preamble, the namespace, the empty reserved
 * string, "sha512" and the digest. */
#define AE_SSHSIG_TBS_MAX (6 + 4 + AE_SSHSIG_NS_MAX + 4 + 4 + 6 + 4 + 64)
/* The armoured signature, with room to spare. */
#define AE_SSHSIG_ARMOR_MAX 1024

/* pk's wire blob. */
void ae_ssh_ed25519_blob(const uint8_t pk[32],
    uint8_t out[AE_SSH_ED25519_BLOB_LEN]);

/* pk's fingerprint as ssh-keygen -l prints it ("SHA256:..."), into out
 * (at least AE_SSH_FINGERPRINT_MAX bytes). */
void ae_ssh_fingerprint(const uint8_t pk[32],
    char out[AE_SSH_FINGERPRINT_MAX]);

/* What SSHSIG signs for the SHA-512 digest h of a message under the
 * namespace ns (1 to AE_SSHSIG_NS_MAX characters), into out (at least
 * AE_SSHSIG_TBS_MAX bytes).  Its length, or 0 for a namespace out of
 * range. */
size_t ae_sshsig_tbs(const char *ns, const uint8_t h[64], uint8_t *out);

/* The armoured signature ("-----BEGIN SSH SIGNATURE-----" ...) that
 * ssh-keygen -Y verify checks: pk's Ed25519 signature sig of
 * ae_sshsig_tbs(ns, ...), into out (cap bytes, NUL-terminated).  Its
 * length, or 0 if it does not fit. */
size_t ae_sshsig_armor(const uint8_t pk[32], const char *ns,
    const uint8_t sig[64], char *out, size_t cap);

/* The 64 bytes of an SSH signature blob (string "ssh-ed25519", string
 * sig), as an agent answers.  0, or -1 if it is not one. */
int ae_ssh_ed25519_sig(const uint8_t *blob, size_t n, uint8_t sig[64]);

#endif
