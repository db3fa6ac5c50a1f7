"""The `webhook` fixture: a local HTTP server that records what team channels post."""

import json
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest


class _Hook(BaseHTTPRequestHandler):
    received: list = []
    keys: list = []
    status = 200

    def do_POST(self):  # noqa: N802
        body = self.rfile.read(int(self.headers["Content-Length"]))
        _Hook.received.append(json.loads(body))
        _Hook.keys.append(self.headers["Idempotency-Key"])
        self.send_response(_Hook.status)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def webhook():
    server = HTTPServer(("127.0.0.1", 0), _Hook)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    _Hook.received, _Hook.keys, _Hook.status = [], [], 200
    yield f"http://127.0.0.1:{server.server_port}/hook", _Hook
    server.shutdown()
