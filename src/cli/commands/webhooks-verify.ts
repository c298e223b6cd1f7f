/**
 * `boardkit webhooks verify --secret <s> --timestamp <t> --signature <sig> < body`: checks one captured
 * delivery, the body read from standard input as raw bytes. Exit code 0 when it verifies, 1 when the
 * receiver should refuse it (the status and the reason are printed), 2 on bad options.
 * @module
 */
import { Command } from 'commander';
import { couldNotRun } from '../webhook-exit.js';

interface VerifyOptions {
  secret?: string;
  timestamp?: string;
  signature?: string;
  legacy: boolean;
  now?: string;
}

async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) {
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export function webhooksVerifyCommand(): Command {
  return new Command('verify')
    .description('verify one captured delivery; the raw body is read from standard input')
    .option('--secret <secret>', 'the signing secret (required)')
    .option('--timestamp <unix>', 'the X-Service-Timestamp header as received')
    .option('--signature <sig>', 'the X-Service-Signature header as received (X-Mcp-Signature with --legacy)')
    .option('--legacy', 'a legacy per-key delivery: the HMAC of the body alone, no timestamp', false)
    .option('--now <unix>', 'judge the timestamp at this time instead of now (for a delivery captured earlier)')
    .action(async (options: VerifyOptions) => {
      try {
        if (options.secret === undefined || options.secret === '') {
          throw new Error('--secret is required');
        }
        if (options.now !== undefined && !/^\d+$/.test(options.now)) {
          throw new Error('--now must be Unix seconds');
        }
        const { describeVerdict, verifyCaptured } = await import('../../webhook-tools/verify.js');
        const input = {
          secret: options.secret,
          body: await readStdin(),
          signature: options.signature,
          timestamp: options.timestamp,
          legacy: options.legacy,
          ...(options.now === undefined ? {} : { now: Number(options.now) * 1000 }),
        };
        const verdict = verifyCaptured(input);
        process.stdout.write(describeVerdict(input, verdict));
        process.exitCode = verdict.result.ok ? 0 : 1;
      } catch (error) {
        couldNotRun('verify', error);
      }
    });
}
