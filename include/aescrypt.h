/*
 * aescrypt.h -- the aescrypt library (libaescrypt.so.1): encrypted
 * streams and archives in the aescrypt v1 container (format/).
 *
 * This header is the library's whole promise.  What it declares keeps
 * its meaning for every 1.x release (the symbols are versioned
 * AESCRYPT_1; a later release adds, it never changes or takes away);
 * what it does not declare is free to change.  It is C99 and needs
 * nothing but <stddef.h> and <stdint.h>.
 *
 * Two handles, one for each direction, with the lifecycle of
 * libarchive's:
 *
 *     writer: _new, keys and settings, _open*, then _write (a stream)
 *             or _add_path / _add_entry (an archive), _close, _free
 *     reader: _new, keys and settings, _open*, then _read (a stream)
 *             or a loop of _next and _read (an archive), _free;
 *             or, on a seekable archive with an index: _count,
 *             _entry, _find and _pread, in any order, from any thread
 *
 * Every call that can fail returns an int status: AESCRYPT_OK (0), a
 * positive AESCRYPT_END where a loop ends, or a negative code of enum
 * aescrypt_status.  The handle keeps a message for the last failure,
 * with the place it happened (a record's number and offset, a member's
 * name): aescrypt_writer_error() and aescrypt_reader_error().  Programs
 * decide on the status, never on the message's text.
 *
 * Ownership: the caller owns every buffer it passes and every callback
 * context; the library copies what it keeps (passphrases and keys
 * included, in memory it wipes and keeps out of core dumps) and never
 * frees what it did not allocate.  Nothing here prints, exits or
 * installs a signal handler.
 *
 * Threads: a handle is used by one thread at a time, except where a
 * call says otherwise (aescrypt_reader_pread and its kin).  Different
 * handles are independent; the library has no global mutable state but
 * its CPU-feature table, filled once, safely, on first use.  The
 * library runs threads of its own (the chunk pipeline); the write and
 * read callbacks are called from them, one call at a time.
 *
 * Plaintext is released only after its record's tag has verified, and a
 * stream or archive ends cleanly (AESCRYPT_END, or a read of 0 bytes)
 * only after its final record and the rest of the file have verified: a
 * truncated or extended file ends in an error, never in a clean end.
 */
#ifndef AESCRYPT_H
#define AESCRYPT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) && __GNUC__ >= 4
#define AESCRYPT_API __attribute__((visibility("default")))
#else
#define AESCRYPT_API
#endif

/* ---- versions ---- */

#define AESCRYPT_VERSION_MAJOR 1
#define AESCRYPT_VERSION_MINOR 0
#define AESCRYPT_VERSION_RELEASE 0
/* 10000 * major + 100 * minor + release: 10000 is 1.0.0 */
#define AESCRYPT_VERSION_NUMBER (AESCRYPT_VERSION_MAJOR * 10000 \
	+ AESCRYPT_VERSION_MINOR * 100 + AESCRYPT_VERSION_RELEASE)

/* The version number of the library that is running (which may be newer
 * than the header a program was built with), and the release of the
 * aescrypt tree it was built from ("0.3.0").  Thread-safe. */
AESCRYPT_API unsigned aescrypt_version_number(void);
AESCRYPT_API const char *aescrypt_version_string(void);

/* ---- status codes (stable: a value never changes meaning) ---- */

enum aescrypt_status {
	AESCRYPT_OK = 0,
	AESCRYPT_END = 1,         /* no more members (aescrypt_reader_next) */
	AESCRYPT_EINVAL = -1,     /* an argument is out of range */
	AESCRYPT_EAUTH = -2,      /* authentication failed: the data was
	                           * changed, reordered or cut */
	AESCRYPT_ENOMEM = -3,     /* out of memory */
	AESCRYPT_EIO = -4,        /* a read or write failed (a callback
	                           * returned non-zero, or a system call) */
	AESCRYPT_EFORMAT = -5,    /* not in the expected format, or damaged */
	AESCRYPT_ETOOBIG = -6,    /* a length is over what the format holds */
	AESCRYPT_ENOTSUP = -7,    /* not available: a codec this build lacks,
	                           * random access without an index or on a
	                           * source that cannot pread */
	AESCRYPT_EKEY = -8,       /* no key given opens the file: wrong
	                           * passphrase, key or identity */
	AESCRYPT_ETRUNC = -9,     /* the input ends before its end */
	AESCRYPT_ELIMIT = -10,    /* a cost in the file (the KDF's memory) is
	                           * over the reader's limit */
	AESCRYPT_EINTR = -11,     /* stopped: an earlier failure, or the
	                           * caller's callback asked */
	AESCRYPT_ESTATE = -12     /* the call does not fit the handle's
	                           * state (a _write before _open, a _next
	                           * on a stream, ...) */
};

/* A short, static, lower-case description of a status ("authentication
 * failed").  Never NULL; unknown codes give "unknown error".
 * Thread-safe. */
AESCRYPT_API const char *aescrypt_strerror(int status);

/* ---- what a container holds ---- */

enum aescrypt_kind {
	AESCRYPT_STREAM = 0,      /* one opaque byte stream (aescrypt -e) */
	AESCRYPT_ARCHIVE = 1      /* a tar archive of members (aescrypt -c),
	                           * with an index for random access */
};

enum aescrypt_codec {
	AESCRYPT_CODEC_DEFLATE = 0,   /* the default */
	AESCRYPT_CODEC_ZSTD = 1       /* AESCRYPT_ENOTSUP in a build without
	                               * libzstd */
};

/* A member's type: tar's type flags. */
enum aescrypt_type {
	AESCRYPT_FILE = '0',
	AESCRYPT_HARDLINK = '1',
	AESCRYPT_SYMLINK = '2',
	AESCRYPT_CHARDEV = '3',
	AESCRYPT_BLOCKDEV = '4',
	AESCRYPT_DIR = '5',
	AESCRYPT_FIFO = '6'
};

/*
 * A member.  Read from an archive, its strings point into the reader
 * and stay valid until the next call on that handle (for _entry: until
 * the handle is freed); they are NUL-terminated, hold no other NUL, and
 * path is at most 65535 bytes.  Given to a writer, path and linkpath
 * are required as the type needs them, uname and gname may be NULL.
 * A directory's path ends in '/'.
 */
struct aescrypt_entry {
	const char *path;
	const char *linkpath;     /* a link's target, or "" (NULL when given) */
	int type;                 /* enum aescrypt_type */
	uint32_t mode;            /* permission bits, 07777 */
	uint64_t uid, gid;
	uint64_t size;            /* a regular file's bytes (a sparse one's
	                           * size with its holes) */
	int64_t mtime;            /* seconds since the epoch */
	uint32_t mtime_nsec;
	const char *uname, *gname;
};

/* ---- limits (format/, 6.6; and the pipeline's) ---- */

/* Records of 2^n bytes: n from _MIN to _MAX (_MAX_ZSTD with zstd);
 * a writer's default is _DEFAULT (_DEFAULT_ZSTD with zstd). */
#define AESCRYPT_CHUNK_LOG2_MIN 16
#define AESCRYPT_CHUNK_LOG2_MAX 22
#define AESCRYPT_CHUNK_LOG2_MAX_ZSTD 23
#define AESCRYPT_CHUNK_LOG2_DEFAULT 18
#define AESCRYPT_CHUNK_LOG2_DEFAULT_ZSTD 23
/* Worker threads: 1 to this many. */
#define AESCRYPT_THREADS_MAX 256
/* A passphrase slot's Argon2id costs when none are set. */
#define AESCRYPT_KDF_DEFAULT_T 3
#define AESCRYPT_KDF_DEFAULT_M_KIB 262144
#define AESCRYPT_KDF_DEFAULT_P 4
/* The most passes and lanes a reader runs: a slot over either is
 * refused, as one over the memory limit is. */
#define AESCRYPT_KDF_MAX_T 10
#define AESCRYPT_KDF_MAX_P 16

/* ---- I/O through callbacks ---- */

/*
 * A sink: write all n bytes of buf; 0, or non-zero for a failure (the
 * call then fails with AESCRYPT_EIO, or AESCRYPT_EINTR for a negative
 * AESCRYPT_EINTR).  Called from a library thread, one call at a time.
 */
