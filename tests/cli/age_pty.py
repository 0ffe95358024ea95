#!/usr/bin/env python3
"""age_pty.py PASS ARGS... -- run age ARGS with PASS typed at each of its
passphrase prompts (age -p reads them from the terminal alone), on a
pseudo-terminal of its own.  Exits with age's status."""
import os
import pty
import select
import sys

pw = sys.argv[1].encode()
pid, fd = pty.fork()
if pid == 0:
    os.execvp("age", ["age"] + sys.argv[2:])
buf = b""
sent = 0
while True:
    r, _, _ = select.select([fd], [], [], 30)
    if not r:
        break
    try:
        d = os.read(fd, 1024)
    except OSError:
        break
    if not d:
        break
    buf += d
    if buf.lower().count(b"passphrase") > sent:
        os.write(fd, pw + b"\n")
        sent += 1
_, st = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(st))
