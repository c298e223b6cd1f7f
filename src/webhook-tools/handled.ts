/**
 * "Handled once, where the receiver exposes it" (RECV-002, RECV-010, RECV-011): a receiver may show
 * which deliveries it acted on at a URL of its own, given as `--handled-url`. The answer is JSON: an
 * array of the delivery ids it handled, one entry per time it handled one, or an object from delivery id
 * to a count.
 * @module
 */

/** How many times the receiver says it handled `deliveryId`; throws when the answer is not one of the forms. */
export async function handledCount(url: string, deliveryId: string): Promise<number> {
  const response = await fetch(url, { signal: AbortSignal.timeout(10_000), headers: { accept: 'application/json' } });
  const value: unknown = await response.json();
  if (Array.isArray(value)) {
    return value.filter((id) => id === deliveryId).length;
  }
  if (typeof value === 'object' && value !== null) {
    const count = (value as Record<string, unknown>)[deliveryId];
    return typeof count === 'number' ? count : 0;
  }
  throw new Error(`${url} answered neither an array of delivery ids nor an object of counts`);
}
