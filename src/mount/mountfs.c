/*
 * mountfs.c -- an archive mounted read-only through libfuse3's
 * low-level API, on the library's random access (contract in
 * mountfs.h).
 *
 * Inode = node of the tree (tree.h), built from the index alone, so the
 * mount is ready once the header, the slots, the index and its footer
 * have been read.  A read is one aescrypt_reader_pread: only the records
 * that hold the range are decrypted, and many threads share the reader
 * (its pread is safe so).  Nothing the reader has not authenticated is
 * returned: a record that fails gives EIO to the read that touched it.
 * The archive never changes, so the kernel may cache everything for as
 * long as it likes.
 */
#define FUSE_USE_VERSION 312
#define AESCRYPT_STATIC_LINKING_ONLY
#include "config.h"
#include "mountfs.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <fuse3/fuse_lowlevel.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <syslog.h>

#include "tree.h"

/* A node's extras (its xattrs), read from its headers when first
 * asked for. */
struct xa {
	int state;                  /* 0 not read, 1 read, or an errno */
	struct aescrypt_extras x;
};

struct mfs {
	aescrypt_reader **r;        /* by level */
	struct mt_tree t;
	int foreground;
	const char *name;           /* the archive, for messages */
	int xattrs;
	struct xa **xa;             /* by node, made when first asked for
	                             * (under xa_lock) */
	pthread_mutex_t xa_lock;
};

/* The kernel may keep what it learns: nothing here ever changes. */
#define FOREVER 86400.0

static uint64_t
node_of(fuse_ino_t ino)
{
	return (uint64_t)ino - 1;
}

static int
valid(const struct mfs *m, fuse_ino_t ino)
{
	return ino >= 1 && node_of(ino) < m->t.nn;
}

static void
fill_entry(const struct mfs *m, uint64_t node, struct fuse_entry_param *e)
{
	memset(e, 0, sizeof *e);
	e->ino = node + 1;
	e->generation = 1;
	mt_stat(&m->t, node, &e->attr);
	e->attr_timeout = FOREVER;
	e->entry_timeout = FOREVER;
}

static void
op_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct mfs *m = fuse_req_userdata(req);
	struct fuse_entry_param e;
	uint64_t node;

	if (!valid(m, parent)) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	if (m->t.n[node_of(parent)].type != AESCRYPT_DIR) {
		fuse_reply_err(req, ENOTDIR);
		return;
	}
	if ((node = mt_lookup(&m->t, node_of(parent), name)) == MT_NONE) {
		/* a negative entry, cached too: the archive never grows */
		memset(&e, 0, sizeof e);
		e.entry_timeout = FOREVER;
		fuse_reply_entry(req, &e);
		return;
	}
	fill_entry(m, node, &e);
	fuse_reply_entry(req, &e);
}

static void
op_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct mfs *m = fuse_req_userdata(req);
	struct stat st;

	(void)fi;
	if (!valid(m, ino)) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	mt_stat(&m->t, node_of(ino), &st);
	fuse_reply_attr(req, &st, FOREVER);
}

static void
op_readlink(fuse_req_t req, fuse_ino_t ino)
{
	struct mfs *m = fuse_req_userdata(req);

	if (!valid(m, ino) || m->t.n[node_of(ino)].link == NULL) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	fuse_reply_readlink(req, m->t.n[node_of(ino)].link);
}

static void
op_opendir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct mfs *m = fuse_req_userdata(req);

	if (!valid(m, ino) || m->t.n[node_of(ino)].type != AESCRYPT_DIR) {
		fuse_reply_err(req, ENOTDIR);
		return;
	}
	/* (no cache_readdir: the kernel's copy of each listing cost the
	 * first walk 8% of its time, measured over 200,000 names, and a
	 * listing from the tree is as cheap as one from the kernel's
	 * cache, a request per ~500 names) */
	fuse_reply_open(req, fi);
}

/* Directory positions: 0 ".", 1 "..", then 2 + k for entry k; each
 * entry's offset is the position after it, where the next call goes
 * on. */
