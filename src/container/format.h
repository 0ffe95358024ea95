/*
 * format.h -- the constants of the aescrypt v1 container.
 *
 * format/aescrypt-v1.md is the normative text; every number here is a
 * number there, and the section it comes from is named beside it.
 */
#ifndef AE_FORMAT_H
#define AE_FORMAT_H

/* 3. Header */
#define AE_MAGIC "\x89" "aesc\r\n\x1a"
#define AE_MAGIC_LEN 8
#define AE_VERSION 1
#define AE_PREFIX_LEN 30          /* magic .. payload salt */
#define AE_HEADER_MAX 4096
#define AE_CHECK_LEN 4            /* CRC-32 */
#define AE_MAC_LEN 32             /* HMAC-SHA-256 */
#define AE_SALT_LEN 16
#define AE_MAX_STANZAS 16

enum ae_payload_type {
	AE_PAYLOAD_STREAM = 0,    /* an opaque byte stream (-e / -d) */
	AE_PAYLOAD_PAX = 1,       /* a POSIX pax archive (-c / -x / -t) */
	AE_PAYLOAD_PAX_INDEXED = 2/* the same, with an index and footer
	                           * after the payload (6.8) */
};
#define AE_PAYLOAD_MAX AE_PAYLOAD_PAX_INDEXED
/* payload_type bit 7: the file ends with a copy of its header, then the
 * copy's length as a u16 (6.9), for a reader whose header is damaged. */
#define AE_PAYLOAD_COPY 0x80
#define AE_COPY_LEN_LEN 2
/* payload_type bits 4-6: the codec of the compressed records (6.4). */
#define AE_PAYLOAD_CODEC_SHIFT 4
#define AE_PAYLOAD_CODEC_MASK 0x70
#define AE_PAYLOAD_TYPE_MASK 0x0f
/* payload_type bit 3: the file is signed (6.10): a signer slot in the
 * header, signature records among the records.  (Inside the type's
 * nibble, so that a decoder that does not know it sees a type it
 * rejects as unsupported.) */
#define AE_PAYLOAD_SIGNED 0x08
enum ae_codec {
	AE_CODEC_DEFLATE = 0,     /* raw DEFLATE, RFC 1951 (the default) */
	AE_CODEC_ZSTD = 1         /* one zstd frame, RFC 8878 */
};
#define AE_CODEC_MAX AE_CODEC_ZSTD
/* Whether the plaintext is a tar archive (1 or 2). */
#define AE_PAYLOAD_IS_ARCHIVE(t) ((t) == AE_PAYLOAD_PAX \
	|| (t) == AE_PAYLOAD_PAX_INDEXED)

/* 4. Key slots */
#define AE_STANZA_HEAD_LEN 3      /* type, body length */
#define AE_FILE_KEY_LEN 32
#define AE_WRAP_LEN 64            /* encrypted file key || HMAC */
enum ae_stanza_type {
	AE_STANZA_ARGON2ID = 0x01,
	AE_STANZA_KEYFILE = 0x02,
	AE_STANZA_X25519 = 0x03,        /* 4.5: a public-key recipient */
	AE_STANZA_SSH_ED25519 = 0x04,   /* 4.6: an SSH Ed25519 key */
	AE_STANZA_SSH_RSA = 0x05,       /* 4.7: an SSH RSA key */
	AE_STANZA_MLKEM768X25519 = 0x06,/* 4.8: a post-quantum hybrid
	                                 * (X-Wing) recipient */
	AE_STANZA_SIGNER = 0x07         /* 6.10: who signs (wraps no key:
	                                 * not in the slot table) */
};
/* The signer slot's body: key type (1: ssh-ed25519), interval_log2 k
 * (a signature after every 2^k payload records), the Ed25519 key. */
#define AE_SIGNER_BODY_LEN 34
#define AE_SIGNER_ED25519 1
#define AE_SIG_LOG2_MAX 16
/* 6.10: a signature record: flags, length (64), the signature. */
#define AE_SIG_FLAG 0x04
#define AE_SIG_LEN 64
#define AE_SIG_RECORD_LEN (5 + AE_SIG_LEN)
/* 6.10: what a signed file's records are hashed to (SHA-256) */
#define AE_SIG_DIGEST_LEN 32
/* 6.10: whether an interval signature follows record i (from 0), not
 * the final one, when one comes every `every` (2^k) records (0: an
 * unsigned file); and how many sit among n records, none after the
 * last.  The one rule every reader and writer of places shares. */
