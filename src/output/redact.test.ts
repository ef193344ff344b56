import fc from 'fast-check';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { keyEncodings, recoveredWindows, type KeyEncoding } from '../../test/support/key-encodings.js';
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
    expect(redactor.mask('Bearer em_test_TOPSECRETTOPSECRETabcd; part TOPSECRETTOPSECRETabcd')).toBe('Bearer em_test_…abcd; part …abcd');
  });

  it('masks any 8 or more characters of the registered secret part, wherever they appear, and nothing shorter', () => {
    const redactor = new Redactor();
    redactor.registerSecret('em_test_abcdefghijklmnopqrstu');
    expect(redactor.mask('unknown key em_test_abcdefghij')).toBe('unknown key em_test_…');
    expect(redactor.mask('"(hijklmnopq)" and xfghijklmy')).toBe('"(…)" and x…y');
    expect(redactor.mask('abcdefg, mnopqrs')).toBe('abcdefg, mnopqrs');
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

  it('masks a webhook secret written right after a key, or holding the secret part of the registered key', () => {
    // Found by the property below: masking the key first cut the `whsec_` (or the base64) and left the rest whole.
    const text = 'aa_test_pertyIsEnumerAblwhsec_pertyIsEnumerAblAAAAAAAAAAAAAAAA=';
    expect(new Redactor().mask(text)).toBe('aa_test_…hsec_…AAA=');
    const redactor = new Redactor();
    redactor.registerSecret('aa_test_pertyIsEnumerAbl');
    expect(redactor.mask(text)).toBe('aa_test_…rAblwhsec_…AAA=');
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
  it('masks a key cut in two writes: what is written is held until flushed', () => {
    const stream = new StreamRedactor(new Redactor());
    expect(stream.push('error: ab_te')).toBe('');
    expect(stream.push('st_SECRETSECRETwxyz done\n')).toBe('');
    expect(stream.flush()).toBe('error: ab_test_…wxyz done\n');
  });

  it('gives back the text up to its last line end once more than 1 MiB is held', () => {
    const stream = new StreamRedactor(new Redactor());
    const line = `${'x'.repeat(1023)}\n`;
    expect(stream.push(line.repeat(1024))).toBe('');
    expect(stream.push('ab_test_SECRETSECRETwxyz')).toBe(line.repeat(1024));
    expect(stream.flush()).toBe('ab_test_…wxyz');
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
    flushProtectedStream(stderr);
    expect(screen).toBe('✔ Delete envelope e1? Yes\n\u001b[?25hEnvelope e1 deleted.\ncount 42\n! warned\n');
  });

  it('shows a secret in full only inside withRevealed, once', () => {
    const { stream, written } = memoryStream();
    const redactor = new Redactor();
    protectStream(stream, redactor);
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    redactor.withRevealed([secret], () => stream.write(`secret: ${secret}`), () => flushProtectedStream(stream));
    stream.write(`\nagain: ${secret}\n`);
    flushProtectedStream(stream);
    expect(written()).toBe(`secret: ${secret}\nagain: whsec_…LaSw\n`);
  });
});

describe('Redactor.mask: the key in use under the encodings a server can wrap around it', () => {
  const arbitrarySecretKey = fc
    .tuple(fc.string({ unit: lowerAlphanumeric, minLength: 2, maxLength: 8 }), fc.string({ unit: alphanumeric, minLength: 20, maxLength: 40 }))
    .map(([prefix, secret]) => `${prefix}_test_${secret}`);
  /** Text a server puts around a value: prose, markup, escapes, digits; never the secret by chance. */
  const surrounding = fc.string({ unit: fc.constantFrom(...'ab 9Z:,.-_/%&#;<>\\"\n…é'), maxLength: 10 });

  /** The key spelt by `encoding` with text around it, alone or as a value of a JSON document. */
  function served(key: string, encoding: KeyEncoding, before: string, after: string, inJson: boolean): string {
    const encoded = encoding.encode(key);
    if (encoding.rawJson) return `{"before":${JSON.stringify(before)},"value":${encoded},"after":${JSON.stringify(after)}}`;
    return inJson ? JSON.stringify({ before, value: `${before}${encoded}${after}`, after }, null, 2) : `${before}${encoded}${after}`;
  }

  for (const encoding of keyEncodings) {
    it(`masks the key spelt as ${encoding.name}, and keeps JSON valid`, () => {
      const key = 'em_test_Zq7Lm2Xw9Rt4Kp8Vn3Hy5Bd';
      const redactor = new Redactor();
      redactor.registerSecret(key);
      const text = served(key, encoding, 'echo: ', ' (end)', true);
      expect(recoveredWindows(text, key, encoding), 'the encoding gives the key back unmasked').not.toEqual([]);
      const masked = redactor.mask(text);
      expect(recoveredWindows(masked, key, encoding)).toEqual([]);
      expect(() => JSON.parse(masked) as unknown).not.toThrow();
    });
  }

  it('property: no eight characters of the secret part come back from any encoding, with any text around; JSON stays valid', () => {
    fc.assert(
      fc.property(arbitrarySecretKey, fc.constantFrom(...keyEncodings), surrounding, surrounding, fc.boolean(), (key, encoding, before, after, inJson) => {
        const redactor = new Redactor();
        redactor.registerSecret(key);
        const text = served(key, encoding, before, after, inJson);
        const masked = redactor.mask(text);
        expect(recoveredWindows(masked, key, encoding)).toEqual([]);
        if (inJson || encoding.rawJson) expect(() => JSON.parse(masked) as unknown).not.toThrow();
      }),
      { numRuns: 500 },
    );
  });

  it('property: text that does not hold the key passes unchanged, in any encoding of anything else', () => {
    fc.assert(
      fc.property(arbitrarySecretKey, fc.constantFrom(...keyEncodings), fc.string({ unit: 'binary', maxLength: 60 }), (key, encoding, other) => {
        const redactor = new Redactor();
        redactor.registerSecret(key);
        const text = `${other} ${encoding.encode(other)} ${encoding.encode('em_test_an other key 1234567890')}`;
        fc.pre(!keyShaped.test(text) && !webhookSecretShaped.test(text));
        expect(redactor.mask(text)).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  it('masks pieces of the secret spread over the cells of a table, in any order, once together they hold eight in a row', () => {
    const redactor = new Redactor();
    redactor.registerSecret('em_test_Zq7Lm2Xw9Rt4Kp8Vn3Hy5Bd');
    expect(redactor.mask('Account  Xw9Rt4K (em_test)\nUser     _Zq7Lm2 <p8Vn3Hy@x>')).toBe('Account  … (em_test)\nUser     _…@x>');
    expect(redactor.mask('Account  p8Vn3Hy\nUser     Xw9Rt4K')).toBe('Account  …\nUser     …');
    expect(redactor.mask('Account  Xw9Rt4 / n3Hy5Bd')).toBe('Account  Xw9Rt4 / n3Hy5Bd');
  });

  it('masks pieces that stand at the later place of a run the secret repeats, beside the piece that continues them', () => {
    const redactor = new Redactor();
    // 'abcd' stands at 0 and at 8: only at 8 does 'QRST' continue it.
    redactor.registerSecret('em_test_abcdWXYZabcdQRSTmnop');
    expect(redactor.mask('{"id":"abcd","name":"QRST"}')).toBe('{"id":"…","name":"…"}');
    expect(redactor.mask('Account  QRST\nUser     abcd')).toBe('Account  …\nUser     …');
    // Not neighbours: a word between them on one line, or the same place twice.
    expect(redactor.mask('abcd then QRST')).toBe('abcd then QRST');
    expect(redactor.mask('abcd abcd, abcd')).toBe('abcd abcd, abcd');
  });

  it("leaves esign's own messages alone when a secret repeats a word they use, and a mask's shown letters", () => {
    const revoked = new Redactor();
    revoked.registerSecret('em_test_REVOKEDREVOKED7777');
    const hint = 'The test key em_test_…7777 from ESIGN_API_KEY was refused. If it was revoked or mistyped, set another.';
    expect(revoked.mask(hint)).toBe(hint);
    const live = new Redactor();
    live.registerSecret('em_live_LIVELIVELIVELIVE1234');
    const message = 'The key from the test key input is a live key, but this command needs a test key.\n  hint: Read it with --live-key-stdin instead';
    expect(live.mask(message)).toBe(message);
    // The shown letters after a `…` are a mask's; beside a piece that is not, the piece alone is still a piece.
    expect(revoked.mask('{"a":"REVOKED","b":"REVOKED"}')).toBe('{"a":"…","b":"…"}');
  });

  it('masks the 7-character pieces of a key made mostly of one letter (found by the property below)', () => {
    const pieces = keyEncodings.find((encoding) => encoding.name === '7-character pieces across JSON fields')!;
    for (const key of ['aa_test_AAAAAAAAAAAAAlAAAAAr', 'aaaaaa_test_AAAAAAAsEnumerAAsEnumerAAAAAAeA']) {
      const redactor = new Redactor();
      redactor.registerSecret(key);
      const text = served(key, pieces, 'before', 'after', true);
      expect(recoveredWindows(text, key, pieces), 'the encoding gives the key back unmasked').not.toEqual([]);
      expect(recoveredWindows(redactor.mask(text), key, pieces), key).toEqual([]);
    }
  });

  it('does not mask the key while it is revealed, in any spelling', () => {
    const key = 'em_test_Zq7Lm2Xw9Rt4Kp8Vn3Hy5Bd';
    const redactor = new Redactor();
    redactor.registerSecret(key);
    const hex = Buffer.from(key).toString('hex');
    const { stream, written } = memoryStream();
    protectStream(stream, redactor);
    redactor.withRevealed([key], () => stream.write(`${hex}\n`), () => flushProtectedStream(stream));
    stream.write(`${hex}\n`);
    flushProtectedStream(stream);
    expect(written().split('\n').slice(0, 2)).toEqual([hex, `${hex.slice(0, 16)}…`]);
  });
});