static void
op_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
    struct fuse_file_info *fi)
{
	struct mfs *m = fuse_req_userdata(req);
	const struct mt_node *d;
	char *buf;
	size_t used = 0, n;
	off_t k;

	(void)fi;
	if (!valid(m, ino) || (d = &m->t.n[node_of(ino)])->type
	    != AESCRYPT_DIR) {
		fuse_reply_err(req, ENOTDIR);
		return;
	}
	if ((buf = malloc(size)) == NULL) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	for (k = off; (size_t)k < d->nkids + 2; k++) {
		/* (a listing gives each name's inode and type alone: the
		 * rest of stat is the lookup's) */
		struct stat st;
		const char *name;

		if (k < 2) {
			/* (the kernel answers ".." itself; its inode here is
			 * not used) */
			name = k == 0 ? "." : "..";
			st.st_ino = ino;
			st.st_mode = S_IFDIR;
		} else {
			const struct mt_dirent *de = &m->t.d[d->kids[k - 2]];

			name = de->name;
			st.st_ino = de->node + 1;
			st.st_mode = de->ifmt;
		}
		n = fuse_add_direntry(req, buf + used, size - used, name, &st,
		    k + 1);
		if (n > size - used)
			break;
		/* (lookup counts are not kept: no inode is ever freed) */
		used += n;
	}
	fuse_reply_buf(req, buf, used);
	free(buf);
}

static void
op_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct mfs *m = fuse_req_userdata(req);
	const struct mt_node *x;

	if (!valid(m, ino)) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	x = &m->t.n[node_of(ino)];
	if (x->type == AESCRYPT_DIR) {
		fuse_reply_err(req, EISDIR);
		return;
	}
	if ((fi->flags & O_ACCMODE) != O_RDONLY) {
		fuse_reply_err(req, EROFS);
		return;
	}
	if (x->type != AESCRYPT_FILE) {
		/* devices and FIFOs are shown, never opened (nodev) */
		fuse_reply_err(req, EACCES);
		return;
	}
	fi->keep_cache = 1;
	fi->noflush = 1;
	fuse_reply_open(req, fi);
}

/* A worker thread's buffer for reads, kept (and freed when the thread
 * ends): a fresh one of a read's size would be mapped and faulted in
 * for every read, which costs more here than the copy into it. */
struct rbuf {
	size_t cap;
	char b[];
};

static pthread_key_t rbuf_key;
static pthread_once_t rbuf_once = PTHREAD_ONCE_INIT;

static void
rbuf_free(void *p)
{
	free(p);
}

static void
rbuf_init(void)
{
	(void)pthread_key_create(&rbuf_key, rbuf_free);
}

static char *
read_buf(size_t size)
{
	struct rbuf *b;

	(void)pthread_once(&rbuf_once, rbuf_init);
	b = pthread_getspecific(rbuf_key);
	if (b == NULL || b->cap < size) {
		struct rbuf *nb = malloc(sizeof *nb + (size > 0 ? size : 1));

		if (nb == NULL)
			return NULL;
		nb->cap = size;
		free(b);
		if (pthread_setspecific(rbuf_key, nb) != 0) {
			free(nb);
			return NULL;
		}
		b = nb;
	}
	return b->b;
}

static void
op_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
    struct fuse_file_info *fi)
{
	struct mfs *m = fuse_req_userdata(req);
	const struct mt_node *x;
	char *buf;
	size_t got = 0;
	int err;

	(void)fi;
	if (!valid(m, ino) || off < 0) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	x = &m->t.n[node_of(ino)];
	if ((buf = read_buf(size)) == NULL) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	err = aescrypt_reader_pread(m->r[x->level], x->member, buf, size,
	    (uint64_t)off, &got);
	if (err != AESCRYPT_OK) {
		/* one line for the damage, and EIO for this read: every
		 * other file still reads.  (Not the reader's message: other
		 * threads' preads may be writing it now.) */
		struct aescrypt_entry e;
		const char *path = aescrypt_reader_entry(m->r[x->level],
		    x->member, &e) == AESCRYPT_OK ? e.path : "?";

		if (m->foreground)
			fprintf(stderr, "aescrypt: error: %s: %s: a read at "
			    "byte %lld failed: %s\n", m->name, path,
			    (long long)off, aescrypt_strerror(err));
		else
			syslog(LOG_ERR, "%s: %s: a read at byte %lld failed: %s",
			    m->name, path, (long long)off,
			    aescrypt_strerror(err));
		fuse_reply_err(req, EIO);
	} else
		fuse_reply_buf(req, buf, got);
}

