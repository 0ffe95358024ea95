#!/usr/bin/python3
"""mkcorpus.py OUTDIR TARGEN

Make the seed corpora for the fuzz harnesses in OUTDIR/<harness>/ from
the sample containers (tests/samples), tar archives made by GNU tar and
by aescrypt's own encoder (TARGEN: build/tests/unit/test_tar, which
writes its awkward archive when AE_TAR_OUT is set), and small texts.
The result is committed as tests/fuzz/corpus/; run this again only to
refresh it.  Seeds are named after what they are.
"""
import io
import os
import struct
import subprocess
import sys
import tarfile
import tempfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLES = os.path.join(HERE, "..", "samples")


def put(outdir, harness, name, data):
    d = os.path.join(outdir, harness)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def raw_deflate(data):
    c = zlib.compressobj(6, zlib.DEFLATED, -15)
    return c.compress(data) + c.flush()


def chunk_list(chunks, mode=1):
    """The odd mode of fuzz_payload: flags, u16le length, bytes (mode 5:
    the chunks are zstd frames)."""
    out = bytes([mode])
    for flags, body in chunks:
        out += bytes([flags]) + struct.pack("<H", len(body)) + body
    return out


def small_tars(targen):
    tars = {}
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as t:
        for name, data in [("a.txt", b"hello\n"), ("dir/b.bin", bytes(600))]:
            ti = tarfile.TarInfo(name)
            ti.size = len(data)
            t.addfile(ti, io.BytesIO(data))
        ti = tarfile.TarInfo("link")
        ti.type = tarfile.SYMTYPE
        ti.linkname = "a.txt"
        t.addfile(ti)
        ti = tarfile.TarInfo("x" * 150 + "/long")
        ti.size = 0
        t.addfile(ti, io.BytesIO(b""))
    tars["python-pax.tar"] = buf.getvalue()
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, "d", "e" * 120))
        with open(os.path.join(tmp, "d", "f"), "w") as f:
            f.write("gnu\n")
        os.symlink("f", os.path.join(tmp, "d", "l"))
        for fmt in ("gnu", "ustar", "pax"):
            out = os.path.join(tmp, fmt + ".tar")
            fmts = ["--format=" + fmt]
            if fmt == "ustar":
                subprocess.run(["tar", "-cf", out] + fmts + ["-C", tmp, "d/f", "d/l"],
                               check=True)
            else:
                subprocess.run(["tar", "-cf", out] + fmts + ["-C", tmp, "d"],
                               check=True)
            with open(out, "rb") as f:
                tars["gnu-tar-" + fmt + ".tar"] = f.read()
        out = os.path.join(tmp, "awkward.tar")
        subprocess.run([targen], env=dict(os.environ, AE_TAR_OUT=out),
                       check=True, stdout=subprocess.DEVNULL)
        with open(out, "rb") as f:
            tars["aescrypt-awkward.tar"] = f.read()
    return tars


def other_writers():
    """What other tar writers wrote (issue 16): the hand-made kinds of
    other_writers.py, and GNU tar's sparse forms, V7 and label
    archives of a small file with holes."""
    sys.path.insert(0, os.path.join(HERE, "..", "cli"))
    import other_writers as ow
    out = {"ow-" + k: v for k, v in ow.cases().items()}
    with tempfile.TemporaryDirectory() as d:
        f = os.path.join(d, "f")
        with open(f, "wb") as fh:
            for i in range(6):
                fh.seek(i * 8192 + 100)
                fh.write(b"run %d" % i)
            fh.truncate(60000)
        forms = {
            "gnu-sparse-0.0": ["--sparse", "--sparse-version=0.0", "--format=pax"],
            "gnu-sparse-0.1": ["--sparse", "--sparse-version=0.1", "--format=pax"],
            "gnu-sparse-1.0": ["--sparse", "--sparse-version=1.0", "--format=pax"],
            "gnu-sparse-old": ["--sparse", "--format=oldgnu"],
            "gnu-v7": ["--format=v7"],
            "gnu-label": ["--label=L", "--format=gnu"],
        }
        for name, args in forms.items():
            t = os.path.join(d, name + ".tar")
            # -b 1: the end blocks and no blocking-factor padding
            subprocess.run(["tar", "-b", "1", "-cf", t, "-C", d] + args
                           + ["f"], check=True)
            with open(t, "rb") as fh:
                out[name] = fh.read()
    return out


