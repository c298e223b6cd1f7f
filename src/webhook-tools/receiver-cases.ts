/**
 * The delivery cases of `boardkit webhooks check-receiver`, one per way a receiver can go wrong, each
 * tied to its requirement of the receiver registry (conformance/requirements/receiver.ts). A case is a
 * few requests and the answer each must get. Bodies are compact JSON with non-ASCII text written as
 * UTF-8, the form `JSON.stringify` gives, so that only the case built to tell raw bytes from parsed JSON
 * (`receiver.reserialised`) can catch a receiver that signs what it re-serialised.
 * @module
 */
import { randomAlphanumeric } from '../webhooks/ids.js';
import { signLegacyDelivery } from '../webhooks/signing.js';
import { deliveryHeaders } from '../webhooks/headers.js';
import type { OutgoingDelivery } from './delivery.js';
import { deliveryConditionCases } from './delivery-condition-cases.js';
import { compact, delivery, type CaseInput, type ReceiverCase } from './receiver-case.js';

export type { CaseInput, ExpectedAnswer, ReceiverCase } from './receiver-case.js';

/** The replay tolerance plus one second (seed "Limits": 300 seconds). */
const outsideWindowSeconds = 301;

/** Size of the large body: well above what a receiver's default body limit may cut (100 KiB in Express). */
export const largeBodyBytes = 256 * 1024;

/** The body with its `data.verdict` (or a new `data.note`) replaced by `text`. */
function withText(input: CaseInput, text: string): string {
  const data = { ...(input.body['data'] as Record<string, unknown>) };
  data['verdict' in data ? 'verdict' : 'note'] = text;
  return JSON.stringify({ ...input.body, data });
}

/** Indexes of the ASCII letters inside JSON strings of `text`: flipping one keeps the JSON valid. */
export function letterIndexesInStrings(text: string): number[] {
  const indexes: number[] = [];
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (inString && char === '\\') {
      index++;
    } else if (char === '"') {
      inString = !inString;
    } else if (inString && /[A-Za-z]/.test(char)) {
      indexes.push(index);
    }
  }
  return indexes;
}

/** `body` with the case of one letter inside a string flipped (one byte, bit 0x20). */
export function flipOneByte(body: string): string {
  const letters = letterIndexesInStrings(body);
  const at = letters[Math.floor(letters.length / 2)];
  if (at === undefined) {
    throw new Error('the body has no letter inside a string to flip');
  }
  const char = body[at]!;
  const flipped = char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase();
  return `${body.slice(0, at)}${flipped}${body.slice(at + 1)}`;
}

function without(one: OutgoingDelivery, header: string): OutgoingDelivery {
  const headers = Object.fromEntries(
    Object.entries(one.headers).filter(([name]) => name.toLowerCase() !== header.toLowerCase()),
  );
  return { ...one, headers };
}

function withSignature(one: OutgoingDelivery, signature: string): OutgoingDelivery {
  return { ...one, headers: { ...one.headers, [deliveryHeaders.signature]: signature } };
}

const unicodeText = 'Décision validée — 決定を承認 — Ελληνικά — 🚀 lancement à Zürich';

const signatureCases: readonly ReceiverCase[] = [
  {
    name: 'receiver.valid',
    requirement: 'RECV-001',
    title: 'a delivery signed with the secret, every header present',
    expect: '2xx',
    requests: (input) => [delivery(input, compact(input))],
  },
  {
    name: 'receiver.duplicate',
    requirement: 'RECV-002',
    title: 'one delivery sent twice, the same X-Service-Delivery-Id',
    expect: '2xx',
    handledOnce: true,
    requests: (input) => {
      const once = delivery(input, compact(input));
      return [once, once];
    },
  },
  {
    name: 'receiver.other-secret',
    requirement: 'RECV-003',
    title: 'a signature made with another secret',
    expect: 401,
    requests: (input) => [delivery(input, compact(input), { secret: `whsec_${randomAlphanumeric(32)}` })],
  },
  {
    name: 'receiver.flipped-byte',
    requirement: 'RECV-003',
    title: 'the signed body with one byte changed',
    expect: 401,
    requests: (input) => {
      const signed = delivery(input, compact(input));
      return [{ ...signed, body: flipOneByte(signed.body) }];
    },
  },
  {
    name: 'receiver.bare-hex',
    requirement: 'RECV-003',
    title: 'the right HMAC in hex, without the "sha256=" prefix',
    expect: 401,
    requests: (input) => {
      const signed = delivery(input, compact(input));
      return [withSignature(signed, String(signed.headers[deliveryHeaders.signature]).replace(/^sha256=/, ''))];
    },
  },
  {
    name: 'receiver.stale',
    requirement: 'RECV-004',
    title: `a delivery signed ${outsideWindowSeconds} seconds ago`,
    expect: 401,
    requests: (input) => [delivery(input, compact(input), { timestamp: input.now - outsideWindowSeconds })],
  },
  {
    name: 'receiver.ahead',
    requirement: 'RECV-004',
    title: `a delivery signed ${outsideWindowSeconds} seconds ahead`,
    expect: 401,
    requests: (input) => [delivery(input, compact(input), { timestamp: input.now + outsideWindowSeconds })],
  },
  {
    name: 'receiver.no-signature',
    requirement: 'RECV-005',
    title: 'a delivery without X-Service-Signature',
    expect: 400,
    requests: (input) => [without(delivery(input, compact(input)), deliveryHeaders.signature)],
  },
  {
    name: 'receiver.no-timestamp',
    requirement: 'RECV-005',
    title: 'a delivery without X-Service-Timestamp',
    expect: 400,
    requests: (input) => [without(delivery(input, compact(input)), deliveryHeaders.timestamp)],
  },
  {
    name: 'receiver.reserialised',
    requirement: 'RECV-006',
    title: 'the signed body sent as indented JSON with the same value',
    expect: 401,
    requests: (input) => {
      const signed = delivery(input, compact(input));
      return [{ ...signed, body: JSON.stringify(input.body, null, 2) }];
    },
  },
  {
    name: 'receiver.legacy-signature',
    requirement: 'RECV-007',
    title: 'X-Service-Signature computed the legacy way, over the body alone',
    expect: 401,
    requests: (input) => {
      const signed = delivery(input, compact(input));
      return [withSignature(signed, signLegacyDelivery({ secret: input.secret, rawBody: signed.body }))];
    },
  },
  {
    name: 'receiver.large',
    requirement: 'RECV-008',
    title: `a delivery of ${largeBodyBytes / 1024} KiB`,
    expect: '2xx',
    requests: (input) => {
      const filler = 'The board weighed the rollout plan region by region. '.repeat(Math.ceil(largeBodyBytes / 52));
      const body = withText(input, filler.slice(0, largeBodyBytes - compact(input).length));
      return [delivery(input, body)];
    },
  },
  {
    name: 'receiver.unicode',
    requirement: 'RECV-009',
    title: 'a delivery whose body holds accents, CJK, Greek and an emoji as UTF-8',
    expect: '2xx',
    requests: (input) => [delivery(input, withText(input, unicodeText))],
  },
];

/** Every case, in the order they run: the verification rules, then the ways real deliveries arrive. */
export const receiverCases: readonly ReceiverCase[] = [...signatureCases, ...deliveryConditionCases];