/* Node's extras, read once: NULL with *err (an errno) when there are
 * none to give. */
static const struct aescrypt_extras *
extras(struct mfs *m, fuse_ino_t ino, int *err)
{
	const struct mt_node *x;
	struct xa *a;
	uint64_t node;

	*err = 0;
	if (!valid(m, ino)) {
		*err = ENOENT;
		return NULL;
	}
	node = node_of(ino);
	x = &m->t.n[node];
	if (!m->xattrs || x->member == MT_NONE) {
		*err = m->xattrs ? 0 : ENOTSUP;
		return NULL;
	}
	pthread_mutex_lock(&m->xa_lock);
	if ((a = m->xa[node]) == NULL && (a = m->xa[node] = calloc(1,
	    sizeof *a)) == NULL) {
		pthread_mutex_unlock(&m->xa_lock);
		*err = ENOMEM;
		return NULL;
	}
	if (a->state == 0) {
		int e = aescrypt_reader_extras(m->r[x->level], x->member, &a->x);

		a->state = e == AESCRYPT_OK ? 1 : e == AESCRYPT_ENOMEM ? ENOMEM
		    : EIO;
		if (e != AESCRYPT_OK && e != AESCRYPT_ENOMEM) {
			if (m->foreground)
				fprintf(stderr, "aescrypt: error: %s: reading a "
				    "member's headers for its xattrs failed: %s\n",
				    m->name, aescrypt_strerror(e));
			else
				syslog(LOG_ERR, "%s: reading a member's headers for "
				    "its xattrs failed: %s", m->name,
				    aescrypt_strerror(e));
		}
	}
	pthread_mutex_unlock(&m->xa_lock);
	if (a->state != 1) {
		*err = a->state;
		return NULL;
	}
	/* (read once, then never written: safe to read unlocked) */
	return &a->x;
}

static void
op_getxattr(fuse_req_t req, fuse_ino_t ino, const char *name, size_t size)
{
	struct mfs *m = fuse_req_userdata(req);
	const struct aescrypt_extras *x;
	size_t k;
	int err;

	if ((x = extras(m, ino, &err)) == NULL) {
		fuse_reply_err(req, err != 0 ? err : ENODATA);
		return;
	}
	for (k = 0; k < x->nxattrs; k++)
		if (strcmp(x->xattrs[k].name, name) == 0)
			break;
	if (k == x->nxattrs)
		fuse_reply_err(req, ENODATA);
	else if (size == 0)
		fuse_reply_xattr(req, x->xattrs[k].len);
	else if (size < x->xattrs[k].len)
		fuse_reply_err(req, ERANGE);
	else
		fuse_reply_buf(req, (const char *)x->xattrs[k].value,
		    x->xattrs[k].len);
}

static void
op_listxattr(fuse_req_t req, fuse_ino_t ino, size_t size)
{
	struct mfs *m = fuse_req_userdata(req);
	const struct aescrypt_extras *x;
	size_t k, len = 0, at = 0;
	char *buf;
	int err;

	if ((x = extras(m, ino, &err)) == NULL) {
		if (err != 0)
			fuse_reply_err(req, err);
		else if (size == 0)
			fuse_reply_xattr(req, 0);
		else
			fuse_reply_buf(req, NULL, 0);
		return;
	}
	for (k = 0; k < x->nxattrs; k++)
		len += strlen(x->xattrs[k].name) + 1;
	if (size == 0) {
		fuse_reply_xattr(req, len);
		return;
	}
	if (size < len) {
		fuse_reply_err(req, ERANGE);
		return;
	}
	if ((buf = malloc(len ? len : 1)) == NULL) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	for (k = 0; k < x->nxattrs; k++) {
		size_t n = strlen(x->xattrs[k].name) + 1;

		memcpy(buf + at, x->xattrs[k].name, n);
		at += n;
	}
	fuse_reply_buf(req, buf, len);
	free(buf);
}

