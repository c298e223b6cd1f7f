/**
 * Faults queued for the next requests of an operation: each answers (or delays, or drops) the next `count`
 * matching requests and is used up as they arrive, oldest first. Unlike the conformance fault switches of
 * src/test-control, these never bend a response into a contract break: a status is answered with its
 * problem from the contract's catalogue.
 * @module
 */

export interface QueuedFault {
  id: string;
  /** The contract's `operationId` the fault waits for. */
  operation: string;
  /** How many matching requests it still applies to. */
  remaining: number;
  /** Answer with this status and its problem (the handler does not run). */
  status: number | null;
  /** Wait this many real milliseconds before going on. */
  delay_ms: number;
  /** Close the connection without an answer. */
  drop: boolean;
}

export interface NextFaults {
  add(fault: Omit<QueuedFault, 'id'>): QueuedFault;
  /** The fault that takes this request, used once; `undefined` when none waits for the operation. */
  take(operation: string): QueuedFault | undefined;
  list(): QueuedFault[];
  clear(): number;
}

export function nextFaults(): NextFaults {
  let queue: QueuedFault[] = [];
  let counter = 0;
  return {
    add(fault) {
      counter += 1;
      const queued = { id: `fault_${counter}`, ...fault };
      queue.push(queued);
      return { ...queued };
    },
    take(operation) {
      const fault = queue.find((each) => each.operation === operation);
      if (fault === undefined) {
        return undefined;
      }
      fault.remaining -= 1;
      if (fault.remaining <= 0) {
        queue = queue.filter((each) => each !== fault);
      }
      return { ...fault };
    },
    list: () => queue.map((fault) => ({ ...fault })),
    clear() {
      const cleared = queue.length;
      queue = [];
      return cleared;
    },
  };
}
