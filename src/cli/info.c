/*
 * info.c -- aescrypt --info (contract in opts.h): what a container's
 * header says, without a key, as age-inspect shows an age file.
 *
 * Only what the header holds in the clear: the format version, the
 * payload type, the chunk size and each key slot's type and costs.  The
 * header's CRC-32 is checked (ae_header_read); its MAC cannot be without
 * a key, and the output says so, so nobody takes it for a verification
 * (that is --test).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/bytes.h"
#include "container/allowed.h"
#include "container/chunk.h"
#include "container/codec.h"
#include "container/header.h"
#include "container/index.h"
#include "container/legacy.h"
#include "container/sigchain.h"
#include "container/sshsig.h"
#include "exitcode.h"
#include "agefile.h"
#include "chain.h"
#include "foreign.h"
#include "indexed.h"
#include "keys.h"
#include "msg.h"
#include "words.h"
#include "names.h"
#include "opts.h"
#include "run.h"
#include "secret.h"
#include "signals.h"
#include "unpack.h"

/* --info --signer: what the signatures said. */
struct sigcheck {
	int done;                   /* checked (else: not asked) */
	char who[256], fp[AE_SSH_FINGERPRINT_MAX];
	uint64_t signatures;        /* how many verified */
};

static const char *
payload_name(int type)
{
	return AE_PAYLOAD_IS_ARCHIVE(type) ? "archive" : "stream";
}

enum whole { WHOLE_UNKNOWN, WHOLE_YES, WHOLE_NO };

/* What only a key shows: the archive's own description (tar.h) and, from
 * its index or a full read, its members. */
struct contents {
	int have;                   /* a key opened it */
	int archive;
	struct ae_tar_global g;
	uint64_t members, data, tar_bytes;
	int from_index;
};

static void
print_contents_text(FILE *fp, const struct contents *c)
{
	char when[64], num[32];

	if (!c->have)
		return;
	if (!c->archive) {
		fprintf(fp, "contents:    a stream (-d reads it; no members)\n");
		return;
	}
	if (c->g.present) {
		time_words(c->g.created, when, sizeof when);
		fprintf(fp, "created:     %s\n", when);
	} else {
		fprintf(fp, "created:     not recorded (made by aescrypt "
		    "0.3.0 or before, or by another tar)\n");
	}
	if (c->g.present && c->g.level == 0)
		fprintf(fp, "dump:        level 0, a full listed-incremental "
		    "dump (-g)\n");
	else if (c->g.present && c->g.level > 0) {
		time_words(c->g.cont, when, sizeof when);
		fprintf(fp, "dump:        level %d, incremental (-g): what "
		    "changed since the dump begun %s\n", c->g.level, when);
	} else if (c->g.present)
		fprintf(fp, "dump:        not incremental\n");
	count_words(c->members, num, sizeof num);
	fprintf(fp, "members:     %s (%s)\n", num, c->from_index ?
	    "from the index" : "read in full");
	bytes_words(c->data, when, sizeof when);
	fprintf(fp, "data:        %s in files; a tar stream of %llu bytes\n",
	    when, (unsigned long long)c->tar_bytes);
}

static void
print_contents_json(FILE *fp, const struct contents *c)
{
	if (!c->have || !c->archive)
		return;
	if (c->g.present)
		fprintf(fp, ",\"created\":%lld", (long long)c->g.created);
	else
		fputs(",\"created\":null", fp);
	if (c->g.present && c->g.level >= 0)
		fprintf(fp, ",\"level\":%d", c->g.level);
	else
		fputs(",\"level\":null", fp);
	if (c->g.present && c->g.level > 0)
		fprintf(fp, ",\"continues\":%lld", (long long)c->g.cont);
	fprintf(fp, ",\"members\":%llu,\"data_bytes\":%llu,"
	    "\"tar_bytes\":%llu", (unsigned long long)c->members,
	    (unsigned long long)c->data, (unsigned long long)c->tar_bytes);
}

