import { randomBytes } from 'node:crypto';
import { UsageError } from '../../core/errors.js';
import { defineCommand, collect } from '../../cli/command.js';
import { listenFailure } from '../../cli/listen-failure.js';
import { longestTimeLimitMs } from '../../input/time-limit.js';
import { parseWholeNumber } from '../../input/whole-number.js';
import { parseKey } from '../../shared/keys.js';
import type { Environment } from '../../emulator/options.js';
import { visible } from '../../output/sanitize.js';

interface EmulatorArgs {
  port: string;
  host: string;
  environment: Environment;
  key?: string[];
  printEnv?: boolean;
  state?: string;
  processingDelay: string;
  maxDocumentBytes: string;
  anchorSearch: boolean;
  anchorTimeLimit: string;
  messageLimit: string;
  envelopeQuota?: string;
  rateLimit?: string;
  faults?: string;
  webhookRetryDelays?: string;
  signedAddressTtl?: string;
  preloadDrafts?: string;
  preloadContacts?: string;
  seed: boolean;
}

function integer(value: string, flag: string, min = 0, max?: number): number {
  try {
    return parseWholeNumber(value, min, max);
  } catch (error) {
    throw new UsageError(`${flag} ${JSON.stringify(value)}: ${(error as Error).message}`);
  }
}

export function generateKey(environment: Environment): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const secret = [...randomBytes(24)].map((byte) => alphabet[byte % alphabet.length]).join('');
  return `em_${environment === 'production' ? 'live' : 'test'}_${secret}`;
}

