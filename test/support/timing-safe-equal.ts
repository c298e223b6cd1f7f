/**
 * `node:crypto` with its `timingSafeEqual` recorded, for the tests that check a secret is compared in
 * constant time. Timing cannot be asserted reliably in a test, so they check the mechanism instead: Node's
 * own `timingSafeEqual` still decides, and the wrapper only notes the lengths compared and the outcome.
 * A test mocks `node:crypto` with it (`vi.mock`), loading this module inside the mock's factory.
 */

export interface Comparison {
  left: number;
  right: number;
  equal: boolean;
}

type Crypto = typeof import('node:crypto');

export function recordingCrypto(crypto: Crypto, calls: Comparison[]): Crypto {
  return {
    ...crypto,
    timingSafeEqual: (left: NodeJS.ArrayBufferView, right: NodeJS.ArrayBufferView): boolean => {
      const equal = crypto.timingSafeEqual(left, right);
      calls.push({ left: left.byteLength, right: right.byteLength, equal });
      return equal;
    },
  };
}