typedef int (*aescrypt_write_fn)(void *ctx, const void *buf, size_t n);

/*
 * A source.  read fills buf with up to n bytes into *got, fewer only at
 * the end; 0, or non-zero for a failure.  pread, which may be NULL (a
 * pipe), reads at offset off without moving anything, and must be safe
 * to call from several threads at once; with it, size is the source's
 * length in bytes, and the reader can use the archive's index.  A
 * source with pread may have read NULL: the reader then reads from 0.
 */
struct aescrypt_source {
	int (*read)(void *ctx, void *buf, size_t n, size_t *got);
	int (*pread)(void *ctx, void *buf, size_t n, uint64_t off,
	    size_t *got);
	uint64_t size;
	void *ctx;
};

/* ---- keys (the same for both handles) ----
 *
 * A writer adds one key slot per key given: anyone holding one of them
 * opens the file.  A reader tries what it is given, cheapest first (keys
 * and identities, then the passphrase).  Secrets are copied, and wiped
 * when the handle is freed; the caller wipes its own copy.  Keys are
 * given before _open.
 */

/* ---- writer ---- */

typedef struct aescrypt_writer aescrypt_writer;

/* A new writer, or NULL out of memory. */
AESCRYPT_API aescrypt_writer *aescrypt_writer_new(void);

/* Free w (NULL is ignored).  A writer freed before aescrypt_writer_close
 * returned AESCRYPT_OK has written no valid file: an output opened by
 * path is removed, one opened by callback or descriptor is left as it
 * is, incomplete (a reader refuses it). */
AESCRYPT_API void aescrypt_writer_free(aescrypt_writer *w);

/* The message of w's last failure ("" if none); valid until the next
 * call on w. */
AESCRYPT_API const char *aescrypt_writer_error(const aescrypt_writer *w);

/* Key slots: a passphrase (Argon2id, at the costs of _set_kdf); a
 * 32-byte key; a key file's text as aescrypt --gen-key writes it
 * ("AESCRYPT-KEY-V1-..."), read from path; a recipient, "age1...",
 * "age1pq1..." or an OpenSSH "ssh-ed25519 ..." / "ssh-rsa ..." public
 * key line.  AESCRYPT_EINVAL for an empty passphrase, AESCRYPT_EFORMAT
 * for a malformed key or recipient (the message says where),
 * AESCRYPT_ENOTSUP for an SSH key of another type, AESCRYPT_ELIMIT when
 * the header has no room for another slot, AESCRYPT_ESTATE after
 * _open. */
AESCRYPT_API int aescrypt_writer_add_passphrase(aescrypt_writer *w,
    const void *pass, size_t len);
AESCRYPT_API int aescrypt_writer_add_key(aescrypt_writer *w,
    const uint8_t key[32]);
AESCRYPT_API int aescrypt_writer_add_keyfile(aescrypt_writer *w,
    const char *path);
AESCRYPT_API int aescrypt_writer_add_recipient(aescrypt_writer *w,
    const char *recipient);

/*
 * Settings, before _open (AESCRYPT_ESTATE after; AESCRYPT_EINVAL out of
 * range).  codec: enum aescrypt_codec (default DEFLATE).  level: the
 * codec's, 0 (store) to 9 for DEFLATE, 0 to 19 for zstd (default 6 and
 * 3).  threads: worker threads, 1 to 256 (default: the CPUs online).
 * chunk_log2: records of 2^n bytes, 16 to 22 (23 for zstd; default 18).
 * kdf: Argon2id's passes, memory in KiB and lanes for a passphrase slot
 * (default 3, 262144, 4).  index: an archive carries an index (default
 * 1; a reader needs it for random access).
 */
AESCRYPT_API int aescrypt_writer_set_codec(aescrypt_writer *w, int codec);
AESCRYPT_API int aescrypt_writer_set_level(aescrypt_writer *w, int level);
AESCRYPT_API int aescrypt_writer_set_threads(aescrypt_writer *w,
    unsigned threads);
AESCRYPT_API int aescrypt_writer_set_chunk_log2(aescrypt_writer *w,
    unsigned chunk_log2);
AESCRYPT_API int aescrypt_writer_set_kdf(aescrypt_writer *w, uint32_t t,
    uint32_t m_kib, uint32_t p);
AESCRYPT_API int aescrypt_writer_set_index(aescrypt_writer *w, int on);

/*
 * Start a container of kind (enum aescrypt_kind), with at least one key
 * slot.  The header is written now; the records follow as data comes.
 * _open writes through fn (ctx passed back); _open_fd to descriptor fd
 * (the caller's: not closed); _open_path to a new file at path, written
 * under a temporary name beside it and moved to path by a successful
 * _close, never before (a file there is replaced only then, and keeps
 * its mode; a new one gets 0666 less the umask, as aescrypt -c's).
 * AESCRYPT_EINVAL with no key, AESCRYPT_ESTATE when already open, the
 * sink's errors.  After a failed _open the writer can only be freed.
 */
AESCRYPT_API int aescrypt_writer_open(aescrypt_writer *w, int kind,
    aescrypt_write_fn fn, void *ctx);
AESCRYPT_API int aescrypt_writer_open_fd(aescrypt_writer *w, int kind, int fd);
AESCRYPT_API int aescrypt_writer_open_path(aescrypt_writer *w, int kind,
    const char *path);

/* A stream's bytes, in order (AESCRYPT_ESTATE on an archive).  Returns
 * once they are taken: they may be sealed and written later. */
AESCRYPT_API int aescrypt_writer_write(aescrypt_writer *w, const void *buf,
    size_t n);

/*
 * An archive's members.  _add_path: path and everything under it, as
 * aescrypt -c archives them (symlinks stored, not followed; hard links
 * as links; sparse files with their holes; sockets left out; a leading
 * '/' or "../" removed from names).  A file that cannot be read is left
 * out or stored as it could be read, and the call still returns
 * AESCRYPT_OK: aescrypt_writer_partial() says it happened, and
 * aescrypt_writer_error() says the last such case.  AESCRYPT_EIO for a
 * path that does not exist.
 * _add_entry: one member from memory, e (its size must be len for a
 * regular file, and 0 with data NULL for anything else), its data at
 * data.  AESCRYPT_EINVAL for an entry tar cannot hold (an empty path, a
 * name with "..", a missing link target).
 * Both AESCRYPT_ESTATE on a stream.
 */
AESCRYPT_API int aescrypt_writer_add_path(aescrypt_writer *w, const char *path);
AESCRYPT_API int aescrypt_writer_add_entry(aescrypt_writer *w,
    const struct aescrypt_entry *e, const void *data, size_t len);

/* 1 if _add_path left something out or stored it other than it was
 * (tar's exit status 1), else 0. */
AESCRYPT_API int aescrypt_writer_partial(const aescrypt_writer *w);

/*
 * Finish: the final record, the index and the footer of an archive, the
 * copy of the header, then (for _open_path) the file moved into place.
 * AESCRYPT_OK only when every byte was written.  After _close the
 * writer can only be freed.
 */
AESCRYPT_API int aescrypt_writer_close(aescrypt_writer *w);

/* ---- reader ---- */

typedef struct aescrypt_reader aescrypt_reader;

/* A new reader, or NULL out of memory. */
AESCRYPT_API aescrypt_reader *aescrypt_reader_new(void);

/* Free r (NULL is ignored), with its keys (wiped) and threads.  Not
 * while another thread is inside a call on r. */
AESCRYPT_API void aescrypt_reader_free(aescrypt_reader *r);

/* The message of r's last failure ("" if none); valid until the next
 * call on r (after concurrent _pread calls: the last one that failed). */
AESCRYPT_API const char *aescrypt_reader_error(const aescrypt_reader *r);

/*
 * Keys to try, before _open: a passphrase; a 32-byte key; a key file's
 * text, read from path; identities: the text of an age identity file
 * (lines "AGE-SECRET-KEY-1..." or "AGE-SECRET-KEY-PQ-1...", '#'
 * comments and blank lines), or of an OpenSSH private key
 * (ssh-ed25519 or ssh-rsa; a protected one is opened with pass, else
 * pass is NULL).  AESCRYPT_EFORMAT for text that holds no identity,
 * AESCRYPT_EKEY for a protected key without the right pass,
 * AESCRYPT_ESTATE after _open.
 */
