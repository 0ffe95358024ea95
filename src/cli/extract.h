/*
 * extract.h -- aescrypt -x, and the extraction of a tar stream on its
 * own (the rules are at the top of extract.c).
 *
 * cmd_extract (opts.h) decrypts and calls these; the whole-path fuzz
 * harness (tests/fuzz/fuzz_extract.c) calls them on tar streams of its
 * own, so what it fuzzes is exactly what -x runs behind authentication.
 */
#ifndef AE_CLI_EXTRACT_H
#define AE_CLI_EXTRACT_H

#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "archive/tar_read.h"
#include "members.h"
#include "salvage.h"
#include "opts.h"
#include "owners.h"

/* Files this run made, by normalized path: hard links may point only
 * at these.  Open addressing on an FNV-1a hash. */
struct made {
	char *path;
	dev_t dev;
	ino_t ino;
};

/* A directory whose mode, owner and mtime are set at the end. */
struct dirfix {
	char *path;
	mode_t mode;
	struct timespec mtime;
	uid_t uid;
	gid_t gid;
};

/* Directories kept open at once: a tar stream goes back to a directory
 * after each of its subdirectories, so the last one alone missed a
 * third of the time. */
#define EXTRACT_PARENTS 8

struct extractor {
	const struct opts *o;
	struct ae_tar_reader *tr;
	int root;
	mode_t umask;
	int chown;                  /* root with --same-owner */
	int partial;                /* some member was skipped (exit 1) */
	int fatal;                  /* exit status that ends the run */
	int warned_abs;
	int noted_xattrs;           /* -v said the archive has some */
	struct salvage *salvage;    /* --salvage: what was lost, or NULL */
	size_t lost;                /* members not extracted for it */
	uint8_t *buf;
	struct made *made;
	size_t nmade, capmade;      /* capmade: a power of two, or 0 */
	struct dirfix *dirs;
	size_t ndirs, capdirs;
	/* The last members' directories, kept open (extract.c,
	 * open_parent): each one's path under the root, its descriptor
	 * (or -1 when the slot is free) and when it was last used. */
	struct parent_dir {
		char path[AE_TAR_NAME_MAX + 1];
		int fd;
		uint64_t used;
	} parents[EXTRACT_PARENTS];
	uint64_t parent_clock;
	char tmp_prefix[13];        /* temp names: a random prefix per run */
	uint64_t tmp_count;         /* and a counter */
	int link_how;               /* how an O_TMPFILE file gets a name */
	struct owners owners;       /* names to ids, as root */
};

/* Start extracting under the directory open as root (the caller's to
 * close, after extract_end), with o's options.  0, or -1 out of
 * memory. */
int extract_begin(struct extractor *x, const struct opts *o, int root);

/*
 * Extract the members of tr that sel selects, until the end of the
 * archive, a tar error, or a fatal error (x->fatal, already reported).
 * Skipped members are warned about and set x->partial.  Returns the
 * last ae_tar_next result (1 at the end marker, or its error with d).
 */
int extract_members(struct extractor *x, struct ae_tar_reader *tr,
    struct members *sel, struct ae_diag *d);

/* Set the directories' modes and times and free x.  Once is enough; a
 * second call does nothing. */
void extract_end(struct extractor *x);

#endif
