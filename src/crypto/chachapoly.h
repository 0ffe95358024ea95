/*
 * chachapoly.h -- ChaCha20-Poly1305 opened: OpenSSH's
 * chacha20-poly1305@openssh.com, as a private key file's encrypted
 * section uses it (container/sshkey.c), and RFC 8439's AEAD, as age's
 * stanzas and payload chunks use it (container/age*.c).
 *
 * A thin layer over libsodium's ChaCha20 (the original 64-bit nonce)
 * and Poly1305: nothing of either is written here.
 */
#ifndef AE_CHACHAPOLY_H
#define AE_CHACHAPOLY_H

#include <stddef.h>
#include <stdint.h>

/*
 * Open in[0..len) with the 64-byte key (OpenSSH's K_2 || K_1; a key
 * file's section has no length header, so only K_2, the first half, is
 * used) and sequence number 0, as OpenSSH's PROTOCOL.chacha20poly1305
 * says: the Poly1305 key is the first 32 bytes of ChaCha20(K_2, nonce 0,
 * block 0), the tag covers the ciphertext, and the text decrypts from
 * block 1.  The tag is checked first, in constant time; only if it
 * matches is out (len bytes) written.  Returns 0; AE_EAUTH on a wrong
 * tag; AE_ENOTSUP if libsodium cannot start.
 */
int ae_ssh_chachapoly_open(const uint8_t key[64], const uint8_t *in,
    size_t len, const uint8_t tag[16], uint8_t *out);

/* The AEAD's tag length. */
#define AE_CHACHAPOLY_TAG_LEN 16

/*
 * RFC 8439's AEAD_CHACHA20_POLY1305 with no associated data: open
 * in[0..len), whose last 16 bytes are the tag, into out (len - 16
 * bytes; out may be in).  The tag is checked in constant time; out
 * holds the plaintext only if it matches (libcrypto's, where the build
 * has it, decrypts first and wipes out when the tag fails; libsodium's
 * checks first).  Returns 0; AE_EAUTH on a wrong
 * tag; AE_EINVAL if len < 16; AE_ENOTSUP if libsodium cannot start.
 */
int ae_chacha20poly1305_open(const uint8_t key[32], const uint8_t nonce[12],
    const uint8_t *in, size_t len, uint8_t *out);

/* Tests: on, libsodium's opens even where libcrypto is built in, so
 * both are checked against the same cases.  Not thread-safe. */
void ae_chacha20poly1305_force_sodium(int on);

#endif