static void
op_statfs(fuse_req_t req, fuse_ino_t ino)
{
	struct mfs *m = fuse_req_userdata(req);
	struct statvfs sv;

	(void)ino;
	memset(&sv, 0, sizeof sv);
	sv.f_bsize = 65536;
	sv.f_frsize = 512;
	sv.f_files = m->t.nn;
	sv.f_namemax = 255;
	fuse_reply_statfs(req, &sv);
}

/* Reads of up to 1 MiB, and read-ahead as far: a request costs two
 * trips through the kernel, and a record is 256 KiB by default, so
 * 128 KiB requests (the kernel's default) would each open half of one.
 * (libfuse derives the request size, max_pages, from max_write.) */
static void
op_init(void *userdata, struct fuse_conn_info *conn)
{
	(void)userdata;
	conn->max_write = 1u << 20;
	conn->max_readahead = 1u << 20;
	/* Plain readdir, no readdirplus: with it, the kernel makes an inode
	 * for every name listed, which a walk that needs only names pays
	 * for (find over 200,000 members: 0.46-0.80 s with it, 0.18 s
	 * without; squashfuse 0.23 s), while du, which needs every inode,
	 * is still faster than squashfuse's without it (5.8 s against 8.2
	 * s; 2.7 s with it).  Measured by bench/mount.sh's trees. */
	conn->want &= ~(unsigned)(FUSE_CAP_READDIRPLUS
	    | FUSE_CAP_READDIRPLUS_AUTO);
}

static const struct fuse_lowlevel_ops ops = {
	.init = op_init,
	.lookup = op_lookup,
	.getattr = op_getattr,
	.readlink = op_readlink,
	.opendir = op_opendir,
	.readdir = op_readdir,
	.open = op_open,
	.read = op_read,
	.statfs = op_statfs,
	.getxattr = op_getxattr,
	.listxattr = op_listxattr,
};

/* The cache's figures, in the foreground with -v, as the mount ends. */
static void
say_cache(const struct mountfs_params *p)
{
	uint64_t h, mi, a, th = 0, tm = 0, ta = 0;
	size_t i;

	for (i = 0; i < p->nreaders; i++)
		if (aescrypt_reader_cache_figures(p->readers[i], &h, &mi, &a)
		    == AESCRYPT_OK) {
			th += h;
			tm += mi;
			ta += a;
		}
	fprintf(stderr, "aescrypt: note: the plaintext cache: %llu hits, "
	    "%llu misses, %llu records read ahead\n", (unsigned long long)th,
	    (unsigned long long)tm, (unsigned long long)ta);
}

int
mountfs_available(void)
{
	return 1;
}

