/**
 * A session run to completion, for the checks of what follows it (outcomes, exports, actions).
 * @module
 */
import type { CheckContext } from './check.js';
import { SetupFailure } from './observations.js';
import { marker, type SessionBody, startBodyA, startSession, terminalStatuses, waitForSession } from './sessions.js';

export interface CompletedSession {
  id: string;
  title: string;
  session: SessionBody;
}

/** Starts a one-round session titled after `purpose` and waits until it is complete. */
export async function completedSession(ctx: CheckContext, purpose: string): Promise<CompletedSession> {
  const title = marker(purpose);
  const started = await startSession(ctx.http, ctx.contract, startBodyA(ctx.target.synths, title, 1));
  const session = await waitForSession(
    ctx.http,
    started.id,
    (body) => terminalStatuses.has(String(body.status)),
    ctx.timeouts.sessionMs,
  );
  if (session.status !== 'complete') {
    throw new SetupFailure(`session ${started.id} ended ${String(session.status)}, not complete`);
  }
  return { id: started.id, title, session };
}
