import { describe, expect, it } from 'vitest';
import { BatchProgress } from './batch-progress.js';
import { Output } from './output.js';

/** An Output writing into strings; `tty` makes its stderr a terminal of 60 columns. */
function capture(tty: boolean) {
  const written = { stdout: '', stderr: '' };
  const stream = (name: 'stdout' | 'stderr') => ({ isTTY: tty, columns: 60, write: (text: string) => ((written[name] += text), true) }) as unknown as NodeJS.WriteStream;
  const output = new Output({ json: false, quiet: false, color: false, debug: false, stdout: stream('stdout'), stderr: stream('stderr') });
  return { output, written };
}

describe('BatchProgress', () => {
  it('off a terminal writes only the event lines, plain', () => {
    const { output, written } = capture(false);
    const progress = new BatchProgress(output, 2);
    progress.start('acme');
    progress.step('acme', 'create');
    progress.log('acme: envelope e1 created');
    progress.finish('acme', true);
    progress.log('globex: failed: no');
    progress.end();
    expect(written.stderr).toBe('acme: envelope e1 created\nglobex: failed: no\n');
  });

  it('on a terminal draws a bar and one line per envelope in flight, with its step and time', () => {
    let now = 0;
    const { output } = capture(true);
    const progress = new BatchProgress(output, 4, () => now);
    progress.start('acme');
    progress.start('globex');
    now = 3_200;
    progress.step('acme', 'upload:nda');
    progress.finish('globex', false);
    expect(progress.lines()).toEqual([`${'█'.repeat(6)}${'░'.repeat(18)} 1/4 done · 1 failed · 1 in flight`, '  › acme: upload:nda (3 s)']);
    progress.end();
  });

  it('redraws the block in place and keeps event lines above it; control characters are shown, not sent', () => {
    const { output, written } = capture(true);
    const progress = new BatchProgress(output, 1);
    progress.start('acme');
    progress.log('acme: uploaded evil\u001b[2J.pdf');
    progress.end();
    // Start: the block (bar + one line) drawn; the event: block cleared (2 lines up), line printed, block drawn again.
    expect(written.stderr.split('\u001b[2F\u001b[J')).toHaveLength(3);
    expect(written.stderr).toContain('acme: uploaded evil\\u001b[2J.pdf\n');
    expect(written.stderr).not.toContain('\u001b[2J');
  });
});