#define AE_SIG_AFTER(i, every) ((every) != 0 && ((i) + 1) % (every) == 0)
#define AE_SIGS_AMONG(n, every) ((every) != 0 && (n) > 0 \
	? ((n) - 1) / (every) : 0)
#define AE_ARGON2ID_BODY_LEN (12 + AE_SALT_LEN + AE_WRAP_LEN)   /* 92 */
#define AE_KEYFILE_BODY_LEN (AE_SALT_LEN + AE_WRAP_LEN)         /* 80 */
#define AE_SHARE_LEN 32           /* an ephemeral X25519 public key */
#define AE_SSH_TAG_LEN 4
#define AE_X25519_BODY_LEN (AE_SHARE_LEN + AE_WRAP_LEN)         /* 96 */
#define AE_SSH_BODY_LEN (AE_SSH_TAG_LEN + AE_SHARE_LEN + AE_WRAP_LEN) /* 100 */
/* ssh-rsa: tag || OAEP ciphertext (the key's modulus length, 256 to
 * 1024 bytes: 2048- to 8192-bit keys) || wrap */
#define AE_RSA_CT_MIN 256
#define AE_RSA_CT_MAX 1024
#define AE_SSH_RSA_BODY_LEN(k) (AE_SSH_TAG_LEN + (k) + AE_WRAP_LEN)
/* mlkem768x25519: tag || X-Wing ciphertext (ML-KEM-768's 1,088 bytes,
 * then X25519's 32) || wrap */
#define AE_PQ_CT_LEN 1120
#define AE_PQ_BODY_LEN (AE_SSH_TAG_LEN + AE_PQ_CT_LEN + AE_WRAP_LEN) /* 1188 */
/* The longest ciphertext a slot holds, and the longest slot. */
#define AE_STANZA_CT_MAX AE_PQ_CT_LEN
#define AE_STANZA_MAX_LEN (AE_STANZA_HEAD_LEN + AE_PQ_BODY_LEN)

/* 4.3 and 5. Keys: the HKDF info labels. */
#define AE_LABEL_WRAP "aescrypt-v1 wrap"
#define AE_LABEL_KEYFILE "aescrypt-v1 key-file"
#define AE_LABEL_HEADER "aescrypt-v1 header"
#define AE_LABEL_PAYLOAD "aescrypt-v1 payload"
#define AE_LABEL_X25519 "aescrypt-v1 x25519"
#define AE_LABEL_SSH_ED25519 "aescrypt-v1 ssh-ed25519"
#define AE_LABEL_SSH_RSA "aescrypt-v1 ssh-rsa"   /* OAEP label and HKDF
                                                   * info (4.7) */
#define AE_LABEL_MLKEM768X25519 "aescrypt-v1 mlkem768x25519"

/* 6. Payload */
#define AE_CHUNK_LOG2_MIN 16      /* 64 KiB */
#define AE_CHUNK_LOG2_MAX 23      /* 8 MiB, with zstd; the largest any
                                   * codec allows (buffers are sized
                                   * by the file's own) */
#define AE_CHUNK_LOG2_MAX_DEFLATE 22  /* 4 MiB */
#define AE_CHUNK_LOG2_DEFAULT 18  /* 256 KiB; see the spec for why */
#define AE_CHUNK_LOG2_ZSTD 23     /* 8 MiB: zstd gains from long
                                   * matches (6.6) */
/* The largest chunk_log2 codec c allows. */
#define AE_CHUNK_LOG2_MAX_FOR(c) ((c) == AE_CODEC_ZSTD ? 23 : 22)
#define AE_FRAME_LEN 5            /* flags, length */
#define AE_TAG_LEN 16
#define AE_FLAG_FINAL 0x01
#define AE_FLAG_COMPRESSED 0x02     /* by the file's codec (6.4) */
#define AE_FLAGS_KNOWN (AE_FLAG_FINAL | AE_FLAG_COMPRESSED)
#define AE_NONCE_LEN 12

/* The largest record a chunk of size cs can take on the wire. */
#define AE_RECORD_MAX(cs) ((size_t)AE_FRAME_LEN + (cs) + AE_TAG_LEN)

#endif
