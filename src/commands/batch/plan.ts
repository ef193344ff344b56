import type { PlanView } from '../../batch/plan.js';
import { defineCommand } from '../../cli/command.js';

export default defineCommand<{ specs: string[] }>({
  name: 'plan',
  description: 'Validate, then print every request a run would send, in order, with the Idempotency-Key of each POST',
  arguments: [{ name: 'specs', description: 'batch files, YAML streams of envelope specs, or spec files (- reads standard input)', variadic: true, completion: 'file' }],
  examples: ['esign batch plan examples/batch/onboarding.yaml', 'esign batch plan batch.yaml --json | jq ".[0].requests"'],
  async handler(args, ctx) {
    const { readBatch } = await import('../../batch/entries.js');
    const { checkBatch } = await import('../../batch/check.js');
    const { planEntry, planText, planView } = await import('../../batch/plan.js');
    const checked = await checkBatch(await readBatch(args.specs, ctx.stdin));
    const plans: PlanView[] = [];
    for (const item of checked) plans.push(planView(await planEntry(item)));
    ctx.output.result(plans, () => planText(plans, ctx.output.style.bold));
  },
});
