import { describe, expect, it } from 'vitest';
import { memoryStream } from '../../test/support/memory-stream.js';
import { Output } from './output.js';
import { formatBytes } from '../core/units.js';
import { PROGRESS_MIN_BYTES, progressReporter, renderProgress, showsProgress } from './progress.js';

function output(isTTY: boolean, options: { json?: boolean; quiet?: boolean; columns?: number } = {}) {
  const stderr = memoryStream(isTTY, options.columns);
  return { output: new Output({ json: false, quiet: false, color: false, debug: false, stderr: stderr.stream, stdout: memoryStream(false).stream, ...options }), stderr };
}

describe('renderProgress', () => {
  it('shows the bar, the share, bytes sent of the total and the rate', () => {
    expect(renderProgress({ label: 'nda.pdf', total: 10 * 1024 * 1024, sent: 5 * 1024 * 1024, elapsedMs: 2000 })).toBe(
      'nda.pdf [############............]  50%  5.0 MB / 10.0 MB  2.5 MB/s',
    );
  });

  it('has no rate before any time has passed and never goes past 100%', () => {
    expect(renderProgress({ label: 'a', total: 100, sent: 200, elapsedMs: 0 })).toBe('a [########################] 100%  200 B / 100 B');
  });
});

describe('formatBytes', () => {
  it('uses B, KB, MB and GB', () => {
    expect([512, 2048, 5 * 1024 * 1024, 3 * 1024 ** 3].map(formatBytes)).toEqual(['512 B', '2.0 KB', '5.0 MB', '3.0 GB']);
  });
});

describe('showsProgress', () => {
  it('only for files over 5 MB, on a terminal, without --json or --quiet', () => {
    expect(showsProgress(output(true).output, PROGRESS_MIN_BYTES + 1)).toBe(true);
    expect(showsProgress(output(true).output, PROGRESS_MIN_BYTES)).toBe(false);
    expect(showsProgress(output(false).output, PROGRESS_MIN_BYTES + 1)).toBe(false);
    expect(showsProgress(output(true, { json: true }).output, PROGRESS_MIN_BYTES + 1)).toBe(false);
    expect(showsProgress(output(true, { quiet: true }).output, PROGRESS_MIN_BYTES + 1)).toBe(false);
  });

  it('not on a terminal that tells no width (0 columns, an unsized pseudo-terminal in CI)', () => {
    expect(showsProgress(output(true, { columns: 0 }).output, PROGRESS_MIN_BYTES + 1)).toBe(false);
  });
});

describe('progressReporter', () => {
  it('draws the bytes sent and ends with the final state on its own line', () => {
    const { output: out, stderr } = output(true);
    let clock = 0;
    const report = progressReporter(out, 'file.pdf', 18, () => clock);
    report(6);
    clock += 1000;
    report(15);
    expect(stderr.written()).toMatch(/\rfile\.pdf \[#{20}\.{4}\]  83%  15 B \/ 18 B/);
    report(18);
    expect(stderr.written()).toMatch(/\rfile\.pdf \[#{24}\] 100%  18 B \/ 18 B.*\n$/);
  });

  it('redraws at most every 100 ms, but always draws the end', () => {
    const { output: out, stderr } = output(true);
    const report = progressReporter(out, 'file.pdf', 18, () => 0);
    report(6);
    const first = stderr.written();
    report(12);
    expect(stderr.written()).toBe(first);
    report(18);
    expect(stderr.written()).toMatch(/100%.*\n$/);
  });
});