AESCRYPT_API int aescrypt_reader_add_passphrase(aescrypt_reader *r,
    const void *pass, size_t len);
AESCRYPT_API int aescrypt_reader_add_key(aescrypt_reader *r,
    const uint8_t key[32]);
AESCRYPT_API int aescrypt_reader_add_keyfile(aescrypt_reader *r,
    const char *path);
AESCRYPT_API int aescrypt_reader_add_identity(aescrypt_reader *r,
    const char *text, size_t len, const void *pass, size_t passlen);

/* Settings, before _open: worker threads (1 to 256; default the CPUs
 * online); the most memory in KiB that a passphrase slot's Argon2id may
 * ask for (default: 2 GiB or half of RAM, whichever is less; a slot
 * over it is AESCRYPT_ELIMIT, never run). */
AESCRYPT_API int aescrypt_reader_set_threads(aescrypt_reader *r,
    unsigned threads);
AESCRYPT_API int aescrypt_reader_set_max_kdf_memory(aescrypt_reader *r,
    uint64_t kib);

/*
 * Open a container and unlock it with the keys given: its header is
 * read and checked, a slot opened and the header's MAC verified before
 * this returns.  _open reads through src (copied; its ctx must outlive
 * r); _open_fd from fd (the caller's, not closed; pread is used when fd
 * is a regular file); _open_path from a file.  AESCRYPT_EKEY when no key
 * opens it, AESCRYPT_EAUTH for a header that was changed,
 * AESCRYPT_EFORMAT for a file that is not an aescrypt v1 container,
 * AESCRYPT_ELIMIT for a passphrase slot over the KDF limit,
 * AESCRYPT_ENOTSUP for a codec this build lacks, and the source's
 * errors.  After a failed _open the reader can only be freed.
 */
AESCRYPT_API int aescrypt_reader_open(aescrypt_reader *r,
    const struct aescrypt_source *src);
AESCRYPT_API int aescrypt_reader_open_fd(aescrypt_reader *r, int fd);
AESCRYPT_API int aescrypt_reader_open_path(aescrypt_reader *r,
    const char *path);

/* The open container's kind (enum aescrypt_kind), or AESCRYPT_ESTATE
 * before a successful _open. */
AESCRYPT_API int aescrypt_reader_kind(const aescrypt_reader *r);

/*
 * Sequential reading.  _next: the next member of an archive into e;
 * AESCRYPT_OK, AESCRYPT_END after the last one (once the archive's end
 * and everything after it verified, and, for an archive with an index,
 * the index found to list exactly the members read: else
 * AESCRYPT_EFORMAT, as for any lie of the data), or an error.  _read:
 * up to n bytes into buf, *got of them (fewer than n only at the end:
 * 0 is the end): of a stream, or of the current member's data (a
 * sparse member's holes read as zeros).  A stream's end (a read of 0) comes only once the
 * final record and the file's end verified.  A failure ends the handle's
 * sequential reading: later calls return it again.
 */
AESCRYPT_API int aescrypt_reader_next(aescrypt_reader *r,
    struct aescrypt_entry *e);
AESCRYPT_API int aescrypt_reader_read(aescrypt_reader *r, void *buf, size_t n,
    size_t *got);

/*
 * Extract the rest of an archive's members (all of them, after _open)
 * beneath directory dir, as aescrypt -x does: nothing is made outside
 * dir whatever the names and links say ("..", absolute paths, symlinks
 * that lead out are refused or made safe), a file gets its name only
 * once its data is whole and verified, and what exists is replaced.
 * flags: AESCRYPT_X_* below.  AESCRYPT_OK; AESCRYPT_OK with
 * aescrypt_reader_partial() 1 when a member was skipped (the message
 * says the last one); or an error that ended the run (a failed write,
 * the archive's own failure).
 */
enum {
	AESCRYPT_X_KEEP_OLD = 1 << 0,   /* never replace what exists */
	AESCRYPT_X_PERMS = 1 << 1,      /* modes exactly, setuid included;
	                                 * else the process umask applies */
	AESCRYPT_X_OWNER = 1 << 2,      /* owners as stored (root only) */
	AESCRYPT_X_XATTRS = 1 << 3,     /* user.* extended attributes */
	AESCRYPT_X_ACLS = 1 << 4,       /* POSIX ACLs */
	AESCRYPT_X_NO_DEVICES = 1 << 5  /* make no device nodes */
};
AESCRYPT_API int aescrypt_reader_extract(aescrypt_reader *r, const char *dir,
    unsigned flags);
AESCRYPT_API int aescrypt_reader_partial(const aescrypt_reader *r);

/*
 * Random access, for an archive with an index on a source with pread
 * (else AESCRYPT_ENOTSUP).  The first of these calls reads and checks
 * the index (its footer, its records and every rule of the format); it
 * must return before others run on other threads.  From then on
 * _count, _entry, _find and _pread may be called from any number of
 * threads at once, also while sequential reading goes on.
 * _count: members in *n.  _entry: member i into e (strings valid until
 * r is freed).  _find: the first member whose path is path (a directory's
 * with or without its '/') into *i; AESCRYPT_END if there is none.
 * _pread: up to n bytes of member i's data from byte off, into buf;
 * *got is fewer than n only at the member's end (0 at or past it).  It
 * reads and opens only the records that hold the range, each whole and
 * authenticated before a byte of it is copied, and checks that the
 * member's header is the one the index names (its path, type, size and
 * place).  _entry gives what the index says, which only a holder of the
 * file key can have written.  AESCRYPT_EINVAL for i out of range.
 */
AESCRYPT_API int aescrypt_reader_count(aescrypt_reader *r, uint64_t *n);
AESCRYPT_API int aescrypt_reader_entry(aescrypt_reader *r, uint64_t i,
    struct aescrypt_entry *e);
AESCRYPT_API int aescrypt_reader_find(aescrypt_reader *r, const char *path,
    uint64_t *i);
AESCRYPT_API int aescrypt_reader_pread(aescrypt_reader *r, uint64_t i,
    void *buf, size_t n, uint64_t off, size_t *got);

/* ---- progress, costs and keyless inspection ---- */

/*
 * Progress: fn(ctx, plain, wire) after each record is written (a
 * writer) or released (a reader in order), with the payload bytes and
 * the record bytes so far.  Called from a library thread; it must be
 * quick.  Set before _open (AESCRYPT_ESTATE after); fn NULL turns it
 * off.
 */
typedef void (*aescrypt_progress_fn)(void *ctx, uint64_t plain_bytes,
    uint64_t wire_bytes);
AESCRYPT_API int aescrypt_writer_set_progress(aescrypt_writer *w,
    aescrypt_progress_fn fn, void *ctx);
AESCRYPT_API int aescrypt_reader_set_progress(aescrypt_reader *r,
    aescrypt_progress_fn fn, void *ctx);

/*
 * What the payload's pipeline did and cost: for a writer after a
 * successful _close, for a reader once reading in order has reached its
 * end (AESCRYPT_END, or a read of 0); else AESCRYPT_ESTATE.  CPU times
 * are the threads' own clocks, summed over the workers.  The reserved
 * words are 0; a later 1.x may give them meanings, never take one away.
 */
struct aescrypt_stats {
	uint64_t plain_bytes;     /* payload bytes, before compression */
	uint64_t wire_bytes;      /* record bytes, frames and tags included */
	uint64_t records;
	uint64_t zip_ns;          /* workers compressing or decompressing */
	uint64_t aead_ns;         /* workers sealing or opening */
	uint64_t wall_ns;         /* the pipeline's wall-clock time */
	unsigned threads;         /* workers that ran */
	uint64_t reserved[8];
};
AESCRYPT_API int aescrypt_writer_stats(const aescrypt_writer *w,
    struct aescrypt_stats *st);
AESCRYPT_API int aescrypt_reader_stats(const aescrypt_reader *r,
    struct aescrypt_stats *st);

/* A key slot's type: the format's own numbers (format/, section 4);
 * another number is a type this library does not know. */
