"""Schemathesis hooks of `boardkit fuzz` (docs/fuzzing.md › Waits, progress and time).

`boardkit fuzz` loads this file into every run (`SCHEMATHESIS_HOOKS`). It sizes the run's waits without
changing what the contract says is valid, and reports progress to the command:

- A long poll holds its request for `wait_ms` (up to 60000, seed "Long-polling"). A generated value above
  `BOARDKIT_FUZZ_MAX_WAIT_MS` is sent as that bound instead: still a valid value (the case stays positive,
  Schemathesis revalidates it), but the run no longer sits idle for a minute per poll. Values the contract
  refuses (above 60000, negative, not a number) are sent as generated, since those are answered at once.
- An event stream read without `finite=true` stays open while its session runs; its read is cut after
  `BOARDKIT_FUZZ_STREAM_SECONDS`, and the checks judge the events read by then (Schemathesis reads an
  endless stream the same way, up to its request timeout).
- After each call one JSON line (phase, operation, status) goes to the file descriptor named by
  `BOARDKIT_FUZZ_PROGRESS_FD`, from which the command prints its progress.
"""

from __future__ import annotations

import json
import os
import threading

import schemathesis

LONG_POLL_MAXIMUM_MS = 60000
# The command sets both (src/fuzz/schemathesis.ts, `waitBounds`); the defaults are the same values.
MAX_WAIT_MS = int(os.environ.get("BOARDKIT_FUZZ_MAX_WAIT_MS", "1000"))
STREAM_SECONDS = float(os.environ.get("BOARDKIT_FUZZ_STREAM_SECONDS", "2"))


def _open_progress():
    """The pipe the command reads progress from; without one (a run outside the command) none is written."""
    fd = os.environ.get("BOARDKIT_FUZZ_PROGRESS_FD")
    if not fd:
        return None
    try:
        return os.fdopen(int(fd), "w", buffering=1, encoding="utf-8")
    except (OSError, ValueError):
        return None


_progress = _open_progress()
_progress_lock = threading.Lock()


def _bounded_wait(value: object) -> object:
    """The value to send for a generated `wait_ms`, in the form it was generated (a number or wire text)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and MAX_WAIT_MS < value <= LONG_POLL_MAXIMUM_MS:
        return MAX_WAIT_MS
    if isinstance(value, str) and value.isascii() and value.isdigit() and MAX_WAIT_MS < int(value) <= LONG_POLL_MAXIMUM_MS:
        return str(MAX_WAIT_MS)
    return value


def _reads_event_stream(case: schemathesis.Case) -> bool:
    responses = case.operation.definition.raw.get("responses", {})
    return any("text/event-stream" in (response.get("content") or {}) for response in responses.values())


@schemathesis.hook
def before_call(context, case, kwargs):
    query = case.query
    if isinstance(query, dict) and "wait_ms" in query:
        bounded = _bounded_wait(query["wait_ms"])
        if bounded is not query["wait_ms"]:
            case.query = {**query, "wait_ms": bounded}
    if _reads_event_stream(case):
        timeout = kwargs.get("timeout")
        kwargs["timeout"] = min(timeout, STREAM_SECONDS) if isinstance(timeout, (int, float)) else STREAM_SECONDS


@schemathesis.hook
def after_call(context, case, response):
    if _progress is None:
        return
    meta = case.meta
    line = json.dumps(
        {
            "phase": meta.phase.name.value if meta is not None else None,
            "operation": case.operation.label,
            "status": response.status_code,
        }
    )
    with _progress_lock:
        _progress.write(line + "\n")
