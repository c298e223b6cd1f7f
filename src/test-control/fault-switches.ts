/**
 * Which faults of the catalogue are switched on (`PUT /_test/faults`). None is, until a test says so.
 * Faults that remember across requests start afresh at each change (`onChange`).
 * @module
 */
import type { Fault } from './faults/types.js';

export interface FaultSwitches {
  /** Every fault's name, in catalogue order. */
  available(): string[];
  active(): readonly Fault[];
  /** The active faults that implement `seam`. */
  activeAt<K extends keyof Fault>(seam: K): Array<Fault & Required<Pick<Fault, K>>>;
  /** Switches exactly `names` on; returns the names the catalogue does not hold, and then changes nothing. */
  set(names: readonly string[]): string[];
}

export function faultSwitches(catalogue: readonly Fault[], onChange: () => void = () => undefined): FaultSwitches {
  const byName = new Map(catalogue.map((fault) => [fault.name, fault]));
  let active: Fault[] = [];
  return {
    available: () => [...byName.keys()],
    active: () => active,
    activeAt: <K extends keyof Fault>(seam: K) =>
      active.filter((fault): fault is Fault & Required<Pick<Fault, K>> => fault[seam] !== undefined),
    set(names) {
      const unknown = names.filter((name) => !byName.has(name));
      if (unknown.length === 0) {
        active = [...new Set(names)].map((name) => byName.get(name)!);
        onChange();
      }
      return unknown;
    },
  };
}
