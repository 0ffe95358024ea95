#!/usr/bin/python3
"""salvage_campaign.py AESCRYPT KEY ARCHIVE TREE WORKDIR MODEL COUNT SEED [pipe]

The salvage campaign (issue 22) for one damage model (damage.py: block,
range, bit, truncate): COUNT damaged copies of ARCHIVE (made with -k KEY
from TREE, which holds a stored .tar), each extracted with
`aescrypt -x --salvage` from the file (or, with "pipe", from a pipe,
which has no index and cannot reach the copy of the header), and checked:

- the exit status is 4 (every byte of the file is authenticated one way
  or another, so any damage is found), and no temp file is left;
- no member is written wrong: every file and symlink extracted is the
  member of TREE by that name, byte for byte, unless the run named it as
  found by searching for headers (possible only without an index);
- no member outside the damage is lost: with the index (from the file,
  the index and the footer undamaged), every member whose tar bytes lie
  wholly in chunks that were not damaged is extracted, byte-exact;
- every missing member is named: with the index, each file and symlink
  of TREE that was not extracted appears in a message by its name;
  without one, each is named, or the last line says that the members in
  the lost chunks cannot be counted (and it never says that everything
  else was read whole).

Prints "MODEL: N cases, M wrong, R% of files recovered" and the wrong
cases; exits 1 if any case was wrong.
"""
import os
import random
import re
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import damage as D  # noqa: E402
import inproc  # noqa: E402


def tree_files(root):
    """{relative name: ("f", bytes) or ("l", target)} of files and links."""
    out = {}
    for dirpath, dirs, files in os.walk(root):
        for n in files + dirs:
            p = os.path.join(dirpath, n)
            rel = os.path.relpath(p, root)
            if os.path.islink(p):
                out[rel] = ("l", os.readlink(p))
            elif os.path.isfile(p):
                with open(p, "rb") as f:
                    out[rel] = ("f", f.read())
    return out


def named_in(msg):
    """Every NAME that a line "aescrypt: error: NAME: ..." or "...
    warning: NAME: ..." can be read as naming (a name may hold ": ", so
    each prefix up to a ": " counts): one pass over the messages, which
    run to tens of thousands of lines after a large loss, instead of a
    search of all of them for each member."""
    names = set()
    for line in msg.splitlines():
        for kind in ("error: ", "warning: "):
            at = line.find(kind)
            if at < 0:
                continue
            rest = line[at + len(kind):]
            i = rest.find(": ")
            while i >= 0:
                names.add(rest[:i])
                i = rest.find(": ", i + 1)
    return names


def lost_chunks(lay, rng_dmg, cut):
    """Payload chunk numbers whose records the damage touched."""
    s, e = rng_dmg
    lost = set()
    for i, (off, n) in enumerate(lay["recs"]):
        if cut and off + n > s:
            lost.add(i)
        elif off < e and s < off + n:
            lost.add(i)
    return lost


def main():
    aescrypt, key, archive, tree, work, model, count, seed = sys.argv[1:9]
    pipe = len(sys.argv) > 9 and sys.argv[9] == "pipe"
    rng = random.Random("%s-%s-%s" % (seed, model, pipe))
    data = open(archive, "rb").read()
    lay = D.layout(data)
    members = D.tar_members(open(os.path.join(work, "plain.tar"), "rb").read())
    want = tree_files(tree)
    C = 65536
    cases, wrong, got_files, all_files = 0, [], 0, 0
    runner = inproc.Runner(aescrypt)
    for k in range(int(count)):
        bad, (s, e) = D.damage(model, data, rng)
        cut = model == "truncate"
        t = os.path.join(work, "t.aes")
        out = os.path.join(work, "out")
        with open(t, "wb") as f:
            f.write(bad)
        shutil.rmtree(out, ignore_errors=True)
        os.mkdir(out)
        # (-v: each member found by searching is named where it is met)
        cmd = ["-x", "-v", "--salvage", "-k", key, "-C", out]
        if pipe:
            # a real pipe: no index, no copy of the header in reach
            st, msg = runner.run(cmd + ["-f", "-"], stdin=t, pipe=True)
        else:
            st, msg = runner.run(cmd + ["-f", t])
        name = "%s %d (bytes %d to %d%s)" % (model, k, s, e, ", pipe" if pipe else "")
        errs = []
        cases += 1
        if st != 4:
            errs.append("exit %d, not 4" % st)
        got = tree_files(out)
        temps = [n for n in got if ".aescrypt" in n]
        if temps:
            errs.append("temp files left: %s" % temps[:3])
        searched = set(re.findall(r"warning: (.+?): found by searching", msg))
        named_set = named_in(msg)
        for n, v in got.items():
            if n in temps:
                continue
            if want.get(n) != v and n not in searched:
                errs.append("%s written wrong, and not named as found by "
                            "searching" % n)
        # with the index: the file, its index, footer and header copy
        # untouched (the header itself may be damaged: its copy serves)
        index_ok = not pipe and not cut and lay["index"] is not None \
            and not (s < len(data) and e > lay["index"][0])
        header_ok = s >= lay["L"] or not pipe
        lost = lost_chunks(lay, (s, e), cut) if header_ok else set(range(len(lay["recs"])))
        unknown = re.search(r"hint: .*, and an unknown number (in the "
                            r"lost chunks|never reached)", msg) is not None
        if s < lay["L"] and (pipe or cut):
            # the header lost with no copy in reach: nothing can be
            # read, and the message must say why
            if got or not re.search(r"error: .*header", msg):
                errs.append("the header is lost: nothing should come "
                            "out, and the message must say so")
            if errs:
                wrong.append("%s: %s" % (name, "; ".join(errs)))
            all_files += len(want)
            continue
        for n, v in want.items():
            first, end = members.get(n, (None, None))
            all_files += 1
            if n in got and got[n] == v:
                got_files += 1
                continue
            if first is None:
                continue
            end = end if end is not None else first + 512
            touched = any(first < (c + 1) * C and c * C < end for c in lost)
            if index_ok and not touched:
                errs.append("%s lies clear of the damage but was not "
                            "extracted" % n)
            named = n in named_set
            if not named and not (unknown and not index_ok):
                errs.append("%s is missing and not named" % n)
        if "everything else was read whole" in msg and \
                any(n not in got for n in want):
            errs.append("says everything else was read whole")
        if errs:
            wrong.append("%s: %s\n    %s" % (name, "; ".join(errs[:4]),
                                            msg.strip().replace("\n", "\n    ")[:1500]))
    runner.close()
    pct = 100.0 * got_files / all_files if all_files else 0.0
    print("%s%s: %d cases, %d wrong, %.1f%% of files recovered"
          % (model, " (pipe)" if pipe else "", cases, len(wrong), pct))
    for w in wrong[:5]:
        print("  " + w)
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    main()
