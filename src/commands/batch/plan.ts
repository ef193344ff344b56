import { defineCommand } from '../../cli/command.js';

export default defineCommand<{ specs: string[] }>({
  name: 'plan',
  description: 'Validate, then print every request a run would send, in order, with the Idempotency-Key of each POST',
  arguments: [{ name: 'specs', description: 'batch files, YAML streams of envelope specs, or spec files (- reads standard input)', variadic: true, completion: 'file' }],
  examples: ['esign batch plan examples/batch/onboarding.yaml', 'esign batch plan batch.yaml --json | jq ".[0].requests"'],
  async handler(args, ctx) {
    const { readBatch } = await import('../../batch/entries.js');
    const { checkBatch } = await import('../../batch/check.js');
    const { describeStep, planEntry } = await import('../../batch/plan.js');
    const checked = await checkBatch(await readBatch(args.specs, ctx.stdin));
    const plans: { ref: string; via: string; send: boolean; requests: Record<string, unknown>[] }[] = [];
    for (const item of checked) {
      const plan = await planEntry(item);
      plans.push({ ref: plan.ref, via: plan.via, send: plan.send, requests: plan.steps.map((step) => describeStep(step, plan)) });
    }
    ctx.output.result(plans, () =>
      plans
        .map((plan) =>
          [
            ctx.output.style.bold(`${plan.ref} (via ${plan.via}${plan.send ? '' : ', left as a draft'})`),
            ...plan.requests.map((request, index) => {
              const key = request.idempotencyKey ? `  Idempotency-Key: ${String(request.idempotencyKey)}` : '';
              const note = request.note ? `  (${String(request.note)})` : '';
              const body = request.body === null || request.body === undefined ? '' : `\n      ${typeof request.body === 'string' ? request.body : JSON.stringify(request.body)}`;
              return `  ${index + 1}. ${String(request.method)} ${String(request.path)}${key}${note}${body}`;
            }),
          ].join('\n'),
        )
        .join('\n\n'),
    );
  },
});
