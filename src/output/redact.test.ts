import fc from 'fast-check';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { memoryStream } from '../../test/support/memory-stream.js';
import { Redactor, StreamRedactor, flushProtectedStream, protectStream } from './redact.js';

const keyShaped = /[a-z0-9]{2,8}_(test|live)_[A-Za-z0-9]{16,}/;
const webhookSecretShaped = /whsec_[A-Za-z0-9+/]{16,}/;

const alphanumeric = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789');
const lowerAlphanumeric = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789');
const arbitraryKey = fc
  .tuple(fc.string({ unit: lowerAlphanumeric, minLength: 2, maxLength: 8 }), fc.constantFrom('test', 'live'), fc.string({ unit: alphanumeric, minLength: 16, maxLength: 40 }))
  .map(([prefix, mode, secret]) => `${prefix}_${mode}_${secret}`);
const arbitraryWebhookSecret = fc
  .string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'), minLength: 16, maxLength: 44 })
  .map((secret) => `whsec_${secret}=`);
/** Text around secrets: prose, JSON punctuation, escapes and the characters keys are made of, to tempt joins. */
const filler = fc.string({ unit: fc.constantFrom(...'ab_9Z tes live_ "{}:,\n\r\u001b[m…é/+=-'), maxLength: 12 });
const textWithSecrets = fc.array(fc.tuple(filler, fc.oneof(arbitraryKey, arbitraryWebhookSecret)), { maxLength: 4 }).chain((pairs) =>
  filler.map((tail) => ({ text: pairs.map(([before, secret]) => before + secret).join('') + tail, secrets: pairs.map(([, secret]) => secret) })),
);

/** Cuts a text at the given positions. */
function cut(text: string, positions: number[]): string[] {
  const sorted = [...new Set(positions.map((position) => position % (text.length + 1)))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let start = 0;
  for (const position of sorted) {
    pieces.push(text.slice(start, position));
    start = position;
  }
  pieces.push(text.slice(start));
  return pieces;
}

function streamed(redactor: Redactor, pieces: readonly string[]): string {
  const stream = new StreamRedactor(redactor);
  return pieces.map((piece) => stream.push(piece)).join('') + stream.flush();
}

describe('Redactor.mask', () => {
  it('masks a key as <prefix>_test_…last4 and a webhook secret as whsec_…last4', () => {
    const redactor = new Redactor();
    expect(redactor.mask('key ab_test_SECRETSECRETwxyz here')).toBe('key ab_test_…wxyz here');
    expect(redactor.mask('{"secret":"whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"}')).toBe('{"secret":"whsec_…LaSw"}');
  });

  it('masks the registered key, and its secret part on its own', () => {
    const redactor = new Redactor();
    redactor.registerSecret('em_test_TOPSECRETTOPSECRETabcd');
    expect(redactor.mask('Bearer em_test_TOPSECRETTOPSECRETabcd; secret TOPSECRETTOPSECRETabcd')).toBe('Bearer em_test_…abcd; secret …abcd');
  });

  it('masks any 8 or more characters of the registered secret part, wherever they appear, and nothing shorter', () => {
    const redactor = new Redactor();
    redactor.registerSecret('em_test_abcdefghijklmnopqrstu');
    expect(redactor.mask('unknown key em_test_abcdefghij')).toBe('unknown key em_test_…');
    expect(redactor.mask('"(hijklmnopq)" and xfghijklmy')).toBe('"(…)" and x…y');
    expect(redactor.mask('abcdefg, ghijklm')).toBe('abcdefg, ghijklm');
  });

  it('masks the registered key in an altered form: another case, letter-spaced, zero-width characters between, base64', () => {
    const key = 'em_test_TopSecretTopSecret9f2c';
    const redactor = new Redactor();
    redactor.registerSecret(key);
    expect(redactor.mask(`upper ${key.toUpperCase()} lower ${key.toLowerCase()}`)).toBe('upper em_test_…9f2c lower em_test_…9f2c');
    expect(redactor.mask(`spaced: ${[...key].join(' ')}, end`)).toBe('spaced: em_test_…9f2c, end');
    expect(redactor.mask(`hidden: ${[...key].join('\u200b\u2060')}.`)).toBe('hidden: em_test_…9f2c.');
    expect(redactor.mask(`made visible: ${[...key].join('\\u200b')}.`)).toBe('made visible: em_test_…9f2c.');
    expect(redactor.mask(`secret part: ${[...'TopSecretTopSecret9f2c'].join(' ')}`)).toBe('secret part: …9f2c');
    for (const encoded of [Buffer.from(`Bearer ${key}`).toString('base64'), Buffer.from(key).toString('base64'), Buffer.from(`Bearer ${key}, again`).toString('base64')]) {
      const masked = redactor.mask(`header: ${encoded}`);
      expect(masked, encoded).not.toContain(encoded.slice(0, 24));
      expect(Buffer.from(masked.slice('header: '.length), 'base64').toString('latin1')).not.toContain('TopSecret');
    }
  });

  it('leaves letter-spaced text without a key as it is', () => {
    const redactor = new Redactor();
    redactor.registerSecret('em_test_TopSecretTopSecret9f2c');
    const text = 'S P A C E D   O U T   H E A D I N G and a b c d e f g h i j k l m n o p q';
    expect(redactor.mask(text)).toBe(text);
  });

  it('masks a key that the masking of another one left behind', () => {
    // The last four of the first key and the text after it form a second key.
    const text = 'ab_test_AAAAAAAAAAAAAAAAa1b2_test_BBBBBBBBBBBBBBBBBBBB';
    const masked = new Redactor().mask(text);
    expect(masked).not.toMatch(keyShaped);
    expect(masked).toBe('ab_test_…a1b2_test_…BBBB');
  });

  it('keeps JSON valid', () => {
    const document = { error: { message: 'bad key ab_live_SECRETSECRETSECRET1 and\nmore', details: { 'cd_test_KEYINANAMEKEYINANAME': ['whsec_c2VjcmV0c2VjcmV0c2VjcmV0'] } } };
    const masked = new Redactor().mask(JSON.stringify(document, null, 2));
    expect(masked).not.toMatch(keyShaped);
    expect(JSON.parse(masked)).toEqual({ error: { message: 'bad key ab_live_…RET1 and\nmore', details: { 'cd_test_…NAME': ['whsec_…cmV0'] } } });
  });

  it('property: no key-shaped text, webhook secret or registered secret survives, in JSON too', () => {
    fc.assert(
      fc.property(textWithSecrets, ({ text, secrets }) => {
        const redactor = new Redactor();
        for (const secret of secrets) if (!secret.startsWith('whsec_')) redactor.registerSecret(secret);
        for (const masked of [redactor.mask(text), redactor.mask(JSON.stringify({ text }))]) {
          expect(masked).not.toMatch(keyShaped);
          expect(masked).not.toMatch(webhookSecretShaped);
          for (const secret of secrets) expect(masked).not.toContain(secret.slice(-16));
        }
        expect(JSON.parse(redactor.mask(JSON.stringify({ text })))).toHaveProperty('text');
      }),
    );
  });

  it('property: text without key-shaped text passes unchanged', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (text) => {
        fc.pre(!keyShaped.test(text) && !webhookSecretShaped.test(text));
        expect(new Redactor().mask(text)).toBe(text);
      }),
    );
  });
});

