#!/usr/bin/env python3
"""Peak resident memory of `simdex serve` held by clients that do not finish.

N connections each declare a 65,536-byte body and send 60,000 bytes of it;
S clients post a 1 MiB batch of bad lines (whose answers are ~85 MB) and never
read. Prints the server's resident memory at rest and at the peak, and what
GET /healthz answered along the way (docs/reliability.md, "Figures").

  bench/service/held_connections.py build/bin/simdex 9000 30 --content-method simhash
"""
import os
import socket
import subprocess
import sys
import tempfile
import time


def main():
    binary, n, stalled = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    extra = sys.argv[4:]
    state = tempfile.mkdtemp(prefix="simdex-held-")
    port_file = os.path.join(state, "port")
    server = subprocess.Popen([binary, "serve", "--data", os.path.join(state, "state"), "--port", "0",
                               "--port-file", port_file, "-q"] + extra, stderr=subprocess.DEVNULL)
    while not os.path.exists(port_file):
        time.sleep(0.05)
    port = int(open(port_file).read())

    def rss_mib():
        for line in open(f"/proc/{server.pid}/status"):
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0

    def healthz():
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            return s.recv(100).split(b"\r\n")[0].decode()
        except OSError as e:
            return str(e)

    time.sleep(0.3)
    base = peak = rss_mib()
    answers = set()
    held = []
    batch = b"x\n" * ((1 << 20) // 2 - 1)
    batch_request = (b"POST /v1/docid:batch HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-ndjson\r\n"
                     b"Content-Length: %d\r\n\r\n" % len(batch)) + batch
    partial = (b"POST /v1/docid HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
               b"Content-Length: 65536\r\n\r\n{\"url\":\"" + b"a" * 60000)
    for i in range(stalled + n):
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=2)
        except OSError:
            continue
        s.setblocking(False)
        request = batch_request if i < stalled else partial
        try:
            s.send(request)
        except OSError:
            pass
        held.append((s, request))
        if i % 500 == 0:
            peak = max(peak, rss_mib())
            answers.add(healthz())
    # Push the rest of the batches while their answers pile up unread.
    end = time.time() + 5
    while time.time() < end:
        for s, request in held[:stalled]:
            try:
                s.send(request[-65536:])
            except OSError:
                pass
        peak = max(peak, rss_mib())
        time.sleep(0.2)
    answers.add(healthz())
    peak = max(peak, rss_mib())
    print(f"N={n} stalled={stalled} {' '.join(extra)}: at rest {base:.0f} MiB, peak {peak:.0f} MiB, "
          f"/healthz {sorted(answers)}")
    for s, _ in held:
        s.close()
    server.terminate()
    server.wait()


if __name__ == "__main__":
    main()
