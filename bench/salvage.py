#!/usr/bin/python3
"""bench/salvage.py -- what share of an archive each tool gets back from
the same damage, against its peers in the same run.

  bench/salvage.py [--quick] [--cases N] [--seed S] [AESCRYPT]

Makes the salvage campaign's tree (tests/cli/damage.py: 400 files of
many sizes and a stored .tar, about 4 MB) and archives it three ways:

  aescrypt  aescrypt -c (64 KiB chunks), read back with -x --salvage
            from the file, and from a pipe (no index, no header copy)
  gzip|tar  tar -cf - | gzip -6, read back with gzip -dc | tar -x
            (GNU tar extracts what the stream gives until it fails)
  7-Zip     7zz a -tzip -mem=AES256 (a file per entry, each its own
            AES stream), read back with 7zz x (which goes on past a bad
            entry)

then damages a copy of each the same way (damage.py's models: a 4 KiB
block zeroed, 512 KiB zeroed, a bit flipped, the file cut; the damage
lands at the same relative place in each file) and counts the files
that come back byte-exact, and those that come back wrong.  Prints one
table: per model, each tool's share of files recovered; a tool that
ever writes a wrong file is flagged.  Not a test: the numbers are for
doc/performance.md and the issue notes.  Needs gzip, GNU tar and 7zz (7zip).
"""
import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "cli"))
import damage as D  # noqa: E402

PW = "salvage-bench"


def files_of(root):
    out = {}
    for dirpath, _, files in os.walk(root):
        for n in files:
            p = os.path.join(dirpath, n)
            if os.path.islink(p) or not os.path.isfile(p):
                continue
            with open(p, "rb") as f:
                out[os.path.relpath(p, root)] = f.read()
    return out


def score(want, outdir):
    got = files_of(outdir)
    good = sum(1 for n, v in want.items() if got.get(n) == v)
    bad = sum(1 for n, v in got.items() if n in want and want[n] != v)
    return good, bad


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL, **kw)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--cases", type=int, default=20)
    ap.add_argument("--seed", type=int, default=20261201)
    ap.add_argument("aescrypt", nargs="?",
                    default=os.path.join(HERE, "..", "aescrypt"))
    a = ap.parse_args()
    a.aescrypt = os.path.abspath(a.aescrypt)
    cases = 2 if a.quick else a.cases
    for tool in ("gzip", "tar", "7zz"):
        if shutil.which(tool) is None:
            sys.exit("bench/salvage.py: %s is missing (apt-get install "
                     "gzip tar 7zip)" % tool)
    w = tempfile.mkdtemp(prefix="ae-salvage-bench.")
    try:
        tree = os.path.join(w, "tree")
        os.mkdir(tree)
        D.make_tree(tree, 22)
        want = files_of(tree)
        key = os.path.join(w, "k")
        run([a.aescrypt, "--gen-key", key], check=True)
        top = sorted(os.listdir(tree))
        run([a.aescrypt, "-c", "-q", "-k", key, "--chunk-size", "64K",
             "-f", os.path.join(w, "a.aes"), "--"] + top, cwd=tree,
            check=True)
        subprocess.run("tar -cf - -- * | gzip -6 > ../a.tgz", shell=True,
                       cwd=tree, check=True)
        run(["7zz", "a", "-tzip", "-mem=AES256", "-mx=6", "-p" + PW,
             os.path.join(w, "a.zip")] + top, cwd=tree, check=True)
        archives = {}
        for name in ("a.aes", "a.tgz", "a.zip"):
            with open(os.path.join(w, name), "rb") as f:
                archives[name] = f.read()
        tools = {
            "aescrypt -x --salvage": ("a.aes", lambda t, o: run(
                [a.aescrypt, "-x", "--salvage", "-k", key, "-f", t, "-C", o])),
            "aescrypt, from a pipe": ("a.aes", lambda t, o: run(
                [a.aescrypt, "-x", "--salvage", "-k", key, "-f", "-", "-C",
                 o], input=open(t, "rb").read())),
            "gzip -dc | tar -x": ("a.tgz", lambda t, o: subprocess.run(
                "gzip -dc < '%s' | tar -xf - -C '%s'" % (t, o), shell=True,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)),
            "7zz x (zip, AES-256)": ("a.zip", lambda t, o: run(
                ["7zz", "x", "-y", "-p" + PW, "-o" + o, t])),
        }
        print("salvage: %d files, %d cases per model; archives: aescrypt "
              "%d, gzip|tar %d, 7-Zip %d bytes" % (
                  len(want), cases, len(archives["a.aes"]),
                  len(archives["a.tgz"]), len(archives["a.zip"])))
        print("%-10s" % "model" + "".join("%24s" % t for t in tools))
        for model in D.MODELS:
            row, rng = [], random.Random("%d-%s" % (a.seed, model))
            # one relative place per case, the same for every tool
            places = [rng.random() for _ in range(cases)]
            for tname, (arch, fn) in tools.items():
                data = archives[arch]
                good = bad = 0
                for k, rel in enumerate(places):
                    bad_data, _ = D.damage(model, data, random.Random(k),
                                           where=rel)
                    t = os.path.join(w, "t-" + arch)
                    o = os.path.join(w, "out")
                    with open(t, "wb") as f:
                        f.write(bad_data)
                    shutil.rmtree(o, ignore_errors=True)
                    os.mkdir(o)
                    fn(t, o)
                    g, b = score(want, o)
                    good += g
                    bad += b
                share = 100.0 * good / (len(want) * cases)
                row.append("%5.1f%%%s" % (share, " (%d wrong!)" % bad
                                           if bad else ""))
            print("%-10s" % model + "".join("%24s" % c for c in row))
    finally:
        shutil.rmtree(w, ignore_errors=True)


if __name__ == "__main__":
    main()
