#include "config.h"
#include "stats.h"

#include <string.h>

#define AESCRYPT_STATIC_LINKING_ONLY
#include "aescrypt.h"

/* Stages and waits under this are left out of the table. */
#define MIN_ROW_NS 1000000u

/* One row of the stage table. */
struct stage {
	const char *name;
	uint64_t ns;
	uint64_t bytes;     /* what the stage processed, for MB/s; 0: n/a */
};

static double
sec(uint64_t ns)
{
	return (double)ns / 1e9;
}

static double
mbps(uint64_t bytes, uint64_t ns)
{
	return ns == 0 ? 0.0 : (double)bytes / 1e6 / sec(ns);
}

/* Fill rows[]; return the count.  "other" is what the process used
 * beyond the measured stages (thread start-up, locking, the header), so
 * the shares always add up to 100% of the process's CPU time.  For
 * archives, "files" is the file-system side: the tree walk and file
 * reads before "read" (-c), or the tar parsing and file writes after
 * "write" (-x, -t). */
/* The run's codec's row (DEFLATE's for an AES Crypt file, which has
 * none of its own). */
static struct aescrypt_codec_info
codec_of(const struct run_stats *s)
{
	struct aescrypt_codec_info ci;

	if (aescrypt_codec_info(s->codec, 0, &ci) != AESCRYPT_OK)
		(void)aescrypt_codec_info(AESCRYPT_CODEC_DEFLATE, 0, &ci);
	return ci;
}

static int
stages(const struct run_stats *s, struct stage *rows, uint64_t *total)
{
	const struct ae_pipe_stats *p = &s->pipe;
	const struct aescrypt_codec_info cx = codec_of(s);
	uint64_t sum;
	int n = 0;

	if (s->archive && !s->decrypt)
		rows[n++] = (struct stage){ "files", s->files_ns,
		    s->files_bytes };
	rows[n++] = (struct stage){ "read", p->read_ns, p->read_bytes };
	rows[n++] = (struct stage){ s->decrypt ? cx.unzip : "compress",
	    p->zip_ns, p->plain_bytes };
	rows[n++] = (struct stage){ s->decrypt ? "decrypt" : "encrypt",
	    p->aead_ns, p->aead_bytes };
	rows[n++] = (struct stage){ "write", p->write_ns, p->write_bytes };
	if (s->archive && s->decrypt)
		rows[n++] = (struct stage){ "files", s->files_ns,
		    s->files_bytes };
	rows[n++] = (struct stage){ "kdf", s->kdf_cpu_ns, 0 };
	sum = p->read_ns + p->zip_ns + p->aead_ns + p->write_ns
	    + s->kdf_cpu_ns + (s->archive ? s->files_ns : 0);
	rows[n++] = (struct stage){ "other", s->process_cpu_ns > sum ?
	    s->process_cpu_ns - sum : 0, 0 };
	*total = sum + rows[n - 1].ns;
	return n;
}

/*
 * The wall-clock waits: where a thread sat idle, which the CPU table
 * cannot show.  A run whose wall time is much more than its CPU time
 * divided by the threads is explained here: a cold page cache shows as
 * the reader waiting on input, a slow disk or pipe as the writer
 * waiting on output, too few workers as the writer waiting on them.
 */
static void
waits(FILE *fp, const struct run_stats *s)
{
	const struct ae_pipe_stats *p = &s->pipe;
	struct { const char *what; uint64_t ns; } w[] = {
		{ "reader waiting on input (in reads)", p->read_wall_ns },
		{ "reader waiting for a free buffer (workers or writer "
		    "behind)", p->reader_wait_ns },
		{ "workers waiting for chunks (reader behind; all workers)",
		    p->worker_wait_ns },
		{ "writer waiting for the next chunk (workers behind)",
		    p->writer_wait_ns },
		{ "writer waiting on output (in writes)", p->write_wall_ns },
	};
	size_t i;
	int any = 0;

	for (i = 0; i < sizeof w / sizeof w[0]; i++) {
		if (w[i].ns < MIN_ROW_NS)
			continue;
		if (!any++)
			fprintf(fp, "  waits (wall clock):\n");
		fprintf(fp, "  %10.3f s  %s\n", sec(w[i].ns), w[i].what);
	}
}