static void
print_text(FILE *fp, const char *name, const struct ae_header *h,
    enum whole w, const char *why, uint64_t size, const struct contents *c,
    const struct sigcheck *sc)
{
	char words[AE_SLOT_WORDS_MAX], fpr[AE_SSH_FINGERPRINT_MAX];
	unsigned i;

	fprintf(fp, "file:        %s\n", name);
	fprintf(fp, "size:        %llu bytes\n", (unsigned long long)size);
	print_contents_text(fp, c);
	fprintf(fp, "format:      aescrypt container, version %d\n",
	    AE_VERSION);
	fprintf(fp, "payload:     %s\n", h->payload_type == AE_PAYLOAD_PAX ?
	    "archive (a POSIX pax tar stream; -t, -x)" :
	    h->payload_type == AE_PAYLOAD_PAX_INDEXED ?
	    "archive (a POSIX pax tar stream; -t, -x), with an index" :
	    "stream (bytes; -d)");
	fprintf(fp, "codec:       %s (%s)\n", ae_codec_get(h->codec)->title,
	    ae_codec_get(h->codec)->option);
	fprintf(fp, "chunk size:  %u KiB\n", 1u << (h->chunk_log2 - 10));
	fprintf(fp, "header:      %zu bytes, CRC-32 good (its MAC needs a "
	    "key: use --test)%s\n", h->len, h->copy ? "; a copy ends the "
	    "file (for --salvage)" : "; no copy at the end (made before "
	    "aescrypt 0.3)");
	fprintf(fp, "whole:       %s (%s)\n", w == WHOLE_YES ? "yes" :
	    w == WHOLE_NO ? "NO" : "unknown", why);
	if (h->is_signed) {
		ae_ssh_fingerprint(h->signer, fpr);
		if (sc->done)
			fprintf(fp, "signed:      by %s (ED25519 key %s), as "
			    "--signer allows: all %llu signatures verify\n",
			    sc->who, fpr, (unsigned long long)sc->signatures);
		else
			fprintf(fp, "signed:      by ED25519 key %s, a signature "
			    "after every %llu records (not checked: --info "
			    "--signer FILE checks them)\n", fpr,
			    1ull << h->sig_log2);
	}
	fprintf(fp, "key slots:   %u\n", h->nstanzas);
	for (i = 0; i < h->nstanzas; i++) {
		const struct ae_stanza *st = &h->stanza[i];
		const struct ae_slot_type *t = ae_slot_type_get(st->type);

		if (st->type == AE_STANZA_SIGNER && h->is_signed)
			fprintf(fp, "  slot %u:    the signer's key (above)\n",
			    i);
		else if (t != NULL) {
			t->describe(st, 0, words, sizeof words);
			fprintf(fp, "  slot %u:    %s\n", i, words);
		} else
			fprintf(fp, "  slot %u:    unknown type 0x%02x (%zu bytes; "
			    "made by a later aescrypt?)\n", i, st->type, st->len);
	}
}

static void
print_json(FILE *fp, const char *name, const struct ae_header *h,
    enum whole w, uint64_t size, const struct contents *c,
    const struct sigcheck *sc)
{
	char words[AE_SLOT_WORDS_MAX], fpr[AE_SSH_FINGERPRINT_MAX];
	unsigned i;

	fputs("{\"file\":\"", fp);
	names_json(fp, name);
	fprintf(fp, "\",\"size\":%llu", (unsigned long long)size);
	print_contents_json(fp, c);
	fprintf(fp, ",\"version\":%d,\"payload\":\"%s\",\"index\":%s,"
	    "\"codec\":\"%s\",\"chunk_size\":%u,\"header_bytes\":%zu,"
	    "\"header_copy\":%s,\"whole\":%s,\"slots\":[", AE_VERSION,
	    payload_name(h->payload_type),
	    h->payload_type == AE_PAYLOAD_PAX_INDEXED ? "true" : "false",
	    ae_codec_get(h->codec)->name, 1u << h->chunk_log2, h->len, h->copy ? "true" : "false",
	    w == WHOLE_YES ? "true" : w == WHOLE_NO ? "false" : "null");
	for (i = 0; i < h->nstanzas; i++) {
		const struct ae_stanza *st = &h->stanza[i];
		const struct ae_slot_type *t = ae_slot_type_get(st->type);

		if (st->type == AE_STANZA_SIGNER && h->is_signed) {
			ae_ssh_fingerprint(h->signer, fpr);
			fprintf(fp, "%s{\"type\":\"signer\",\"fingerprint\":"
			    "\"%s\",\"every\":%llu,\"verified\":%s", i ? "," : "",
			    fpr, 1ull << h->sig_log2, sc->done ? "true" : "false");
			if (sc->done) {
				fputs(",\"principals\":\"", fp);
				names_json(fp, sc->who);
				fprintf(fp, "\",\"signatures\":%llu",
				    (unsigned long long)sc->signatures);
			}
			fputc('}', fp);
			continue;
		}
		fprintf(fp, "%s{\"type\":\"%s\"", i ? "," : "",
		    t != NULL ? t->name : "unknown");
		if (t != NULL) {
			t->describe(st, 1, words, sizeof words);
			fputs(words, fp);
		} else
			fprintf(fp, ",\"code\":%u,\"bytes\":%zu", st->type,
			    st->len);
		fputc('}', fp);
	}
	fputs("]}\n", fp);
}

