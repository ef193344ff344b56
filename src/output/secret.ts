import type { Output } from './output.js';

/**
 * The one place a freshly made secret (a webhook's `whsec_…`) reaches the terminal: in the command's result, once,
 * with a warning that it will not be shown again. Everywhere else the redactor masks it.
 */
export function printNewSecretOnce(output: Output, secret: string, result: Record<string, unknown>, human: () => string, stored: string): void {
  output.warn(`The signing secret is shown once and never again; ${stored}`);
  output.revealSecretOnce(secret, () => output.result(result, human));
}
