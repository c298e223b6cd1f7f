/**
 * The store as the other layers use it: one interface per table or concern, implemented by the SQLite
 * modules of `src/server/store/`. Types only, importing nothing of the server (docs/architecture.md).
 * @module
 */
import type Database from 'better-sqlite3';
import type { components } from '../../generated/openapi.js';
import type {
  ApiKey,
  Claim,
  ConversationRecord,
  CreditUsage,
  Keyset,
  LedgerEntry,
  ListedPage,
  Outcome,
  Plan,
  RecordedEvent,
  SessionRow,
  Share,
  StoredRecord,
  StoredResponse,
  StoredSession,
  StreamName,
  SubscriptionRecord,
  Tier,
  WindowCount,
  Workspace,
} from './records.js';

type Schemas = components['schemas'];

/**
 * better-sqlite3's database under a name of this module: the declarations emitted for the store refer to
 * it, and @types/better-sqlite3 keeps its own names in a namespace they cannot reach.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- a name, not a new shape (see above)
export interface SqliteDatabase extends Database.Database {}

/** A table of contract-shaped records, listed newest first (or oldest first) by `(created_at, id)` keyset. */
export interface RecordTable<T> {
  insert(id: string, parentId: string, record: T, createdAt: number): void;
  get(id: string): StoredRecord<T> | undefined;
  update(id: string, record: T): void;
  /** Up to `limit` records of a parent after the keyset position (`newest` first by default). */
  list(parentId: string, after: Keyset | undefined, limit: number, order?: 'newest' | 'oldest'): Array<StoredRecord<T>>;
  all(parentId: string): Array<StoredRecord<T>>;
  deleteByParent(parentId: string): void;
  remove(id: string): void;
}

/** Store-wide settings that must survive a restart. */
export interface MetaStore {
  /** The value of `key`, created with `initial()` the first time it is asked for. */
  getOrCreate(key: string, initial: () => string): string;
  /** The simulated time a restart must not start before; 0 when none was saved. */
  clockFloor(): number;
  saveClockFloor(epochMs: number): void;
  /** The key that signs pagination cursors. */
  cursorSecret(): Buffer;
}

export interface WorkspaceStore {
  create(tier: Tier, apiVersion: string, now: number): Workspace;
  get(id: string): Workspace | undefined;
  setTier(id: string, tier: Tier): void;
  isEmpty(): boolean;
}

export interface ApiKeyStore {
  add(workspaceId: string, secret: string, now: number): ApiKey;
  /** The key a secret names, whether or not it is still valid. */
  lookup(secret: string): ApiKey | undefined;
  /** The key a bearer secret authenticates at `now`: known, and not past the end of its rotation grace. */
  authenticate(secret: string, now: number): ApiKey | undefined;
  /** Whether the key with this id is still valid at `now` (an open stream asks before each write). */
  isCurrent(id: string, now: number): boolean;
  /** Ends a key at `now` (a key already past its grace keeps its earlier end); `false` if none changed. */
  revoke(id: string, now: number): boolean;
  /** Issues a new key in the same workspace and environment; the old one stays valid for 24 hours. */
  rotate(secret: string, now: number): { secret: string; key: ApiKey; oldKeyExpiresAt: number };
}

export interface IdempotencyStore {
  /** Claims the key for a request, or says why not (a replay, another body, one in flight). */
  claim(workspaceId: string, key: string, requestHash: string, now: number): Claim;
  complete(workspaceId: string, key: string, response: StoredResponse): void;
  /** Drops a claim whose request failed in a way worth retrying (a server fault). */
  release(workspaceId: string, key: string): void;
  purgeExpired(now: number): number;
}

export interface RateLimitStore {
  /** What `subject` has counted in `bucket` within the window starting at `windowStart`, counting nothing. */
  count(subject: string, bucket: string, windowStart: number): number;
  /** Counts one request of `subject` in `bucket` within the window starting at `windowStart`. */
  hit(subject: string, bucket: string, windowStart: number): WindowCount;
}