/* An AES Crypt file's header: everything in it is in the clear, and
 * nothing in it (the extensions least of all) is authenticated. */
static void
print_legacy(FILE *fp, const char *name, const struct ae_legacy *lg,
    int json)
{
	char creator[4 * AE_LEGACY_CREATOR_MAX];

	if (json) {
		fputs("{\"file\":\"", fp);
		names_json(fp, name);
		fprintf(fp, "\",\"format\":\"aes-crypt\",\"version\":%d,"
		    "\"kdf\":\"%s\",\"iterations\":%lu,\"extensions\":%u,"
		    "\"length_authenticated\":%s,\"created_by\":\"",
		    lg->version, lg->version == 3 ? "pbkdf2-hmac-sha512" :
		    "sha256-8192", lg->version == 3 ? (unsigned long)
		    lg->iterations : 8192ul, lg->extensions,
		    lg->version == 3 ? "true" : "false");
		names_json(fp, lg->creator);   /* (it escapes controls) */
		fputs("\"}\n", fp);
		return;
	}
	fprintf(fp, "file:        %s\n", name);
	fprintf(fp, "format:      AES Crypt, stream format version %d (not an "
	    "aescrypt container; -d and --test read it)\n", lg->version);
	if (lg->version == 3)
		fprintf(fp, "key:         passphrase, PBKDF2-HMAC-SHA512, %lu "
		    "iterations\n", (unsigned long)lg->iterations);
	else
		fprintf(fp, "key:         passphrase, 8,192 rounds of SHA-256\n");
	fprintf(fp, "cipher:      AES-256-CBC, HMAC-SHA256 (checked only at "
	    "the end of the file)\n");
	if (lg->version < 3)
		fprintf(fp, "note:        the last block's length is not "
		    "authenticated in this version (up to 15 bytes at the end "
		    "could be cut or added undetected)\n");
	/* the creator is the file's to say: quoted as names are */
	if (lg->version >= 2)
		fprintf(fp, "extensions:  %u%s%s\n", lg->extensions,
		    lg->creator[0] != '\0' ? "; created by " : "",
		    lg->creator[0] != '\0' ? names_quote(lg->creator, creator,
		    sizeof creator) : "");
}

static int
info_legacy(const struct opts *o, struct streams *io)
{
	struct ae_legacy lg;
	struct ae_diag d = { 0 };
	int err = ae_legacy_read_header(&io->reader, &lg, &d);

	if (err != AE_OK)
		return msg_core_error(io->in.name, err, &d);
	print_legacy(stdout, o->info_json && io->in.path != NULL ?
	    io->in.path : io->in.name, &lg, o->info_json);
	return EXIT_OK;
}

/* Is the file whole?  What can be seen without a key (format 6.8,
 * 6.9): the copy of the header must end the file, byte for byte; an
 * index's footer must sit before it and name an index offset the
 * payload records could end at.  Nothing here is authenticated (that is
 * --test): a file can look whole and still be damaged inside. */

