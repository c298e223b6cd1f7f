/**
 * A typed client of the Decision-Board API on openapi-fetch: paths, parameters, bodies and responses are
 * checked against the generated contract types at compile time.
 * @module
 */
import createClient, { type Client } from 'openapi-fetch';
import type { BoardClientOptions } from './client/options.js';
import type { paths } from './generated/openapi.js';

export type { BoardClientOptions } from './client/options.js';

export {
  readSessionEvents,
  readSessionSummary,
  StreamRefusedError,
  type SessionEvent,
  type SessionEventData,
  type StreamOptions,
  type StreamTarget,
  type SummaryEvent,
  type SummaryEventData,
  type TypedEvent,
} from './client/streams.js';

/**
 * The paths whose success response is an event stream (`text/event-stream`). openapi-fetch would read
 * them as JSON and throw, so the typed client leaves them out: `readSessionEvents` and
 * `readSessionSummary` read them as typed events.
 */
export type EventStreamPaths = {
  [Path in keyof paths]: paths[Path] extends {
    get: { responses: { 200: { content: { 'text/event-stream': unknown } } } };
  }
    ? Path
    : never;
}[keyof paths];

/** The contract's paths a JSON client can call: all but the event streams. */
export type JsonPaths = Omit<paths, EventStreamPaths>;

export type BoardClient = Client<JsonPaths>;

export function createBoardClient(options: BoardClientOptions): BoardClient {
  const headers: Record<string, string> = { Authorization: `Bearer ${options.apiKey}` };
  if (options.apiVersion !== undefined) {
    headers['X-Service-API-Version'] = options.apiVersion;
  }
  return createClient<JsonPaths>({ baseUrl: options.baseUrl, headers });
}
