#!/usr/bin/python3
"""inproc.py -- run aescrypt command lines for the campaigns, in one
process when the build has tests/inproc/aescrypt_inproc (AE_INPROC names
it: make check-cli sets it), else a process each (the cross builds
under qemu, or a run by hand).

Runner(aescrypt).run(args, stdin=None, pipe=False) -> (status, output):
args are the arguments after the program's name; stdin is a file to
read as standard input, through a real pipe when pipe is true (no
seeking, as `cat f | aescrypt` has); output is standard output and
standard error together, as the campaigns read messages.
"""
import os
import subprocess


class Runner:
    def __init__(self, aescrypt):
        self.aescrypt = aescrypt
        self.server = None
        path = os.environ.get("AE_INPROC")
        if path:
            self.server = subprocess.Popen([path], stdin=subprocess.PIPE,
                                           stdout=subprocess.PIPE)

    def run(self, args, stdin=None, pipe=False):
        if self.server is None:
            return self._spawn(args, stdin, pipe)
        for a in args:
            if "\t" in a or "\n" in a:
                raise ValueError("an argument with a tab or newline: %r" % a)
        src = "-" if stdin is None else ("P" if pipe else "F") + stdin
        line = "\t".join([src, "aescrypt"] + list(args)) + "\n"
        self.server.stdin.write(line.encode())
        self.server.stdin.flush()
        head = self.server.stdout.readline()
        if not head:
            raise RuntimeError("aescrypt_inproc ended (see its message "
                               "above) at: %s" % " ".join(args))
        st, nout, nerr = (int(x) for x in head.split())
        out = self.server.stdout.read(nout) + self.server.stdout.read(nerr)
        return st, out.decode("utf-8", "replace")

    def _spawn(self, args, stdin, pipe):
        cmd = [self.aescrypt] + list(args)
        if stdin is None:
            p = subprocess.run(cmd, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT)
        elif pipe:
            with open(stdin, "rb") as f:
                data = f.read()
            p = subprocess.run(cmd, input=data, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT)
        else:
            with open(stdin, "rb") as f:
                p = subprocess.run(cmd, stdin=f, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT)
        return p.returncode, p.stdout.decode("utf-8", "replace")

    def close(self):
        """End the server; an exit other than 0 (a leaked descriptor,
        a crash) is an error."""
        if self.server is not None:
            self.server.stdin.close()
            rc = self.server.wait()
            self.server = None
            if rc != 0:
                raise RuntimeError("aescrypt_inproc exited %d" % rc)
