/**
 * The shapes a fault works on. Each fault is a small named object listing the requirements it breaks and
 * changing one behaviour at one of the server's seams: a request before routing, or before its handler,
 * a response as it would leave, one block of an event stream, or a webhook delivery on its way to the
 * receiver.
 * @module
 */
import type { Clock, Services } from '../../server/ports/services.js';
import type { ProblemError } from '../../server/core/problems.js';
import type { Route } from '../../server/http/routes.js';

/** A request as the faults see it; changing it changes what the server routes and handles. */
export interface FaultRequest {
  method: string;
  /** Path and query; the origin is a placeholder. */
  url: URL;
  /** The raw request's headers (lower-case names). */
  headers: Record<string, string | undefined>;
  /** The raw body, known just before the handler (`answer`); empty before that, and for none. */
  body: Buffer;
  /** The operation the method and path name; `undefined` for an unknown one. */
  route: Route | undefined;
}

/** A response as the faults see it, with its serialised body (`''` for none or a stream). */
export interface FaultResponse {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  text: string;
}

/** What a request fault may answer instead of the server: a problem of the catalogue, or any response. */
export type FaultAnswer = ProblemError | FaultResponse;

/** One attempt of a webhook delivery, as it is about to be sent. */
export interface FaultDelivery {
  /** Lower-case names. */
  headers: Record<string, string>;
  body: string;
  /** Send it to the receiver. */
  forward: boolean;
  /** Check the URL against the guard before connecting (a fault may turn it off). */
  guarded: boolean;
  /** Record this status for the attempt instead of the receiver's. */
  reportStatus: number | undefined;
  /** Further deliveries to send the receiver. */
  extra: FaultDelivery[];
}

/** What the faults know about the subscription a delivery goes to. */
export interface DeliveryTarget {
  secret: string;
  /** Per delivery id: the headers of its first attempt and how many attempts the faults saw. */
  seen: Map<string, { headers: Record<string, string>; attempts: number }>;
}

export interface FaultState {
  /** The first two keys the server provisioned (workspaces A and B). */
  keys: { a: string | undefined; b: string | undefined };
  clock: Clock;
  services: Services;
  /** Free memory for faults that remember across requests. */
  memory: Map<string, unknown>;
}

export interface Fault {
  name: string;
  /** The requirements the fault breaks: the conformance suite must fail each of them. */
  breaks: readonly string[];
  /** Changes a request before routing: its method, path, query or headers. */
  request?(request: FaultRequest, state: FaultState): void;
  /** Just before the handler, with the body read: answers instead of it, or changes `request.body`. */
  answer?(request: FaultRequest, state: FaultState): FaultAnswer | undefined;
  /** Changes a response (for a stream: only its status and headers). */
  response?(request: FaultRequest, response: FaultResponse, state: FaultState): void;
  /** Changes one block of an event stream (`event:…\nid:…\ndata:…\n\n`); `''` drops it. */
  event?(request: FaultRequest, block: string, index: number, state: FaultState): string;
  /** Changes a webhook delivery attempt on its way to the receiver. */
  delivery?(delivery: FaultDelivery, target: DeliveryTarget, state: FaultState): void;
}
