/**
 * How a batch run's envelopes are counted, and the JUnit XML report for CI dashboards: one test case per envelope. The
 * summary on the terminal, `--json` and the report count with the one verdictOf, so they never disagree. The XML is
 * valid against the Jenkins xunit `junit-10.xsd` (test/fixtures/junit-10.xsd; checked with xmllint in the tests).
 */
import { redactor } from '../output/redact.js';
import type { EntryOutcome } from './run.js';

/**
 * Text for the report, whose file CI uploads: the key in use masked in every spelling (a server's error message may
 * echo it), characters XML 1.0 cannot hold at all dropped, and the five specials escaped.
 */
const escapeXml = (text: string): string =>
  redactor
    .mask(text)
    .replace(/[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '').replace(/[<>&"']/g, (character) => `&#${character.charCodeAt(0)};`);

/** Envelopes the run never finished because it was stopped (Ctrl-C, --fail-fast): not failures of their own. */
const UNFINISHED = new Set(['NOT_STARTED', 'INTERRUPTED']);

/**
 * `failure`: the service refused the envelope or it ended badly (declined, voided); `error`: the exchange with the
 * service broke (network, unavailable, an answer esign cannot read), which a retry may get past; `skipped`: stopped
 * before it finished.
 */
export type Verdict = 'passed' | 'failure' | 'error' | 'skipped';

export function verdictOf(outcome: EntryOutcome): Verdict {
  if (outcome.ok) return 'passed';
  if (UNFINISHED.has(outcome.error?.code ?? '')) return 'skipped';
  return outcome.error?.broken ? 'error' : 'failure';
}

export interface OutcomeCounts {
  total: number;
  succeeded: number;
  failed: number;
  errors: number;
  skipped: number;
}

export function countOutcomes(outcomes: readonly EntryOutcome[]): OutcomeCounts {
  const verdicts = outcomes.map(verdictOf);
  const count = (verdict: Verdict) => verdicts.filter((each) => each === verdict).length;
  return { total: outcomes.length, succeeded: count('passed'), failed: count('failure'), errors: count('error'), skipped: count('skipped') };
}

/** `esign batch onboarding.yaml bulk-nda.yaml (shard 2/3)`: merged reports of a matrix tell their suites apart. */
export function suiteName(specs: readonly string[], shard?: string): string {
  const names = specs.map((spec) => (spec === '-' ? 'stdin' : (spec.split(/[\\/]/).pop() ?? spec)));
  return `esign batch ${names.join(' ')}${shard ? ` (shard ${shard})` : ''}`;
}

export function junitReport(outcomes: readonly EntryOutcome[], name: string): string {
  const counts = countOutcomes(outcomes);
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  const total = outcomes.reduce((sum, outcome) => sum + outcome.durationMs, 0);
  const cases = outcomes.map((outcome) => {
    const attributes = `classname="esign.batch" name="${escapeXml(outcome.ref)}" time="${seconds(outcome.durationMs)}"`;
    const output = outcome.envelopeId ? `<system-out>${escapeXml(`envelope ${outcome.envelopeId} ${outcome.status ?? ''}`.trim())}</system-out>` : '';
    const verdict = verdictOf(outcome);
    if (verdict === 'passed') return `    <testcase ${attributes}>${output}</testcase>`;
    const error = outcome.error ?? { code: 'FAILED', message: 'failed' };
    const element =
      verdict === 'skipped'
        ? `<skipped message="${escapeXml(`${error.code}: ${error.message}`)}"/>`
        : `<${verdict} type="${escapeXml(error.code)}" message="${escapeXml(error.message)}">${escapeXml(`${error.code}: ${error.message}`)}</${verdict}>`;
    return `    <testcase ${attributes}>\n      ${element}${output}\n    </testcase>`;
  });
  const tally = `tests="${counts.total}" failures="${counts.failed}" errors="${counts.errors}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    // junit-10.xsd has no `skipped` on <testsuites>: the suite carries it.
    `<testsuites name="${escapeXml(name)}" ${tally} time="${seconds(total)}">`,
    `  <testsuite name="${escapeXml(name)}" ${tally} skipped="${counts.skipped}" time="${seconds(total)}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
