/*
 * dr.h -- the tree walk's insides, shared by its files (not a contract
 * for callers: that is reader.h).
 *
 * reader.c owns the walk (directory frames, descriptors, -g's dumpdirs,
 * what is left out) and the stream buffer; dr_entry.c a member's header
 * (from its stat, with its extended attributes and ACLs, and hard links
 * already seen); dr_data.c what follows a header (a file's data and
 * holes, a symlink's target, a device's numbers).
 */
#ifndef AE_DISK_DR_H
#define AE_DISK_DR_H

#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "archive/tar.h"
#include "acl.h"
#include "owners.h"

/* (reader.h, which the files that use these include; not here, where it
 * would make reader.c and this header use each other) */
struct ae_dr_params;
struct ae_dr_report;
struct ae_writer;

/* The tar stream is gathered here and handed on in pieces this big:
 * handing on each 512-byte header and small file by itself would cost a
 * thread handoff apiece (measured: -c of /usr/include ran 15-30% slower
 * than tar | aescrypt -e before this buffer). */
#define OUT_BUF (256 * 1024)

/* Directory descriptors kept open at once, deepest first. */
#define FD_KEEP 64

struct link_seen {
	dev_t dev;
	ino_t ino;
	char *name;
};

/* A directory being walked. */
struct frame {
	int fd;                     /* open, or -1 (closed to save
	                             * descriptors: reopened by name) */
	char *name;                 /* its name in its parent; frame 0: the
	                             * operand, from the working directory */
	dev_t dev;
	ino_t ino;
	char **ents;                /* its entries, sorted */
	size_t n, next;             /* how many, and the next to visit */
	size_t plen;                /* the path's length, up to it */
	int all_new;                /* -g: new since the last level, so
	                             * every file in it is archived */
	struct stat *st;            /* -g: what each entry's stat saw for
	                             * the dumpdir (st_nlink 0: failed), so
	                             * that it is not taken again; or NULL */
};

struct packer {
	const struct ae_dr_params *po;
	struct ae_writer *w;
	int measuring;              /* ae_dr_measure: sizes only */
	uint64_t measured;
	int partial;
	int stopped;                /* 0, or why the walk stopped (AE_E*) */
	uint8_t *out;               /* OUT_BUF bytes of tar stream */
	size_t olen;
	uint8_t hdr[AE_TAR_HEADER_MAX];
	char linkbuf[AE_TAR_NAME_MAX + 2];  /* a symlink's target */
	struct link_seen *links;
	size_t nlinks, caplinks;
	char warned_prefix[256];
	struct ae_owners owners;
	uint64_t flushed;           /* stream bytes written before out[] */
	/* The path of the entry being visited, from the operand. */
	char *path;
	size_t plen, pcap;
	/* The directories being walked, outermost first. */
	struct frame *fr;
	size_t depth, capfr;
	size_t open_fds;            /* frames with fd >= 0 */
	/* Extended attributes of the entry being written (the reader's
	 * layout, tar.h), and scratch to read them. */
	uint8_t *xbuf;
	size_t xcap;
	char xnames[65536];
	uint8_t xval[65536];
	char acltext[AE_ACL_MAX];   /* an ACL as SCHILY.acl.* text */
	int noted_xattrs;           /* -v said once that some were left */
};

/* Timespec a is later than b. */
#define LATER(a, b) ((a).tv_sec > (b).tv_sec \
	|| ((a).tv_sec == (b).tv_sec && (a).tv_nsec > (b).tv_nsec))

/* The most data runs a sparse file is stored with; one with more is
 * stored whole (the reader's cap, tar.c, is the same). */
#define SPARSE_RUNS_MAX (1u << 20)

/* Where an entry's attributes are read from: its open descriptor, or
 * (a symlink, which cannot be opened) its name in dirfd. */
struct xsrc {
	int fd;
	int dirfd;
	const char *leaf;
};

/* The stream (reader.c): out[] handed on when full (a write error
 * stops the walk); bytes, and n zeros, appended. */
void ae_dr_flush(struct packer *p);
void ae_dr_emit(struct packer *p, const uint8_t *b, size_t n);
void ae_dr_emit_zeros(struct packer *p, uint64_t n);

/* Reports (reader.c): a callback that asks to stop stops the walk; the
 * warnings mark the run partial (exit 1).  ev is an enum ae_dr_event. */
void ae_dr_notify(struct packer *p, struct ae_dr_report *r);
void ae_dr_report_path(struct packer *p, int ev, const char *path,
    const char *why, int err);
void ae_dr_warn_errno(struct packer *p, const char *path, const char *what);
void ae_dr_warn_plain(struct packer *p, const char *path, const char *what);

/* Whether the walk is to stop (a signal asked, or it stopped already). */
int ae_dr_stop_asked(struct packer *p);

/* Entries (dr_entry.c). */

/* e filled from st for member name, of type (AE_TAR_*). */
void ae_dr_entry_from_stat(struct packer *p, struct ae_tar_entry *e,
    const char *name, const struct stat *st, char type);

/* Write e's header with the attributes x has (those that do not fit are
 * left out, warned); 0, or -1 (warned) if it cannot be encoded. */
int ae_dr_emit_header(struct packer *p, const struct ae_tar_entry *e0,
    const struct xsrc *x);

/* The name an earlier member had for the file st (a hard link), or
 * NULL; and remember name for st. */
const char *ae_dr_link_lookup(struct packer *p, const struct stat *st);
void ae_dr_link_remember(struct packer *p, const struct stat *st,
    const char *name);

/* Members with what follows their headers (dr_data.c), each leaf of
 * dirfd stored as name, st (or lst) what fstatat saw: a regular file
 * (opened once and checked against lst; a hard link to one seen; its
 * holes kept; opened, if not -1, is the file open already, lst its
 * fstat, and stays the caller's); a symlink; a device or FIFO. */
void ae_dr_add_file(struct packer *p, int dirfd, const char *leaf,
    const char *name, const struct stat *lst, int opened);
void ae_dr_add_symlink(struct packer *p, int dirfd, const char *leaf,
    const char *name, const struct stat *st);
void ae_dr_add_special(struct packer *p, int dirfd, const char *leaf,
    const char *name, const struct stat *st);

#endif
