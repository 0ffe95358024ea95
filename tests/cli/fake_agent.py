#!/usr/bin/env python3
"""fake_agent.py SOCKET PUBFILE MODE READY -- an ssh-agent that lies,
for the client's error paths (src/container/sshagent.c): it says it
holds PUBFILE's key, and answers a signing request as MODE says:
  refuse    SSH_AGENT_FAILURE (as a declined confirmation is)
  wrong     a well-formed signature by another key
  malformed a message of a type the protocol does not have
It writes a line to the FIFO READY once it listens, so the test waits
on that rather than on a clock, and serves until it is killed."""
import base64
import os
import socket
import struct
import sys

from cryptography.hazmat.primitives.asymmetric import ed25519

path, pub, mode, ready = sys.argv[1:5]
blob = base64.b64decode(open(pub).read().split()[1])


def string(b):
    return struct.pack(">I", len(b)) + b


def reply(conn, body):
    conn.sendall(struct.pack(">I", len(body)) + body)


def read_n(conn, n):
    b = b""
    while len(b) < n:
        k = conn.recv(n - len(b))
        if not k:
            return None
        b += k
    return b


srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
srv.bind(path)
srv.listen(4)
with open(ready, "w") as f:
    f.write("ready\n")
other = ed25519.Ed25519PrivateKey.from_private_bytes(b"\x22" * 32)
while True:
    conn, _ = srv.accept()
    head = read_n(conn, 4)
    msg = read_n(conn, struct.unpack(">I", head)[0]) if head else None
    if msg and msg[0] == 11:
        reply(conn, bytes([12]) + struct.pack(">I", 1) + string(blob)
              + string(b"fake"))
    elif msg and msg[0] == 13:
        data = msg[1 + 4 + len(blob) + 4:-4]
        if mode == "refuse":
            reply(conn, bytes([5]))
        elif mode == "wrong":
            sig = string(b"ssh-ed25519") + string(other.sign(data))
            reply(conn, bytes([14]) + string(sig))
        else:
            reply(conn, bytes([99]))
    conn.close()
