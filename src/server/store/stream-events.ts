/**
 * The recorded events of each session's two streams (`events` and `summary`), numbered from 1 per
 * session and stream. Streams replay from here, so a client that reconnects with `Last-Event-ID` gets
 * every later event exactly once, across restarts too.
 * @module
 */
import type { RecordedEvent, StreamName } from '../ports/records.js';
import type { SqliteDatabase, StreamEventStore } from '../ports/store.js';

export function streamEventStore(db: SqliteDatabase): StreamEventStore {
  const last = db.prepare<[string, string], { seq: number | null }>(
    'SELECT MAX(seq) AS seq FROM stream_events WHERE session_id = ? AND stream = ?',
  );
  const insert = db.prepare(
    'INSERT INTO stream_events (session_id, stream, seq, event, data, at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const after = db.prepare<[string, string, number], RecordedEvent>(
    'SELECT seq, event, data, at FROM stream_events WHERE session_id = ? AND stream = ? AND seq > ? ORDER BY seq',
  );
  return {
    /** Appends an event and returns its number. */
    append(sessionId: string, stream: StreamName, event: string, data: unknown, at: number): number {
      const seq = (last.get(sessionId, stream)?.seq ?? 0) + 1;
      insert.run(sessionId, stream, seq, event, JSON.stringify(data), at);
      return seq;
    },
    after: (sessionId: string, stream: StreamName, seq: number): RecordedEvent[] => after.all(sessionId, stream, seq),
    lastSeq: (sessionId: string, stream: StreamName): number => last.get(sessionId, stream)?.seq ?? 0,
  };
}
