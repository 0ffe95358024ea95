/*
 * session.c -- a container made or opened for a command (contracts in
 * session.h).
 */
#include "config.h"
#include "session.h"

#include <string.h>
#include <unistd.h>

#include "container/index.h"
#include "common/wipe.h"
#include "exitcode.h"
#include "keys.h"
#include "signals.h"

int
session_open(const struct key_sources *k,
    const struct run_prefs *p, const char *path, struct streams *io,
    struct ae_header *h, ae_gcm_ctx *g, ae_gcm_ctx *index_g,
    struct run_stats *rs)
{
	uint8_t file_key[AE_FILE_KEY_LEN];
	int st;

	run_streams_init(io);
	if ((st = run_input_open(&io->in, path, p)) != EXIT_OK)
		return st;
	ae_fd_init(&io->rd, io->in.fd, &signals_stop, &io->cancel);
	st = keys_unlock(k, p, io, h, file_key, rs);
	if (st == KEYS_LEGACY)
		return SESSION_LEGACY;
	if (st != EXIT_OK) {
		run_input_close(&io->in);
		return st;
	}
	ae_header_payload_cipher(h, file_key, g);
	if (h->payload_type == AE_PAYLOAD_PAX_INDEXED)
		ae_index_cipher(h, file_key, index_g);
	ae_wipe(file_key, sizeof file_key);
	return EXIT_OK;
}
