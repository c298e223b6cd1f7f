/**
 * How a client reaches the service: its base address, the key, and the date version it pins.
 * @module
 */

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