/*
 * The records from file offset *off (base: where the file starts) to
 * the final one, none reaching past limit, checked as far as a reader
 * without the key can: every frame parses, and a record that is not the
 * final one holds a whole chunk (ae_chunk_frame_plausible).  1 with *off
 * after the final record and *n the count; 0 with the reason in msg.
 */
static int
walk_records(int fd, off_t base, uint64_t *off, uint64_t limit,
    size_t cs, const char *what, uint64_t *n, char *msg, size_t cap,
    const struct ae_header *h)
{
	uint8_t f[AE_FRAME_LEN];
	int fin = 0, comp;
	size_t ctlen;
	uint64_t every = h != NULL && h->is_signed ? (uint64_t)1
	    << h->sig_log2 : 0;
	/* (an archive with an index signs last after its footer) */
	int last = h != NULL && h->payload_type != AE_PAYLOAD_PAX_INDEXED;

	for (*n = 0; !fin; (*n)++) {
		if (*off + AE_FRAME_LEN + AE_TAG_LEN > limit
		    || pread(fd, f, sizeof f, base + (off_t)*off)
		    != (ssize_t)sizeof f) {
			snprintf(msg, cap, "the file is cut short or damaged: "
			    "%s record %llu (at offset %llu) does not fit "
			    "before the end", what, (unsigned long long)*n,
			    (unsigned long long)*off);
			return 0;
		}
		if (ae_chunk_frame(f, cs, &fin, &comp, &ctlen, NULL) != AE_OK
		    || !ae_chunk_frame_plausible(fin, comp, ctlen, cs)) {
			snprintf(msg, cap, "%s record %llu (at offset %llu) "
			    "has a damaged frame", what, (unsigned long long)*n,
			    (unsigned long long)*off);
			return 0;
		}
		*off += AE_FRAME_LEN + ctlen + AE_TAG_LEN;
		if (*off > limit) {
			snprintf(msg, cap, "the file is cut short or damaged: "
			    "%s record %llu runs past the end",
			    what, (unsigned long long)*n);
			return 0;
		}
		/* a signed stream's signature records (6.10), where they
		 * belong: their frames alone (a key checks nothing here) */
		if (fin ? every != 0 && last : AE_SIG_AFTER(*n, every)) {
			if (*off + AE_SIG_RECORD_LEN > limit
			    || pread(fd, f, sizeof f, base + (off_t)*off)
			    != (ssize_t)sizeof f || f[0] != (AE_SIG_FLAG
			    | (fin ? AE_FLAG_FINAL : 0)) || f[1] != 0 || f[2] != 0
			    || f[3] != 0 || f[4] != AE_SIG_LEN) {
				snprintf(msg, cap, "%s record %llu is not "
				    "followed by its signature record (at offset "
				    "%llu)", what, (unsigned long long)*n,
				    (unsigned long long)*off);
				return 0;
			}
			*off += AE_SIG_RECORD_LEN;
		}
	}
	return 1;
}

/* Read exactly n bytes of the rest of the input: 0, or -1 (cut short or
 * a read error; *cut says which). */
static int
read_n(struct ae_reader *in, uint8_t *p, size_t n, int *cut)
{
	size_t got;

	*cut = 0;
	if (in->read(in->ctx, p, n, &got) != AE_OK)
		return -1;
	if (got < n) {
		*cut = 1;
		return -1;
	}
	return 0;
}

/* What ae_sigchain_check's failure (d) was, as a sentence of its own. */
static const char *
bad_signature(const struct ae_diag *d)
{
	return d->what != NULL && strstr(d->what, "does not verify") != NULL
	    ? "a signature does not verify (the file was changed after it was "
	    "signed, or not signed by the key its header names)"
	    : "a signature record is not where one belongs";
}

/*
 * Every signature of a signed file checked without a key (format 6.10:
 * they cover the records as written), from the input after its header,
 * in one pass that works on a pipe: each record is read whole and
 * hashed, never opened.  0 with s->signatures; or an exit status, said.
 */
