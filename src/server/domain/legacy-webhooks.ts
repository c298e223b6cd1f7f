/**
 * The deprecated per-key webhook URL (seed "Legacy per-key webhook (deprecated)"; the contract's
 * `x-webhook-delivery.legacy` and `legacy.session.complete`): one URL on an API key, which hears
 * `session.complete` when a session started with that key finishes, signed over the body alone with the
 * key's `whsec_` secret (`X-Mcp-*` headers). No operation of the contract configures it; `boardkit serve
 * --legacy-webhook` does. It is a target of the same durable outbox as the subscriptions, so its
 * deliveries get the same retry schedule and URL guard; the breaker and the attempts listing belong to
 * subscriptions only, as the contract says.
 * @module
 */
import { retrySchedules, type RetrySchedule } from '../../webhooks/retry.js';
import { checkWebhookSecret, createWebhookSecret } from '../../webhooks/ids.js';
import type { WebhookOutbox } from '../../webhooks/outbox.js';
import type { Store } from '../ports/store.js';
import { keyPattern } from '../store/api-keys.js';
import { internalError } from '../core/internal-errors.js';

export interface LegacyWebhookSetting {
  /** The API key the URL is configured on. */
  apiKey: string;
  url: string;
  /** The signing secret to use; by default the key keeps the one it has, or gets a new one. */
  secret?: string;
}

export interface LegacyWebhook {
  /** The redacted key (`sk_test_...AbCd`). */
  keyHint: string;
  url: string;
  secret: string;
  /** `true` when this start chose the secret, which is then shown once; `false` when the store had it. */
  secretIsNew: boolean;
}

function checkUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw internalError('BOARDKIT_CONFIG_LEGACY_WEBHOOK_URL_NOT_ABSOLUTE', url);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw internalError('BOARDKIT_CONFIG_LEGACY_WEBHOOK_URL_SCHEME', url);
  }
}

/**
 * Sets the legacy URL of each key. The configuration stays in the store, so a restart without the flag
 * keeps delivering; a new URL replaces the old one and keeps the secret, unless another is given. All the
 * settings are saved together or, when one is refused, none: a refused start leaves nothing half-set.
 */
export function configureLegacyWebhooks(
  store: Store,
  outbox: WebhookOutbox,
  settings: readonly LegacyWebhookSetting[],
  schedule: RetrySchedule = retrySchedules.fourWaits,
): LegacyWebhook[] {
  return store.transaction(() =>
    settings.map(({ apiKey, url, secret }) => {
      const key = store.apiKeys.lookup(apiKey);
      if (key === undefined) {
        throw internalError('BOARDKIT_CONFIG_LEGACY_WEBHOOK_UNKNOWN_KEY', apiKey);
      }
      checkUrl(url);
      if (secret !== undefined) {
        checkWebhookSecret(secret, 'the legacy webhook secret');
      }
      const kept = outbox.getTarget(key.id)?.secret;
      const chosen = secret ?? kept ?? createWebhookSecret();
      outbox.saveTarget({
        id: key.id,
        kind: 'legacy',
        url,
        secret: chosen,
        events: ['session.complete'],
        workspaceId: key.workspaceId,
        // The contract does not show the legacy webhook's retries; it gets the subscriptions' schedule.
        schedule,
      });
      return { keyHint: key.hint, url, secret: chosen, secretIsNew: chosen !== kept };
    }),
  );
}

/**
 * Reads `--legacy-webhook` values: `KEY=URL`, or a bare `URL` when exactly one key is given. A key holds
 * only letters, digits and underscores, so the first `=` after it ends it.
 */
/** `KEY=URL`: a key of any published prefix form (`keyPattern`), then the URL. */
const keyAssignment = new RegExp(`^(${keyPattern.source.slice(1, -1)})=(.*)$`);

export function parseLegacyWebhookFlags(values: readonly string[], apiKeys: readonly string[]): LegacyWebhookSetting[] {
  return values.map((value) => {
    const match = keyAssignment.exec(value);
    if (match !== null) {
      return { apiKey: match[1] ?? '', url: match.at(-1) ?? '' };
    }
    const [only, ...others] = apiKeys;
    if (only === undefined || others.length > 0) {
      throw internalError('BOARDKIT_CONFIG_LEGACY_WEBHOOK_WHICH_KEY');
    }
    return { apiKey: only, url: value };
  });
}
