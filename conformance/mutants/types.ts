/**
 * The shapes a fault of the mutant proxy works on.
 * @module
 */
import type { AdjustableClock } from './adjustable-clock.js';

export interface ProxiedRequest {
  method: string;
  url: URL;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: Buffer;
}

export interface BufferedResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
}

export interface RelayEntry {
  /** The receiver's URL the subscription named. */
  target: string;
  secret: string | undefined;
  /** Per delivery id, what the relay remembers (first headers, attempts). */
  seen: Map<string, { headers: Record<string, string>; attempts: number }>;
}

export interface RelayedDelivery {
  headers: Record<string, string>;
  body: Buffer;
  /** Pass it on to the receiver. */
  forward: boolean;
  /** Answer the server with this status instead of the receiver's. */
  answerServer: number | undefined;
  /** Further deliveries to send the receiver. */
  extra: RelayedDelivery[];
}

export interface ProxyState {
  keys: { a: string; b: string };
  clock: AdjustableClock;
  /** Free memory for faults that remember across requests. */
  memory: Map<string, unknown>;
  relays: Map<string, RelayEntry>;
  /** The proxy's own origin. */
  origin: string;
}

export interface Fault {
  name: string;
  /** The requirements the fault breaks: the suite must fail each of them. */
  breaks: readonly string[];
  /** Changes the request, or answers it without the server. */
  request?(request: ProxiedRequest, state: ProxyState): BufferedResponse | undefined | Promise<BufferedResponse | undefined>;
  /** Changes a buffered response (for a stream: only its status and headers). */
  response?(request: ProxiedRequest, response: BufferedResponse, state: ProxyState): void;
  /** Changes one event block of a stream (`id:…\nevent:…\ndata:…\n\n`); `''` drops it. */
  event?(request: ProxiedRequest, block: string, index: number, state: ProxyState): string | undefined;
  /** Changes a webhook delivery on its way to the receiver. */
  delivery?(delivery: RelayedDelivery, relay: RelayEntry, state: ProxyState): void;
}
