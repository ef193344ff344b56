import { describe, expect, it } from 'vitest';
import { API_CALL_LOG_LENGTH, ApiCallLog } from './api-call-log.js';
import { isUuid } from '../shared/uuid.js';

const record = (log: ApiCallLog, number: number, keyPrefix = 'em_test_a') =>
  log.record('POST', `/v4/api/envelopes/${number}`, 'createEnvelope', 201, keyPrefix, Date.UTC(2026, 0, 1) + number);

describe('ApiCallLog', () => {
  it("lists one key's calls newest first, with the same ids each time", () => {
    const log = new ApiCallLog();
    for (let number = 0; number < 6; number++) record(log, number, number % 2 ? 'em_test_b' : 'em_test_a');
    const listed = log.madeWith('em_test_a', 100).calls;
    expect(listed.map((call) => call.path)).toEqual(['/v4/api/envelopes/4', '/v4/api/envelopes/2', '/v4/api/envelopes/0']);
    expect(listed[0]).toMatchObject({ method: 'POST', operationId: 'createEnvelope', status: 201, keyPrefix: 'em_test_a', at: '2026-01-01T00:00:00.004Z' });
    expect(listed.every((call) => isUuid(call.id))).toBe(true);
    expect(new Set(log.toJSON().map((call) => call.id)).size).toBe(6);
    expect(log.madeWith('em_test_a', 100).calls).toEqual(listed);
  });

  it('pages by call number: calls made between two pages neither repeat nor skip a call', () => {
    const log = new ApiCallLog();
    for (let number = 0; number < 7; number++) record(log, number);
    const first = log.madeWith('em_test_a', 3);
    expect(first.calls.map((call) => call.path)).toEqual(['/v4/api/envelopes/6', '/v4/api/envelopes/5', '/v4/api/envelopes/4']);
    expect(first.more).toBe(true);
    record(log, 7);
    const second = log.madeWith('em_test_a', 3, first.last);
    expect(second.calls.map((call) => call.path)).toEqual(['/v4/api/envelopes/3', '/v4/api/envelopes/2', '/v4/api/envelopes/1']);
    const third = log.madeWith('em_test_a', 3, second.last);
    expect([third.calls.map((call) => call.path), third.more]).toEqual([['/v4/api/envelopes/0'], false]);
    expect(log.madeWith('em_test_a', 1, 0)).toEqual({ calls: [], last: -1, more: false });
  });

  it(`keeps the last ${API_CALL_LOG_LENGTH} calls`, () => {
    const log = new ApiCallLog();
    for (let number = 0; number < API_CALL_LOG_LENGTH + 500; number++) record(log, number);
    const listed = log.madeWith('em_test_a', API_CALL_LOG_LENGTH + 1).calls;
    expect(listed).toHaveLength(API_CALL_LOG_LENGTH);
    expect([listed[0]!.path, listed.at(-1)!.path]).toEqual([`/v4/api/envelopes/${API_CALL_LOG_LENGTH + 499}`, '/v4/api/envelopes/500']);
  });

  it('comes back from its saved form as it was, ids included, and goes on from there', () => {
    const log = new ApiCallLog();
    for (let number = 0; number < API_CALL_LOG_LENGTH + 3; number++) record(log, number);
    const saved = JSON.parse(JSON.stringify(log)) as ReturnType<ApiCallLog['toJSON']>;
    const restored = ApiCallLog.from(saved);
    expect(restored.toJSON()).toEqual(saved);
    record(restored, 9999);
    expect(restored.madeWith('em_test_a', API_CALL_LOG_LENGTH).calls.slice(1)).toEqual(saved.slice(1).reverse());
  });
});
