/**
 * An event stream relayed as it arrives: each chunk goes to the client the moment the upstream sends it,
 * and into the stream check (`stream-check.ts`), which checks every event once its blank line has come.
 * The evidence of a violation is the event it is in, as it was on the wire. When the client goes away,
 * the relay stops and the stream is not faulted for ending early.
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StringDecoder } from 'node:string_decoder';
import type { ParsedEvent } from '../../contract/sse.js';
import type { Finding } from './findings.js';
import type { Contract } from './response-check.js';
import { createStreamCheck } from './stream-check.js';
import { cut, type ExchangeContext, type Traffic } from './traffic.js';
import type { SeenVariant } from './variants-seen.js';

export interface StreamRelay {
  contract: Contract;
  traffic: Traffic;
  findVariants: (schemaPointer: string, value: unknown) => SeenVariant[];
  record: (exchange: ExchangeContext, findings: readonly Finding[]) => void;
}

/** The event as its fields read on the wire. */
function wireText(event: ParsedEvent): string {
  const fields = [
    `event: ${event.event}`,
    ...(event.id === undefined ? [] : [`id: ${event.id}`]),
    ...(event.retry === undefined ? [] : [`retry: ${event.retry}`]),
    ...event.data.split('\n').map((line) => `data: ${line}`),
  ];
  return `${fields.join('\n')}\n`;
}

export function relayStream(
  relay: StreamRelay,
  answer: IncomingMessage,
  outgoing: ServerResponse,
  exchange: ExchangeContext,
  schema: string,
): void {
  const { traffic } = relay;
  const decoder = new StringDecoder('utf8');
  const withEvidence = (text: string): ExchangeContext => {
    const kept = cut(text);
    return {
      ...exchange,
      evidence: { ...exchange.evidence, responseBody: kept.text, ...(kept.truncated ? { truncated: true } : {}) },
    };
  };
  const check = createStreamCheck(relay.contract, schema, relay.findVariants, {
    onEvent(event, findings, variants) {
      traffic.tally.event(event.event);
      traffic.tally.variants(variants);
      if (findings.length > 0) {
        relay.record(withEvidence(wireText(event)), findings);
      }
    },
    onEnd(findings) {
      relay.record(withEvidence(''), findings);
    },
  });
  let ended = false;
  // A stream cut by either side ends in `close`; its error says nothing more.
  answer.on('error', () => undefined);
  answer.on('data', (chunk: Buffer) => {
    outgoing.write(chunk);
    check.push(decoder.write(chunk));
  });
  answer.once('end', () => {
    ended = true;
    check.push(decoder.end());
    check.end(true);
    outgoing.end();
  });
  answer.once('close', () => {
    if (!ended) {
      check.end(false);
      outgoing.destroy();
    }
  });
}
