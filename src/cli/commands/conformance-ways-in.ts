/**
 * The options of `boardkit conformance` that let an implementation without the reference server's test
 * control be checked where that control would otherwise be needed: keys and a legacy webhook the
 * implementer set up beforehand, a receiver port fixed so a URL of it can be configured before the run,
 * and a real-time budget for following the target's own retry schedule (docs/conformance.md "Checkable
 * on any implementation").
 * @module
 */
export interface WaysInOptions {
  receiverPort?: string;
  realTimeBudget?: string;
  legacyWebhookKey?: string;
  legacyWebhookSecret?: string;
  rotatedKey?: string;
  expiredKey?: string;
}

export interface WaysIn {
  receiverPort?: number;
  realTimeBudgetMs?: number;
  profile: {
    legacyWebhook?: { key: string; secret: string };
    rotatedKey?: { old: string; fresh: string };
    expiredKey?: string;
  };
}

/** The options, flags and help, in the order `boardkit conformance --help` lists them. */
export const waysInOptions = {
  receiverPort: [
    '--receiver-port <port>',
    "the port the suite's receiver listens on (default: a free one); fixed when the target is configured with a URL of it beforehand",
  ],
  rotatedKey: ['--rotated-key <old=new>', 'a key rotated less than 23 hours ago, and the key its rotation issued'],
  expiredKey: ['--expired-key <key>', 'a key whose rotation is more than 24 hours past'],
  legacyWebhookKey: [
    '--legacy-webhook-key <key>',
    "a key whose legacy per-key webhook URL is the suite's receiver, http://HOST:PORT/legacy (--receiver-host, --receiver-port)",
  ],
  legacyWebhookSecret: ['--legacy-webhook-secret <whsec>', 'the whsec_ secret of that legacy webhook URL'],
  realTimeBudget: [
    '--real-time-budget <seconds>',
    "real time a check may follow the target's own retry schedule when its clock cannot be moved (default 30; 100 checks that a 2xx is not retried, the whole schedule and the pause need about 6000 with a --timeout above it)",
  ],
} as const satisfies Record<keyof WaysInOptions, readonly [string, string]>;

/** The ways in the options give, or a usage error. */
export function waysIn(options: WaysInOptions): WaysIn | string {
  const port = options.receiverPort === undefined ? undefined : Number(options.receiverPort);
  if (port !== undefined && !(Number.isInteger(port) && port > 0 && port < 65_536)) {
    return '--receiver-port takes a port number from 1 to 65535';
  }
  const budget = options.realTimeBudget === undefined ? undefined : Number(options.realTimeBudget);
  if (budget !== undefined && !(Number.isFinite(budget) && budget > 0)) {
    return '--real-time-budget takes a positive number of seconds';
  }
  if ((options.legacyWebhookKey === undefined) !== (options.legacyWebhookSecret === undefined)) {
    return '--legacy-webhook-key and --legacy-webhook-secret go together';
  }
  const rotated = options.rotatedKey === undefined ? undefined : /^(\S+?)=(\S+)$/.exec(options.rotatedKey);
  if (rotated === null) {
    return '--rotated-key takes OLD=NEW: the key rotated and the key its rotation issued';
  }
  return {
    ...(port === undefined ? {} : { receiverPort: port }),
    ...(budget === undefined ? {} : { realTimeBudgetMs: budget * 1000 }),
    profile: {
      ...(options.legacyWebhookKey === undefined || options.legacyWebhookSecret === undefined
        ? {}
        : { legacyWebhook: { key: options.legacyWebhookKey, secret: options.legacyWebhookSecret } }),
      ...(rotated === undefined ? {} : { rotatedKey: { old: rotated[1]!, fresh: rotated[2]! } }),
      ...(options.expiredKey === undefined ? {} : { expiredKey: options.expiredKey }),
    },
  };
}
