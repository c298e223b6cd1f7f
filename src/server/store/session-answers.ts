/**
 * Each session's JSON as an answer sends it (the stored record with its two URLs), kept in the process
 * until the session is written. A list page is then the index's fifty positions and fifty kept strings
 * joined: reading fifty records from SQLite and splicing them for every page was most of a list's cost
 * (docs/benchmarks.md). The session store forgets a session on each of its own writes of it, and a commit
 * by another process forgets them all (src/server/store/data-version.ts: seen by every request that starts
 * a millisecond after it). Finished sessions, most of a list, are never written again, so a busy
 * workspace's list stays kept but for its running sessions.
 * @module
 */
import type { SessionAnswer } from '../ports/records.js';
import type { SqliteDatabase } from '../ports/store.js';
import { dataVersion } from './data-version.js';

/** At most this many sessions are kept (about 15 MB); past it the keeping starts afresh. */
export const defaultKeptSessions = 10_000;

export function sessionAnswers(db: SqliteDatabase, capacity = defaultKeptSessions) {
  const version = dataVersion(db);
  let seenVersion = version();
  const kept = new Map<string, SessionAnswer>();
  // The sessions collection's URL the kept answers were written with: where the server is reached.
  let keptFor = '';

  return {
    /** Starts a read: forgets everything if another connection has committed, or the URL has changed. */
    read(sessionsUrl: string): void {
      const current = version();
      if (current !== seenVersion || sessionsUrl !== keptFor) {
        seenVersion = current;
        keptFor = sessionsUrl;
        kept.clear();
      }
    },
    get: (id: string): SessionAnswer | undefined => kept.get(id),
    keep(answer: SessionAnswer): void {
      // A row read inside a transaction may be rolled back with it.
      if (db.inTransaction || capacity === 0) {
        return;
      }
      // Started afresh rather than forgetting the first kept one by one: a Map skips its deleted entries
      // from the front until it is rehashed, so forgetting the first cost microseconds per answer.
      if (kept.size >= capacity) {
        kept.clear();
      }
      kept.set(answer.id, answer);
    },
    forget(id: string): void {
      kept.delete(id);
    },
  };
}

/**
 * The answer for a stored record: the two URLs go in before the closing brace, where `JSON.stringify`
 * puts the last members of `{ ...record, ...sessionUrls }` (src/server/domain/sessions/resource.ts), so the text
 * is the same. `sessionsUrl` is JSON text already (`{base_url}/v1/sessions/`, escaped, unquoted).
 */
export function sessionAnswer(
  id: string,
  workspaceId: string,
  createdAt: number,
  recordJson: string,
  sessionsUrl: string,
): SessionAnswer {
  const url = `${sessionsUrl}${id}`;
  const urls = `,"events_url":"${url}/events","outcomes_url":"${url}/outcomes"}`;
  // Written into one buffer piece by piece, the URLs over the record's closing brace: the record as SQLite
  // hands it over is one flat string that Node measures and encodes fast, a spliced copy is not.
  const recordBytes = Buffer.byteLength(recordJson);
  const listed = Buffer.allocUnsafe(recordBytes + Buffer.byteLength(urls));
  listed.write(',', 0);
  listed.write(recordJson, 1);
  listed.write(urls, recordBytes);
  return { id, workspaceId, createdAt, listed };
}
