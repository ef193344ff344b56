import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { redactor } from '../output/redact.js';
import { countOutcomes, junitReport, suiteName } from './report.js';
import type { EntryOutcome } from './run.js';

const outcomes: EntryOutcome[] = [
  { ref: 'done', ok: true, envelopeId: 'e1', status: 'SENT', participants: {}, durationMs: 1200 },
  { ref: 'bad', ok: false, participants: {}, error: { code: 'VALIDATION_ERROR', message: 'title: too long', status: 400 }, durationMs: 300 },
  { ref: 'cut', ok: false, envelopeId: 'e3', participants: {}, error: { code: 'INTERRUPTED', message: 'stopped before it finished' }, durationMs: 500 },
  { ref: 'later', ok: false, participants: {}, error: { code: 'NOT_STARTED', message: 'not started: --fail-fast stopped the run' }, durationMs: 0 },
  { ref: 'offline <&>', ok: false, participants: {}, error: { code: 'NETWORK_ERROR', message: 'connection refused', broken: true }, durationMs: 0 },
];

describe('junitReport', () => {
  it('counts envelopes the run did not finish as skipped, a broken exchange as an error, a refusal as a failure', () => {
    const xml = junitReport(outcomes, 'esign batch b.yaml (shard 1/2)');
    expect(xml).toContain('<testsuite name="esign batch b.yaml (shard 1/2)" tests="5" failures="1" errors="1" skipped="2" time="2.000">');
    expect(xml).toMatch(/name="bad"[^]*?<failure type="VALIDATION_ERROR" message="title: too long">/);
    expect(xml).toMatch(/name="cut"[^]*?<skipped message="INTERRUPTED: stopped before it finished"\/>/);
    expect(xml).toMatch(/name="later"[^]*?<skipped message="NOT_STARTED: not started: --fail-fast stopped the run"\/>/);
    expect(xml).toMatch(/name="offline &#60;&#38;&#62;"[^]*?<error type="NETWORK_ERROR" message="connection refused">/);
    expect(xml.match(/<failure /g)).toHaveLength(1);
  });

  it('counts as the summary counts', () => {
    expect(countOutcomes(outcomes)).toEqual({ total: 5, succeeded: 1, failed: 1, errors: 1, skipped: 2 });
  });

  it('names the suite after the spec files and the shard, so that merged reports tell the jobs of a matrix apart', () => {
    expect(suiteName(['examples/batch/onboarding.yaml', 'bulk-nda.yaml'], '2/3')).toBe('esign batch onboarding.yaml bulk-nda.yaml (shard 2/3)');
    expect(suiteName(['-'])).toBe('esign batch stdin');
  });

  // The schema the Jenkins xunit plugin validates against; xmllint comes with libxml2-utils (.ci/run installs it).
  const xsd = join(import.meta.dirname, '..', '..', 'test', 'fixtures', 'junit-10.xsd');
  const xmllint = spawnSync('xmllint', ['--version']).status === 0;
  it.skipIf(!xmllint && !process.env.CI)('is valid against the Jenkins xunit junit-10.xsd (xmllint --schema)', () => {
    expect(existsSync(xsd), `${xsd} is missing`).toBe(true);
    const file = join(mkdtempSync(join(tmpdir(), 'esign-junit-')), 'report.xml');
    writeFileSync(file, junitReport(outcomes, 'esign batch b.yaml (shard 1/2)'));
    const result = spawnSync('xmllint', ['--noout', '--schema', xsd, file], { encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
  });
});

describe('junitReport and the key in use', () => {
  it('masks the key a server echoed in an error message, hex-encoded or plain (CI uploads the report)', () => {
    const key = 'em_test_Zq7Lm2Xw9Rt4Kp8Vn3Hy5Bd';
    redactor.registerSecret(key);
    const hex = Buffer.from(key).toString('hex');
    const xml = junitReport([{ ref: 'nda', ok: false, participants: {}, error: { code: 'BAD_REQUEST', message: `bad key ${key} (${hex})` }, durationMs: 1 }], 'esign batch nda.yaml');
    expect(xml).not.toContain('Zq7Lm2Xw');
    expect(xml).not.toContain(hex.slice(16, 32));
    expect(xml).toContain('message="bad key em_test_…y5Bd (656d5f746573745f…)"');
  });
});
