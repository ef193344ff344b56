import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { memoryStream } from '../../test/support/memory-stream.js';
import { Output } from './output.js';
import { PROGRESS_MIN_BYTES, formatBytes, renderProgress, showsProgress, withProgress } from './progress.js';

function output(isTTY: boolean, options: { json?: boolean; quiet?: boolean } = {}) {
  const stderr = memoryStream(isTTY);
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
});

describe('withProgress', () => {
  it('passes every byte through unchanged and ends with the final state on its own line', async () => {
    const { output: out, stderr } = output(true);
    const chunks = ['hello ', 'progress ', 'bar'];
    const counted = withProgress(out, 'file.pdf', 18, Readable.from(chunks.map((chunk) => Buffer.from(chunk))));
    expect(await text(counted)).toBe('hello progress bar');
    expect(stderr.written()).toMatch(/\rfile\.pdf \[#{24}\] 100%  18 B \/ 18 B.*\n$/);
  });

  it('fails the stream when the file cannot be read', async () => {
    const { output: out } = output(true);
    const failing = new Readable({
      read() {
        this.destroy(new Error('EIO: disk gone'));
      },
    });
    await expect(text(withProgress(out, 'file.pdf', 10, failing))).rejects.toThrow('EIO: disk gone');
  });
});
