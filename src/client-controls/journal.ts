/**
 * The request journal of the client-team controls: what the server received, newest last, bounded so a
 * long test run holds no more than the last entries. Entries are read filtered by operation and time.
 * @module
 */

/** One request as the server answered it. */
export interface JournalEntry {
  /** The server's id of the request. */
  request_id: string;
  method: string;
  /** The path without its query. */
  path: string;
  /** The contract's operation, or `null` for a path the contract does not have. */
  operation_id: string | null;
  /** The status sent; `0` for a connection dropped by a fault. */
  status: number;
  /** When it arrived, on the server clock (ISO 8601). */
  time: string;
  /** Real milliseconds from arrival to the answer. */
  duration_ms: number;
  /** The queued fault that answered it, if one did. */
  fault: string | null;
}

export interface JournalFilter {
  operation?: string;
  /** Only entries at or after this instant (epoch milliseconds). */
  since?: number;
}

export interface Journal {
  record(entry: JournalEntry): void;
  list(filter?: JournalFilter): JournalEntry[];
  /** Empties the journal; returns how many entries it held. */
  clear(): number;
}

export const journalCapacity = 1_000;

export function requestJournal(capacity = journalCapacity): Journal {
  const entries: JournalEntry[] = [];
  return {
    record(entry) {
      entries.push(entry);
      if (entries.length > capacity) {
        entries.splice(0, entries.length - capacity);
      }
    },
    list(filter = {}) {
      return entries.filter(
        (entry) =>
          (filter.operation === undefined || entry.operation_id === filter.operation) &&
          (filter.since === undefined || Date.parse(entry.time) >= filter.since),
      );
    },
    clear() {
      return entries.splice(0).length;
    },
  };
}