def legacy_seeds(outdir):
    """fuzz_legacy: AES Crypt files of every version under the passphrase
    "fuzz" (made by tests/interop/aescrypt_legacy.py, fixed seeds), and
    the first bytes of the other formats ae_sniff names."""
    gen = os.path.join(HERE, "..", "interop", "aescrypt_legacy.py")
    with tempfile.TemporaryDirectory() as t:
        pw = os.path.join(t, "pw")
        with open(pw, "w") as f:
            f.write("fuzz\n")
        for name, plain in (("empty", b""), ("block", b"0123456789abcdef"),
                            ("text", b"aes crypt seed\n" * 40)):
            src = os.path.join(t, name)
            with open(src, "wb") as f:
                f.write(plain)
            for v in range(4):
                dst = os.path.join(t, "out")
                subprocess.run([sys.executable, gen, "encode", "-v", str(v),
                                "-p", pw, "--iterations", "8", "--seed",
                                str(v), "--creator", "fuzz", src, dst],
                               check=True)
                with open(dst, "rb") as f:
                    put(outdir, "legacy", "aescrypt-v%d-%s" % (v, name),
                        f.read())
    magics = {
        "gzip": b"\x1f\x8b\x08\x00", "zstd": b"\x28\xb5\x2f\xfd",
        "xz": b"\xfd7zXZ\x00", "7z": b"7z\xbc\xaf\x27\x1c",
        "zip": b"PK\x03\x04", "age": b"age-encryption.org/v1\n",
        "pgp-skesk": b"\x8c\x0d\x04\x09\x03\x08", "pgp-new": b"\xc3\x0d\x04",
        "openssl": b"Salted__", "bzip2": b"BZh9",
    }
    for name, m in magics.items():
        put(outdir, "legacy", "magic-" + name, m + bytes(16))
    put(outdir, "legacy", "magic-tar", bytes(257) + b"ustar\x0000" + bytes(248))


def main():
    outdir, targen = sys.argv[1], sys.argv[2]
    for name in sorted(os.listdir(SAMPLES)):
        if not name.endswith(".aes"):
            continue
        with open(os.path.join(SAMPLES, name), "rb") as f:
            data = f.read()
        # fuzz_header: the whole file (read path) and, where the length
        # field is sane, the header alone (parse path)
        put(outdir, "header", name, data[:4200])
        if len(data) >= 11:
            hl = struct.unpack(">H", data[9:11])[0]
            if 0 < hl <= len(data):
                put(outdir, "header", name + ".header", data[:hl])
                # fuzz_payload, even mode: the records as they come
                put(outdir, "payload", name + ".records",
                    b"\x00" + data[hl:hl + 4096])
    # the negative vectors (tests/cctv): each breaks one header rule
    cctv = os.path.join(HERE, "..", "cctv", "vectors")
    for name in sorted(os.listdir(cctv)):
        if name.endswith(".aes"):
            with open(os.path.join(cctv, name), "rb") as f:
                put(outdir, "header", "cctv-" + name, f.read()[:4200])
    tars = small_tars(targen)
    for name, data in tars.items():
        put(outdir, "tar", name, data)
        # fuzz_payload, odd mode: the tar deflated in one final chunk,
        # and stored in two chunks (the first one short: a rule breach)
        put(outdir, "payload", name + ".deflated",
            chunk_list([(0x03, raw_deflate(data)[:65535])]))
        # and as one zstd frame (the harness's codec bit), where
        # python3-zstandard is installed
        try:
            import zstandard
            z = zstandard.ZstdCompressor(level=3).compress(data)
            put(outdir, "payload", name + ".zstd",
                chunk_list([(0x03, z[:65535])], mode=5))
        except ImportError:
            pass
        half = min(len(data) // 2, 30000)
        put(outdir, "payload", name + ".stored2",
            chunk_list([(0x00, data[:half]), (0x01, data[half:half + 30000])]))
    # fuzz_extract: the same tars, the hostile archives of
    # 090-hostile.bats (outside = /nonexistent) and the hand-built ones at
    # the name limits; the crafted ones go to fuzz_tar too.
    for name, data in tars.items():
        put(outdir, "extract", name, data)
    sys.path.insert(0, os.path.join(HERE, "..", "cli"))
    import crafted_tar
    import hostile_tar
    for name in sorted(hostile_tar.cases("/nonexistent")):
        out = subprocess.run([sys.executable,
                              os.path.join(HERE, "..", "cli", "hostile_tar.py"),
                              name, "/nonexistent"],
                             check=True, capture_output=True).stdout
        put(outdir, "extract", "hostile-" + name, out)
    for name, data in sorted(crafted_tar.cases().items()):
        put(outdir, "extract", "crafted-" + name, data)
        put(outdir, "tar", "crafted-" + name, data)
    for name, data in other_writers().items():
        put(outdir, "extract", name, data)
        put(outdir, "tar", name, data)
    texts = {
        "empty": b"\x06",
        "text-l6": b"\x06" + b"the quick brown fox jumps over the lazy dog\n" * 50,
        "text-l0-2threads": b"\x10" + b"stored, two threads " * 40,
        "binary-l9": b"\x09" + bytes(range(256)) * 8,
    }
    for name, data in texts.items():
        put(outdir, "roundtrip", name, data)
    legacy_seeds(outdir)


if __name__ == "__main__":
    main()
