import { describe, expect, it } from 'vitest';
import { explainUnanswered, repeatCommand } from './repeat.js';

describe('repeatCommand', () => {
  it('gives the command line back with the key, replacing any --idempotency-key given', () => {
    expect(repeatCommand(['envelopes', 'create', '--title', 'Q3 contract'], 'k-12345678')).toBe("esign envelopes create --title 'Q3 contract' --idempotency-key k-12345678");
    expect(repeatCommand(['send', 'e1', '--idempotency-key', 'old-key-1'], 'new-key-1')).toBe('esign send e1 --idempotency-key new-key-1');
    expect(repeatCommand(['send', 'e1', '--idempotency-key=old-key-1'], 'new-key-1')).toBe('esign send e1 --idempotency-key new-key-1');
  });

  it("quotes what a shell would split or expand, including a single quote", () => {
    expect(repeatCommand(['templates', 'use', "it's $HOME"], 'abcdefgh')).toBe(`esign templates use 'it'\\''s $HOME' --idempotency-key abcdefgh`);
  });

  it('puts the key into the error details for --json readers', () => {
    const { body, hint } = explainUnanswered({ code: 'NETWORK_ERROR', message: 'Could not reach x.' }, ['send', 'e1'], 'abcdefgh');
    expect(body.details).toEqual({ idempotencyKey: 'abcdefgh' });
    expect(hint).toContain('esign send e1 --idempotency-key abcdefgh');
  });
});
