/**
 * Messages into a running session (seed "What the service does" 4): accepted while the board debates,
 * the Synths sent back speak on the message again, and a session that has ended takes none.
 * @module
 */
import { parseEventStream } from '../../src/contract/sse.js';
import { type Exchange, jsonOf } from '../harness/exchange.js';
import {
  discard,
  marker,
  startBodyA,
  startCancelledSession,
  startSession,
  terminalStatuses,
  waitForSession,
  waitUntilEnded,
} from '../harness/sessions.js';
import { expectProblem, statusOf } from './problem-shape.js';
import type { CheckContext } from '../harness/check.js';
import { checksOf } from './define.js';

/** Messages go into a session the check runs: the checks need a target that keeps state. */
const check = checksOf('messages', { preconditions: ['live'] });

/** Runs long enough that a message sent once the run has begun finds it still running: tried in turn. */
const runLengths = [5, 8, 10] as const;

/** Why no message could be judged: every session ended before one reached it. */
const endedTooSoon = `sessions of ${runLengths.join(', ')} rounds all ended before a message reached them (the target may run faster than real time), so the message could not be sent while the board debates`;

/** A session of `rounds` rounds once it has begun: `running` false when it had already ended. */
async function runningSession(ctx: CheckContext, rounds: number) {
  const body = startBodyA(ctx.target.synths, marker('messages'), rounds);
  const started = await startSession(ctx.http, ctx.contract, body);
  const session = await waitForSession(
    ctx.http,
    started.id,
    (read) => read.status === 'running' || terminalStatuses.has(String(read.status)),
    ctx.timeouts.sessionMs,
  );
  return { id: started.id, synths: body['synths'] as string[], rounds, running: session.status === 'running' };
}

/**
 * Sends `message(synths)` into a session while it runs; a session that ended first (its answer a 409) is
 * replaced by a longer one. `undefined` when every run ended too soon: a set-up that could not be
 * arranged, not a failure of the target.
 */
async function messageRunningSession(ctx: CheckContext, message: (synths: string[]) => Record<string, unknown>) {
  for (const rounds of runLengths) {
    const session = await runningSession(ctx, rounds);
    const sent = message(session.synths);
    const answer = session.running ? await ctx.http.post(`/v1/sessions/${session.id}/messages`, sent) : undefined;
    if (answer !== undefined && statusOf(answer) !== 409) {
      return { ...session, message: sent, answer };
    }
    await discard(ctx.http, session.id);
  }
  return undefined;
}

const messageTo = (sendBack: string[]) => ({
  content: `${marker('message')}: weigh the churn in the Nordics before deciding.`,
  send_back: sendBack,
});

/** The `synth.message` events of a finished session's stream, read at once (`finite=true`). */
async function spokenMessages(
  ctx: CheckContext,
  id: string,
): Promise<{ exchange: Exchange; spoken: Array<{ synth: string; round: number }> }> {
  const exchange = await ctx.http.get(`/v1/sessions/${id}/events`, {
    query: { finite: 'true' },
    headers: { accept: 'text/event-stream' },
  });
  const spoken = parseEventStream(exchange.response?.body ?? '')
    .events.filter((event) => event.event === 'synth.message')
    .map((event) => {
      try {
        const data = JSON.parse(event.data) as { synth?: unknown; round?: unknown };
        return { synth: String(data.synth), round: Number(data.round) };
      } catch {
        return { synth: '', round: 0 };
      }
    });
  return { exchange, spoken };
}

export const sendBackCheck = check('send-back', ['MSG-001', 'MSG-002'], {
  title: 'A message is taken up and the Synths sent back speak on it again',
  async run(ctx) {
    const sent = await messageRunningSession(ctx, (lineup) => messageTo(lineup.slice(0, 1)));
    if (sent === undefined) {
      ['MSG-001', 'MSG-002'].forEach((requirement) => ctx.skip(requirement, endedTooSoon));
      return;
    }
    const { id, synths, rounds, answer } = sent;
    const round = (jsonOf(answer) as { round?: unknown } | undefined)?.round;
    const taken =
      statusOf(answer) === 202 && Number.isInteger(round) && (round as number) >= 1 && (round as number) <= rounds;
    ctx.expect(
      'MSG-001',
      taken,
      {
        kind: 'status',
        message: `the message answered ${statusOf(answer)} without the round that takes it up`,
        expected: { status: 202, round: `1 to ${rounds}` },
        got: jsonOf(answer) ?? statusOf(answer),
        evidence: answer,
      },
      `accepted into round ${String(round)}`,
    );
    if (!taken) {
      ctx.skip('MSG-002', 'the message was not accepted');
      await discard(ctx.http, id);
      return;
    }
    await waitUntilEnded(ctx, id);
    const { exchange, spoken } = await spokenMessages(ctx, id);
    const from = round as number;
    const count = (synth: string) => spoken.filter((entry) => entry.synth === synth && entry.round >= from).length;
    const sentBack = (sent.message['send_back'] as string[])[0]!;
    const others = synths.filter((synth) => synth !== sentBack).map(count);
    const baseline = Math.max(...others);
    ctx.expect(
      'MSG-002',
      count(sentBack) === baseline + 1,
      {
        kind: 'state',
        message: `${sentBack} was sent back but did not speak once more than the other Synths from round ${from}`,
        expected: { [sentBack]: baseline + 1, others: baseline },
        got: Object.fromEntries(synths.map((synth) => [synth, count(synth)])),
        evidence: exchange,
      },
      `${sentBack} spoke ${count(sentBack)} times from round ${from}, the others ${baseline}`,
    );
  },
});

export const afterTheEnd = check('after-the-end', ['MSG-003'], {
  title: 'A session that has ended takes no messages',
  async run(ctx) {
    const started = await startCancelledSession(ctx, 'late message', 10);
    const answer = await ctx.http.post(`/v1/sessions/${started.id}/messages`, {
      content: 'Too late: the board has risen.',
    });
    expectProblem(ctx, 'MSG-003', answer, 409, 'conflict', 'a message into a cancelled session');
  },
});

export const offBoard = check('send-back-off-board', ['MSG-004'], {
  title: 'Sending back a Synth who is not on the board is 409 conflict',
  async run(ctx) {
    for (const rounds of runLengths) {
      const session = await runningSession(ctx, rounds);
      const outsider = ctx.target.synths.find((synth) => !session.synths.includes(synth));
      if (outsider === undefined) {
        await discard(ctx.http, session.id);
        ctx.skip('MSG-004', 'the Synth library has no Synth outside the board to send back');
        return;
      }
      const refused = session.running
        ? await ctx.http.post(`/v1/sessions/${session.id}/messages`, messageTo([outsider]))
        : undefined;
      // A message without Synths sent back, accepted afterwards, shows the session was still running.
      const control =
        refused === undefined
          ? undefined
          : await ctx.http.post(`/v1/sessions/${session.id}/messages`, {
              content: `${marker('message')}: no Synth sent back.`,
            });
      await discard(ctx.http, session.id);
      if (refused !== undefined && control !== undefined && statusOf(control) === 202) {
        expectProblem(
          ctx,
          'MSG-004',
          refused,
          409,
          'conflict',
          `a message sending back ${outsider}, who is not on the board`,
        );
        return;
      }
    }
    ctx.skip('MSG-004', endedTooSoon);
  },
});

export const messageChecks = [sendBackCheck, afterTheEnd, offBoard];