void
stats_print(FILE *fp, const struct run_stats *s, int json)
{
	const struct aescrypt_codec_info cx = codec_of(s);
	struct stage rows[8];
	uint64_t total;
	double ratio = s->pipe.plain_bytes == 0 ? 0.0 :
	    (double)s->pipe.wire_bytes / (double)s->pipe.plain_bytes;
	int n = stages(s, rows, &total), i;
	int eng = cx.engines && !s->no_codec;

	if (json) {
		/* "deflate" names the engine, or is null with zstd */
		fprintf(fp, "{\"mode\":\"%s\",\"tier\":\"%s\",\"codec\":\"%s\","
		    "\"deflate\":%s%s%s,\"threads\":%u,"
		    "\"wall_s\":%.6f,\"cpu_s\":%.6f,\"bytes_in\":%llu,"
		    "\"bytes_out\":%llu,\"payload_bytes\":%llu,"
		    "\"record_bytes\":%llu,\"chunks\":%llu,\"ratio\":%.6f,"
		    "\"stored_by_probe\":%llu,"
		    "\"kdf_wall_s\":%.6f,\"peak_rss_kib\":%llu,\"stages\":{",
		    s->mode, s->tier, s->no_codec ? "none" : cx.name,
		    eng ? "\"" : "", eng ? s->engine : "null", eng ? "\"" : "",
		    s->pipe.threads,
		    sec(s->wall_ns),
		    sec(total),
		    (unsigned long long)s->in_bytes,
		    (unsigned long long)s->out_bytes,
		    (unsigned long long)s->pipe.plain_bytes,
		    (unsigned long long)s->pipe.wire_bytes,
		    (unsigned long long)s->pipe.chunks, ratio,
		    (unsigned long long)s->pipe.probe_stored,
		    sec(s->kdf_wall_ns), (unsigned long long)s->peak_rss_kib);
		for (i = 0; i < n; i++)
			fprintf(fp, "%s\"%s\":{\"cpu_s\":%.6f,\"share\":%.4f,"
			    "\"mb_s\":%.1f}", i ? "," : "", rows[i].name,
			    sec(rows[i].ns), total ? (double)rows[i].ns /
			    (double)total : 0.0, mbps(rows[i].bytes,
			    rows[i].ns));
		fprintf(fp, "},\"waits\":{\"reader_on_input_s\":%.6f,"
		    "\"reader_on_buffers_s\":%.6f,\"workers_on_reader_s\":%.6f,"
		    "\"writer_on_workers_s\":%.6f,\"writer_on_output_s\":%.6f}}\n",
		    sec(s->pipe.read_wall_ns), sec(s->pipe.reader_wait_ns),
		    sec(s->pipe.worker_wait_ns), sec(s->pipe.writer_wait_ns),
		    sec(s->pipe.write_wall_ns));
		return;
	}
	if (s->no_codec)
		fprintf(fp, "aescrypt: stats: %s, cipher %s, no codec, %u "
		    "worker thread%s\n", s->mode, s->tier, s->pipe.threads,
		    s->pipe.threads == 1 ? "" : "s");
	else if (!cx.engines)
		fprintf(fp, "aescrypt: stats: %s, cipher %s, codec %s %s, %u "
		    "worker thread%s\n", s->mode, s->tier, cx.name,
		    cx.version, s->pipe.threads, s->pipe.threads == 1 ? ""
		    : "s");
	else
		fprintf(fp, "aescrypt: stats: %s, cipher %s, codec deflate "
		    "(%s), %u worker thread%s\n", s->mode, s->tier, s->engine,
		    s->pipe.threads, s->pipe.threads == 1 ? "" : "s");
	fprintf(fp, "  wall %.3f s, CPU %.3f s, peak memory %llu KiB\n",
	    sec(s->wall_ns), sec(total),
	    (unsigned long long)s->peak_rss_kib);
	fprintf(fp, "  in %llu bytes, out %llu bytes; payload %llu -> %llu "
	    "bytes in %llu chunk%s (ratio %.3f)\n",
	    (unsigned long long)s->in_bytes,
	    (unsigned long long)s->out_bytes,
	    (unsigned long long)s->pipe.plain_bytes,
	    (unsigned long long)s->pipe.wire_bytes,
	    (unsigned long long)s->pipe.chunks,
	    s->pipe.chunks == 1 ? "" : "s", ratio);
	if (s->pipe.probe_stored != 0)
		fprintf(fp, "  %llu of them stored at once: the probe found "
		    "them incompressible\n",
		    (unsigned long long)s->pipe.probe_stored);
	fprintf(fp, "  %-10s %9s %7s %10s\n", "stage", "CPU s", "share",
	    "MB/s");
	for (i = 0; i < n; i++) {
		char rate[32];

		/* A stage that used under a millisecond measured nothing
		 * worth a row (compress at -0, the KDF with a key file);
		 * the JSON keeps every stage. */
		if (rows[i].ns < MIN_ROW_NS)
			continue;

		if (rows[i].bytes != 0 && rows[i].ns != 0)
			snprintf(rate, sizeof rate, "%10.1f",
			    mbps(rows[i].bytes, rows[i].ns));
		else
			snprintf(rate, sizeof rate, "%10s", "-");
		fprintf(fp, "  %-10s %9.3f %6.1f%% %s\n", rows[i].name,
		    sec(rows[i].ns), total ? 100.0 * (double)rows[i].ns /
		    (double)total : 0.0, rate);
	}
	if (s->kdf_cpu_ns != 0)
		fprintf(fp, "  kdf: Argon2id %llu MiB, %.3f s wall\n",
		    (unsigned long long)s->kdf_m_kib / 1024,
		    sec(s->kdf_wall_ns));
	waits(fp, s);
}
