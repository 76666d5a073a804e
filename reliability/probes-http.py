#!/usr/bin/env python3
"""Raw-socket probes of the setup server's parsing and limits (issue 50's low items).

Run against `susi setup serve --port 0 --bind 127.0.0.1` on a fresh config (setup mode, so the
setup routes are open; pass the owner token as the second argument when setup has finished).
The event-stream probe needs the live view, which only `susi run` serves: against `susi setup
serve` it prints a skip line. Every probe is bounded by socket timeouts; the script prints one
line per probe and exits 1 on the first failure.

    probes-http.py http://127.0.0.1:PORT [OWNER_TOKEN]
"""
import socket
import sys
import time
import urllib.parse

TIMEOUT = 3


def endpoint(base):
    url = urllib.parse.urlsplit(base)
    if url.scheme != "http" or url.hostname != "127.0.0.1" or not url.port:
        raise SystemExit(f"usage: probes-http.py http://127.0.0.1:PORT [OWNER_TOKEN] (not {base})")
    return url.hostname, url.port


def exchange(address, data):
    """Sends raw bytes, ends the sending side and reads until the server closes."""
    with socket.create_connection(address, timeout=TIMEOUT) as sock:
        sock.sendall(data)
        sock.shutdown(socket.SHUT_WR)
        reply = b""
        try:
            while True:
                chunk = sock.recv(4096)
                if not chunk:
                    break
                reply += chunk
        except (socket.timeout, ConnectionResetError):
            pass
    return reply


def open_stream(address, headers):
    """Asks for /events and returns (status line, socket left open)."""
    sock = socket.create_connection(address, timeout=TIMEOUT)
    sock.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n" + headers + b"\r\n")
    head = b""
    try:
        while b"\r\n\r\n" not in head:
            chunk = sock.recv(1024)
            if not chunk:
                break
            head += chunk
    except socket.timeout:
        pass
    return head.split(b"\r\n", 1)[0].decode("latin-1"), sock


def status_lines(reply):
    return reply.count(b"HTTP/1.1 ")


class Failed(Exception):
    pass


def expect(name, condition, detail):
    if not condition:
        raise Failed(f"{name}: {detail}")
    print(f"ok   {name}")


def get(path, extra=b""):
    return f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n".encode() + extra + b"Connection: close\r\n\r\n"


def probe_nul(address):
    reply = exchange(address, get("/wifi_credentials?wifissid=rawnul\0tail&wifipassd=secret123"))
    expect("raw NUL in the request line: 400", reply.startswith(b"HTTP/1.1 400"), reply[:200])
    reply = exchange(address, get("/status", b"X-Note: before\0after\r\n"))
    expect("raw NUL in a header: 400", reply.startswith(b"HTTP/1.1 400"), reply[:200])
    reply = exchange(address, get("/wifi_credentials?wifissid=a%01b&wifipassd=secret123"))
    expect("a control character in a decoded SSID: 400", reply.startswith(b"HTTP/1.1 400"), reply[:200])


def probe_framing(address):
    reply = exchange(address, b"GET /status HTTP/1.1\nHost: 127.0.0.1\nConnection: close\n\n")
    expect("bare LF line ends: one 400", reply.startswith(b"HTTP/1.1 400") and status_lines(reply) == 1, reply[:300])
    reply = exchange(
        address,
        b"POST /status HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding : chunked\r\nConnection: close\r\n\r\n"
        b"0\r\n\r\n",
    )
    expect("'Transfer-Encoding :' (space before the colon): one 400",
           reply.startswith(b"HTTP/1.1 400") and status_lines(reply) == 1, reply[:300])
    reply = exchange(address, b"POST /status HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: abc\r\n\r\n")
    expect("a bad Content-Length: exactly one 400 status line",
           reply.startswith(b"HTTP/1.1 400") and status_lines(reply) == 1, reply[:400])


def probe_streams(address, token):
    headers = f"Authorization: Bearer {token}\r\n".encode() if token else b""
    held = []
    try:
        status = ""
        for _ in range(16):
            status, sock = open_stream(address, headers)
            if " 200 " not in status:
                sock.close()
                break
            held.append(sock)
        if not held:
            reply = exchange(address, get("/events", headers))
            if b"pipeline is not running" in reply:
                # `susi setup serve` has no live view; HardeningLowItemsTests covers the slot.
                print("skip a closed stream's slot is free again (no live view without the voice pipeline)")
                return
        expect("event streams are capped (503 once full)", held and " 503 " in status, f"{len(held)} open, then {status!r}")
        held.pop().close()
        left = time.monotonic()
        admitted = None
        while admitted is None and time.monotonic() - left < 3:
            status, sock = open_stream(address, headers)
            if " 200 " in status:
                admitted = sock
            else:
                sock.close()
                time.sleep(0.1)
        waited = time.monotonic() - left
        expect(f"a closed stream's slot is free again ({waited:.2f} s)", admitted is not None and waited < 2,
               f"still {status!r} after {waited:.2f} s")
        held.append(admitted)
    finally:
        for sock in held:
            sock.close()


def probe_raw_key(address):
    key = "0123456789abcdef" * 4
    reply = exchange(address, get(f"/wifi_credentials?wifissid=ProbeNet&wifipassd={key}"))
    expect("a 64-hex-digit WPA key is accepted", reply.startswith(b"HTTP/1.1 200"), reply[:300])


def main():
    if len(sys.argv) not in (2, 3):
        raise SystemExit(__doc__)
    address = endpoint(sys.argv[1])
    token = sys.argv[2] if len(sys.argv) == 3 else ""
    try:
        probe_nul(address)
        probe_framing(address)
        probe_streams(address, token)
        probe_raw_key(address)
    except (Failed, OSError) as error:
        print(f"FAIL {error}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
