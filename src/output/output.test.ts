import { describe, expect, it } from 'vitest';
import { memoryStream } from '../../test/support/memory-stream.js';
import { UsageError } from '../core/errors.js';
import { Output } from './output.js';
import { Redactor, flushProtectedStream, protectStream } from './redact.js';

/** A memory stream behind the redactor: what it shows is what was written, held text included. */
function protectedMemoryStream(redactor: Redactor) {
  const memory = memoryStream();
  protectStream(memory.stream, redactor);
  return {
    stream: memory.stream,
    written: () => {
      flushProtectedStream(memory.stream);
      return memory.written();
    },
  };
}

function output(options: { json?: boolean; debug?: boolean } = {}) {
  const redactor = new Redactor();
  const stdout = protectedMemoryStream(redactor);
  const stderr = protectedMemoryStream(redactor);
  const out = new Output({ json: false, quiet: false, color: false, debug: false, ...options, stdout: stdout.stream, stderr: stderr.stream, redactor });
  return { out, stdout, stderr, redactor };
}

const key = 'em_test_TOPSECRETTOPSECRET9f2c';

describe('Output.error', () => {
  it("prints a server's message and details on one line each, escapes visible, key masked", () => {
    const { out, stderr, redactor } = output({ debug: true });
    redactor.registerSecret(key);
    const error = new Error('x');
    out.error({ status: 400, code: 'BAD', message: `bad key ${key}\u001b[2J\r✓ forged\nline`, details: { echo: `\u001b]0;title\u0007${key}` } }, undefined, error.stack);
    const lines = stderr.written().split('\n');
    expect(lines[0]).toBe('✗ 400 BAD: bad key em_test_…9f2c\\u001b[2J\\r✓ forged\\nline');
    expect(lines[1]).toBe('  echo: \\u001b]0;title\\u0007em_test_…9f2c');
    expect(lines.slice(2).every((line) => line === '' || /^\s+at /.test(line))).toBe(true);
  });

  it('keeps the line breaks of a list (its lines made visible when the error was made), and of nothing else', () => {
    const { out, stderr } = output();
    const list = new UsageError(['a.yaml:1:1: bad\u001b[31m', 'a.yaml:2:1: worse\nforged'], 'fix it\nforged hint', 'INPUT_INVALID');
    out.error({ ...list.toJSON(), lines: list.lines }, list.hint);
    out.error({ code: 'WAIT', message: 'ended (reason\n✓ forged)' });
    expect(stderr.written()).toBe(
      [
        '✗ INPUT_INVALID: a.yaml:1:1: bad\\u001b[31m',
        'a.yaml:2:1: worse\\nforged',
        '  hint: fix it\\nforged hint',
        '✗ WAIT: ended (reason\\n✓ forged)',
        '',
      ].join('\n'),
    );
  });
});

describe('Output colours', () => {
  it('colours stdout and stderr each as told: styling a command put in a message is taken out where stderr has none', () => {
    const stdout = memoryStream();
    const stderr = memoryStream();
    const out = new Output({ json: false, quiet: false, color: true, stderrColor: false, debug: false, stdout: stdout.stream, stderr: stderr.stream, redactor: new Redactor() });
    out.success(`Saved ${out.style.bold('nda.pdf')}`);
    out.result({ status: 'SENT' }, () => out.style.cyan('SENT'));
    expect(stderr.written()).toBe('✓ Saved nda.pdf\n');
    expect(stdout.written()).toBe('\u001b[36mSENT\u001b[39m\n');
  });
});

describe('Output.error details', () => {
  it('lists a short list of a detail, and counts a long one (--json has every entry)', () => {
    const { out, stderr } = output();
    out.error({ code: 'INTERRUPTED', message: 'Stopped.', details: { refs: ['a', 'b'], envelopes: Array.from({ length: 60 }, (_, index) => ({ ref: `e${index}`, status: 'NOT_STARTED' })) } });
    expect(stderr.written()).toBe('✗ INTERRUPTED: Stopped.\n  refs: ["a","b"]\n  envelopes: 60 entries (--json lists them)\n');
  });
});

describe('Output.revealSecretOnce', () => {
  it('prints the given secret in full once; everywhere else it stays masked', () => {
    const { out, stdout } = output({ json: true });
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    out.revealSecretOnce(secret, () => out.result({ secret }));
    out.result({ secret, other: 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0' });
    const [first, second] = stdout.written().split(/(?<=\})\n/);
    expect(JSON.parse(first!)).toEqual({ secret });
    expect(JSON.parse(second!)).toEqual({ secret: 'whsec_…LaSw', other: 'whsec_…cmV0' });
  });
});

describe('Output on a terminal that tells no width (0 columns: a pseudo-terminal nobody sized, as in CI)', () => {
  it('draws nothing in place: no redrawn block, and a spinner is plain lines', async () => {
    const stderr = memoryStream(true, 0);
    const out = new Output({ json: false, quiet: false, color: false, debug: false, stdout: memoryStream(false).stream, stderr: stderr.stream });
    expect(out.showsTransient).toBe(false);
    out.redraw(['batch [###.....] 3/8']);
    out.transient('nda.pdf [####....] 50%');
    const spinner = await out.spinner('Sending');
    spinner.update('Still sending');
    spinner.succeed('Sent');
    expect(stderr.written()).toBe('Sent\n');
  });

  it('draws on a terminal that tells its width', () => {
    const stderr = memoryStream(true, 30);
    const out = new Output({ json: false, quiet: false, color: false, debug: false, stdout: memoryStream(false).stream, stderr: stderr.stream });
    expect(out.showsTransient).toBe(true);
    out.redraw(['x'.repeat(40)]);
    expect(stderr.written()).toBe(`\r\u001b[J${'x'.repeat(29)}\n`);
  });
});