static int
check_signatures(struct ae_reader *in, const struct ae_header *h,
    const char *name, struct sigcheck *s)
{
	size_t cs = (size_t)1 << h->chunk_log2, ctlen;
	uint8_t *rec = malloc(AE_RECORD_MAX(cs)), dg[AE_SIG_DIGEST_LEN];
	uint8_t sig[AE_SIG_RECORD_LEN];
	struct ae_sigchain ch;
	struct ae_diag d = { 0 };
	uint64_t i, off = h->len, every = (uint64_t)1 << h->sig_log2;
	uint64_t signed_to = 0;         /* past the last that verified */
	int fin, comp, cut, pass, indexed = h->payload_type
	    == AE_PAYLOAD_PAX_INDEXED, st = EXIT_DATA;
	const char *what = NULL;

	if (rec == NULL) {
		msg_error("out of memory");
		return EXIT_SYSTEM;
	}
	ae_sigchain_init(&ch, h->raw, h->len);
	/* pass 0: the payload's records; 1: an index's */
	for (pass = 0; pass < 1 + indexed; pass++) {
		for (i = 0, fin = 0; !fin; i++) {
			if (read_n(in, rec, AE_FRAME_LEN, &cut) != 0
			    || ae_chunk_frame(rec, cs, &fin, &comp, &ctlen, NULL)
			    != AE_OK || read_n(in, rec + AE_FRAME_LEN,
			    ctlen + AE_TAG_LEN, &cut) != 0) {
				what = "a record is cut short or damaged";
				goto out;
			}
			ae_sigchain_digest(rec, AE_FRAME_LEN + ctlen + AE_TAG_LEN,
			    dg);
			ae_sigchain_add(&ch, dg);
			off += AE_FRAME_LEN + ctlen + AE_TAG_LEN;
			if (pass == 1 || (fin ? indexed : !AE_SIG_AFTER(i, every)))
				continue;
			if (read_n(in, sig, sizeof sig, &cut) != 0) {
				what = "a signature is missing: the file is not "
				    "signed past it";
				goto out;
			}
			if (ae_sigchain_check(&ch, sig, fin, h->signer, &d)
			    != AE_OK) {
				what = bad_signature(&d);
				goto out;
			}
			off += sizeof sig;
			signed_to = off;
		}
	}
	if (indexed) {
		/* the footer, then the file's last signature */
		if (read_n(in, rec, AE_FOOTER_LEN, &cut) != 0
		    || read_n(in, sig, sizeof sig, &cut) != 0) {
			what = "the footer or the last signature is missing";
			goto out;
		}
		ae_sigchain_digest(rec, AE_FOOTER_LEN, dg);
		ae_sigchain_add(&ch, dg);
		off += AE_FOOTER_LEN;
		if (ae_sigchain_check(&ch, sig, 1, h->signer, &d) != AE_OK) {
			what = bad_signature(&d);
			goto out;
		}
	}
	s->signatures = ch.next;
	st = EXIT_OK;
out:
	if (st != EXIT_OK) {
		char reach[128];

		if (ch.next == 0)
			snprintf(reach, sizeof reach, "none verified before "
			    "it, so none of the file is signed");
		else
			snprintf(reach, sizeof reach, "%llu verified before "
			    "it, so the file is not signed past offset %llu",
			    (unsigned long long)ch.next,
			    (unsigned long long)signed_to);
		msg_error("%s: the signatures do not hold (at offset %llu): "
		    "%s; %s", name, (unsigned long long)off, what, reach);
	}
	free(rec);
	return st;
}

/* keys_signers' use: the list parsed here. */
static int
parse_signers(void *ctx, const char *text, size_t len, struct ae_diag *d)
{
	return ae_allowed_parse(ctx, text, len, d);
}

/* --info --signer FILE: the signer allowed, then every signature. */
static int
info_signer(const struct opts *o, struct streams *io,
    const struct ae_header *h, struct sigcheck *s)
{
	struct ae_allowed a;
	long at;
	int st, why;

	if ((st = keys_signers(o->keys.signers, parse_signers, &a)) != EXIT_OK)
		return st;
	if (!h->is_signed) {
		msg_error("%s: the file is not signed", io->in.name);
		ae_allowed_free(&a);
		return EXIT_SIGNER;
	}
	ae_ssh_fingerprint(h->signer, s->fp);
	at = ae_allowed_find(&a, h->signer, AE_SIG_NAMESPACE,
	    (int64_t)time(NULL), &why);
	if (at < 0) {
		msg_error("%s: signed by ED25519 key %s, which the signers "
		    "file %s", io->in.name, s->fp, ae_allowed_why(why));
		ae_allowed_free(&a);
		return EXIT_SIGNER;
	}
	snprintf(s->who, sizeof s->who, "%s", a.v[at].principals);
	ae_allowed_free(&a);
	if ((st = check_signatures(&io->reader, h, io->in.name, s)) == EXIT_OK)
		s->done = 1;
	return st;
}

