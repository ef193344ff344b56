import { ApiError, EsignError, ExitCode, UsageError } from '../../core/errors.js';
import { defineCommand, type GlobalOptions } from '../../cli/command.js';
import { shellQuote } from '../../core/shell-quote.js';
import { formatDuration, parseTimeLimit } from '../../input/duration.js';
import { parseWholeNumber } from '../../input/whole-number.js';
import { visible } from '../../output/sanitize.js';
import { runIdOf } from '../../input/run-id.js';

interface RunArgs {
  specs: string[];
  concurrency: number;
  journal?: string;
  resume?: boolean;
  report?: string;
  shard?: string;
  wait?: string;
  waitTimeout?: number;
  failFast?: boolean;
  confirmConversion?: boolean;
  force?: boolean;
  runId?: string;
  verbose?: boolean;
}

/** Some envelopes of the batch failed (exit 8); the summary lists which and why. */
class BatchPartialError extends EsignError {
  readonly exitCode = ExitCode.batchPartial;
  constructor(
    message: string,
    readonly details: unknown,
  ) {
    super(message);
    this.name = 'BatchPartialError';
  }
  get code(): string {
    return 'BATCH_PARTIAL';
  }
  override toJSON() {
    return { code: this.code, message: this.message, details: this.details };
  }
}

const defaultWaitMs = 30 * 60_000;
const defaultConcurrency = 4;


/** Envelopes in flight at once: each holds connections and file reads, so a run stays at 64 or fewer. */
const parseConcurrency = (value: string): number => parseWholeNumber(value, 1, 64);

/**
 * The command that continues this run, every word quoted for the shell: the same specs, profile, mode and options,
 * with --resume (and --force for a report this run wrote).
 */
function resumeCommandOf(args: RunArgs, globals: GlobalOptions): string {
  const words = ['esign', ...(globals.profile ? ['--profile', globals.profile] : []), ...(globals.live ? ['--live'] : []), 'batch', 'run', ...args.specs];
  if (args.journal) words.push('--journal', args.journal);
  if (args.shard) words.push('--shard', args.shard);
  if (args.concurrency !== defaultConcurrency) words.push('--concurrency', String(args.concurrency));
  if (args.wait) words.push('--wait', args.wait);
  if (args.waitTimeout !== undefined) words.push('--wait-timeout', parseTimeLimit(formatDuration(args.waitTimeout)) === args.waitTimeout ? formatDuration(args.waitTimeout) : `${args.waitTimeout}ms`);
  if (args.failFast) words.push('--fail-fast');
  if (args.confirmConversion) words.push('--confirm-conversion');
  if (args.report) words.push('--report', args.report, '--force');
  if (args.runId) words.push('--run-id', args.runId);
  if (args.verbose) words.push('--verbose');
  words.push('--resume');
  return words.map(shellQuote).join(' ');
}

