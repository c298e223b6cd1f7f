"""Stalled event-stream readers: opens COUNT streams that read their response head and then nothing.

Each socket asks for a 4 KiB receive buffer before it connects, so that the kernel holds little of what
the server sends and the server's own buffering shows. Prints "ready" once every head has arrived; on a
line from stdin, reads what each socket holds and prints one JSON line: how many the server closed, how
many are open, and the id of the last event each received.

Usage: stalled_readers.py HOST PORT PATH KEY COUNT
"""
import json
import re
import socket
import sys


def open_stream(host, port, path, key):
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect((host, port))
    request = f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {key}\r\nAccept: text/event-stream\r\n\r\n"
    sock.sendall(request.encode())
    head = b""
    while b"\r\n\r\n" not in head:
        byte = sock.recv(1)
        if not byte:
            raise SystemExit(f"the server closed a stream before its head: {head!r}")
        head += byte
    if not head.startswith(b"HTTP/1.1 200"):
        raise SystemExit(f"a stream was refused: {head!r}")
    return sock


def drain(sock):
    """Everything the socket holds, and whether the server has closed it."""
    sock.settimeout(0.2)
    received = b""
    while True:
        try:
            chunk = sock.recv(65536)
        except socket.timeout:
            return received, False
        except ConnectionResetError:
            return received, True
        if not chunk:
            return received, True
        received += chunk


def main():
    host, port, path, key, count = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], int(sys.argv[5])
    streams = [open_stream(host, port, path, key) for _ in range(count)]
    print("ready", flush=True)
    sys.stdin.readline()
    closed, last_ids = 0, []
    for sock in streams:
        received, was_closed = drain(sock)
        closed += 1 if was_closed else 0
        ids = re.findall(rb"^id: (\d+)$", received, re.MULTILINE)
        last_ids.append(int(ids[-1]) if ids else 0)
        sock.close()
    print(json.dumps({"closed": closed, "open": count - closed, "last_ids": last_ids}), flush=True)


main()
