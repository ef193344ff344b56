/** JUnit XML for CI dashboards: one test case per envelope, a failure with the code and message of what went wrong. */
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

export function junitReport(outcomes: readonly EntryOutcome[], name = 'esign batch'): string {
  const unfinished = (outcome: EntryOutcome) => !outcome.ok && UNFINISHED.has(outcome.error?.code ?? '');
  const skipped = outcomes.filter(unfinished).length;
  const failures = outcomes.filter((outcome) => !outcome.ok).length - skipped;
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  const total = outcomes.reduce((sum, outcome) => sum + outcome.durationMs, 0);
  const cases = outcomes.map((outcome) => {
    const attributes = `classname="esign.batch" name="${escapeXml(outcome.ref)}" time="${seconds(outcome.durationMs)}"`;
    const output = outcome.envelopeId ? `<system-out>${escapeXml(`envelope ${outcome.envelopeId} ${outcome.status ?? ''}`.trim())}</system-out>` : '';
    if (outcome.ok) return `    <testcase ${attributes}>${output}</testcase>`;
    const error = outcome.error ?? { code: 'FAILED', message: 'failed' };
    const verdict = unfinished(outcome)
      ? `<skipped message="${escapeXml(`${error.code}: ${error.message}`)}"/>`
      : `<failure type="${escapeXml(error.code)}" message="${escapeXml(error.message)}">${escapeXml(`${error.code}: ${error.message}`)}</failure>`;
    return `    <testcase ${attributes}>\n      ${verdict}${output}\n    </testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${escapeXml(name)}" tests="${outcomes.length}" failures="${failures}" skipped="${skipped}" time="${seconds(total)}">`,
    `  <testsuite name="${escapeXml(name)}" tests="${outcomes.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds(total)}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
