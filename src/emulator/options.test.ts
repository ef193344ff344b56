import { describe, expect, it } from 'vitest';
import { parseFaults } from './options.js';

describe('parseFaults', () => {
  it('reads every fault the emulator can inject', () => {
    expect(parseFaults('reset=0.1, 503=.05,429=0.5 ,latency=20,upload-latency=5000')).toEqual({
      reset: 0.1,
      unavailable: 0.05,
      rateLimited: 0.5,
      latencyMs: 20,
      uploadLatencyMs: 5000,
    });
    expect(parseFaults('503=0,429=1,latency=0')).toMatchObject({ unavailable: 0, rateLimited: 1, latencyMs: 0 });
    // Exactly 1, though its sum in binary fractions is not.
    expect(parseFaults('reset=0.34,503=0.56,429=0.1')).toMatchObject({ reset: 0.34, unavailable: 0.56, rateLimited: 0.1 });
  });

  it.each([
    ['latency=', 'latency is whole milliseconds'],
    ['latency=0x10', 'latency is whole milliseconds'],
    ['latency=1e3', 'latency is whole milliseconds'],
    ['latency=2.5', 'latency is whole milliseconds'],
    ['upload-latency=99999999', 'upload-latency is whole milliseconds up to 60000'],
    ['reset=', 'reset is a probability from 0 to 1'],
    ['reset=1.5', 'reset is a probability from 0 to 1'],
    ['503=-0.1', '503 is a probability'],
    ['429=Infinity', '429 is a probability'],
    ['reset=0.1=2', 'reset is a probability'],
    ['reset', 'reset is a probability'],
    ['timeout=5', 'unknown fault "timeout"'],
    ['reset=0.6,503=0.6', 'add up to more than 1'],
    ['reset=0.5,503=0.5,429=0.001', 'add up to more than 1'],
    ['reset=0.5,reset=0.6', 'reset is given twice'],
    ['', 'give at least one name=value'],
    [' , ', 'give at least one name=value'],
  ])('refuses %s, saying what is wrong', (spec, message) => {
    expect(() => parseFaults(spec)).toThrow(message);
  });
});
