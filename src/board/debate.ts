/**
 * The debate of a board session as a deterministic sequence of steps (seed "Server-sent event stream of a
 * session": `synth.message`, `round.complete`; a memo when the run is done).
 *
 * `createRun` returns a run the server drives one `nextStep()` at a time. The simulator keeps no clock:
 * each step says how long it takes in simulated milliseconds (`simulatedMs`), and the server waits that
 * long, scaled as it likes, before publishing it. Everything random is drawn from generators seeded by the
 * session id and the place in the debate, so a run is a pure function of its input and of the messages
 * sent into it between steps: the same input and the same messages at the same steps give byte-identical
 * steps, which also lets a server rebuild a run after a restart by replaying them.
 * @module
 */
import { requireLineup, requireMode } from './catalog.js';
import { compose, type Lead } from './compose.js';
import { BoardInputError, BoardStateError } from './errors.js';
import { failureIn, failureRound, sessionErrorOf, withoutMarkers } from './failure.js';
import { decide } from './memo.js';
import { createRandom, type Random } from './random.js';
import { converge, seatBoard, stepTowards, type Seat } from './stances.js';
import { summarize, type BoardSummary } from './summary.js';
import { figuresOf, sentimentOf, subjectOf } from './text.js';
import type { BoardRun, BoardStep, RunInput } from './steps.js';

export type { BoardRun, BoardStep, RunInput } from './steps.js';

interface Turn {
  seat: Seat;
  /** The message this Synth was sent back on. */
  sentBackOn?: string;
}

/** Simulated duration of a contribution: reading time grows with length, within bounds. */
function speakingMs(content: string): number {
  return Math.min(8000, 1500 + 20 * content.length);
}