export default defineCommand<EmulatorArgs>({
  name: 'emulator',
  description: 'Run a local, stateful emulator of the whole v4 API (no key or network needed)',
  options: [
    { flags: '--port <n>', description: 'port (0 picks a free one)', defaultValue: '8787' },
    { flags: '--host <host>', description: 'loopback address to listen on', defaultValue: '127.0.0.1' },
    { flags: '--environment <env>', description: 'which environment it plays', defaultValue: 'sandbox', choices: ['sandbox', 'production'] },
    { flags: '--key <key>', description: 'accepted API key (repeatable; default: one generated and printed)', parse: collect, acceptsKey: true },
    { flags: '--print-env', description: 'print `export ESIGN_..._BASE_URL=... ESIGN_API_KEY=...` for eval, then keep serving' },
    { flags: '--state <file>', description: 'keep state in this file across restarts (written atomically)', completion: 'file' },
    { flags: '--processing-delay <ms>', description: 'how long an uploaded document stays PROCESSING', defaultValue: '300' },
    { flags: '--max-document-bytes <n>', description: 'documents larger than this get 413 DOCUMENT_TOO_LARGE', defaultValue: String(25 * 1024 * 1024) },
    { flags: '--no-anchor-search', description: 'disable anchor search (503 ANCHOR_SEARCH_UNAVAILABLE)' },
    { flags: '--anchor-time-limit <ms>', description: 'anchor search time limit (422 DOCUMENT_TEXT_UNREADABLE past it)', defaultValue: '10000' },
    { flags: '--message-limit <n>', description: "account's message limit (invitations and reminders)", defaultValue: '1000' },
    { flags: '--envelope-quota <n>', description: 'envelopes the account may create (403 ENVELOPES_QUOTA_EXCEEDED past it)' },
    { flags: '--rate-limit <n/s>', description: 'account request ceiling, e.g. 50/s (429 with rate-limit headers)' },
    { flags: '--faults <spec>', description: 'inject faults on API routes, e.g. reset=0.1,503=0.05,429=0.05,latency=20' },
    { flags: '--webhook-retry-delays <ms,...>', description: 'webhook retry schedule in ms, e.g. 100,200 (tests)', hidden: true },
    { flags: '--signed-address-ttl <ms>', description: 'how long upload and download addresses stay valid (tests)', hidden: true },
    { flags: '--preload-drafts <n>', description: 'start with this many draft envelopes (bench)', hidden: true },
    { flags: '--preload-contacts <n>', description: 'start with this many contacts (bench)', hidden: true },
    { flags: '--no-seed', description: 'start with an empty account (no folders, team or templates)' },
  ],
  examples: ['esign emulator', 'esign emulator --port 0 --print-env > emulator.env &', 'esign emulator --faults reset=0.1,503=0.05 --state ./emulator.json'],
  async handler(args, ctx) {
    const { parseFaults, parseRateLimit } = await import('../../emulator/options.js');
    const { isLoopbackHost } = await import('../../shared/loopback.js');
    if (!isLoopbackHost(args.host)) throw new UsageError(`--host ${args.host} is not a loopback address.`, 'The emulator only listens on loopback, e.g. 127.0.0.1 or ::1.');
    const environment = args.environment;
    const keys = args.key?.length ? args.key : [generateKey(environment)];
    for (const key of keys) {
      const parsed = parseKey(key);
      if (!parsed) throw new UsageError('A --key value is not a valid key (<prefix>_test_<secret> or <prefix>_live_<secret>, secret of 16+ letters and digits).');
      if (parsed.mode !== environment) throw new UsageError(`A ${parsed.mode === 'production' ? 'live' : 'test'} key cannot be used with --environment ${environment}.`);
    }
    let faults;
    let rateLimit;
    try {
      faults = args.faults === undefined ? undefined : parseFaults(args.faults);
      rateLimit = args.rateLimit === undefined ? undefined : parseRateLimit(args.rateLimit);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    const port = integer(args.port, '--port', 0, 65535);
    const [{ startEmulator }, { StateFileError }] = await Promise.all([import('../../emulator/server.js'), import('../../emulator/store.js')]);
    const since = (savedAt: Date | undefined) => (savedAt ? `the last save (${savedAt.toISOString()})` : 'the start');
    // Said when it happens: a change the emulator cannot keep must not pass unnoticed until it stops.
    const reportSave = (failure: Error | undefined, savedAt: Date | undefined) => {
      if (failure) ctx.output.warn(visible(`${failure.message} The changes since ${since(savedAt)} are in memory only; each change tries to save again, and so does the stop.`));
      // A warning too, so that with --json (no info lines) the one above is never left standing.
      else ctx.output.warn(visible(`--state ${args.state}: saved again; the changes above are no longer at risk.`));
    };
    const started = startEmulator({
      // `[::1]`, as the address is written in a URL, is listened on as ::1.
      host: args.host.replace(/^\[(.*)\]$/, '$1'),
      port,
      environment,
      keys,
      processingDelayMs: integer(args.processingDelay, '--processing-delay', 0, longestTimeLimitMs),
      maxDocumentBytes: integer(args.maxDocumentBytes, '--max-document-bytes', 1),
      anchorSearch: args.anchorSearch,
      anchorTimeLimitMs: integer(args.anchorTimeLimit, '--anchor-time-limit', 1, longestTimeLimitMs),
      messageLimit: integer(args.messageLimit, '--message-limit'),
      ...(args.envelopeQuota ? { envelopeQuota: integer(args.envelopeQuota, '--envelope-quota') } : {}),
      ...(rateLimit ? { rateLimit } : {}),
      ...(faults ? { faults } : {}),
      ...(args.state ? { statePath: args.state, onStateSaveProblem: reportSave } : {}),
      ...(args.preloadDrafts ? { preloadDrafts: integer(args.preloadDrafts, '--preload-drafts') } : {}),
      ...(args.preloadContacts ? { preloadContacts: integer(args.preloadContacts, '--preload-contacts') } : {}),
      ...(args.signedAddressTtl ? { signedAddressTtlMs: integer(args.signedAddressTtl, '--signed-address-ttl', 1, longestTimeLimitMs) } : {}),
      ...(args.webhookRetryDelays ? { webhookRetryDelaysMs: args.webhookRetryDelays.split(',').map((delay) => integer(delay.trim(), '--webhook-retry-delays', 0, longestTimeLimitMs)) } : {}),
      seed: args.seed,
    });
    const emulator = await started.catch((error: unknown) => {
      throw error instanceof StateFileError ? new UsageError(error.message, error.hint, 'STATE_FILE_INVALID') : listenFailure(error, args.host, port);
    });
    const variable = environment === 'production' ? 'ESIGN_BASE_URL' : 'ESIGN_SANDBOX_BASE_URL';
    // The emulator's keys are made up for it and are what a person needs to use it: printed in full, once.
    ctx.output.revealSecretOnce(keys, () => {
      if (args.printEnv) {
        ctx.output.data(`export ${variable}=${emulator.url} ESIGN_API_KEY=${keys[0]}`);
      } else {
        ctx.output.result({ url: emulator.url, environment, keys }, () =>
          [`esign emulator (${environment}) listening on ${emulator.url}`, ...keys.map((key) => `key: ${key}`), `use it: export ${variable}=${emulator.url} ESIGN_API_KEY=${keys[0]}`].join('\n'),
        );
      }
    });
    // Runs until Ctrl-C or SIGTERM, then closes cleanly (exit 0: stopping a server is its normal end).
    const { interruption, InterruptedError } = await import('../../core/interrupt.js');
    await interruption.untilInterrupted();
    try {
      await emulator.close();
    } catch (error) {
      // Not a clean stop: what was not saved is lost, and the exit status says so.
      throw new InterruptedError(interruption.received!, visible(`Stopped by ${interruption.received!}, without saving the state: ${(error as Error).message} The changes since ${since(emulator.store.savedAt)} are lost.`));
    }
  },
});
