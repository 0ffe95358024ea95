/*
 * foreign.c -- the input's format named before it is read (contract in
 * foreign.h).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exitcode.h"
#include "foreign.h"
#include "msg.h"

/* The reader over io->peek, then the descriptor. */
static int
peek_read(void *ctx, uint8_t *buf, size_t n, size_t *got)
{
	struct streams *io = ctx;
	struct peek *p = &io->peek;
	size_t k = p->len - p->pos, more;
	int e;

	if (k > n)
		k = n;
	memcpy(buf, p->buf + p->pos, k);
	p->pos += k;
	*got = k;
	if (k == n)
		return 0;
	e = ae_fd_read(&io->rd, buf + k, n - k, &more);
	*got += more;
	return e;
}

static int
peek_seek(void *ctx, uint64_t off)
{
	struct streams *io = ctx;

	io->peek.pos = io->peek.len;
	return ae_fd_seek(&io->rd, off);
}

int
foreign_peek(struct streams *io, int *kind)
{
	struct stat sb;
	off_t at;
	ssize_t r;
	size_t got;
	int e;

	*kind = AESCRYPT_FORMAT_UNKNOWN;
	if (fstat(io->in.fd, &sb) == 0 && S_ISREG(sb.st_mode)
	    && (at = lseek(io->in.fd, 0, SEEK_CUR)) >= 0) {
		if ((r = pread(io->in.fd, io->peek.buf, sizeof io->peek.buf,
		    at)) < 0)
			return msg_sys_error(io->in.name);
		*kind = aescrypt_sniff(io->peek.buf, (size_t)r);
		return EXIT_OK;
	}
	e = ae_fd_read(&io->rd, io->peek.buf, sizeof io->peek.buf, &got);
	io->peek.len = got;
	io->peek.pos = 0;
	io->reader.read = peek_read;
	io->reader.ctx = io;
	io->reader.seek = peek_seek;
	if (e == AE_EINTR)
		return msg_interrupted();
	if (e != AE_OK)
		return msg_sys_error(io->in.name);
	*kind = aescrypt_sniff(io->peek.buf, got);
	return EXIT_OK;
}

/* What to run instead, for each kind. */
static const char *
instead(int k)
{
	switch (k) {
	case AESCRYPT_FORMAT_GZIP: return "gzip -dc FILE (or tar -xzf FILE for a .tar.gz)";
	case AESCRYPT_FORMAT_ZSTD: return "zstd -dc FILE (or tar --zstd -xf FILE)";
	case AESCRYPT_FORMAT_XZ: return "xz -dc FILE (or tar -xJf FILE)";
	case AESCRYPT_FORMAT_BZIP2: return "bzip2 -dc FILE (or tar -xjf FILE)";
	case AESCRYPT_FORMAT_LZ4: return "lz4 -dc FILE";
	case AESCRYPT_FORMAT_7Z: return "7z x FILE (or 7zz x FILE)";
	case AESCRYPT_FORMAT_ZIP: return "unzip FILE (or 7z x FILE)";
	case AESCRYPT_FORMAT_AGE:
	case AESCRYPT_FORMAT_AGE_ARMOR: return "aescrypt -d -i KEY FILE, or -x -i KEY -f FILE for a tar inside (--mount reads aescrypt archives only)";
	case AESCRYPT_FORMAT_PGP:
	case AESCRYPT_FORMAT_PGP_ARMOR: return "gpg -d FILE";
	case AESCRYPT_FORMAT_OPENSSL_ENC: return "openssl enc -d ... -in FILE";
	case AESCRYPT_FORMAT_TAR: return "tar -xf FILE (or tar -tf FILE to list it)";
	default: return NULL;
	}
}

int
foreign_refuse(const char *name, int kind)
{
	const char *how = instead(kind), *kn = aescrypt_format_name(kind);
	/* "an" before a vowel sound: age, OpenPGP, OpenSSL, xz, lz4 */
	int an = strchr("aeiouAEIOU", kn[0]) != NULL || kn[0] == 'x'
	    || kn[0] == 'l';

	if (how == NULL)
		return EXIT_OK;
	msg_error("%s is %s %s file, not an aescrypt container", name,
	    an ? "an" : "a", kn);
	/* FILE stands for the input's name ("-" for standard input) */
	{
		const char *f = strcmp(name, "standard input") == 0 ? "-"
		    : name;
		char cmd[512];
		size_t j = 0;

		while (*how != '\0' && j < sizeof cmd - 1) {
			if (strncmp(how, "FILE", 4) == 0) {
				j += (size_t)snprintf(cmd + j, sizeof cmd - j,
				    "%s", f);
				if (j >= sizeof cmd)
					j = sizeof cmd - 1;
				how += 4;
			} else {
				cmd[j++] = *how++;
			}
		}
		cmd[j] = '\0';
		msg_hint("to read it: %s", cmd);
	}
	return EXIT_DATA;
}
