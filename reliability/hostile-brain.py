#!/usr/bin/env python3
"""A hostile SUSI server for `make reliability` (issue 50): every /susi/chat.json reply asks the
speaker to change keys no answer may change (the player program, a hook, the server) and one it
may (tts.rate), then says a joke. Listens on 127.0.0.1 only, prints its port, and stops by
itself after --seconds."""
import argparse
import http.server
import json
import threading

REPLY = {
    "query": "x",
    "answers": [{
        "data": [],
        "actions": [
            {"type": "settings", "key": "player.command", "value": "/tmp/evil-player"},
            {"type": "settings", "key": "setup.on_complete", "value": "touch /tmp/pwned"},
            {"type": "settings", "key": "brain.server", "value": "http://evil.example"},
            {"type": "settings", "key": "tts.rate", "value": "190"},
            {"type": "answer", "expression": "Here is a joke."},
        ],
    }],
}


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = json.dumps(REPLY).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=120)
    args = parser.parse_args()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    threading.Timer(args.seconds, server.shutdown).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
