import { UsageError } from '../../core/errors.js';
import { webhookEventTypes } from '../../shared/values.js';
import { defineCommand, type Context } from '../../cli/command.js';
import { interruption } from '../../core/interrupt.js';
import { listenFailure } from '../../cli/listen-failure.js';
import { readStdin } from '../../input/stdin.js';
import { parseWholeNumber } from '../../input/whole-number.js';
import { terminalJson, visible } from '../../output/sanitize.js';
import type { ListenerEvent } from '../../workflows/webhook-listener.js';
import { webhookSecretProblem } from '../../shared/webhook-secret.js';
import { pickId, webhookPick } from '../pick.js';
import { parseEvents, parseHttpUrl } from './view.js';

interface ListenArgs {
  port: number;
  secret?: string;
  secretStdin?: boolean;
  endpoint?: string;
  forwardTo?: string;
  events?: string[];
}

function parsePort(value: string): number {
  try {
    return parseWholeNumber(value, 0, 65535);
  } catch (error) {
    throw new Error(`a port: ${(error as Error).message} 0 picks any free port.`);
  }
}

/** Checked before listening: the verifying library would fail on each delivery instead, or as a crash. */
function checkSecret(secret: string, where: string, hint = 'A signing secret is whsec_ and the Base64 of at least 24 bytes; `esign webhooks create` and `rotate-secret` print one.'): string {
  const trimmed = secret.trim();
  const problem = webhookSecretProblem(trimmed);
  // The value is never echoed: it is a secret even when it is malformed.
  if (problem) throw new UsageError(`${where} is not a signing secret: it ${problem}.`, hint, 'WEBHOOK_SECRET_INVALID');
  return trimmed;
}

async function secretFor(args: ListenArgs, ctx: Context): Promise<{ secret: string; source: string }> {
  const given = [args.secret !== undefined, args.secretStdin, args.endpoint !== undefined].filter(Boolean).length;
  if (given > 1) throw new UsageError('Give the signing secret one way: --secret, --secret-stdin or --endpoint.');
  if (args.secret !== undefined) {
    ctx.output.warn('--secret puts the signing secret in the process list and the shell history; --secret-stdin or --endpoint <id> keep it out of both.');
    return { secret: checkSecret(args.secret, '--secret'), source: '--secret' };
  }
  if (args.secretStdin) return { secret: checkSecret(await readStdin(ctx.stdin, 'The signing secret'), '--secret-stdin input'), source: 'standard input' };
  if (args.endpoint === undefined && !ctx.prompts.canAsk) {
    throw new UsageError(
      'No signing secret: pass --endpoint <id>, --secret-stdin or --secret.',
      '`esign webhooks create` stores the secret of the endpoint it creates; `--endpoint <id>` uses it.',
      'WEBHOOK_SECRET_REQUIRED',
    );
  }
  const webhookId = await pickId(ctx, args.endpoint, webhookPick);
  const { credentialStore } = await import('../../auth/credential-store.js');
  const secret = await credentialStore.find({ webhookId });
  if (!secret) {
    throw new UsageError(
      `No signing secret stored for webhook endpoint ${webhookId} on this machine.`,
      `\`esign webhooks rotate-secret ${webhookId}\` makes a new one and stores it, or pass it with --secret-stdin.`,
      'WEBHOOK_SECRET_NOT_STORED',
    );
  }
  const checked = checkSecret(secret, `The stored secret of ${webhookId}`, `\`esign webhooks rotate-secret ${webhookId}\` makes a new one and stores it.`);
  return { secret: checked, source: `the stored secret of ${webhookId}` };
}

/** One line per event; everything in it but our own words comes from the delivery, so it is made visible. */
function describe(event: ListenerEvent, style: Context['output']['style']): string {
  const time = new Date(event.at).toLocaleTimeString('en-GB', { hour12: false });
  if (event.kind === 'rejected') return `${time}  ${style.red(`✗ rejected (${event.answer})`)}  ${visible(event.problem ?? '')}${event.webhookId ? `  webhook-id ${visible(event.webhookId)}` : ''}`;
  const parts = [time, visible(event.type ?? '?'), visible(event.envelopeId ?? '-'), visible(event.status ?? '-'), style.green('verified')];
  if (event.cancellationReason) parts.push(`reason ${terminalJson(event.cancellationReason)}`);
  if (event.kind === 'skipped') parts.push('skipped (not in --events)');
  if (event.forward) parts.push(event.answer === 200 ? `→ ${event.forward.status}` : style.red(`→ forward failed (${visible(String(event.forward.status ?? event.forward.error))}), answered 502`));
  parts.push(`webhook-id ${visible(event.webhookId ?? '?')}`);
  return parts.join('  ');
}

