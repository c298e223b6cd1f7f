/**
 * How long a client may take to send a request and how many connections the server holds
 * (`x-limits`, designed; docs/limits.md). A client that trickles its headers or body is answered
 * `408 request-timeout` and disconnected, a kept-alive connection with nothing in progress is closed, and
 * connections past the cap are closed as they are accepted, and an event stream's reader that falls too
 * far behind for too long is disconnected (it resumes with `Last-Event-ID`). Nothing here limits how long a response takes:
 * a long poll waits up to 60 s (`wait_ms`) and an event stream stays open as long as its session runs.
 * @module
 */
import type { Server } from 'node:http';
import type { ClientLimits } from '../ports/app.js';

export const defaultClientLimits: ClientLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  // Above the 60 s idle timeout of common load balancers, which would otherwise send a request on a
  // connection the server is closing; a connection that never sends a request meets the header timeout.
  idleTimeoutMs: 72_000,
  maxConnections: 4096,
  stream: { maxBufferedBytes: 64 * 1024, stallMs: 30_000 },
};

/**
 * Sets the limits on Node's HTTP server. Node checks the header and request timeouts on an interval (30 s
 * by default), so a timeout could fire up to that much late; the interval here is a tenth of the shorter
 * timeout, at most one second.
 */
export function applyClientLimits(server: Server, limits: ClientLimits): void {
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.keepAliveTimeout = limits.idleTimeoutMs;
  server.maxConnections = limits.maxConnections;
  // Not in Node's typings, but a documented option of http.createServer that is read when it listens.
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = Math.max(
    10,
    Math.min(1000, Math.floor(Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 10)),
  );
}

/** Whether a client error is Node's header or request timeout. */
export function isRequestTimeout(error: Error): boolean {
  return (error as NodeJS.ErrnoException).code === 'ERR_HTTP_REQUEST_TIMEOUT';
}
