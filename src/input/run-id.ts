/**
 * Run identity (`--run-id`, ESIGN_RUN_ID) for the commands that create envelopes from specs: the Idempotency-Keys
 * derive from the run id and the spec, so the same run id gives the same envelopes (a CI retry, on any runner, in any
 * workspace, within the service's 24-hour replay window) and a new run id gives new ones. Without one, the spec alone
 * is the identity: running it again within 24 hours answers the envelopes of the first run.
 */
import { env } from '../core/env.js';
import { UsageError } from '../core/errors.js';

const RUN_ID_PATTERN = /^[\x21-\x7e]{1,200}$/;

/** `--run-id <id>`: 1 to 200 printable ASCII characters, no space (a CI run number, a pipeline id, a commit). */
function parseRunId(text: string, source = '--run-id'): string {
  if (RUN_ID_PATTERN.test(text)) return text;
  throw new UsageError(
    `${source} ${JSON.stringify(text)}: a run id is 1 to 200 printable ASCII characters, with no space.`,
    'Use the CI run number or pipeline id, e.g. --run-id "$GITHUB_RUN_ID" (GitLab: "$CI_PIPELINE_ID").',
    'RUN_ID_INVALID',
  );
}

/** The run id of this command: the option, else ESIGN_RUN_ID, else none; checked here so that its hint is shown. */
export function runIdOf(option: string | undefined): string | undefined {
  if (option !== undefined) return parseRunId(option);
  const fromEnv = env.runId();
  return fromEnv === undefined ? undefined : parseRunId(fromEnv, 'ESIGN_RUN_ID');
}

/** How to send anew, said wherever esign answers an envelope an earlier run created. */
export function sendAnewHint(runId: string | undefined, what = 'new envelopes'): string {
  return runId === undefined ? `To send ${what}, give the run an id of its own: --run-id <id> (or ESIGN_RUN_ID).` : `To send ${what}, give a new run id (this one is ${runId}).`;
}
