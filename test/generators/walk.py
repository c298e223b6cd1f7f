"""A Python team's walk through the API with the client openapi-python-client generated from the contract.

Run as `python walk.py <base_url> <api_key>` with the generated package (`board_client`) importable. It
starts a session with an Idempotency-Key, replays it, conflicts with it, long-polls it to `complete`,
pages through the sessions, reads a missing one, and verifies a signed webhook delivery it receives on a
local port. Every answer is parsed to its generated type; any surprise is an AssertionError (exit 1).
"""

import hashlib
import hmac
import http.server
import json
import queue
import sys
import threading
import time

from board_client import AuthenticatedClient
from board_client.api.sessions import get_session, list_sessions, start_session
from board_client.api.webhooks import create_webhook
from board_client.models import (
    CreateWebhookRequest,
    CreateWebhookResponse,
    Problem,
    Session,
    SessionPage,
    StartSessionRequestA,
    StartSessionResponseA2,
)

base_url, api_key = sys.argv[1], sys.argv[2]
client = AuthenticatedClient(base_url=base_url, token=api_key, timeout=90.0)
deliveries: "queue.Queue[tuple[dict[str, str], bytes]]" = queue.Queue()


class Receiver(http.server.BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        deliveries.put(({k.lower(): v for k, v in self.headers.items()}, body))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


receiver = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
threading.Thread(target=receiver.serve_forever, daemon=True).start()

# A subscription to session.complete, delivered to the receiver above.
hook = create_webhook.sync(
    client=client,
    body=CreateWebhookRequest.from_dict(
        {"label": "walk", "url": f"http://127.0.0.1:{receiver.server_port}/hook", "events": ["session.complete"]}
    ),
)
assert isinstance(hook, CreateWebhookResponse), hook


def session_id(answer: object) -> str:
    """The session id, from whichever start answer variant arrived (docs/other-languages.md)."""
    if isinstance(answer, StartSessionResponseA2):
        return answer.id
    return answer.session_id  # A1, or B (whose `task_id` is in additional_properties)


request = StartSessionRequestA.from_dict({"mode": "quick", "title": "Walk", "rounds": 1})
first = start_session.sync_detailed(client=client, body=request, idempotency_key="walk-start-1")
assert first.status_code == 202, first
started = session_id(first.parsed)

replay = start_session.sync_detailed(client=client, body=request, idempotency_key="walk-start-1")
assert replay.status_code == 202 and session_id(replay.parsed) == started, replay

other = StartSessionRequestA.from_dict({"mode": "quick", "title": "Another", "rounds": 1})
conflict = start_session.sync_detailed(client=client, body=other, idempotency_key="walk-start-1")
assert conflict.status_code == 409 and isinstance(conflict.parsed, Problem), conflict
assert conflict.parsed.status == 409, conflict.parsed

# Short waits: each poll answers at a change of progress or when its wait is over, whichever comes first.
reads = 0
while True:
    session = get_session.sync(started, client=client, wait_ms=2000)
    reads += 1
    assert isinstance(session, Session), session
    if session.status == "complete":
        break
    assert session.status in ("created", "running"), session.status
    assert reads < 60, "the session did not complete"

second = start_session.sync_detailed(client=client, body=other, idempotency_key="walk-start-2")
assert second.status_code == 202, second
seen: list[str] = []
cursor = None
while True:
    page = list_sessions.sync(client=client, limit=1, **({"cursor": cursor} if cursor else {}))
    assert isinstance(page, SessionPage), page
    seen.extend(item.id for item in page.items)
    if page.next_cursor is None:
        break
    cursor = page.next_cursor
assert started in seen and session_id(second.parsed) in seen and len(seen) == len(set(seen)), seen

missing = get_session.sync_detailed("ses_0000000000000000", client=client)
assert missing.status_code == 404 and isinstance(missing.parsed, Problem), missing
assert missing.headers["content-type"].startswith("application/problem+json"), missing.headers

headers, raw = deliveries.get(timeout=60)
expected = hmac.new(
    hook.signing_secret.encode(), headers["x-service-timestamp"].encode() + b"." + raw, hashlib.sha256
).hexdigest()
assert hmac.compare_digest(headers["x-service-signature"], f"sha256={expected}"), headers
assert abs(time.time() - int(headers["x-service-timestamp"])) < 300, headers
body = json.loads(raw)
assert body.get("event", body.get("type")) == "session.complete", body

print(json.dumps({"started": started, "reads": reads, "pages": len(seen), "delivery": headers["x-service-delivery-id"]}))
