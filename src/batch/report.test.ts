import { describe, expect, it } from 'vitest';
import { redactor } from '../output/redact.js';
import { junitReport } from './report.js';

describe('junitReport', () => {
  it('counts envelopes the run did not finish (not started, interrupted) as skipped, not as failures', () => {
    const xml = junitReport([
      { ref: 'done', ok: true, envelopeId: 'e1', status: 'SENT', participants: {}, durationMs: 1200 },
      { ref: 'bad', ok: false, participants: {}, error: { code: 'VALIDATION_ERROR', message: 'title: too long' }, durationMs: 300 },
      { ref: 'cut', ok: false, envelopeId: 'e3', participants: {}, error: { code: 'INTERRUPTED', message: 'stopped before it finished' }, durationMs: 500 },
      { ref: 'later', ok: false, participants: {}, error: { code: 'NOT_STARTED', message: 'not started: --fail-fast stopped the run' }, durationMs: 0 },
    ]);
    expect(xml).toContain('<testsuite name="esign batch" tests="4" failures="1" errors="0" skipped="2" time="2.000">');
    expect(xml).toMatch(/name="bad"[^]*?<failure type="VALIDATION_ERROR" message="title: too long">/);
    expect(xml).toMatch(/name="cut"[^]*?<skipped message="INTERRUPTED: stopped before it finished"\/>/);
    expect(xml).toMatch(/name="later"[^]*?<skipped message="NOT_STARTED: not started: --fail-fast stopped the run"\/>/);
    expect(xml.match(/<failure /g)).toHaveLength(1);
  });
});

describe('junitReport and the key in use', () => {
  it('masks the key a server echoed in an error message, hex-encoded or plain (CI uploads the report)', () => {
    const key = 'em_test_Zq7Lm2Xw9Rt4Kp8Vn3Hy5Bd';
    redactor.registerSecret(key);
    const hex = Buffer.from(key).toString('hex');
    const xml = junitReport([{ ref: 'nda', ok: false, participants: {}, error: { code: 'BAD_REQUEST', message: `bad key ${key} (${hex})` }, durationMs: 1 }]);
    expect(xml).not.toContain('Zq7Lm2Xw');
    expect(xml).not.toContain(hex.slice(16, 32));
    expect(xml).toContain('message="bad key em_test_…y5Bd (656d5f746573745f…)"');
  });
});
