#!/usr/bin/env python3
"""pty_type.py WORD ANSWER PROG ARGS... -- run PROG ARGS on a
pseudo-terminal of its own, as its controlling terminal, and type
ANSWER (and Enter) each time WORD appears once more in what it writes
there: age -p's passphrase prompts, an age plugin's PIN or confirm
asked through aescrypt.  What PROG wrote to the terminal is copied to
standard output; the exit status is PROG's."""
import os
import pty
import select
import sys

word, answer = sys.argv[1].encode().lower(), sys.argv[2].encode()
pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[3], sys.argv[3:])
seen = b""
sent = 0
while True:
    # (a bound on a hung child, not a timing: nothing here waits on it)
    r, _, _ = select.select([fd], [], [], 120)
    if not r:
        break
    try:
        d = os.read(fd, 1024)
    except OSError:
        break
    if not d:
        break
    seen += d
    sys.stdout.buffer.write(d)
    if seen.lower().count(word) > sent:
        os.write(fd, answer + b"\n")
        sent += 1
_, st = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(st))