describe('StreamRedactor (text written in pieces)', () => {
  it('masks a key cut in two writes', () => {
    const stream = new StreamRedactor(new Redactor());
    expect(stream.push('error: ab_te')).toBe('error: ');
    expect(stream.push('st_SECRETSECRETwxyz done\n')).toBe('ab_test_…wxyz done\n');
  });

  it('property: any cutting of any text gives the bytes of masking it whole', () => {
    fc.assert(
      fc.property(textWithSecrets, fc.array(fc.nat(), { maxLength: 20 }), ({ text, secrets }, positions) => {
        const redactor = new Redactor();
        if (secrets[0]) redactor.registerSecret(secrets[0]);
        const output = streamed(redactor, cut(text, positions));
        expect(output).toBe(redactor.mask(text));
        expect(output).not.toMatch(keyShaped);
        expect(output).not.toMatch(webhookSecretShaped);
      }),
    );
  });
});

describe('protectStream', () => {
  it('masks every write to the stream, writes held text on the next turn, and calls write callbacks', async () => {
    const { stream, written } = memoryStream();
    protectStream(stream, new Redactor());
    protectStream(stream, new Redactor());
    stream.write('spinner ab_test_SECR');
    stream.write(Buffer.from('ETSECRETwxyz'));
    let called = false;
    stream.write(' frame', () => (called = true));
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(written()).toBe('spinner ab_test_…wxyz frame');
    expect(called).toBe(true);
  });

  it('writes what one stream holds back before anything written to another, so a terminal they share sees them in order', () => {
    let screen = '';
    const terminal = () => new Writable({ write: (chunk, _encoding, done) => ((screen += String(chunk)), done()) }) as unknown as NodeJS.WriteStream;
    const [stdout, stderr] = [terminal(), terminal()];
    const redactor = new Redactor();
    protectStream(stdout, redactor);
    protectStream(stderr, redactor);
    stderr.write('✔ Delete envelope e1? Yes\n\u001b[?25h');
    stdout.write('Envelope e1 deleted.\n');
    stdout.write('count 42');
    stderr.write('\n! warned\n');
    expect(screen).toBe('✔ Delete envelope e1? Yes\n\u001b[?25hEnvelope e1 deleted.\ncount 42\n! warned\n');
  });

  it('shows a secret in full only inside withRevealed, once', () => {
    const { stream, written } = memoryStream();
    const redactor = new Redactor();
    protectStream(stream, redactor);
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    redactor.withRevealed([secret], () => stream.write(`secret: ${secret}`), () => flushProtectedStream(stream));
    stream.write(`\nagain: ${secret}\n`);
    expect(written()).toBe(`secret: ${secret}\nagain: whsec_…LaSw\n`);
  });
});
