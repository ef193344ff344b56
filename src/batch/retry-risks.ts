/**
 * What can still make a retry of a batch fail or send twice, said by `batch validate` and `batch plan` before anything
 * is sent. A retry with the same run id (a CI re-run, on a fresh runner, without the journal) finds every envelope of
 * the first run as long as each request is the same; what is not the same on a retry is listed here.
 */
import { IDEMPOTENCY_WINDOW_MS } from '../api/idempotency.js';
import { env } from '../core/env.js';
import type { CheckedEntry } from './check.js';

export interface RetryRisk {
  /** Where the spec says it (`batch.yaml:4:3`). */
  where: string;
  message: string;
  /** The envelopes it concerns. */
  refs: string[];
}

const REFS_NAMED = 3;

/** `runId`: the run id the run will have (`--run-id`, ESIGN_RUN_ID), if known. */
export function retryRisks(checked: readonly CheckedEntry[], runId: string | undefined, nowMs: number = Date.now()): RetryRisk[] {
  const risks = new Map<string, RetryRisk>();
  const add = (where: string, message: string, ref: string) => {
    const risk = risks.get(`${where}\n${message}`) ?? { where, message, refs: [] };
    risk.refs.push(ref);
    risks.set(`${where}\n${message}`, risk);
  };
  for (const item of checked) {
    const { entry } = item;
    const deadline = item.kind === 'envelope' ? item.loaded.deadline : item.deadline;
    if (deadline && 'at' in deadline && Date.parse(deadline.at) - nowMs < IDEMPOTENCY_WINDOW_MS) {
      add(
        entry.input.locate(['deadline']),
        `the deadline ${deadline.at} is less than 24 hours away: a retry after it is refused (a deadline must be in the future). A duration (7d) counts from each envelope's creation instead.`,
        entry.ref,
      );
    }
    if (entry.envNames?.length) {
      add(
        entry.input.locate([]),
        `reads ${entry.envNames.map((name) => `\${{ env.${name} }}`).join(', ')}: a retry where ${entry.envNames.length === 1 ? 'it has' : 'one has'} another value sends another envelope (the spec, hence its Idempotency-Key, differs).`,
        entry.ref,
      );
    }
  }
  const found = [...risks.values()];
  if (env.ci() && runId === undefined) {
    found.push({
      where: 'CI',
      message: 'this job has no run id: a re-run within 24 hours answers the envelopes of the first run instead of sending new ones. Give --run-id "$GITHUB_RUN_ID" (GitLab: "$CI_PIPELINE_ID"), or ESIGN_RUN_ID.',
      refs: checked.map((item) => item.entry.ref),
    });
  }
  return found;
}

/** One line per risk, naming a few of its envelopes. */
export function retryRiskLine(risk: RetryRisk, total: number): string {
  const refs = risk.refs.length === total && total > 1 ? 'every envelope' : `${risk.refs.slice(0, REFS_NAMED).join(', ')}${risk.refs.length > REFS_NAMED ? ` and ${risk.refs.length - REFS_NAMED} more` : ''}`;
  return `retry risk (${refs}): ${risk.where}: ${risk.message}`;
}
