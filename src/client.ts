/**
 * A typed client of the Decision-Board API on openapi-fetch: paths, parameters, bodies and responses are
 * checked against the generated contract types at compile time.
 * @module
 */
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './generated/openapi.js';

export interface BoardClientOptions {
  /** The service's API base address (`{base_url}` in the contract), without a trailing `/v1`. */
  baseUrl: string;
  /** An API key, sent as `Authorization: Bearer <key>` (the contract's `bearerAuth` scheme). */
  apiKey: string;
  /**
   * Pins the date version (`YYYY-MM-DD`) requests are processed as, via `X-Service-API-Version`
   * (seed "Versioning" 4). Without it the workspace's current version applies.
   */
  apiVersion?: string;
}

export type BoardClient = Client<paths>;

export function createBoardClient(options: BoardClientOptions): BoardClient {
  const headers: Record<string, string> = { Authorization: `Bearer ${options.apiKey}` };
  if (options.apiVersion !== undefined) {
    headers['X-Service-API-Version'] = options.apiVersion;
  }
  return createClient<paths>({ baseUrl: options.baseUrl, headers });
}