static enum whole
whole_check(int fd, const struct ae_header *h, const char **why)
{
	static char msg[256];
	uint64_t off, n, nix;
	size_t cs = (size_t)1 << h->chunk_log2;
	uint8_t buf[AE_HEADER_MAX], foot[AE_FOOTER_LEN];
	uint64_t size, end, ixoff, records, lo, hi;
	struct stat sb;
	off_t start;

	*why = "cannot tell without a key: the file has no copy of its "
	    "header at the end (made before aescrypt 0.3); --test can";
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)
	    || (start = lseek(fd, 0, SEEK_CUR)) < (off_t)h->len) {
		*why = "cannot tell: not a regular file";
		return WHOLE_UNKNOWN;
	}
	start -= (off_t)h->len;
	size = (uint64_t)(sb.st_size - start);
	end = size;
	if (h->copy) {
		if (size < 2 * (uint64_t)h->len + AE_COPY_LEN_LEN
		    || pread(fd, buf, h->len + AE_COPY_LEN_LEN, start
		    + (off_t)(size - h->len - AE_COPY_LEN_LEN))
		    != (ssize_t)(h->len + AE_COPY_LEN_LEN)
		    || memcmp(buf, h->raw, h->len) != 0
		    || ((size_t)buf[h->len] << 8 | buf[h->len + 1]) != h->len) {
			*why = "the file is cut short (or has bytes after its "
			    "end): the copy of the header is not where it "
			    "ends";
			return WHOLE_NO;
		}
		end = size - h->len - AE_COPY_LEN_LEN;
		*why = "the copy of the header ends the file";
	}
	if (h->payload_type != AE_PAYLOAD_PAX_INDEXED) {
		off = h->len;
		if (!walk_records(fd, start, &off, end, cs, "payload", &n, msg,
		    sizeof msg, h)) {
			*why = msg;
			return WHOLE_NO;
		}
		if (off != end) {
			snprintf(msg, sizeof msg, "%llu bytes follow the final "
			    "record", (unsigned long long)(end - off));
			*why = msg;
			return WHOLE_NO;
		}
		snprintf(msg, sizeof msg, "%severy record's frame holds, to "
		    "the final one (%llu record%s)", h->copy ? "the copy of "
		    "the header ends the file, and " : "", (unsigned long
		    long)n, n == 1 ? "" : "s");
		*why = msg;
		return WHOLE_YES;
	}
	if (h->is_signed) {
		/* 6.10: the last signature, after the footer */
		uint8_t f[AE_FRAME_LEN];

		if (end < h->len + AE_SIG_RECORD_LEN || pread(fd, f, sizeof f,
		    start + (off_t)(end - AE_SIG_RECORD_LEN)) != sizeof f
		    || f[0] != (AE_SIG_FLAG | AE_FLAG_FINAL) || f[1] != 0
		    || f[2] != 0 || f[3] != 0 || f[4] != AE_SIG_LEN) {
			*why = "the file's last signature is not where the "
			    "file ends";
			return WHOLE_NO;
		}
		end -= AE_SIG_RECORD_LEN;
	}
	if (end < h->len + AE_FOOTER_LEN || pread(fd, foot, AE_FOOTER_LEN,
	    start + (off_t)(end - AE_FOOTER_LEN)) != AE_FOOTER_LEN) {
		*why = "the file is cut short: there is no room for the footer";
		return WHOLE_NO;
	}
	ixoff = load_be64(foot);
	records = load_be64(foot + 8);
	/* every payload record is a frame and a tag around at most a chunk */
	lo = records * (AE_FRAME_LEN + AE_TAG_LEN);
	hi = records * AE_RECORD_MAX((uint64_t)1 << h->chunk_log2);
	if (records == 0 || ixoff < h->len || ixoff - h->len < lo
	    || ixoff - h->len > hi || ixoff + AE_FRAME_LEN + AE_TAG_LEN
	    > end - AE_FOOTER_LEN) {
		*why = "the file is cut short or damaged: its footer does not "
		    "fit the file's length";
		return WHOLE_NO;
	}
	off = h->len;
	if (!walk_records(fd, start, &off, ixoff, cs, "payload", &n, msg,
	    sizeof msg, h)) {
		*why = msg;
		return WHOLE_NO;
	}
	if (off != ixoff || n != records) {
		snprintf(msg, sizeof msg, "the payload's final record ends at "
		    "offset %llu after %llu records, where the footer says "
		    "%llu and %llu", (unsigned long long)off,
		    (unsigned long long)n, (unsigned long long)ixoff,
		    (unsigned long long)records);
		*why = msg;
		return WHOLE_NO;
	}
	if (!walk_records(fd, start, &off, end - AE_FOOTER_LEN, cs, "index",
	    &nix, msg, sizeof msg, NULL)) {
		*why = msg;
		return WHOLE_NO;
	}
	if (off != end - AE_FOOTER_LEN) {
		snprintf(msg, sizeof msg, "%llu bytes lie between the index's "
		    "final record and the footer", (unsigned long long)
		    (end - AE_FOOTER_LEN - off));
		*why = msg;
		return WHOLE_NO;
	}
	snprintf(msg, sizeof msg, "%sthe index's footer fits its length, and "
	    "every record's frame holds (%llu payload and %llu index "
	    "records)", h->copy ? "the copy of the header ends the file, " :
	    "", (unsigned long long)n, (unsigned long long)nix);
	*why = msg;
	return WHOLE_YES;
}