enum aescrypt_slot_type {
	AESCRYPT_SLOT_PASSPHRASE = 1,     /* Argon2id */
	AESCRYPT_SLOT_KEYFILE = 2,
	AESCRYPT_SLOT_X25519 = 3,         /* age1... */
	AESCRYPT_SLOT_SSH_ED25519 = 4,
	AESCRYPT_SLOT_SSH_RSA = 5,
	AESCRYPT_SLOT_MLKEM768X25519 = 6  /* age1pq1... */
};

#define AESCRYPT_MAX_SLOTS 16

/* What a container's header says, read without a key (aescrypt
 * --info): nothing here is authenticated yet, as the header's MAC needs
 * the file key. */
struct aescrypt_info {
	int kind;                 /* enum aescrypt_kind */
	int codec;                /* enum aescrypt_codec */
	unsigned chunk_log2;
	int indexed;              /* an archive with an index */
	int has_copy;             /* the file ends with a copy of the header */
	uint64_t header_len;
	unsigned nslots;
	struct {
		int type;                 /* enum aescrypt_slot_type */
		uint32_t kdf_t, kdf_m_kib, kdf_p;   /* a passphrase slot's */
	} slot[AESCRYPT_MAX_SLOTS];
	uint64_t reserved[8];
};

/* Read and check the header at the start of src into info (src as for
 * aescrypt_reader_open; read from its start).  AESCRYPT_OK;
 * AESCRYPT_EFORMAT for what is not an aescrypt v1 header (or a damaged
 * one); AESCRYPT_ETRUNC for one cut short; AESCRYPT_ENOTSUP for a
 * version or payload type this library does not know.  err, if not NULL
 * (errlen bytes), gets the message.  Thread-safe. */
AESCRYPT_API int aescrypt_inspect(const struct aescrypt_source *src,
    struct aescrypt_info *info, char *err, size_t errlen);

/* ---- sizes, for bindings ---- */

/* The size of struct aescrypt_entry, struct aescrypt_source, struct
 * aescrypt_stats and struct aescrypt_info as this library was built: a
 * binding checks them against its own layout. */
AESCRYPT_API size_t aescrypt_entry_size(void);
AESCRYPT_API size_t aescrypt_source_size(void);
AESCRYPT_API size_t aescrypt_stats_size(void);
AESCRYPT_API size_t aescrypt_info_size(void);

#ifdef __cplusplus
}
#endif

#endif

/* ---- the unstable part (zstd's ZSTD_STATIC_LINKING_ONLY) ----
 *
 * What follows is for the aescrypt command and for programs that link
 * libaescrypt.a and are rebuilt with each release: it may change or go
 * in any release, it is outside the ABI promise above, and
 * libaescrypt.so.1 does not export it.  Define
 * AESCRYPT_STATIC_LINKING_ONLY before including this header to see it;
 * it needs C11 (_Atomic).
 *
 * Threads and ownership are as above: the calls that take a handle are
 * used from one thread at a time; the others are thread-safe, but for
 * aescrypt_force_software, which is called once, before any key is
 * set up.  A callback is called on the thread that made the call it
 * serves (an unlock callback on _open's), except where it says a
 * library thread; what a call returns a pointer to lives as long as
 * the call says, static strings for ever.
 */
#if defined(AESCRYPT_STATIC_LINKING_ONLY) && !defined(AESCRYPT_H_STATIC)
#define AESCRYPT_H_STATIC

