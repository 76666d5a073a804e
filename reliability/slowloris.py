#!/usr/bin/env python3
"""Slowloris against the setup server on loopback, with a normal client asking at the same time.

Opens CLIENTS connections from ADDRESSES loopback source addresses (127.0.0.2, 127.0.0.3, ...),
sends half a request on each and then one byte every DRIP seconds, so no connection is ever
idle. Meanwhile a normal client on 127.0.0.1 asks GET /status every half second. Prints one
line of figures and exits non-zero when the normal client was not served or a slow connection
outlived the deadline by more than two seconds.

    slowloris.py HOST PORT [--clients 96] [--addresses 2] [--drip 1] [--seconds 14] [--deadline 10]
"""
import argparse
import socket
import statistics
import sys
import time


def connect(host, port, source):
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind((source, 0))
    sock.settimeout(2)
    try:
        sock.connect((host, port))
    except OSError:
        sock.close()
        return None
    sock.setblocking(False)
    return sock


def closed_by_server(sock):
    try:
        return sock.recv(1, socket.MSG_PEEK) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


def ask(host, port):
    """Seconds until a complete 200 reply to GET /status, or None."""
    start = time.monotonic()
    try:
        with socket.create_connection((host, port), timeout=3) as sock:
            sock.sendall(f"GET /status HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n".encode())
            reply = b""
            while True:
                chunk = sock.recv(4096)
                if not chunk:
                    break
                reply += chunk
    except OSError:
        return None
    return time.monotonic() - start if reply.startswith(b"HTTP/1.1 200") else None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("host")
    parser.add_argument("port", type=int)
    parser.add_argument("--clients", type=int, default=96)
    parser.add_argument("--addresses", type=int, default=2)
    parser.add_argument("--drip", type=float, default=1.0)
    parser.add_argument("--seconds", type=float, default=14.0)
    parser.add_argument("--deadline", type=float, default=10.0)
    options = parser.parse_args()

    start = time.monotonic()
    slow = []
    for index in range(options.clients):
        source = f"127.0.0.{2 + index % options.addresses}"
        sock = connect(options.host, options.port, source)
        if sock is None:
            continue
        try:
            sock.send(f"POST /settings HTTP/1.1\r\nHost: {options.host}\r\nContent-Length: 100000\r\n".encode())
        except OSError:
            sock.close()
            continue
        slow.append(sock)
    time.sleep(0.3)
    refused = [sock for sock in slow if closed_by_server(sock)]
    held = [sock for sock in slow if sock not in refused]
    closed_at = {}
    latencies, failures = [], 0
    next_ask = time.monotonic()
    while time.monotonic() - start < options.seconds:
        for sock in held:
            if sock in closed_at:
                continue
            try:
                sock.send(b"x")
            except OSError:
                closed_at[sock] = time.monotonic() - start
                continue
            if closed_by_server(sock):
                closed_at[sock] = time.monotonic() - start
        if time.monotonic() >= next_ask:
            latency = ask(options.host, options.port)
            if latency is None:
                failures += 1
            else:
                latencies.append(latency)
            next_ask = time.monotonic() + 0.5
        time.sleep(min(options.drip, 0.25))
    still_open = len(held) - len(closed_at)
    for sock in slow:
        sock.close()

    times = sorted(closed_at.values())
    print(
        f"slowloris: {options.clients} slow clients from {options.addresses} addresses dripping a byte every "
        f"{options.drip:g} s: {len(held)} held a slot, {len(refused) + options.clients - len(slow)} turned away or shed at once; "
        f"normal client served {len(latencies)}/{len(latencies) + failures}, latency median "
        f"{statistics.median(latencies) * 1000 if latencies else float('nan'):.0f} ms, max "
        f"{max(latencies) * 1000 if latencies else float('nan'):.0f} ms; slow clients closed by the server after "
        f"{times[0] if times else float('nan'):.1f}-{times[-1] if times else float('nan'):.1f} s, "
        f"{still_open} still open after {options.seconds:g} s"
    )
    if failures or not latencies:
        print("FAIL: the normal client was not always served", file=sys.stderr)
        return 1
    if still_open or (times and times[-1] > options.deadline + 2):
        print("FAIL: slow clients outlived the request deadline", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
