#!/usr/bin/python3
"""A test web server for pc-crawl (standard library only).

Serves a folder on 127.0.0.1 (never any other address) on a free port, writes
the port to --port-file once it listens, and logs every request as
"UNIX_TIME<TAB>METHOD<TAB>PATH<TAB>USER_AGENT" to --log (flushed per line).
Faults can be injected for given paths:

  --status PATH=CODE        answer CODE (e.g. 500) with a short HTML body
  --slow PATH=SECONDS       wait before answering (a client timeout test)
  --redirect PATH=TARGET    302 to TARGET (absolute, or root-relative; "{port}" in
                            TARGET becomes the port the server listens on)
  --truncate PATH           promise more bytes (Content-Length) than sent, then close
  --slow-all SECONDS        wait before answering every request
  --spans FILE              when each request ends, log "START<TAB>END<TAB>HOST<TAB>PATH"
                            (UNIX times; HOST is the Host header), to count
                            concurrent requests per host

Stop it with SIGTERM or SIGINT; the test that starts it always stops it.
"""
import argparse
import functools
import http.server
import os
import signal
import sys
import threading
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True)
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--log", required=True)
    ap.add_argument("--status", action="append", default=[])
    ap.add_argument("--slow", action="append", default=[])
    ap.add_argument("--redirect", action="append", default=[])
    ap.add_argument("--truncate", action="append", default=[])
    ap.add_argument("--slow-all", type=float, default=0)
    ap.add_argument("--spans")
    a = ap.parse_args()
    status = dict(s.split("=", 1) for s in a.status)
    slow = {k: float(v) for k, v in (s.split("=", 1) for s in a.slow)}
    redirect = dict(s.split("=", 1) for s in a.redirect)
    truncate = set(a.truncate)
    log = open(a.log, "a", buffering=1, encoding="utf-8")
    spans = open(a.spans, "a", buffering=1, encoding="utf-8") if a.spans else None
    lock = threading.Lock()

    class Handler(http.server.SimpleHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        # The headers and the body go out in two writes: with Nagle's
        # algorithm the body waits for the client's delayed ACK of the
        # headers, 40 ms a response on a kept-alive connection.
        disable_nagle_algorithm = True

        def log_message(self, *args):
            pass  # the request log below replaces the default stderr log

        def do_GET(self):
            start = time.time()
            try:
                self.answer()
            finally:
                if spans:
                    with lock:
                        spans.write(f"{start:.6f}\t{time.time():.6f}\t{self.headers.get('Host', '')}\t{self.path}\n")

        def answer(self):
            with lock:
                log.write(f"{time.time():.6f}\tGET\t{self.path}\t{self.headers.get('User-Agent', '')}\n")
            path = self.path
            if a.slow_all:
                time.sleep(a.slow_all)
            if path in slow:
                time.sleep(slow[path])
            if path in status:
                body = f"<html><body><p>injected status {status[path]}</p></body></html>".encode()
                self.send_response(int(status[path]))
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                return
            if path in redirect:
                self.send_response(302)
                self.send_header("Location", redirect[path].replace("{port}", str(self.server.server_address[1])))
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            if path in truncate:
                body = b"<html><body><p>this body is cut short"
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(body) + 1000))
                self.end_headers()
                self.wfile.write(body)
                self.wfile.flush()
                self.close_connection = True
                return
            super().do_GET()

        def guess_type(self, path):
            if path.endswith(".html"):
                return "text/html; charset=utf-8"
            return super().guess_type(path)

    handler = functools.partial(Handler, directory=a.root)
    class Server(http.server.ThreadingHTTPServer):
        def handle_error(self, request, client_address):
            pass  # clients that time out or hang up are part of the tests

    server = Server(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    signal.signal(signal.SIGTERM, lambda *_: (server.server_close(), sys.exit(0)))
    tmp = a.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write(f"{server.server_address[1]}\n")
    os.replace(tmp, a.port_file)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


main()
