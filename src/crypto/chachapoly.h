/*
 * chachapoly.h -- OpenSSH's chacha20-poly1305@openssh.com, opened, as a
 * private key file's encrypted section uses it (container/sshkey.c).
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

#endif
