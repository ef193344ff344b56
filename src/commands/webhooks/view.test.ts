import { describe, expect, it } from 'vitest';
import { renderDelivery } from './view.js';

describe('renderDelivery', () => {
  it("shows a receiver's answer and the payload with their control characters made visible", () => {
    const text = renderDelivery({
      id: 'd1',
      eventType: 'ENVELOPE_VOIDED',
      attempts: [{ at: '2026-01-01T00:00:00Z', status: 500, durationMs: 3, error: 'reset\u001b[2J', responseBody: 'oops\r\u001b]0;title\u0007' }],
      payload: { data: { envelope: { id: 'e\u202e1', cancellationReason: 'x\u009b31m' } } },
    });
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
    expect(text).toContain('reset\\u001b[2J');
    expect(text).toContain('response: oops\\r\\u001b]0;title\\u0007');
    expect(text).toContain('"id": "e\\u202e1"');
  });
});
