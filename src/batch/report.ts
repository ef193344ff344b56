/** JUnit XML for CI dashboards: one test case per envelope, a failure with the code and message of what went wrong. */
import type { EntryOutcome } from './run.js';

const escapeXml = (text: string): string =>
  // Characters XML 1.0 cannot hold at all are dropped; the five specials are escaped.
  text.replace(/[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '').replace(/[<>&"']/g, (character) => `&#${character.charCodeAt(0)};`);

export function junitReport(outcomes: readonly EntryOutcome[], name = 'esign batch'): string {
  const failures = outcomes.filter((outcome) => !outcome.ok).length;
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  const total = outcomes.reduce((sum, outcome) => sum + outcome.durationMs, 0);
  const cases = outcomes.map((outcome) => {
    const attributes = `classname="esign.batch" name="${escapeXml(outcome.ref)}" time="${seconds(outcome.durationMs)}"`;
    const output = outcome.envelopeId ? `<system-out>${escapeXml(`envelope ${outcome.envelopeId} ${outcome.status ?? ''}`.trim())}</system-out>` : '';
    if (outcome.ok) return `    <testcase ${attributes}>${output}</testcase>`;
    const error = outcome.error ?? { code: 'FAILED', message: 'failed' };
    return `    <testcase ${attributes}>\n      <failure type="${escapeXml(error.code)}" message="${escapeXml(error.message)}">${escapeXml(`${error.code}: ${error.message}`)}</failure>${output}\n    </testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${escapeXml(name)}" tests="${outcomes.length}" failures="${failures}" time="${seconds(total)}">`,
    `  <testsuite name="${escapeXml(name)}" tests="${outcomes.length}" failures="${failures}" errors="0" skipped="0" time="${seconds(total)}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