/*
 * With a key (-k, -i, or a passphrase source named on the command line):
 * open the archive and say what it holds, from its index when it has
 * one that holds (the archive's global header read from its first
 * record), else by reading it in full.  0 or an exit status (reported).
 */
static int
info_contents(const struct opts *o, struct contents *c)
{
	struct unpack *u = unpack_new();
	struct ixview ix;
	struct aescrypt_index_entry ie;
	struct ae_tar_reader tr;
	struct ae_tar_member *m;
	struct ae_diag d = { 0 };
	size_t i;
	int st, next;

	if (u == NULL) {
		msg_error("out of memory");
		return EXIT_SYSTEM;
	}
	if ((st = unpack_open_keys(u, &o->keys, &o->run,
	    o->archive)) != EXIT_OK) {
		unpack_free(u);
		return st == UNPACK_DONE ? EXIT_OK : st;
	}
	c->have = 1;
	c->archive = u->info.kind == AESCRYPT_ARCHIVE;
	if (!c->archive) {
		unpack_free(u);
		return EXIT_OK;
	}
	if (indexed_load(u, &ix)) {
		c->from_index = 1;
		c->members = ix.members;
		c->tar_bytes = ix.tar_end;
		for (i = 0; i < ix.members; i++)
			if (indexed_entry(&ix, i, &ie) && ie.e.type == AE_TAR_REG)
				c->data += ie.e.size;
		st = indexed_global(u, &ix, &c->g);
		unpack_free(u);
		return st;
	}
	/* no index (or none that holds): every record, as -t --no-index */
	if ((st = unpack_start(u, NULL)) != EXIT_OK) {
		unpack_free(u);
		return st;
	}
	if ((m = malloc(sizeof *m)) == NULL
	    || ae_tar_reader_init(&tr, &u->tar_in) != AE_OK) {
		free(m);
		msg_error("out of memory");
		st = unpack_end(u, 1, &d, EXIT_SYSTEM);
		unpack_free(u);
		return st;
	}
	unpack_watch(u, &tr);
	while ((next = ae_tar_next(&tr, m, &d)) == AE_OK) {
		c->members++;
		if (m->type == AE_TAR_REG)
			c->data += m->size;
	}
	c->g = tr.global;
	c->tar_bytes = tr.end_at;
	ae_tar_reader_free(&tr);
	free(m);
	st = unpack_end(u, next, &d, EXIT_OK);
	unpack_free(u);
	return st;
}