export interface CreditStore {
  balance(workspaceId: string): number;
  record(entry: LedgerEntry): void;
  /**
   * Records a use of `amount` credits if the balance covers it, in one transaction, and returns the
   * balance it was checked against; `covered: false` records nothing.
   */
  spend(entry: Omit<LedgerEntry, 'credits'> & { amount: number }): { covered: boolean; balance: number };
  recent(workspaceId: string, limit: number): CreditUsage[];
  /** Credits used (net of refunds) between two instants. */
  usedBetween(workspaceId: string, start: number, end: number): number;
}

export interface SessionStore {
  insert(workspaceId: string, session: StoredSession, plan: Plan, createdAt: number, apiKeyId: string | null): void;
  setSynthesis(id: string, synthesis: string): void;
  /** The session if it exists in this workspace; another workspace's session is as missing as none. */
  get(workspaceId: string, id: string): SessionRow | undefined;
  /** `get`'s session as `GET /v1/sessions/{id}` sends it (UTF-8), from its stored JSON text, never parsed. */
  answer(workspaceId: string, id: string, sessionsUrl: string): Buffer | undefined;
  getAny(id: string): SessionRow | undefined;
  update(session: StoredSession): void;
  /** Records the run driver's state; a run (not `null`) comes with the due time of its next step. */
  setRun(id: string, run: unknown, nextStepAt: number | null): void;
  /** The page of at most `limit` sessions after `after` (from the newest when `undefined`). */
  listPage(workspaceId: string, after: Keyset | undefined, limit: number, sessionsUrl: string): ListedPage;
  /** Sessions whose run is in progress, for the driver to resume after a restart. */
  withRuns(): SessionRow[];
  /** Deletes a session with its messages, outcomes, decisions, share links and streams. */
  remove(id: string): void;
}

export interface StreamEventStore {
  /** Appends an event and returns its number. */
  append(sessionId: string, stream: StreamName, event: string, data: unknown, at: number): number;
  after(sessionId: string, stream: StreamName, seq: number): RecordedEvent[];
  lastSeq(sessionId: string, stream: StreamName): number;
}

export interface OutcomeStore extends RecordTable<Outcome> {
  createPending(outcome: Outcome, createdAt: number, readyDueAt: number): void;
  markReady(outcome: Outcome): void;
  /** Outcomes still being generated, with when each is due. */
  pending(): Array<{ id: string; readyDueAt: number }>;
}

export interface ShareStore extends RecordTable<Share> {
  create(share: Share, createdAt: number, password: string | undefined): void;
  passwordHashOf(id: string): string | null;
  /** The share link whose `url` is exactly `url`. */
  getByUrl(url: string): StoredRecord<Share> | undefined;
  /** Counts one view at `viewedAt` (ISO 8601) in place, so that concurrent views are all counted. */
  countView(id: string, viewedAt: string): Share | undefined;
}

/** The store: one SQLite database, one part per table or concern. */
export interface Store {
  db: SqliteDatabase;
  meta: MetaStore;
  workspaces: WorkspaceStore;
  apiKeys: ApiKeyStore;
  idempotency: IdempotencyStore;
  rateLimits: RateLimitStore;
  credits: CreditStore;
  sessions: SessionStore;
  streamEvents: StreamEventStore;
  messages: RecordTable<Schemas['SessionMessage']>;
  outcomes: OutcomeStore;
  decisions: RecordTable<Schemas['Decision']>;
  shares: ShareStore;
  integrations: RecordTable<Schemas['Integration']>;
  actions: RecordTable<Schemas['ActionExecution']>;
  conversations: RecordTable<ConversationRecord>;
  webhookSubscriptions: RecordTable<SubscriptionRecord>;
  /** Runs `work` in one transaction (nested calls become savepoints). */
  transaction<T>(work: () => T): T;
  close(): void;
}
