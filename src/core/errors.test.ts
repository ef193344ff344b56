import { describe, expect, it } from 'vitest';
import { ApiError, exitCodeForStatus, NetworkError, UsageError } from './errors.js';

describe('exit codes (pins.md, "Exit codes")', () => {
  it.each([
    [401, 3],
    [403, 3],
    [404, 4],
    [409, 5],
    [413, 5],
    [422, 5],
    [429, 6],
    [500, 6],
    [503, 6],
    [400, 2],
  ])('status %i exits %i', (status, code) => {
    expect(exitCodeForStatus(status)).toBe(code);
    expect(new ApiError(status, 'X', 'x').exitCode).toBe(code);
  });
  it('usage errors exit 2 and network errors 7', () => {
    expect(new UsageError('bad').exitCode).toBe(2);
    expect(new NetworkError('down').exitCode).toBe(7);
  });
  it('serialises an API error as {status, code, message, details}', () => {
    expect(new ApiError(422, 'ANCHOR_NOT_FOUND', 'm', { anchors: [] }).toJSON()).toEqual({ status: 422, code: 'ANCHOR_NOT_FOUND', message: 'm', details: { anchors: [] } });
  });
});
