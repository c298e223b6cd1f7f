/**
 * The server's internal errors, in one catalogue: each has a stable code, a message template and one class
 * (`InternalError`). They tell whoever starts or embeds the server about a refused option, a contract the
 * server cannot run or a broken invariant; `boardkit serve` prints the message and exits 2.
 *
 * They never reach a client as such: the app answers any error that is not a `ProblemError` with the
 * contract's `internal-error` problem (RFC 9457 section 3), and what a client is told comes from the
 * contract's problem catalogue (problems.ts). An internal error carries no HTTP status on purpose, so that
 * the framework's error mapping never mistakes it for a bad request.
 * @module
 */

const templates = {
  // Options of `boardkit serve` and of `startServer`.
  BOARDKIT_CONFIG_TIME_SCALE: (scale: number) => `time scale must be a positive number, got ${scale}`,
  BOARDKIT_CONFIG_TEST_CONTROL_CLOCK: () =>
    "the test control needs the server's scaled clock; start it without a clock of your own",
  BOARDKIT_CONFIG_FORWARD_URL: (reason: string) => `--forward-webhooks: ${reason}`,
  BOARDKIT_CONFIG_SEED: (source: string, problem: string) => `${source}: ${problem}`,
  BOARDKIT_CONFIG_FORWARD_NOT_LOOPBACK: (host: string, address: string) =>
    `--forward-webhooks: ${host} is ${address}; forwarding goes to a loopback address only`,
  BOARDKIT_CONFIG_LEGACY_WEBHOOK_URL_NOT_ABSOLUTE: (url: string) =>
    `the legacy webhook URL ${JSON.stringify(url)} is not an absolute URL`,
  BOARDKIT_CONFIG_LEGACY_WEBHOOK_URL_SCHEME: (url: string) =>
    `the legacy webhook URL ${JSON.stringify(url)} must be http or https`,
  BOARDKIT_CONFIG_LEGACY_WEBHOOK_UNKNOWN_KEY: (apiKey: string) =>
    `a legacy webhook is configured on an API key; ${apiKey.slice(0, 8)}… is not one this server has`,
  BOARDKIT_CONFIG_LEGACY_WEBHOOK_WHICH_KEY: () =>
    '--legacy-webhook URL needs exactly one --api-key; with several, write KEY=URL',
  BOARDKIT_CONFIG_STARTING_CREDITS: (credits: number) =>
    `a starting balance is a whole number of credits from 0, got ${credits}`,
  BOARDKIT_CONFIG_UNKNOWN_OPERATION: (operationId: string) => `the contract has no operation ${operationId}`,
  BOARDKIT_CONFIG_OPERATION_HANDLED: (operationId: string) => `${operationId} has a handler already`,

  // API keys (seed "Authentication"): the store keeps one environment per workspace.
  BOARDKIT_KEY_MALFORMED: (secret: string, formHint: string) =>
    `${JSON.stringify(secret.slice(0, 12))}… is not an API key: ${formHint}`,
  BOARDKIT_KEY_ENVIRONMENT_MIXED: (workspaceId: string, held: string, environment: string) =>
    `workspace ${workspaceId} holds ${held} keys; a ${environment} key cannot be added to it`,
  BOARDKIT_KEY_UNKNOWN_OR_EXPIRED: () => 'unknown or expired API key',

  // A contract the server cannot run.
  BOARDKIT_CONTRACT_NO_OPERATION_ID: (pointer: string) => `${pointer} has no operationId`,
  BOARDKIT_CONTRACT_REQUEST_MEDIA_TYPE: (pointer: string) =>
    `${pointer}: only application/json request bodies are supported`,
  BOARDKIT_CONTRACT_UNKNOWN_RATE_LIMIT_BUCKET: (operationId: string, bucket: string, known: string) =>
    `${operationId}: x-rate-limit-bucket ${bucket} is none of x-rate-limit-buckets (${known})`,
  BOARDKIT_CONTRACT_NO_PROBLEM_TYPE: (status: number) => `the problem catalogue has no entry for ${status}`,
  BOARDKIT_CONTRACT_MCP_TOOL_MISSING: (name: string) => `the contract's x-mcp-tools has no ${name}`,
  BOARDKIT_CONTRACT_MCP_TOOL_NO_PATH: (name: string) =>
    `the contract does not say where ${name} is served (endpoint.path)`,
  BOARDKIT_CONTRACT_MCP_SCHEMA_NOT_OBJECT: (pointer: string) =>
    `${pointer}: an MCP tool schema must be an object schema`,

  // The store was written by a later build.
  BOARDKIT_STORE_NEWER_SCHEMA: (applied: number, known: number) =>
    `the database was written by a newer boardkit (schema ${applied}, this build knows ${known})`,

  // Invariants of the request pipeline and the domain: reaching one is a bug of the server.
  BOARDKIT_PIPELINE_NOT_RUN: () => 'the request pipeline did not run',
  BOARDKIT_PIPELINE_NO_CALLER: () => 'this operation has no authenticated caller',
  BOARDKIT_PIPELINE_METHOD_NOT_OFFERED: () => 'a method that is not offered reached its handler',
  BOARDKIT_PIPELINE_IDEMPOTENT_ASYNC: (operationId: string) =>
    `${operationId} takes an Idempotency-Key, so its handler must answer synchronously`,
  BOARDKIT_RUN_NOT_IN_PROGRESS: (sessionId: string) => `no run in progress for ${sessionId}`,
  BOARDKIT_CONTROLS_NO_SNAPSHOT: () => "a data reset was asked for before the start's data was in",
  BOARDKIT_WEBHOOK_NO_OUTBOX_TARGET: (subscriptionId: string) =>
    `webhook subscription ${subscriptionId} has no outbox target`,
} as const satisfies Record<`BOARDKIT_${string}`, (...values: never[]) => string>;

export type InternalErrorCode = keyof typeof templates;

/** Every code of the catalogue, in catalogue order. */
export const internalErrorCodes = Object.keys(templates) as InternalErrorCode[];

/** An error of the catalogue; `code` names it for logs and tests, whatever its message says. */
export class InternalError extends Error {
  readonly code: InternalErrorCode;

  constructor(code: InternalErrorCode, message: string) {
    super(message);
    this.name = 'InternalError';
    this.code = code;
  }
}

/** The error of `code`, its message filled from the template; throw it where the rule is broken. */
export function internalError<Code extends InternalErrorCode>(
  code: Code,
  ...values: Parameters<(typeof templates)[Code]>
): InternalError {
  const template = templates[code] as (...args: Parameters<(typeof templates)[Code]>) => string;
  return new InternalError(code, template(...values));
}
