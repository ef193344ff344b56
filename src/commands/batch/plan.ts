import type { PlanView } from '../../batch/plan.js';
import { defineCommand } from '../../cli/command.js';
import { runIdOf } from '../../input/run-id.js';
import { visible } from '../../output/sanitize.js';

export default defineCommand<{ specs: string[]; shard?: string; runId?: string }>({
  name: 'plan',
  description: 'Validate, then print every request a run would send, in order, with the Idempotency-Key of each POST',
  arguments: [{ name: 'specs', description: 'batch files, YAML streams of envelope specs, or spec files (- reads standard input)', variadic: true, completion: 'file' }],
  options: [
    { flags: '--shard <i/n>', description: 'only the i-th of n stable shares of the envelopes, as batch run --shard sends them' },
    { flags: '--run-id <id>', description: 'the run id the run will have (else ESIGN_RUN_ID): the keys derive from it' },
  ],
  examples: ['esign batch plan examples/batch/onboarding.yaml', 'esign batch plan batch.yaml --shard 2/3 --run-id "$GITHUB_RUN_ID"', 'esign batch plan batch.yaml --json | jq ".[0].requests"'],
  async handler(args, ctx) {
    const { readBatch } = await import('../../batch/entries.js');
    const { checkBatch } = await import('../../batch/check.js');
    const { planEntry, planText, planView } = await import('../../batch/plan.js');
    const { inShard, parseShard } = await import('../../batch/shard.js');
    const { retryRiskLine, retryRisks } = await import('../../batch/retry-risks.js');
    const shard = args.shard ? parseShard(args.shard) : undefined;
    const runId = runIdOf(args.runId);
    const entries = (await readBatch(args.specs, ctx.stdin)).filter((entry) => !shard || inShard(entry.ref, shard));
    const checked = await checkBatch(entries);
    for (const risk of retryRisks(checked, runId)) ctx.output.warn(visible(retryRiskLine(risk, checked.length)));
    const plans: PlanView[] = [];
    for (const item of checked) plans.push(planView(await planEntry(item, runId)));
    ctx.output.result(plans, () => (plans.length ? planText(plans, ctx.output.style.bold) : `No envelope in shard ${args.shard}.`));
  },
});
