/**
 * The records the server keeps and passes between its layers: workspaces and keys, sessions as the
 * contract shapes them, the credit ledger, idempotency records, stream events and the other tables'
 * contract-shaped JSON. Types only, importing nothing of the server (docs/architecture.md), so that every
 * layer can name them and the store implements them.
 * @module
 */
import type { components } from '../../generated/openapi.js';
import type { EnvelopeForm } from '../../webhooks/events.js';

type Schemas = components['schemas'];

export type Tier = 'free' | 'pro' | 'max' | 'ultra' | 'enterprise';

export interface Workspace {
  id: string;
  /** The user the webhook envelope names (`user_id`). */
  userId: string;
  tier: Tier;
  /** The date version requests are processed as when they do not pin one. */
  apiVersion: string;
  createdAt: number;
}

export type Environment = 'live' | 'test';

export interface ApiKey {
  id: string;
  workspaceId: string;
  environment: Environment;
  /** The redacted form a session records (`sk_test_...AbCd`). */
  hint: string;
  expiresAt: number | null;
}

export type Session = Schemas['Session'];
export type Plan = Schemas['Plan'];

/** The members of `Session` the server always writes, though the schema leaves them optional. */
type AlwaysWritten =
  | 'context'
  | 'question'
  | 'synth_id'
  | 'model_class'
  | 'decision_brief'
  | 'estimated_cost_credits'
  | 'credits_charged'
  | 'credits_refunded'
  | 'error'
  | 'cancellation_reason'
  | 'metadata'
  | 'key_hint'
  | 'forked_from'
  | 'source_session_id'
  | 'reconvened_into'
  | 'completed_at'
  | 'archived_at';

/** A session as stored: the contract's shape less the two URLs, which depend on where the server is reached. */
export type StoredSession = Omit<Session, 'events_url' | 'outcomes_url' | AlwaysWritten> &
  Required<Pick<Session, AlwaysWritten>>;

export interface SessionRow {
  id: string;
  workspaceId: string;
  session: StoredSession;
  /** The pre-flight plan recorded at the start (`GET /v1/sessions/{id}/plan`). */
  plan: Plan;
  /** The final synthesis of the last completed run, `null` before one. */
  synthesis: string | null;
  /** The run driver's state (JSON), while a run is in progress. */
  run: unknown;
  nextStepAt: number | null;
  createdAt: number;
  /** The API key the session was started with (its legacy webhook URL hears of the end); `null` if unknown. */
  apiKeyId: string | null;
}

export interface SessionAnswer {
  id: string;
  workspaceId: string;
  createdAt: number;
  /**
   * A comma, then the session as `GET /v1/sessions/{id}` sends it, in UTF-8: a list page is these bytes
   * copied one after the other, never encoded again (`answer` sends them without the comma).
   */
  listed: Buffer;
  /** The cursor to the page after this session, once a list has written it: its list and position never change. */
  cursorAfter?: string;
}

/** A page of the sessions list: its sessions as answers send them, and whether another page follows. */
export interface ListedPage {
  items: SessionAnswer[];
  more: boolean;
}

/** A position in a list ordered by creation time, then id. */
export interface Keyset {
  createdAt: number;
  id: string;
}

/** A resource kept as its contract-shaped JSON `record`, owned by a parent (a workspace or a session). */
export interface StoredRecord<T> {
  id: string;
  parentId: string;
  record: T;
  createdAt: number;
}

export type CreditUsage = Schemas['CreditUsage'];
export type CreditKind = CreditUsage['kind'];

export interface LedgerEntry {
  workspaceId: string;
  kind: CreditKind;
  /** Signed: negative for use, positive for refunds and top-ups. */
  credits: number;
  sessionId: string | null;
  description: string;
  at: number;
  /** The channel the use came from (`api` unless said otherwise; consult turns come over `mcp`). */
  source?: CreditUsage['source'];
}

/** The response an idempotency record replays (seed "Limits"). */
export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

export type Claim =
  | { outcome: 'claimed' }
  | { outcome: 'replay'; response: StoredResponse }
  | { outcome: 'mismatch' }
  | { outcome: 'in_flight' };

export interface WindowCount {
  /** Requests counted in the current window, this one included. */
  count: number;
  /** When the current window began. */
  windowStart: number;
}

export type StreamName = 'events' | 'summary';

export interface RecordedEvent {
  seq: number;
  event: string;
  /** The event's `data` line: one line of JSON. */
  data: string;
  at: number;
}

export type Outcome = Schemas['Outcome'];
export type Share = Schemas['Share'];

export interface SubscriptionRecord {
  label: string;
  /** The envelope the subscription chose; the server's default when absent. */
  envelope?: EnvelopeForm;
  created_at: string;
  updated_at: string;
}

export interface ConversationRecord {
  synth: string;
  session_id: string | null;
  turns: Array<{ role: 'user' | 'synth'; content: string; at: string }>;
}