int
mountfs_run(const struct mountfs_params *p, char *err, size_t errlen,
    size_t *bad)
{
	struct mountfs_figures fig;
	struct fuse_args args = FUSE_ARGS_INIT(0, NULL);
	struct fuse_session *se = NULL;
	struct fuse_loop_config *cfg = NULL;
	struct mfs m;
	size_t i;
	int rc = MOUNTFS_FAILED, e;

	memset(&m, 0, sizeof m);
	m.r = p->readers;
	m.foreground = p->foreground;
	m.name = p->name;
	m.xattrs = p->xattrs;
	*bad = 0;
	/* each reader's share of the cache, set before its index is read
	 * (the cache starts with it) */
	for (i = 0; i < p->nreaders; i++)
		if (aescrypt_reader_set_cache(p->readers[i], p->cache_bytes
		    / p->nreaders, p->ahead) != AESCRYPT_OK) {
			*bad = i;
			snprintf(err, errlen, "%s", aescrypt_reader_error(
			    p->readers[i]));
			return MOUNTFS_NO_INDEX;
		}
	if ((e = mt_build(&m.t, p->readers, p->nreaders, p->levels, bad))
	    != AESCRYPT_OK) {
		snprintf(err, errlen, "%s", e == AESCRYPT_ENOMEM ? "out of "
		    "memory" : aescrypt_reader_error(p->readers[*bad]));
		return MOUNTFS_NO_INDEX;
	}
	if (m.xattrs && (m.xa = calloc(m.t.nn, sizeof *m.xa)) == NULL) {
		mt_free(&m.t);
		snprintf(err, errlen, "out of memory");
		return MOUNTFS_FAILED;
	}
	pthread_mutex_init(&m.xa_lock, NULL);
	for (i = 0; i < m.t.nn; i++)
		if (m.t.n[i].member == MT_NONE)
			m.t.n[i].mtime = p->implied_mtime;
	if (fuse_opt_add_arg(&args, "aescrypt") != 0
	    || fuse_opt_add_arg(&args, "-o") != 0
	    || fuse_opt_add_arg(&args, p->allow_other ? "ro,nodev,nosuid,"
	    "default_permissions,allow_other,fsname=aescrypt,subtype=aescrypt"
	    : "ro,nodev,nosuid,default_permissions,fsname=aescrypt,"
	    "subtype=aescrypt") != 0) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if ((se = fuse_session_new(&args, &ops, sizeof ops, &m)) == NULL) {
		snprintf(err, errlen, "cannot start a FUSE session");
		goto out;
	}
	/* libfuse installs its handlers only where none is: the mount owns
	 * SIGTERM, SIGINT and SIGHUP while it serves (they unmount) */
	signal(SIGTERM, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	if (fuse_set_signal_handlers(se) != 0) {
		snprintf(err, errlen, "cannot set the signal handlers");
		goto out;
	}
	if (fuse_session_mount(se, p->dir) != 0) {
		snprintf(err, errlen, "%s: cannot mount there (is FUSE "
		    "available: /dev/fuse, fusermount3?)", p->dir);
		fuse_remove_signal_handlers(se);
		goto out;
	}
	if (p->ready != NULL) {
		fig.nodes = m.t.nn;
		fig.refused_name = m.t.refused_name;
		fig.refused_through = m.t.refused_through;
		fig.refused_over = m.t.refused_over;
		fig.refused_link = m.t.refused_link;
		fig.replaced = m.t.replaced;
		fig.removed = m.t.removed;
		fig.renamed = m.t.renamed;
		fig.shadowed = m.t.shadowed;
		fig.dumpdirs = m.t.dumpdirs;
		fig.levels_name = MT_LEVELS_DIR;
		p->ready(p->ready_ctx, &fig);
	}
	if (!p->foreground && fuse_daemonize(0) != 0) {
		snprintf(err, errlen, "cannot go to the background");
		fuse_session_unmount(se);
		fuse_remove_signal_handlers(se);
		goto out;
	}
	if ((cfg = fuse_loop_cfg_create()) == NULL) {
		snprintf(err, errlen, "out of memory");
		fuse_session_unmount(se);
		fuse_remove_signal_handlers(se);
		goto out;
	}
	fuse_loop_cfg_set_clone_fd(cfg, 0);
	fuse_loop_cfg_set_max_threads(cfg, p->threads > 0 ? p->threads : 8);
	e = fuse_session_loop_mt(se, cfg);
	if (p->verbose && p->foreground)
		say_cache(p);
	fuse_session_unmount(se);
	fuse_remove_signal_handlers(se);
	/* (a positive result is the signal that ended it, as asked) */
	rc = e >= 0 ? MOUNTFS_OK : MOUNTFS_FAILED;
	if (e < 0)
		snprintf(err, errlen, "the FUSE loop ended with an error: %s",
		    strerror(-e));
out:
	if (cfg != NULL)
		fuse_loop_cfg_destroy(cfg);
	if (se != NULL)
		fuse_session_destroy(se);
	fuse_opt_free_args(&args);
	if (m.xa != NULL) {
		for (i = 0; i < m.t.nn; i++)
			if (m.xa[i] != NULL) {
				aescrypt_extras_free(&m.xa[i]->x);
				free(m.xa[i]);
			}
		free(m.xa);
	}
	pthread_mutex_destroy(&m.xa_lock);
	mt_free(&m.t);
	return rc;
}