export default defineCommand<ListenArgs>({
  name: 'listen',
  description: 'Receive deliveries locally: verify each signature, print one line per event, forward verified ones',
  options: [
    { flags: '--port <n>', description: 'local port (127.0.0.1); 0 picks a free one', parse: parsePort, defaultValue: 4242 },
    { flags: '--endpoint <webhookId>', description: 'use the signing secret stored for this endpoint by `webhooks create` or `rotate-secret`' },
    { flags: '--secret-stdin', description: 'read the signing secret (whsec_…) from standard input' },
    { flags: '--secret <whsec>', description: 'the signing secret (shows in the process list and history; prefer the two above)' },
    { flags: '--forward-to <url>', description: 'forward each verified delivery (same headers and body) here; its answer decides ours' },
    { flags: '--events <list>', description: 'only these event kinds are printed and forwarded', parse: parseEvents, completion: { words: webhookEventTypes, list: true } },
  ],
  examples: [
    'esign webhooks listen --endpoint 8c2d… --forward-to http://localhost:3000/webhooks',
    'printf %s "$WHSEC" | esign webhooks listen --secret-stdin --port 4242 --json',
  ],
  async handler(args, ctx) {
    const forwardTo = args.forwardTo === undefined ? undefined : parseHttpUrl(args.forwardTo, '--forward-to', 'http://localhost:3000/webhooks');
    const { secret, source } = await secretFor(args, ctx);
    const { reachesListener, startWebhookListener } = await import('../../workflows/webhook-listener.js');
    const forwardsToItself = (port: number) =>
      new UsageError(
        `--forward-to ${JSON.stringify(args.forwardTo)} is the listener itself (127.0.0.1:${port}): each delivery would be forwarded to itself without end.`,
        'Forward to your application on another port, e.g. --forward-to http://localhost:3000/webhooks.',
        'FORWARD_TO_LISTENER',
      );
    if (forwardTo && args.port !== 0 && reachesListener(forwardTo, args.port)) throw forwardsToItself(args.port);
    const counts = { delivery: 0, rejected: 0, skipped: 0 };
    let listener;
    try {
      listener = await startWebhookListener({
        port: args.port,
        secret,
        forwardTimeoutMs: ctx.globals.timeout * 1000,
        ...(forwardTo ? { forwardTo } : {}),
        ...(args.events ? { events: args.events } : {}),
        onEvent: async (event) => {
          counts[event.kind]++;
          if (ctx.output.json) await ctx.output.line(terminalJson(event));
          else await ctx.output.line(describe(event, ctx.output.style));
        },
        onError: (error) => ctx.output.warn(visible(`A delivery could not be handled or shown: ${(error as Error).message ?? String(error)}`)),
      });
    } catch (error) {
      throw listenFailure(error, '127.0.0.1', args.port);
    }
    const port = Number(new URL(listener.url).port);
    if (forwardTo && reachesListener(forwardTo, port)) {
      await listener.close();
      throw forwardsToItself(port);
    }
    if (ctx.output.json) await ctx.output.line(JSON.stringify({ kind: 'listening', url: listener.url, secretFrom: source, forwardTo: forwardTo?.href ?? null }));
    else {
      ctx.output.info(`Listening on ${listener.url} with ${source}${forwardTo ? `, forwarding to ${forwardTo.href}` : ''}. Ctrl-C to stop.`);
    }
    // Runs until Ctrl-C or SIGTERM (main.ts turns the first into interruption.signal; a second one forces the exit),
    // then closes cleanly: stopping a listener is its normal end, exit 0.
    await interruption.untilInterrupted();
    await listener.close();
    ctx.output.info(`Stopped (${interruption.received}): ${counts.delivery} delivered, ${counts.rejected} rejected, ${counts.skipped} skipped.`);
  },
});
