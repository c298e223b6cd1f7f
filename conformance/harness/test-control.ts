/**
 * The test-only control plane a target may expose (docs/conformance.md "Time control and fault switches").
 * It is not part of the contract: a deployment offers it only when started for testing, and announces it
 * with the `X-Boardkit-Test-Control` header on `GET /v1/health`, whose value is the control plane's path
 * relative to the base URL.
 *
 * - `GET  {path}/clock`  → `{"now": "<ISO 8601>", "time_scale": <number>}`
 * - `PUT  {path}/clock`  `{"time_scale": <number>}` and/or `{"advance_ms": <number>}` → the same shape
 *   (optional: a fixed scale is enough; without `advance_ms` the suite speeds the clock up instead)
 * - `GET  {path}/faults` → `{"available": [<name>…], "active": [<name>…]}`
 * - `PUT  {path}/faults` `{"active": [<name>…]}` → the same shape
 * @module
 */

export const testControlHeader = 'x-boardkit-test-control';

export interface ClockState {
  /** The target's clock, epoch milliseconds. */
  now: number;
  timeScale: number;
}

export interface FaultState {
  available: string[];
  active: string[];
}

export class TestControl {
  readonly #base: string;

  /** `path` is relative to the base URL, as the header gives it (`/_test`). */
  constructor(baseUrl: string, path: string) {
    this.#base = `${baseUrl.replace(/\/+$/, '')}/${path.replace(/^\/+|\/+$/g, '')}`;
  }

  get url(): string {
    return this.#base;
  }

  async clock(): Promise<ClockState> {
    return clockStateOf(await this.#call('GET', '/clock'));
  }

  /** Changes the target's time scale; `false` when the target's scale is fixed. */
  async setTimeScale(timeScale: number): Promise<boolean> {
    const response = await fetch(`${this.#base}/clock`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ time_scale: timeScale }),
    });
    await response.arrayBuffer();
    return response.ok;
  }

  /** Changes the time scale and returns the clock as it was at the change. */
  async switchTimeScale(timeScale: number): Promise<ClockState> {
    return clockStateOf(await this.#call('PUT', '/clock', { time_scale: timeScale }));
  }

  /** Jumps the clock `ms` forward and returns it as it is after the jump (a target may ignore it). */
  async advance(ms: number): Promise<ClockState> {
    return clockStateOf(await this.#call('PUT', '/clock', { advance_ms: ms }));
  }

  async faults(): Promise<FaultState> {
    return faultStateOf(await this.#call('GET', '/faults'));
  }

  async setFaults(active: readonly string[]): Promise<FaultState> {
    return faultStateOf(await this.#call('PUT', '/faults', { active }));
  }

  async #call(method: string, path: string, body?: unknown): Promise<unknown> {
    const response = await fetch(`${this.#base}${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) {
      throw new Error(`${method} ${this.#base}${path} answered ${response.status}: ${text.slice(0, 200)}`);
    }
    return JSON.parse(text) as unknown;
  }
}

function clockStateOf(value: unknown): ClockState {
  const { now, time_scale: timeScale } = (value ?? {}) as { now?: unknown; time_scale?: unknown };
  const epoch = typeof now === 'string' ? Date.parse(now) : typeof now === 'number' ? now : Number.NaN;
  if (!Number.isFinite(epoch) || typeof timeScale !== 'number' || !(timeScale > 0)) {
    throw new Error(`The test clock answered ${JSON.stringify(value)}, not {now, time_scale}`);
  }
  return { now: epoch, timeScale };
}

function faultStateOf(value: unknown): FaultState {
  const { available, active } = (value ?? {}) as { available?: unknown; active?: unknown };
  if (!Array.isArray(available) || !Array.isArray(active)) {
    throw new Error(`The fault switches answered ${JSON.stringify(value)}, not {available, active}`);
  }
  return { available: available.map(String), active: active.map(String) };
}
