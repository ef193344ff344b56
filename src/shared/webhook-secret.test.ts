import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { webhookSecretProblem } from './webhook-secret.js';

describe('webhookSecretProblem', () => {
  it('accepts what the service makes (24 bytes and more), and the library reads each of them', () => {
    for (const size of [24, 25, 26, 32, 64]) {
      const secret = `whsec_${randomBytes(size).toString('base64')}`;
      expect(webhookSecretProblem(secret), secret).toBeUndefined();
      expect(() => new Webhook(secret)).not.toThrow();
    }
  });

  it.each([
    ['whsec_abc', /not padded Base64.*3 characters/],
    ['whsec_a', /not padded Base64/],
    ['whsec_ab', /not padded Base64/],
    ['whsec_a=', /not padded Base64/],
    ['whsec_/', /not padded Base64/],
    ['whsec_ab=c', /not padded Base64/],
    ['whsec_abcd', /decodes to 3 bytes; .* at least 24/],
    ['whsec_', /nothing after whsec_/],
    ['whsec_abc-', /not Base64/],
    ['sk_test_abcdefgh', /does not start with whsec_/],
  ])('refuses %s, saying what is wrong without repeating it', (secret, problem) => {
    const said = webhookSecretProblem(secret);
    expect(said).toMatch(problem);
    if (secret.length > 'whsec_'.length + 1) expect(said).not.toContain(secret);
  });
});