export function createRun(input: RunInput): BoardRun {
  const mode = requireMode(input.mode);
  const lineup = requireLineup(input.synths);
  const firstRound = input.firstRound ?? 1;
  if (
    !Number.isInteger(input.rounds) ||
    input.rounds < 1 ||
    input.rounds > 10 ||
    !Number.isInteger(firstRound) ||
    firstRound < 1
  ) {
    throw new BoardInputError('rounds_out_of_range', '/rounds', 'A run debates 1 to 10 rounds, numbered from 1.');
  }
  const lastRound = firstRound + input.rounds - 1;
  const { seed, earlier } = input;
  const context = withoutMarkers(input.context ?? '');
  const prompt = earlier?.prompt == null ? undefined : withoutMarkers(earlier.prompt);
  const subject = subjectOf(
    input.title == null ? null : withoutMarkers(input.title),
    input.question == null ? null : withoutMarkers(input.question),
  );
  const figures = figuresOf(`${context} ${prompt ?? ''}`);
  const failure = failureIn(input.title, input.context, input.question, earlier?.prompt);
  const failAt = failure === undefined ? undefined : failureRound(failure, firstRound, lastRound);
  const news = earlier === undefined ? 0 : sentimentOf(earlier.kind === 'reconvened' ? context : prompt);
  const seats = seatBoard(lineup, mode.slug, createRandom(seed, 'seats', firstRound), earlier?.memo, news);

  let currentRound = firstRound;
  let completedRounds = 0;
  let spokenInRound = 0;
  let phase: 'debating' | 'deciding' | 'ended' = 'debating';
  let lastSpeaker: Seat | undefined;
  const queue: Turn[] = [];
  const notes: Array<{ round: number; content: string }> = [];
  const notesRead = new Map<string, number>();
  const latest = new Map<string, string>();
  const usedClaims = new Map(seats.map((seat) => [seat.synth.slug, new Set<number>()]));

  function openRound(round: number): void {
    const order = round === firstRound ? seats : createRandom(seed, 'order', round).shuffle(seats);
    queue.push(...order.map((seat) => ({ seat })));
    spokenInRound = 0;
  }

  function summaryNow(heading: Parameters<typeof summarize>[0]['heading']): BoardSummary {
    return summarize({ round: currentRound, seats, subject, latest, notes, earlier: earlier?.memo, heading });
  }

  function leadFor(turn: Turn, random: Random): Lead | undefined {
    const slug = turn.seat.synth.slug;
    if (turn.sentBackOn !== undefined) {
      notesRead.set(slug, notes.length);
      return { kind: 'sent_back', text: turn.sentBackOn };
    }
    const unread = notes.slice(notesRead.get(slug) ?? 0).at(-1);
    if (unread !== undefined) {
      notesRead.set(slug, notes.length);
      return { kind: 'note', text: unread.content };
    }
    if (currentRound === firstRound && spokenInRound === 0 && earlier !== undefined) {
      if (earlier.kind === 'reconvened') {
        return { kind: 'earlier_verdict', text: earlier.memo.verdict };
      }
      if (prompt !== undefined && prompt !== '') {
        return { kind: 'prompt', text: prompt };
      }
      const dissenter = seats.find((seat) => earlier.memo.dissent.some((entry) => entry.synth === seat.synth.slug));
      return {
        kind: 'revisit',
        text: dissenter ? `Revisiting ${dissenter.synth.name}'s dissent` : 'Revisiting the conditions we set',
      };
    }
    const replyChance = currentRound === firstRound ? 0.3 : 0.7;
    if (lastSpeaker !== undefined && lastSpeaker !== turn.seat && random.chance(replyChance)) {
      return { kind: 'reply', to: lastSpeaker };
    }
    return undefined;
  }

  function speak(turn: Turn): BoardStep {
    const random = createRandom(seed, 'message', currentRound, spokenInRound);
    const { seat } = turn;
    if (turn.sentBackOn !== undefined) {
      // A Synth sent back reconsiders: bad news pushes it towards opposition, good news towards support.
      seat.previous = seat.stance;
      const tone = sentimentOf(turn.sentBackOn);
      if (random.chance(0.6 * (1 - seat.persona.stubbornness))) {
        seat.stance = stepTowards(seat.stance, tone < 0 ? 'oppose' : tone > 0 ? 'support' : 'conditional');
      }
    }
    const lead = leadFor(turn, random);
    const closing = currentRound === lastRound && turn.sentBackOn === undefined;
    const { content, point } = compose({
      seat,
      modeSlug: mode.slug,
      subject,
      figures,
      closing,
      lead,
      usedClaims: usedClaims.get(seat.synth.slug) ?? new Set(),
      random,
    });
    if (point !== undefined) {
      latest.set(seat.synth.slug, point);
    }
    lastSpeaker = seat;
    spokenInRound += 1;
    const data = { synth: seat.synth.slug, round: currentRound, content };
    return { kind: 'synth.message', simulatedMs: speakingMs(content), data, sentBack: turn.sentBackOn !== undefined };
  }

  function completeRound(): BoardStep {
    const isLast = currentRound === lastRound;
    const summary = summaryNow(isLast ? 'Position' : 'Emerging position');
    const preview = summary.summary.split('\n')[0]?.replace(/^\*\*[^*]+:\*\* /, '') ?? '';
    const data = { round: currentRound, synthesis_preview: `After round ${currentRound}: ${preview}` };
    completedRounds += 1;
    if (isLast) {
      phase = 'deciding';
    } else {
      converge(seats, createRandom(seed, 'stances', currentRound + 1));
      currentRound += 1;
      openRound(currentRound);
    }
    return { kind: 'round.complete', simulatedMs: 600, data, summary };
  }

  openRound(firstRound);

  return {
    firstRound,
    lastRound,
    get currentRound() {
      return currentRound;
    },
    get completedRounds() {
      return completedRounds;
    },
    get ended() {
      return phase === 'ended';
    },
    nextStep() {
      if (phase === 'ended') {
        return undefined;
      }
      if (phase === 'deciding') {
        phase = 'ended';
        const decision = decide(seats, subject, lastRound, input.rounds, createRandom(seed, 'memo', lastRound));
        return { kind: 'decided', simulatedMs: 2500, round: lastRound, ...decision, summary: summaryNow('Position') };
      }
      if (failure !== undefined && failAt === currentRound && spokenInRound >= 1) {
        phase = 'ended';
        const error = sessionErrorOf(failure, currentRound);
        return {
          kind: 'failed',
          simulatedMs: 3000,
          round: currentRound,
          error,
          summary: summaryNow('Position when the run stopped'),
        };
      }
      const turn = queue.shift();
      return turn === undefined ? completeRound() : speak(turn);
    },
    sendMessage(message) {
      if (phase !== 'debating') {
        throw phase === 'ended'
          ? new BoardStateError('run_ended', 'The run has ended; it takes no more messages.')
          : new BoardStateError('memo_in_progress', 'The last round has closed and the board is writing its memo.');
      }
      const sendBack = (message.send_back ?? []).map((slug, index) => {
        const seat = seats.find((candidate) => candidate.synth.slug === slug);
        if (seat === undefined) {
          // A library Synth that this board did not seat: the request is valid, the run's state refuses it.
          throw new BoardStateError('not_on_board', `Synth "${slug}" (send_back/${index}) does not sit on this board.`);
        }
        return seat;
      });
      const content = withoutMarkers(message.content);
      notes.push({ round: currentRound, content });
      queue.push(...sendBack.map((seat) => ({ seat, sentBackOn: content })));
      return { round: currentRound };
    },
    cancel() {
      phase = 'ended';
      queue.length = 0;
      return summaryNow('Position when the run stopped');
    },
  };
}
