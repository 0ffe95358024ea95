#!/usr/bin/env python3
"""age_cctv.py AESCRYPT DIR -- C2SP CCTV's age test files, each
decrypted with `aescrypt -d`.

Each file (tests/vectors/age/, CCTV's age/testdata) is a header of
"key: value" lines (expect, payload, identity, passphrase, armored,
compressed), a blank line, then an age file (zlib-compressed when the
header says so).  The outcome must be the one `expect` names:

  success           exit 0
  payload failure   exit 4 (the payload: damaged or cut)
  header failure    exit 4, or 5 for the one over the work-factor cap
  armor failure     exit 4, and the message is about the armor
  HMAC failure      exit 4, and the message is about the header's MAC
  no match          exit 3 (no identity or passphrase opens it)

and where the file names a `payload`, the SHA-256 of everything -d
wrote must equal it: on a failure too, since that is exactly the
plaintext age would have released before it.  Nothing else may be
written on a failure.  With -j4; at the full scale (a third argument
"full": make check-long), the files with a payload again with -j1.
Prints one line per failure and a count; exit 0 if all passed.
"""
import hashlib
import os
import subprocess
import sys
import tempfile
import zlib

EXIT = {"success": 0, "payload failure": 4, "header failure": 4,
        "armor failure": 4, "HMAC failure": 4, "no match": 3}


def parse(path):
    raw = open(path, "rb").read()
    head, body = raw.split(b"\n\n", 1)
    meta = {}
    for line in head.decode().split("\n"):
        k, v = line.split(": ", 1)
        meta.setdefault(k, []).append(v)
    if meta.get("compressed") == ["zlib"]:
        body = zlib.decompress(body)
    return meta, body


def run_one(aescrypt, name, meta, body, tmp, threads):
    f = os.path.join(tmp, "in.age")
    with open(f, "wb") as fp:
        fp.write(body)
    cmd = [aescrypt, "-d", "-j", str(threads)]
    if "identity" in meta:
        ids = os.path.join(tmp, "ids.txt")
        with open(ids, "w") as fp:
            fp.write("\n".join(meta["identity"]) + "\n")
        os.chmod(ids, 0o600)
        cmd += ["-i", ids]
    env = dict(os.environ)
    env.pop("AESCRYPT_PASSPHRASE", None)
    if "passphrase" in meta:
        env["AESCRYPT_PASSPHRASE"] = meta["passphrase"][0]
    cmd.append(f)
    p = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True,
                       env=env, timeout=120)
    expect = meta["expect"][0]
    err = p.stderr.decode(errors="replace")
    want = EXIT[expect]
    if name == "scrypt_work_factor_23":
        want = 5        # EXIT_LIMIT: over the cap, which --max-work-factor raises
    why = []
    if p.returncode != want:
        why.append("exit %d, want %d (%s)" % (p.returncode, want, expect))
    if p.returncode != 0 and "aescrypt: error:" not in err:
        why.append("no error message")
    if expect == "armor failure" and "armor" not in err:
        why.append("the message does not name the armor")
    if expect == "header failure" and "armor" in err:
        why.append("a header failure reported as the armor's")
    if expect == "HMAC failure" and "MAC" not in err:
        why.append("the message does not name the MAC")
    if "payload" in meta:
        got = hashlib.sha256(p.stdout).hexdigest()
        if got != meta["payload"][0]:
            why.append("released %d bytes that do not hash to the payload"
                       % len(p.stdout))
    elif p.stdout:
        why.append("wrote %d bytes on a failure" % len(p.stdout))
    return why, err


def main():
    aescrypt, d = sys.argv[1], sys.argv[2]
    full = len(sys.argv) > 3 and sys.argv[3] == "full"
    names = sorted(os.listdir(d))
    names = [n for n in names if not n.endswith(".md")]
    bad = 0
    counts = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n in names:
            meta, body = parse(os.path.join(d, n))
            expect = meta["expect"][0]
            counts[expect] = counts.get(expect, 0) + 1
            # -j4 (the pipeline's 16-chunk jobs over two workers and
            # more); at full scale -j1 too, one job at a time
            for threads in ([1, 4] if full and "payload" in meta else [4]):
                why, err = run_one(aescrypt, n, meta, body, tmp, threads)
                if why:
                    bad += 1
                    print("FAIL %s -j%d: %s\n  %s" % (n, threads,
                          "; ".join(why), err.strip().replace("\n",
                          "\n  ")))
    total = len(names)
    print("age CCTV: %d files (%s): %s" % (total, ", ".join(
        "%d %s" % (v, k) for k, v in sorted(counts.items())),
        "all as expected" if bad == 0 else "%d failed" % bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