#ifdef __cplusplus
extern "C" {
#endif

/* -- this build: engines, codecs, cipher tiers, libraries (lib/build.c) */

/* The DEFLATE engines.  _available: 1 or 0 (the default always is).
 * _name: "libdeflate" or "zlib" (the default: the engine it stands
 * for).  _version: its library's version. */
enum {
	AESCRYPT_ENGINE_DEFAULT = 0,    /* libdeflate if built in, else zlib */
	AESCRYPT_ENGINE_ZLIB = 1,
	AESCRYPT_ENGINE_LIBDEFLATE = 2
};
int aescrypt_engine_available(int engine);
const char *aescrypt_engine_name(int engine);
const char *aescrypt_engine_version(int engine);

/* A codec's row (enum aescrypt_codec), with engine's figures where the
 * codec has engines: AESCRYPT_OK, or AESCRYPT_EINVAL for a codec the
 * format does not define.  The strings are static. */
struct aescrypt_codec_info {
	const char *name;           /* "deflate", "zstd" (--info, --stats) */
	const char *title;          /* "DEFLATE", "zstd": in sentences */
	const char *option;         /* how -c asks for it: "the default",
	                             * "--zstd" */
	const char *unzip;          /* what reading does: "inflate" */
	const char *version;        /* its library's, or "none" */
	unsigned chunk_log2_default, chunk_log2_max;
	int max_level;              /* with engine */
	int available;              /* this build has it */
	int engines;                /* it has the DEFLATE engines */
};
int aescrypt_codec_info(int codec, int engine,
    struct aescrypt_codec_info *ci);

/* The cipher's tiers, 0 .. aescrypt_tier_count() - 1: a name
 * ("aes-ni", "vaes-avx2", "soft-ct", ...), whether this CPU runs it,
 * and the one new keys run on.  aescrypt_force_software() makes that
 * the constant-time software tier for the rest of the process, and
 * SHA-256 the portable code (--no-hw; before any key is set up).  aescrypt_cpu_describe: the CPU features
 * the tiers use, in words, into buf. */
int aescrypt_tier_count(void);
const char *aescrypt_tier_name(int tier);
int aescrypt_tier_available(int tier);
int aescrypt_tier_default(void);
void aescrypt_force_software(void);
void aescrypt_cpu_describe(char *buf, size_t n);

/* The libraries behind the key slots: libsodium's version; libcrypto's
 * (for ssh-rsa), or NULL in a build without it. */
const char *aescrypt_sodium_version(void);
const char *aescrypt_rsa_version(void);

/* The container format's version number (format/). */
int aescrypt_format_version(void);

/* -- writers (lib/writer_more.c) -- */

/* The place of w's last failure in the core's terms (src/common/
 * error.h: a record's number and offset, a slot, the input or the
 * output with errno), so that the command words it as it always has;
 * NULL when the failure had no place (aescrypt_writer_error() alone
 * then says it).  Valid until the next call on w. */
struct ae_diag;
const struct ae_diag *aescrypt_writer_diag(const aescrypt_writer *w);

/* Before _open: the DEFLATE engine (AESCRYPT_ENGINE_*: AESCRYPT_ENOTSUP
 * when this build lacks it); signals (when *interrupt becomes non-zero
 * the pipeline stops with AESCRYPT_EINTR; when it stops early for any
 * reason it sets *cancel, so that a read blocked in the caller's source
 * can give up; either may be NULL); whether the run's stages are timed
 * (default 1: a few clock reads a record). */
int aescrypt_writer_set_engine(aescrypt_writer *w, int engine);
int aescrypt_writer_set_signals(aescrypt_writer *w,
    const _Atomic int *interrupt, _Atomic int *cancel);
int aescrypt_writer_set_timed(aescrypt_writer *w, int on);

/* A stream's bytes, all of them, read from src (its read, to the end)
 * by the pipeline's reader thread while the caller's thread writes the
 * records: no copy through a channel, and a read stage of its own in
 * the figures.  Once, after _open and before any _write; then _close. */
int aescrypt_writer_write_from(aescrypt_writer *w,
    const struct aescrypt_source *src);

/* Every figure of the payload's run (src/pipeline/pipeline.h: bytes,
 * records, each stage's CPU and wait times, the timings only when
 * timed), as --stats prints them, after _close succeeded; NULL before.
 * Valid until w is freed. */
struct ae_pipe_stats;
const struct ae_pipe_stats *aescrypt_writer_pipe_stats(
    const aescrypt_writer *w);

/* An archive's members from the command's own walk (src/disk/
 * reader.h): set before _open, p (kept: it must outlive the writer)
 * replaces the writer's walk, its lead (the archive's global header)
 * the writer's, and its report is called for every event after the
 * writer has noted a member in the index; a non-zero return stops the
 * walk.  _add_paths: paths[0..n) and everything under them, each
 * after entering p->dirfd[i] where p has dirfd (-C), as aescrypt -c
 * walks them.  A walk that stops leaves aescrypt_writer_diag() NULL
 * unless the pipeline failed first. */
struct ae_dr_params;
int aescrypt_writer_set_walk(aescrypt_writer *w,
    const struct ae_dr_params *p);
int aescrypt_writer_add_paths(aescrypt_writer *w, char *const *paths,
    size_t n);

/* The cipher tier the file's keys run on ("vaes-avx2", ...), after
 * _open; "none" before. */
const char *aescrypt_writer_tier(const aescrypt_writer *w);

/* -- readers (lib/reader.c, lib/inspect.c) -- */

/* The place of r's last failure, as aescrypt_writer_diag() gives a
 * writer's; NULL when it had none. */
const struct ae_diag *aescrypt_reader_diag(const aescrypt_reader *r);

/* The unlock callback, set before _open: called once the header has
 * been read and checked (its codec is one this build has), before any
 * key is tried, with what the header says.  It gives the keys that fit
 * the slots there (aescrypt_reader_add_*: so a passphrase is asked for
 * only when the file has a passphrase slot), then returns AESCRYPT_OK;
 * or it returns a negative status, which _open returns (a positive one
 * stops it with AESCRYPT_EINTR).  It must not call _open. */
typedef int (*aescrypt_unlock_fn)(void *ctx, aescrypt_reader *r,
    const struct aescrypt_info *info);
int aescrypt_reader_set_unlock_callback(aescrypt_reader *r,
    aescrypt_unlock_fn fn, void *ctx);

/* Settings before _open, as the writer's (aescrypt_writer_set_engine,
 * _set_signals, _set_timed): the DEFLATE engine that decodes, the
 * caller's interrupt and cancel flags, whether the stages are timed
 * (default 1). */
int aescrypt_reader_set_engine(aescrypt_reader *r, int engine);
int aescrypt_reader_set_signals(aescrypt_reader *r,
    const _Atomic int *interrupt, _Atomic int *cancel);
int aescrypt_reader_set_timed(aescrypt_reader *r, int on);

/*
 * Events: what the reader met and went on from, or what it is about to
 * fail with, told as it happens so that the caller words each in its
 * place (the library never prints).  status is the core's error
 * (src/common/error.h) and d its place, where the event has them;
 * flags are AESCRYPT_HEADER_* for the header's events.
 */
enum {
	/* the header at the start failed to read (status, d); _DAMAGED
	 * when it is a damaged header, not another kind of file */
	AESCRYPT_EVENT_HEADER_BAD = 1,
	/* a slot opened, but the header's MAC failed (d) */
	AESCRYPT_EVENT_HEADER_UNAUTHENTIC,
	/* the copy cannot be reached: the source cannot pread (a pipe) */
	AESCRYPT_EVENT_COPY_UNREADABLE,
	/* no copy can be used (status, d: why) */
	AESCRYPT_EVENT_COPY_BAD,
	/* the copy at the end of the file is used from here on */
	AESCRYPT_EVENT_COPY_USED,
	/* the copy failed to unlock with the same keys (status, d) */
	AESCRYPT_EVENT_COPY_UNAUTHENTIC,
	/* salvage: the index could not be read (status, d: why); the
	 * payload is read without its record offsets */
	AESCRYPT_EVENT_INDEX_UNUSABLE
};
#define AESCRYPT_HEADER_DAMAGED   1u  /* damage, not another format */
#define AESCRYPT_HEADER_COPY      2u  /* a copy parses at the end */
#define AESCRYPT_HEADER_FROM_COPY 4u  /* the header was the copy already */
#define AESCRYPT_HEADER_RETRY     8u  /* salvage: the copy is tried next */
typedef void (*aescrypt_event_fn)(void *ctx, int event, int status,
    unsigned flags, const struct ae_diag *d);
/* (at any time but during a call on r: fn NULL for none) */
int aescrypt_reader_set_events(aescrypt_reader *r, aescrypt_event_fn fn,
    void *ctx);

/*
 * Salvage (aescrypt --salvage), before _open.  A header that is damaged
 * or fails authentication is replaced by its copy at the end of the
 * file (format 6.9) when the source can pread, and the copy is used
 * only if it authenticates with the same keys.  A record that fails to
 * open does not end aescrypt_reader_decode_to: fn is told (record
 * number, whether it was the final one, why), then, but for the final
 * one, a chunk of zeros stands for it in the output, so that what
 * follows keeps its offset; an archive's index, where the source can
 * pread, says where the next record starts.  fn returns 0, or a
 * negative status that ends the run (a loss it could not record).  fn
 * runs on the pipeline's threads, one call at a time.
 */
typedef int (*aescrypt_lost_fn)(void *ctx, uint64_t record, int final,
    const struct ae_diag *d);
/* A lost_fn's record for bytes passed over where no record was lost
 * (junk between records, a record read again): d->offset says where
 * they start, d->have how many, d->what why; nothing stands for them
 * in the output, but the result is not the file's whole payload. */
#define AESCRYPT_NO_RECORD UINT64_MAX
int aescrypt_reader_set_salvage(aescrypt_reader *r, aescrypt_lost_fn fn,
    void *ctx);

/* The header's codec (enum aescrypt_codec) once it has been read, even
 * when _open then failed (its codec missing from this build); -1
 * before.  After _open: what aescrypt_inspect gives of the header that
 * was used (the copy, with salvage), and whether it was the copy. */
int aescrypt_reader_codec(const aescrypt_reader *r);
int aescrypt_reader_info(const aescrypt_reader *r,
    struct aescrypt_info *info);
int aescrypt_reader_from_copy(const aescrypt_reader *r);

/* What the passphrase's KDF cost in _open: process CPU and wall time
 * (ns) and its memory (KiB); all 0 when no passphrase slot was run. */
void aescrypt_reader_kdf_cost(const aescrypt_reader *r, uint64_t *cpu_ns,
    uint64_t *wall_ns, uint64_t *m_kib);

/* The whole payload's verified plaintext to fn (a stream's bytes, an
 * archive's tar stream), on the caller's thread, then the check of
 * what follows the final record (the index, the footer, the header's
 * copy, the end of the file): aescrypt -d.  Once, after _open, instead
 * of reading in order.  AESCRYPT_OK only for a whole file; a failure
 * has its place in aescrypt_reader_diag().  What fn was given before
 * a failure verified, but is not the whole. */
int aescrypt_reader_decode_to(aescrypt_reader *r, aescrypt_write_fn fn,
    void *ctx);

/*
 * The payload's plaintext for a caller with its own tar reader
 * (aescrypt -t, -x): a run on a thread of the reader's, one at a time,
 * instead of reading in order or decode_to.  _start: the whole payload
 * (run NULL; once), after which the index, the footer, the copy of the
 * header and the end of the file are checked (and, with flags
 * AESCRYPT_RAW_CHECK_INDEX, the index is kept to be compared: below);
 * or the records run->first ..
 * first + count - 1, the first at file offset run->offset (from the
 * index; a source that can pread), with nothing checked after them.
 * Salvage applies to either.  _read: up to n bytes, fewer only at the
 * run's end or on its failure (the status; aescrypt_reader_diag()
 * says where once _end has returned it).  _end: the rest drained and
 * checked (stop 0) or the run stopped (stop 1: then a failure at
 * AE_AT_OUTPUT with AESCRYPT_EINTR is the stop itself); its status,
 * and in *bytes (may be NULL) the plaintext it passed.  _complete:
 * whether the last run read its records to the final one.
 */
struct aescrypt_run {
	uint64_t first, count, offset;
};
int aescrypt_reader_raw_start(aescrypt_reader *r,
    const struct aescrypt_run *run, unsigned flags);
int aescrypt_reader_raw_read(aescrypt_reader *r, void *buf, size_t n,
    size_t *got);
int aescrypt_reader_raw_end(aescrypt_reader *r, int stop, uint64_t *bytes);
int aescrypt_reader_raw_complete(const aescrypt_reader *r);

/*
 * What reading the index cost, once it is loaded (below).  _tar_pread:
 * n bytes of the payload's plaintext (the tar stream) at off through
 * the index's records, decrypting only those (fewer only at its end);
 * its failure's place in aescrypt_reader_diag() (these share r's
 * message: one thread at a time).
 */
const struct ae_pipe_stats *aescrypt_reader_index_stats(
    const aescrypt_reader *r);
int aescrypt_reader_tar_pread(aescrypt_reader *r, uint64_t off, void *buf,
    size_t n, size_t *got);

/*
 * A cache of opened records shared by random access's threads (none by
 * default: each thread's record reader keeps its own last record).
 * _set_cache, before the first call of random access (AESCRYPT_ESTATE
 * after): at most bytes of plaintext (whole records, two at least; 0:
 * none), and `ahead` threads that read ahead the records after a read
 * that goes on from the previous one of the same member (0: none).
 * What is cached was authenticated whole, and is wiped when the reader
 * is freed.  _cache_figures: hits, misses, and records read ahead
 * (AESCRYPT_ENOTSUP without a cache).
 */
int aescrypt_reader_set_cache(aescrypt_reader *r, uint64_t bytes,
    unsigned ahead);
int aescrypt_reader_cache_figures(aescrypt_reader *r, uint64_t *hits,
    uint64_t *misses, uint64_t *ahead);

/*
 * What the index does not hold of member i, read from its headers (the
 * records that hold them opened, and the headers checked against the
 * entry as _pread checks them): its extended attributes, ACLs in the
 * kernel's form (system.posix_acl_access, _default: GNU tar's and
 * bsdtar's text converted as -x converts it), the kernel's own
 * system.* and ACLs of other systems left out; and a directory's
 * GNU.dumpdir (what it held when a -g level dumped it: "Yname",
 * "Nname", "Dname", renames "Rfrom" "Tto", each NUL-terminated, an
 * empty one last), or NULL.  Safe from many threads once random
 * access is ready.  Free with aescrypt_extras_free.
 */
struct aescrypt_xattr {
	char *name;
	uint8_t *value;
	size_t len;
};
struct aescrypt_extras {
	struct aescrypt_xattr *xattrs;
	size_t nxattrs;
	uint8_t *dumpdir;
	size_t dumpdir_len;
};
int aescrypt_reader_extras(aescrypt_reader *r, uint64_t i,
    struct aescrypt_extras *x);
void aescrypt_extras_free(struct aescrypt_extras *x);

/*
 * The index as the command reads it (the reader loads and checks it
 * once, as for random access; these share r's message: one thread at
 * a time).  _figures: its member count, where the tar stream's end
 * blocks start, and the payload's records.  _entry: entry i as a
 * member, with where its headers start in the tar stream (first) and
 * the 6.8 size field as stored (a device's numbers: major << 32 |
 * minor); strings valid while r lives.  _find_first: the first entry
 * whose headers start at or after tar stream offset off (members when
 * none).  _record_offset: where record k starts in the file (k up to
 * records: then where the index starts).  _entry_same: whether tar
 * member m is what entry i says, field for field and name for name (1
 * or 0).
 */
struct aescrypt_index_figures {
	uint64_t members, tar_end, records;
};
struct aescrypt_index_entry {
	struct aescrypt_entry e;
	uint64_t first;
	uint64_t stored_size;
};
struct ae_tar_member;
int aescrypt_reader_index_figures(aescrypt_reader *r,
    struct aescrypt_index_figures *f);
int aescrypt_reader_index_entry(aescrypt_reader *r, uint64_t i,
    struct aescrypt_index_entry *ie);
uint64_t aescrypt_reader_index_find_first(aescrypt_reader *r, uint64_t off);
uint64_t aescrypt_reader_record_offset(aescrypt_reader *r, uint64_t k);
int aescrypt_reader_entry_same(aescrypt_reader *r, uint64_t i,
    const struct ae_tar_member *m);

/*
 * A full read that checks the index (a whole raw run started with
 * AESCRYPT_RAW_CHECK_INDEX on an archive with one): the caller's tar
 * reader tells the reader each member it meets and where the end
 * blocks were (_raw_seen, which has the tar reader's `seen` hook's
 * shape: ctx is r), and after the run ended cleanly _raw_verdict
 * compares them with the index's entries: kind AESCRYPT_INDEX_AGREES,
 * or what differs.  The index's entries are never held whole for it:
 * a digest of each member read is.
 */
#define AESCRYPT_RAW_CHECK_INDEX 1u
enum {
	AESCRYPT_INDEX_AGREES = 0,
	AESCRYPT_INDEX_NOT_HELD,    /* too large to hold: not compared */
	AESCRYPT_INDEX_NO_MEMORY,   /* no room to compare: not compared */
	AESCRYPT_INDEX_MALFORMED,   /* it authenticates but breaks 6.8
	                             * (text: which rule) */
	AESCRYPT_INDEX_ENTRY,       /* entry `entry` (its path in text, its
	                             * place `at`) is not the member read
	                             * there */
	AESCRYPT_INDEX_COUNT,       /* it lists `listed`, the payload held
	                             * `seen` */
	AESCRYPT_INDEX_END          /* the tar stream ends at `at`, not at
	                             * the index's tar_end */
};
struct aescrypt_index_verdict {
	int kind;
	uint64_t entry, at, listed, seen, tar_end;
	char text[1024];
};
void aescrypt_reader_raw_seen(void *r, const struct ae_tar_member *m,
    uint64_t end_at);
int aescrypt_reader_raw_verdict(aescrypt_reader *r,
    struct aescrypt_index_verdict *v);

/*
 * The index held small, for a full read that checks each member in
 * order against it before using it (-x): a digest of each entry, where
 * it starts, and its path front-coded.  _digests: made from the index
 * if it is loaded, else decoded for it alone (the index is never held
 * whole then); AESCRYPT_OK, or why not (the place in
 * aescrypt_reader_diag()).  _digest_figures: how many, and the tar
 * end.  _digest_same: whether tar member m is entry k and ends where
 * entry k + 1 starts (1 or 0).  _digest_entry: entry k's place and
 * path (valid until the next call on r).
 */
int aescrypt_reader_digests(aescrypt_reader *r);
int aescrypt_reader_digest_figures(aescrypt_reader *r, uint64_t *n,
    uint64_t *tar_end);
int aescrypt_reader_digest_same(aescrypt_reader *r, uint64_t k,
    const struct ae_tar_member *m);
int aescrypt_reader_digest_entry(aescrypt_reader *r, uint64_t k,
    uint64_t *first, const char **path);

/* The payload run's figures, as aescrypt_writer_pipe_stats gives a
 * writer's, after aescrypt_reader_decode_to or a raw run (also after a
 * failure: as far as it went; the raw runs since the whole payload's
 * start summed); NULL before.  The cipher tier, after _open. */
const struct ae_pipe_stats *aescrypt_reader_pipe_stats(
    const aescrypt_reader *r);
const char *aescrypt_reader_tier(const aescrypt_reader *r);

/* A slot type's class (enum aescrypt_slot_type; the format's table):
 * what opens it, or -1 for a type this library does not know. */
enum {
	AESCRYPT_SLOT_CLASS_PASSPHRASE = 0,
	AESCRYPT_SLOT_CLASS_KEYFILE = 1,
	AESCRYPT_SLOT_CLASS_RECIPIENT = 2   /* an identity */
};
int aescrypt_slot_class(int type);

/* -- keys the command parses itself (lib/keylist.c) -- */

/*
 * A list of recipients and identities, each parsed as it is added so
 * that the caller can word its own errors (the file and line, the
 * character that is wrong), then given whole to a writer or a reader
 * (before _open, or in a reader's unlock callback).  Identities are
 * held as a handle holds them: locked, and wiped when the list is
 * freed.  d gets the place of an error.  Not thread-safe.
 *
 * _add_recipient: an age1..., age1pq1..., ssh-ed25519 or ssh-rsa key;
 * a repeat is kept once.  AESCRYPT_EFORMAT (d->offset: the character,
 * when it is one); AESCRYPT_ENOTSUP for a key this build or the format
 * cannot take (another ssh type, a certificate authority's); AESCRYPT_
 * EINVAL for a secret key, or for a key of low order (anyone could
 * decrypt to it).  _add_age_identity: one AGE-SECRET-KEY-1 or
 * AGE-SECRET-KEY-PQ-1 line.  _add_ssh_identity: an OpenSSH PEM private
 * key, opened with pass if it is protected; without the right one,
 * AESCRYPT_EKEY, and aescrypt_ssh_needs_passphrase() says whether a
 * passphrase would open it; AESCRYPT_ELIMIT with d->have, d->limit for
 * a bcrypt cost over the limit.
 */
typedef struct aescrypt_keys aescrypt_keys;
aescrypt_keys *aescrypt_keys_new(void);
void aescrypt_keys_free(aescrypt_keys *k);
int aescrypt_keys_add_recipient(aescrypt_keys *k, const char *s,
    struct ae_diag *d);
int aescrypt_keys_add_age_identity(aescrypt_keys *k, const char *line,
    struct ae_diag *d);
int aescrypt_keys_add_ssh_identity(aescrypt_keys *k, const char *text,
    size_t len, const void *pass, size_t passlen, struct ae_diag *d);
int aescrypt_ssh_needs_passphrase(int status, const struct ae_diag *d);
/* An age plugin identity (AGE-PLUGIN-NAME-1..., Bech32 checked), for
 * aescrypt_age_unlock to give to age-plugin-NAME; a repeat is kept
 * once.  AESCRYPT_EFORMAT, or AESCRYPT_ELIMIT past _PLUGINS_MAX. */
#define AESCRYPT_AGE_PLUGINS_MAX 32
#define AESCRYPT_AGE_PLUGIN_TEXT_MAX 1024
int aescrypt_keys_add_plugin_identity(aescrypt_keys *k, const char *line,
    struct ae_diag *d);
size_t aescrypt_keys_plugin_identities(const aescrypt_keys *k);
/* Whether s is a certificate authority's key line (authorized_keys'
 * cert-authority, known_hosts' @cert-authority, @revoked): 1 or 0. */
int aescrypt_is_ca_key_text(const char *s);
size_t aescrypt_keys_recipients(const aescrypt_keys *k);
size_t aescrypt_keys_identities(const aescrypt_keys *k);

/* Whether a header holds slots for k's recipients, a key file's (if
 * keyfile) and a passphrase's (if pass): AESCRYPT_OK; AESCRYPT_ELIMIT
 * for more slots than a header holds (p->max); AESCRYPT_ETOOBIG for
 * more bytes (p->need, of p->max).  p also says a header's own bytes
 * (fixed), a post-quantum slot's (pq_slot) and how many of k's
 * recipients are post-quantum (npq), for the words. */
struct aescrypt_plan {
	size_t need, max, fixed, pq_slot, npq;
};
int aescrypt_keys_plan(const aescrypt_keys *k, int keyfile, int pass,
    struct aescrypt_plan *p);

/* Recipient i of k as its text (age1..., ssh-...), NUL-terminated in
 * buf: its length, or 0. */
size_t aescrypt_keys_recipient_text(const aescrypt_keys *k, size_t i,
    char *buf, size_t cap);

/* k's recipients to w, k's identities to r: copies. */
int aescrypt_writer_add_keys(aescrypt_writer *w, const aescrypt_keys *k);
int aescrypt_reader_add_keys(aescrypt_reader *r, const aescrypt_keys *k);

/* A new identity (X25519, or ML-KEM-768 + X25519 with pq): its secret
 * line (AGE-SECRET-KEY-...) in secret and its recipient in recipient,
 * NUL-terminated.  AESCRYPT_OK; AESCRYPT_EIO when the system's random
 * source failed; AESCRYPT_EINVAL for a buffer too small (the _MAX
 * below hold them). */
#define AESCRYPT_RECIPIENT_TEXT_MAX 2048
#define AESCRYPT_IDENTITY_TEXT_MAX 80
int aescrypt_identity_new(int pq, char *secret, size_t scap,
    char *recipient, size_t rcap);

/* -- age files (lib/age.c) --
 *
 * An age v1 file (C2SP age.md), binary or armored (found by its first
 * bytes), read: its header without a key (_open, _info, _stanza), its
 * file key from a key list's identities (X25519, mlkem768x25519,
 * ssh-ed25519, ssh-rsa) or a passphrase (scrypt) (_unlock), and its
 * payload, decrypted on the chunk pipeline's threads to fn (_decrypt_to:
 * a chunk's plaintext is given only once it authenticated, in order;
 * a failure ends the run after the chunks before it).  Calls return
 * the core's AE_E* statuses with d placing the failure (d->where
 * AE_AT_STANZA: stanza d->index; AE_AT_CHUNK: the payload's chunk), and
 * _armor_error the armor's words when it was the armor that failed.
 * _unlock: AE_EKEY when nothing given opens a stanza, AE_EFORMAT for a
 * malformed stanza of a type given, AE_ELIMIT for an scrypt work factor
 * (log2 N) over max_work_factor (0: age's 22), AE_EAUTH for a header
 * whose MAC is wrong.  _count_payload (instead of _unlock) reads the
 * rest without a key: the payload's bytes, nonce included.
 */
#define AESCRYPT_AGE_WORK_FACTOR_DEFAULT 22
#define AESCRYPT_AGE_WORK_FACTOR_MAX 30
#define AESCRYPT_AGE_NONCE_LEN 16       /* the payload's first bytes */
#define AESCRYPT_AGE_RECORD 65552       /* a chunk, 64 KiB and its tag */
typedef struct aescrypt_age aescrypt_age;
struct aescrypt_age_info {
	int armored;
	size_t stanzas;
	uint64_t header_len;        /* the binary header's bytes, MAC line
	                             * included */
	int postquantum;            /* every stanza is mlkem768x25519 */
	int passphrase;             /* an scrypt stanza */
};
aescrypt_age *aescrypt_age_new(void);
void aescrypt_age_free(aescrypt_age *a);
int aescrypt_age_set_threads(aescrypt_age *a, unsigned threads);
/* Whether the payload's stages are timed, for _pipe_stats (default 0:
 * the clock reads cost 5% of a decryption). */
int aescrypt_age_set_timed(aescrypt_age *a, int on);
int aescrypt_age_set_signals(aescrypt_age *a, const _Atomic int *interrupt,
    _Atomic int *cancel);
int aescrypt_age_open(aescrypt_age *a, const struct aescrypt_source *src,
    struct ae_diag *d);
const char *aescrypt_age_armor_error(const aescrypt_age *a);
int aescrypt_age_info(const aescrypt_age *a, struct aescrypt_age_info *i);
const char *aescrypt_age_stanza(const aescrypt_age *a, size_t i,
    size_t *nargs, size_t *bodylen);
int aescrypt_age_count_payload(aescrypt_age *a, uint64_t *bytes,
    struct ae_diag *d);
/*
 * age plugins (C2SP age-plugin.md, identity-v1): when the key list
 * given to _unlock holds AGE-PLUGIN-NAME-1... identities and its native
 * identities open no stanza, age-plugin-NAME (from PATH's absolute
 * entries, never the working directory) is run with them and every
 * stanza.  Its msg, confirm and request-public/-secret go to ui (a
 * NULL callback answers "fail"); msg and confirm's text is printable
 * ASCII. request fills out (cap bytes, *len) and returns 0, or -1
 * for none; confirm returns 1 (yes), 0 (no) or -1.  A plugin that says
 * nothing for timeout_ms (0: _PLUGIN_TIMEOUT_MS; the time the user
 * takes to answer is not counted) is killed.  A file key from a plugin
 * must pass the header's MAC like any other.  _plugin_error: the words
 * of the last plugin failure ("" if none).
 */
#define AESCRYPT_AGE_PLUGIN_TIMEOUT_MS 120000
struct aescrypt_age_plugin_ui {
	void (*msg)(void *ctx, const char *plugin, const char *text);
	int (*confirm)(void *ctx, const char *plugin, const char *text,
	    const char *yes, const char *no);
	int (*request)(void *ctx, const char *plugin, const char *text,
	    int secret, char *out, size_t cap, size_t *len);
	void *ctx;
	unsigned timeout_ms;
};
int aescrypt_age_set_plugin_ui(aescrypt_age *a,
    const struct aescrypt_age_plugin_ui *ui);
const char *aescrypt_age_plugin_error(const aescrypt_age *a);
int aescrypt_age_unlock(aescrypt_age *a, const aescrypt_keys *k,
    const void *pass, size_t passlen, unsigned max_work_factor,
    struct ae_diag *d);
int aescrypt_age_decrypt_to(aescrypt_age *a, aescrypt_write_fn fn,
    void *ctx, struct ae_diag *d);
const struct ae_pipe_stats *aescrypt_age_pipe_stats(const aescrypt_age *a);
/*
 * A raw run, instead of _decrypt_to, for a caller with its own tar
 * reader (aescrypt -t, -x): the payload decrypted on a thread of the
 * handle's, and its plaintext read with _raw_read as a plain tar
 * stream: gzip and zstd (found by their magic) are decompressed on the
 * way.  _raw_start: AE_ENOTSUP for another compression (xz, bzip2) or
 * zstd without libzstd, d saying which.  _raw_read: n bytes, fewer only
 * at the end; a failure is the run's (or corrupt compressed data), said
 * by _raw_end, which (with stop 0) reads the rest first so that the
 * final chunk is checked, joins the thread and gives the run's status
 * with d and the plaintext bytes that passed.  _compression: "gzip",
 * "zstd" or "none", once started.
 */
int aescrypt_age_raw_start(aescrypt_age *a, struct ae_diag *d);
int aescrypt_age_raw_read(aescrypt_age *a, void *buf, size_t n,
    size_t *got);
int aescrypt_age_raw_end(aescrypt_age *a, int stop, uint64_t *bytes,
    struct ae_diag *d);
const char *aescrypt_age_compression(const aescrypt_age *a);

/* -- what a file is, from its first bytes (lib/sniff.c) -- */

#define AESCRYPT_SNIFF_LEN 512      /* enough for every signature */
enum aescrypt_format {
	AESCRYPT_FORMAT_UNKNOWN = 0,
	AESCRYPT_FORMAT_AESCRYPT,       /* this library's container */
	AESCRYPT_FORMAT_AESCRYPT_LEGACY,/* AES Crypt, stream format 0-3 */
	AESCRYPT_FORMAT_GZIP,
	AESCRYPT_FORMAT_ZSTD,
	AESCRYPT_FORMAT_XZ,
	AESCRYPT_FORMAT_BZIP2,
	AESCRYPT_FORMAT_LZ4,
	AESCRYPT_FORMAT_7Z,
	AESCRYPT_FORMAT_ZIP,
	AESCRYPT_FORMAT_AGE,
	AESCRYPT_FORMAT_AGE_ARMOR,
	AESCRYPT_FORMAT_PGP,
	AESCRYPT_FORMAT_PGP_ARMOR,
	AESCRYPT_FORMAT_OPENSSL_ENC,
	AESCRYPT_FORMAT_TAR
};
/* The format of a file whose first n bytes are buf (n may be short;
 * only unambiguous published signatures count), and its name ("gzip",
 * "7-Zip", "AES Crypt"; "unknown"). */
int aescrypt_sniff(const void *buf, size_t n);
const char *aescrypt_format_name(int format);

/* -- keys (lib/keyfile.c, lib/build.c) -- */

/* Key files (format/, section 8): the text of one for a fresh random
 * key, NUL-terminated in buf (cap bytes): its length, or 0 when buf is
 * too small or the system's random source failed (errno says why).
 * Parsed: AESCRYPT_OK with the key, AESCRYPT_EFORMAT for text that is
 * not exactly one key line and comments.  A file over
 * AESCRYPT_KEYFILE_MAX bytes is not a key file. */
#define AESCRYPT_KEYFILE_MAX 4096
size_t aescrypt_keyfile_new(char *buf, size_t cap);
int aescrypt_keyfile_parse(const char *text, size_t len, uint8_t key[32]);

/* Whether s looks like a secret key ("AGE-SECRET-KEY-...", a PEM
 * private key) given where a recipient belongs: 1 or 0. */
int aescrypt_is_secret_key_text(const char *s);

/* -- signing (lib/signer.c) -- */

/*
 * A signer: an ssh-ed25519 key that signs, as ssh-keygen -Y sign does.
 * _open takes a key file's text: an OpenSSH private key (opened with
 * pass when it is protected; without the right one AESCRYPT_EKEY, and
 * aescrypt_ssh_needs_passphrase says whether a passphrase would open
 * it), which then signs in this process; or the public key line of a
 * key ssh-agent holds, which the agent listening at the socket path
 * agent (SSH_AUTH_SOCK) then signs with, so that its private half
 * never leaves the agent or the token behind it.  The agent is asked
 * at once whether it holds the key.  AESCRYPT_OK; AESCRYPT_ENOTSUP for
 * a key of another type; AESCRYPT_EINVAL for a public key and agent
 * NULL; AESCRYPT_EKEY when the agent does not hold it; AESCRYPT_EIO
 * (d->sys_errno) when the agent cannot be reached; AESCRYPT_EFORMAT
 * for text that is neither, or an agent that does not speak the
 * protocol; AESCRYPT_ELIMIT for a bcrypt cost over the limit.  d->what
 * says why.  The private key is held as identities are, and wiped by
 * _free.
 *
 * _fingerprint: the key's, as ssh-keygen -l prints it ("SHA256:...").
 * _sshsig: an SSHSIG signature (PROTOCOL.sshsig; what ssh-keygen -Y
 * verify checks) of the message whose SHA-512 is h, under the
 * namespace ns (1 to 64 characters), armoured and NUL-terminated in out
 * (AESCRYPT_SSHSIG_MAX bytes hold it): AESCRYPT_OK with its length in
 * *len; the agent's errors, and AESCRYPT_EAUTH when its signature does
 * not verify under the key.
 */
typedef struct aescrypt_signer aescrypt_signer;
#define AESCRYPT_FINGERPRINT_MAX 51
#define AESCRYPT_SSHSIG_MAX 1024
int aescrypt_signer_open(aescrypt_signer **s, const char *text, size_t len,
    const void *pass, size_t passlen, const char *agent, struct ae_diag *d);
void aescrypt_signer_free(aescrypt_signer *s);
void aescrypt_signer_fingerprint(const aescrypt_signer *s,
    char out[AESCRYPT_FINGERPRINT_MAX]);
int aescrypt_signer_sshsig(aescrypt_signer *s, const char *ns,
    const uint8_t h[64], char *out, size_t cap, size_t *len,
    struct ae_diag *d);

/*
 * A signed container (format 6.10): set before _open, s (kept: it must
 * outlive the writer) signs the header and every record, with a
 * signature after every 16 MiB of plaintext and one after the last
 * record (an archive with an index: after its footer).  A signature
 * the agent refuses fails the write that needed it.
 */
int aescrypt_writer_set_signer(aescrypt_writer *w, aescrypt_signer *s);

/*
 * Reading a signed file: every signature is checked against the key
 * its header names, whatever is set here, and nothing a signature does
 * not yet cover is given to the sink: at most 16 MiB of plaintext is
 * held until the signature after it verifies.  A signature that fails
 * is AESCRYPT_EAUTH, one missing where it belongs AESCRYPT_ETRUNC (the
 * input ends) or AESCRYPT_EFORMAT, with the diag's offset.
 *
 * _set_signers, before _open: text[0, len), an OpenSSH allowed_signers
 * file or one public key line (kept as a copy); _open then fails with
 * AESCRYPT_ESIGNER unless the file is signed by a key it allows for the
 * namespace "aescrypt" now.  AESCRYPT_EFORMAT for text that does not
 * parse (d->index: its line).
 *
 * _signer, after _open: whether the file is signed (1) or not (0), with
 * the key's fingerprint in fp, and, when signers were set and allow it,
 * the principals of the line that does in who (NUL-terminated, cut to
 * cap bytes; "" otherwise).
 */
#define AESCRYPT_ESIGNER (-13)
int aescrypt_reader_set_signers(aescrypt_reader *r, const char *text,
    size_t len, struct ae_diag *d);
int aescrypt_reader_signer(const aescrypt_reader *r,
    char fp[AESCRYPT_FINGERPRINT_MAX], char *who, size_t cap);

#ifdef __cplusplus
}
#endif

#endif
