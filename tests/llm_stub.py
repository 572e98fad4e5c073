"""A stand-in for an OpenAI-compatible chat endpoint, for the tests of the optional LLM step:
`python tests/llm_stub.py PORT REPLY_FILE LOG_FILE [STATUS]` serves POST
/v1/chat/completions on 127.0.0.1:PORT, appends each request's JSON body to LOG_FILE (one
line each) and answers with REPLY_FILE's text as the message content, or with STATUS alone
when it is given and not 200."""

from __future__ import annotations

import json
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path


def main() -> None:
    port, reply, log = int(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
    status = int(sys.argv[4]) if len(sys.argv) > 4 else 200

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - the http.server name
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            with log.open("a", encoding="utf-8") as out:
                out.write(json.dumps({"path": self.path, "body": json.loads(body)}) + "\n")
            if self.path != "/v1/chat/completions" or status != 200:
                self.send_response(404 if status == 200 else status)
                self.end_headers()
                return
            answer = {"choices": [{"message": {"content": reply.read_text(encoding="utf-8")}}]}
            data = json.dumps(answer, ensure_ascii=False).encode("utf-8")
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            pass

    HTTPServer(("127.0.0.1", port), Handler).serve_forever()


if __name__ == "__main__":
    main()
