/**
 * A session run to its end or to completion, for the checks of what follows it (outcomes, exports,
 * actions, the events a session sends).
 * @module
 */
import type { CheckContext } from './check.js';
import { SetupFailure } from './observations.js';
import { marker, type SessionBody, startBodyA, startSession, waitUntilEnded } from './sessions.js';

export interface CompletedSession {
  id: string;
  title: string;
  session: SessionBody;
}

/** Starts a one-round session titled `title` and waits until it ends, however it ends. */
export async function endedSession(ctx: CheckContext, title: string): Promise<{ id: string; session: SessionBody }> {
  const started = await startSession(ctx.http, ctx.contract, startBodyA(ctx.target.synths, title, 1));
  const session = await waitUntilEnded(ctx, started.id);
  return { id: started.id, session };
}

/** Starts a one-round session titled after `purpose` and waits until it is complete. */
export async function completedSession(ctx: CheckContext, purpose: string): Promise<CompletedSession> {
  const title = marker(purpose);
  const { id, session } = await endedSession(ctx, title);
  if (session.status !== 'complete') {
    throw new SetupFailure(`session ${id} ended ${String(session.status)}, not complete`);
  }
  return { id, title, session };
}
