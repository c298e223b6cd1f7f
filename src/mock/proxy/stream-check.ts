/**
 * An event stream checked as it passes (WHATWG HTML §9.2.6): the text is cut at each blank line, so
 * every complete event is checked as soon as it has arrived and nothing waits for the stream to end.
 * Each event is validated as the contract's per-event object (`{event, id, retry?, data}`), then its data
 * against the `contentSchema` of the branch its `event` names (src/contract/event-schemas.ts).
 * @module
 */
import { eventDataSchema } from '../../contract/event-schemas.js';
import { parseEventStream, type ParsedEvent } from '../../contract/sse.js';
import type { Finding } from './findings.js';
import { schemaFindings, type Contract } from './response-check.js';
import type { SeenVariant } from './variants-seen.js';

export interface StreamCheck {
  /** Takes the next piece of the stream's text and checks the events it completes. */
  push(text: string): void;
  /** The stream is over: `complete` when the upstream ended it (not the client going away). */
  end(complete: boolean): void;
}

export interface StreamListener {
  /** Each event, with what was wrong with it (nothing when it conforms) and the variants its data showed. */
  onEvent(event: ParsedEvent, findings: Finding[], variants: SeenVariant[]): void;
  onEnd(findings: Finding[]): void;
}

function checkEvent(
  contract: Contract,
  schemaPointer: string,
  event: ParsedEvent,
  index: number,
  findVariants: (schemaPointer: string, value: unknown) => SeenVariant[],
): { findings: Finding[]; variants: SeenVariant[] } {
  const at = `#/events/${index}`;
  const result = contract.validator.validate(schemaPointer, event);
  if (!result.valid) {
    const message = `event ${event.event} (id ${event.id ?? 'none'}) does not match the event schema`;
    return {
      findings: [
        { kind: 'stream', pointer: at, message, got: event },
        ...schemaFindings('stream', at, result.errors).map((finding) => ({ ...finding, got: event })),
      ],
      variants: [],
    };
  }
  const dataSchema = eventDataSchema(contract.document, schemaPointer, event.event);
  if (dataSchema === undefined) {
    return { findings: [], variants: [] };
  }
  let data: unknown;
  try {
    data = JSON.parse(event.data);
  } catch {
    return {
      findings: [
        { kind: 'stream', pointer: `${at}/data`, message: `event ${event.event}: data is not JSON`, got: event },
      ],
      variants: [],
    };
  }
  const dataResult = contract.validator.validate(dataSchema, data);
  return dataResult.valid
    ? { findings: [], variants: findVariants(dataSchema, data) }
    : {
        findings: schemaFindings('stream', `${at}/data`, dataResult.errors).map((finding) => ({
          ...finding,
          message: `event ${event.event}: ${finding.message}`,
          got: event,
        })),
        variants: [],
      };
}

export function createStreamCheck(
  contract: Contract,
  schemaPointer: string,
  findVariants: (schemaPointer: string, value: unknown) => SeenVariant[],
  listener: StreamListener,
): StreamCheck {
  let pending = '';
  let index = 0;
  return {
    push(text) {
      pending += text;
      // A carriage return at the end may be the first half of a CRLF still on its way.
      const heldBack = pending.endsWith('\r') ? '\r' : '';
      const normalised = pending.slice(0, pending.length - heldBack.length).replace(/\r\n?/g, '\n');
      const cut = normalised.lastIndexOf('\n\n');
      if (cut === -1) {
        pending = normalised + heldBack;
        return;
      }
      pending = normalised.slice(cut + 2) + heldBack;
      for (const event of parseEventStream(normalised.slice(0, cut + 2)).events) {
        const { findings, variants } = checkEvent(contract, schemaPointer, event, index, findVariants);
        index += 1;
        listener.onEvent(event, findings, variants);
      }
    },
    end(complete) {
      const rest = pending.trim();
      const cutShort: Finding = {
        kind: 'stream',
        pointer: `#/events/${index}`,
        message: 'the stream ended in the middle of an event (no blank line after its last field)',
        got: rest.slice(0, 200),
      };
      listener.onEnd(
        complete && rest !== '' && !rest.split('\n').every((line) => line.startsWith(':')) ? [cutShort] : [],
      );
    },
  };
}
