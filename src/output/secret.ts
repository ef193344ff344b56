import type { Output } from './output.js';

/**
 * The one place a freshly made secret (a webhook's `whsec_…`) reaches the terminal: what `print` writes, once, with a
 * warning that it will not be shown again. Everywhere else the redactor masks it.
 */
export function revealNewSecretOnce(output: Output, secret: string, stored: string, print: () => void): void {
  output.warn(`The signing secret is shown once and never again; ${stored}`);
  output.revealSecretOnce(secret, print);
}

/** The command's result, carrying a new secret in full (see revealNewSecretOnce). */
export function printNewSecretOnce(output: Output, secret: string, result: Record<string, unknown>, human: () => string, stored: string): void {
  revealNewSecretOnce(output, secret, stored, () => output.result(result, human));
}
