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

#include "container/header.h"
#include "exitcode.h"
#include "msg.h"
#include "opts.h"
#include "run.h"
#include "signals.h"

static const char *
payload_name(int type)
{
	return AE_PAYLOAD_IS_ARCHIVE(type) ? "archive" : "stream";
}

static const char *
slot_name(int type)
{
	switch (type) {
	case AE_STANZA_ARGON2ID:
		return "passphrase";
	case AE_STANZA_KEYFILE:
		return "key-file";
	case AE_STANZA_X25519:
		return "x25519";
	case AE_STANZA_SSH_ED25519:
		return "ssh-ed25519";
	}
	return "unknown";
}

/* s as a JSON string body: quotes, backslashes and controls escaped. */
static void
json_string(FILE *fp, const char *s)
{
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(fp, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			fprintf(fp, "\\u%04x", c);
		else
			putc(c, fp);
	}
}

static void
print_text(FILE *fp, const char *name, const struct ae_header *h)
{
	char mem[32];
	unsigned i;

	fprintf(fp, "file:        %s\n", name);
	fprintf(fp, "format:      aescrypt container, version %d\n",
	    AE_VERSION);
	fprintf(fp, "payload:     %s\n", h->payload_type == AE_PAYLOAD_PAX ?
	    "archive (a POSIX pax tar stream; -t, -x)" :
	    h->payload_type == AE_PAYLOAD_PAX_INDEXED ?
	    "archive (a POSIX pax tar stream; -t, -x), with an index" :
	    "stream (bytes; -d)");
	fprintf(fp, "codec:       %s\n", h->codec == AE_CODEC_ZSTD ?
	    "zstd (--zstd)" : "DEFLATE (the default)");
	fprintf(fp, "chunk size:  %u KiB\n", 1u << (h->chunk_log2 - 10));
	fprintf(fp, "header:      %zu bytes, CRC-32 good (its MAC needs a "
	    "key: use --test)%s\n", h->len, h->copy ? "; a copy ends the "
	    "file (for --salvage)" : "; no copy at the end (made before "
	    "aescrypt 0.3)");
	fprintf(fp, "key slots:   %u\n", h->nstanzas);
	for (i = 0; i < h->nstanzas; i++) {
		const struct ae_stanza *st = &h->stanza[i];

		fprintf(fp, "  slot %u:    ", i);
		switch (st->type) {
		case AE_STANZA_ARGON2ID:
			kib_words(st->kdf.m_kib, mem, sizeof mem, 0);
			fprintf(fp, "passphrase, Argon2id: memory %s, "
			    "%u passes, %u lanes\n", mem, st->kdf.t,
			    st->kdf.p);
			break;
		case AE_STANZA_KEYFILE:
			fprintf(fp, "key file\n");
			break;
		case AE_STANZA_X25519:
			/* the slot does not say whose key (4.5) */
			fprintf(fp, "recipient, X25519 (age1...)\n");
			break;
		case AE_STANZA_SSH_ED25519:
			fprintf(fp, "recipient, ssh-ed25519 (key tag "
			    "%02x%02x%02x%02x)\n", st->tag[0], st->tag[1],
			    st->tag[2], st->tag[3]);
			break;
		default:
			fprintf(fp, "unknown type 0x%02x (%zu bytes; made by "
			    "a later aescrypt?)\n", st->type, st->len);
		}
	}
}

static void
print_json(FILE *fp, const char *name, const struct ae_header *h)
{
	unsigned i;

	fputs("{\"file\":\"", fp);
	json_string(fp, name);
	fprintf(fp, "\",\"version\":%d,\"payload\":\"%s\",\"index\":%s,"
	    "\"codec\":\"%s\",\"chunk_size\":%u,\"header_bytes\":%zu,"
	    "\"header_copy\":%s,\"slots\":[", AE_VERSION,
	    payload_name(h->payload_type),
	    h->payload_type == AE_PAYLOAD_PAX_INDEXED ? "true" : "false",
	    h->codec == AE_CODEC_ZSTD ? "zstd" : "deflate",
	    1u << h->chunk_log2, h->len, h->copy ? "true" : "false");
	for (i = 0; i < h->nstanzas; i++) {
		const struct ae_stanza *st = &h->stanza[i];

		fprintf(fp, "%s{\"type\":\"%s\"", i ? "," : "",
		    slot_name(st->type));
		if (st->type == AE_STANZA_ARGON2ID)
			fprintf(fp, ",\"kdf\":\"argon2id\",\"memory_kib\":%u,"
			    "\"time\":%u,\"parallelism\":%u", st->kdf.m_kib,
			    st->kdf.t, st->kdf.p);
		else if (st->type == AE_STANZA_SSH_ED25519)
			fprintf(fp, ",\"tag\":\"%02x%02x%02x%02x\"",
			    st->tag[0], st->tag[1], st->tag[2], st->tag[3]);
		else if (st->type != AE_STANZA_KEYFILE
		    && st->type != AE_STANZA_X25519)
			fprintf(fp, ",\"code\":%u,\"bytes\":%zu", st->type,
			    st->len);
		fputc('}', fp);
	}
	fputs("]}\n", fp);
}

int
cmd_info(const struct opts *o)
{
	struct ae_header h;
	struct ae_diag d = { 0 };
	struct streams io;
	int st, err;

	run_streams_init(&io);
	if ((st = run_input_open(&io.in, o->archive, o)) != EXIT_OK)
		return st;
	ae_fd_init(&io.rd, io.in.fd, &signals_stop, &io.cancel);
	err = ae_header_read(&io.reader, &h, &d);
	if (err != AE_OK) {
		st = msg_core_error(io.in.name, err, &d);
	} else {
		if (o->info_json)
			print_json(stdout, io.in.name, &h);
		else
			print_text(stdout, io.in.name, &h);
		if (fflush(stdout) != 0 || ferror(stdout))
			st = msg_sys_error("standard output");
	}
	run_input_close(&io.in);
	return st;
}