export default defineCommand<RunArgs>({
  name: 'run',
  description: 'Send every envelope of the specs, a few at a time, exactly once: journalled, resumable, with a CI report',
  arguments: [{ name: 'specs', description: 'batch files, YAML streams of envelope specs, or spec files', variadic: true, completion: 'file' }],
  options: [
    { flags: '-c, --concurrency <n>', description: 'envelopes in flight at once', defaultValue: defaultConcurrency, parse: parseConcurrency },
    { flags: '--journal <file>', description: 'where each completed step is recorded (default: <first spec>.journal.jsonl)', completion: 'file' },
    { flags: '--resume', description: 'continue from the journal of an interrupted or failed run' },
    { flags: '--report <junit.xml>', description: 'write a JUnit XML report (one test case per envelope)', completion: 'file' },
    { flags: '--shard <i/n>', description: 'run only the i-th of n stable shares of the envelopes (by ref), for CI matrices' },
    { flags: '--wait <until>', description: 'after sending, wait until each envelope is sent or completed', choices: ['sent', 'completed'] },
    { flags: '--wait-timeout <duration>', description: `give up waiting after this long (default ${formatDuration(defaultWaitMs)})`, parse: parseTimeLimit },
    { flags: '--fail-fast', description: 'stop starting envelopes after the first failure' },
    { flags: '--confirm-conversion', description: 'accept the converted PDF of each .docx without asking' },
    { flags: '--force', description: 'replace an existing journal (starting over) or report' },
    { flags: '--run-id <id>', description: 'this run\'s id (else ESIGN_RUN_ID): the same id finds the envelopes it sent, a new one sends anew' },
    { flags: '--verbose', description: 'on failure, print every envelope\'s outcome, not one line per failed envelope' },
  ],
  examples: [
    'esign batch run examples/batch/onboarding.yaml --report junit.xml',
    'esign batch run batch.yaml --concurrency 8 --shard 2/3 --run-id "$GITHUB_RUN_ID" --wait sent',
    'esign batch run batch.yaml --resume',
  ],
  async handler(args, ctx) {
    const { entryInputFiles, readBatch } = await import('../../batch/entries.js');
    const { checkBatch } = await import('../../batch/check.js');
    const { planEntry, planText, planView } = await import('../../batch/plan.js');
    const { inShard, parseShard } = await import('../../batch/shard.js');
    const shard = args.shard ? parseShard(args.shard) : undefined;
    const journalPath = args.journal ?? (args.specs[0] && args.specs[0] !== '-' ? `${args.specs[0]}.journal.jsonl` : undefined);
    if (!journalPath) throw new UsageError('--journal is required when the batch comes from standard input.', 'Give a file: --journal batch.journal.jsonl.');
    if (!args.resume && !args.force) {
      const { stat } = await import('node:fs/promises');
      const exists = await stat(journalPath).then(() => true, () => false);
      if (exists) {
        throw new UsageError(
          `The journal ${journalPath} of an earlier run exists.`,
          `Continue that run with --resume, or pass --force to start over (a re-run sends nothing twice within the service's replay window).`,
          'JOURNAL_EXISTS',
        );
      }
    }
    const { holdMemoryForTheRun, journalRunId, loadJournal, runBatch } = await import('../../batch/run.js');
    await holdMemoryForTheRun();
    const batch = await readBatch(args.specs, ctx.stdin);
    const entries = batch.filter((entry) => !shard || inShard(entry.ref, shard));
    const runId = args.resume ? await resumedRunId(journalPath, runIdOf(args.runId), journalRunId) : runIdOf(args.runId);
    const checked = await checkBatch(entries);
    // A .docx waits for its converted PDF to be accepted; with nobody to ask, its envelope would be created and then
    // stop at a draft. Said before anything is sent.
    if (!args.confirmConversion && !ctx.globals.yes && !ctx.prompts.canAsk) {
      const { DOCX_CONTENT_TYPE } = await import('../../workflows/upload.js');
      const unconfirmed = checked.flatMap((item) => (item.kind === 'envelope' ? item.loaded.files.filter((file) => file.contentType === DOCX_CONTENT_TYPE).map((file) => `${item.entry.ref}: ${file.file.path}`) : []));
      if (unconfirmed.length) {
        throw new UsageError(
          `Word documents wait for their converted PDF to be accepted, and there is no terminal to ask: ${unconfirmed.join(', ')}.`,
          'Add --confirm-conversion (or --yes) to accept each converted PDF, or export the documents as PDF.',
          'CONVERSION_NOT_CONFIRMED',
        );
      }
    }
    // The journal and the report are written while and after envelopes are sent: refuse a bad one before anything is.
    const { checkOutputTargets } = await import('../../files/atomic-file.js');
    const inputs = [...args.specs.filter((spec) => spec !== '-'), ...entryInputFiles(batch)];
    const journalTarget = { path: journalPath, options: { overwrite: true, inputs, label: `--journal ${journalPath}` } };
    const reportTarget = args.report ? { path: args.report, options: { overwrite: args.force === true, inputs, label: `--report ${args.report}` } } : undefined;
    await checkOutputTargets(reportTarget ? [journalTarget, reportTarget] : [journalTarget]);
    const items = [];
    for (const item of checked) items.push({ checked: item, plan: await planEntry(item, runId) });
    // readBatch refuses a batch of no envelope: only a shard can be empty.
    if (items.length === 0) {
      ctx.output.result({ ok: true, total: 0, succeeded: 0, failed: 0, envelopes: [] }, () => `No envelope in shard ${args.shard}.`);
      return;
    }
    if (ctx.globals.dryRun) {
      // Every envelope's requests, as `batch plan` shows them (less the steps a resumed run finds done); the client's
      // dry run would stop each envelope at its first request and count it as failed.
      const states = args.resume ? await loadJournal(journalPath, items.map((item) => item.plan), false) : undefined;
      const plans = items.map((item) => planView(item.plan, states?.get(item.plan.ref)?.done));
      ctx.output.info(`Dry run: nothing sent, no journal or report written. The requests of ${items.length} envelope${items.length === 1 ? '' : 's'}:`);
      ctx.output.result(plans, () => planText(plans, ctx.output.style.bold));
      return;
    }

    const client = await ctx.client();
    ctx.output.info(visible(`Running ${items.length} envelope${items.length === 1 ? '' : 's'}${shard ? ` (shard ${args.shard})` : ''}${runId === undefined ? '' : ` of run ${runId}`}, ${Math.min(args.concurrency, items.length)} at a time; journal ${journalPath}`));
    const outcomes = await runBatch(ctx, client, items, {
      concurrency: args.concurrency,
      journalPath,
      resume: args.resume === true,
      failFast: args.failFast === true,
      ...(args.wait ? { wait: args.wait as 'sent' | 'completed' } : {}),
      waitTimeoutMs: args.waitTimeout ?? defaultWaitMs,
      confirmConversion: args.confirmConversion === true,
      ...(runId === undefined ? {} : { runId }),
    });
    const { countOutcomes, junitReport, suiteName, verdictOf } = await import('../../batch/report.js');
    if (args.report) {
      const { writeFileAtomic } = await import('../../files/atomic-file.js');
      // Also after Ctrl-C: a CI step that uploads the report whatever happened finds what was done.
      await writeFileAtomic(args.report, junitReport(outcomes, suiteName(args.specs, args.shard)), { ...reportTarget!.options, finishAfterInterrupt: true });
    }

    const { interruption, InterruptedError } = await import('../../core/interrupt.js');
    const resumeCommand = resumeCommandOf({ ...args, ...(runId === undefined ? {} : { runId }) }, ctx.globals);
    const counts = countOutcomes(outcomes);
    const summary = { ok: counts.succeeded === counts.total, ...counts, ...(runId === undefined ? {} : { runId }), journal: journalPath, ...(args.report ? { report: args.report } : {}), envelopes: outcomes };
    // Said every time: these envelopes were not sent by this run, and a new run id is how to send new ones.
    const earlier = outcomes.filter((outcome) => outcome.earlierRun);
    if (earlier.length) {
      const { sendAnewHint } = await import('../../input/run-id.js');
      ctx.output.warn(visible(`${earlier.length} of ${outcomes.length} envelopes come from an earlier run ${runId === undefined ? 'of the same specs' : `with run id ${runId}`}; nothing new was created for them. ${sendAnewHint(runId)}`));
    }
    // Every outcome goes with --json or --verbose; a person reads the tally and one line per envelope that failed.
    const details = ctx.output.json || args.verbose ? summary : undefined;
    const tally = `${counts.succeeded} of ${counts.total} envelopes done, ${counts.failed} failed, ${counts.errors} error${counts.errors === 1 ? '' : 's'}, ${counts.skipped} skipped`;
    const failed = outcomes.filter((outcome) => !outcome.ok);
    if (!ctx.output.json) for (const outcome of failed.filter((each) => verdictOf(each) !== 'skipped')) ctx.output.warn(visible(`${outcome.ref}: ${outcome.error?.code}: ${outcome.error?.message}`));
    if (interruption.signal.aborted) {
      throw new InterruptedError(interruption.received!, `Stopped: ${tally}; the journal ${journalPath} records every step completed.`, `Continue with: ${resumeCommand}`, details);
    }
    const refusedKey = failed.find((outcome) => outcome.error?.status === 401)?.error;
    if (refusedKey) {
      // Exit 3 as for any command whose key is refused, with the key hint the entry point adds to a 401.
      throw new ApiError(401, refusedKey.code, `${refusedKey.message} The run stopped: ${counts.skipped} of ${outcomes.length} envelopes not started.`, details);
    }
    if (failed.length) {
      const error = new BatchPartialError(`${tally}.`, details);
      error.hint = `Fix what is reported, then continue with: ${resumeCommand}`;
      throw error;
    }
    ctx.output.result(summary, () =>
      outcomes.map((outcome) => `${ctx.output.style.green('✓')} ${visible(outcome.ref.padEnd(20))} ${outcome.envelopeId ?? ''} ${outcome.status ?? ''}${outcome.earlierRun ? ' (from an earlier run)' : ''}`).join('\n'),
      () => outcomes.flatMap((outcome) => (outcome.envelopeId ? [outcome.envelopeId] : [])),
    );
  },
});

/**
 * `--resume` continues the journalled run under the run id it was given: without --run-id that one, and a different
 * one is refused (its keys would be other keys, hence other envelopes).
 */
async function resumedRunId(journalPath: string, given: string | undefined, journalRunId: (path: string) => Promise<{ found: boolean; runId?: string }>): Promise<string | undefined> {
  const journal = await journalRunId(journalPath);
  if (!journal.found || given === undefined || given === journal.runId) return journal.runId ?? given;
  throw new UsageError(
    `--resume: the journal ${journalPath} records ${journal.runId === undefined ? 'a run without a run id' : `run ${journal.runId}`}, not run ${given}.`,
    journal.runId === undefined ? 'Resume without --run-id (and ESIGN_RUN_ID unset), or run with the new run id without --resume (--force over the journal): it sends new envelopes.' : `Resume with --run-id ${journal.runId}, or run with the new run id without --resume (--force over the journal): it sends new envelopes.`,
    'RUN_ID_MISMATCH',
  );
}