int
cmd_info(const struct opts *o)
{
	struct ae_header h;
	struct ae_diag d = { 0 };
	struct streams io;
	int st, err;
	int kind;

	run_streams_init(&io);
	if ((st = run_input_open(&io.in, o->archive, &o->run)) != EXIT_OK)
		return st;
	ae_fd_init(&io.rd, io.in.fd, &signals_stop, &io.cancel);
	if ((st = foreign_peek(&io, &kind)) != EXIT_OK)
		goto done;
	if (kind == AESCRYPT_FORMAT_AGE || kind == AESCRYPT_FORMAT_AGE_ARMOR) {
		if (o->keys.signers != NULL) {
			msg_error("%s: the file is not signed (an age file "
			    "cannot be)", io.in.name);
			st = EXIT_SIGNER;
		} else if (o->info_json) {
			msg_error("%s: an age file: --info --json describes "
			    "aescrypt containers only", io.in.name);
			msg_hint("drop --json for a description in words");
			st = EXIT_USAGE;
		} else if ((st = agefile_info(o, &io)) == EXIT_OK
		    && (fflush(stdout) != 0 || ferror(stdout)))
			st = msg_sys_error("standard output");
		goto done;
	}
	if (kind != AESCRYPT_FORMAT_AESCRYPT_LEGACY
	    && (st = foreign_refuse(io.in.name, kind)) != EXIT_OK) {
done:
		run_input_close(&io.in);
		return st;
	}
	if (kind == AESCRYPT_FORMAT_AESCRYPT_LEGACY && o->keys.signers != NULL) {
		msg_error("%s: the file is not signed (an AES Crypt file "
		    "cannot be)", io.in.name);
		run_input_close(&io.in);
		return EXIT_SIGNER;
	}
	if (kind == AESCRYPT_FORMAT_AESCRYPT_LEGACY) {
		st = info_legacy(o, &io);
		if (st == EXIT_OK && (fflush(stdout) != 0 || ferror(stdout)))
			st = msg_sys_error("standard output");
		run_input_close(&io.in);
		return st;
	}
	err = ae_header_read(&io.reader, &h, &d);
	if (err != AE_OK) {
		st = msg_core_error(io.in.name, err, &d);
	} else {
		const char *why;
		enum whole w = whole_check(io.in.fd, &h, &why);
		struct contents c;
		struct sigcheck sc;
		struct stat sb;
		uint64_t size = fstat(io.in.fd, &sb) == 0
		    && S_ISREG(sb.st_mode) ? (uint64_t)sb.st_size : 0;

		memset(&c, 0, sizeof c);
		memset(&sc, 0, sizeof sc);
		if (o->keys.signers != NULL
		    && (st = info_signer(o, &io, &h, &sc)) != EXIT_OK) {
			run_input_close(&io.in);
			return st;
		}
		if (o->keys.keyfile != NULL || o->keys.nidentity_files > 0
		    || o->keys.pass_src != PASS_NONE) {
			if (io.in.path == NULL || !S_ISREG(sb.st_mode)) {
				msg_error("%s: --info with a key opens the "
				    "archive again, so it needs a file, not a "
				    "pipe", io.in.name);
				run_input_close(&io.in);
				return EXIT_USAGE;
			}
			if ((st = info_contents(o, &c)) != EXIT_OK) {
				run_input_close(&io.in);
				return st;
			}
			if (c.archive)
				chain_note(io.in.name, &c.g, c.members, size);
		}
		if (o->info_json)
			print_json(stdout, io.in.path != NULL ? io.in.path :
			    io.in.name, &h, w, size, &c, &sc);
		else
			print_text(stdout, io.in.name, &h, w, why, size, &c,
			    &sc);
		if (w == WHOLE_NO) {
			msg_error("%s: %s", io.in.name, why);
			st = EXIT_DATA;
		}
		if (fflush(stdout) != 0 || ferror(stdout))
			st = msg_sys_error("standard output");
	}
	run_input_close(&io.in);
	return st;
}
