import { UsageError } from '../core/errors.js';
import { keyPattern, parseKey, type Mode, type ParsedKey } from '../shared/keys.js';

export { containsKeyShapedText, type Mode } from '../shared/keys.js';

/** `<prefix>_test_…last4`: enough to tell keys apart, never enough to use one. */
export function maskKey(key: string): string {
  const parsed = keyPattern.exec(key);
  if (!parsed) return key.length > 4 ? `…${key.slice(-4)}` : '…';
  return `${parsed[1]}_${parsed[2]}_…${key.slice(-4)}`;
}

export function modeLabel(mode: Mode): string {
  return mode === 'production' ? 'live' : 'test';
}

/**
 * Refuses a key that is malformed or of the wrong environment before anything is sent. `kindFix` is the hint for a key
 * of the other kind when the source knows a better fix than switching modes (a key piped to the wrong stdin flag).
 */
export function assertKeyForMode(key: string, mode: Mode, source: string, kindFix?: string): ParsedKey {
  const parsed = parseKey(key);
  if (!parsed) {
    throw new UsageError(
      `The API key from ${source} is not a valid key: expected <prefix>_test_<secret> or <prefix>_live_<secret>.`,
      'Check that the whole key was copied; `esign profiles add <name>` stores a key safely.',
      'KEY_INVALID',
    );
  }
  if (parsed.mode !== mode) {
    const wanted = modeLabel(mode);
    const hint =
      kindFix ??
      (mode === 'production'
        ? 'Leave out --live to use this test key in sandbox mode, or give a live key for production.'
        : 'Sandbox mode is the default and needs a test key: pass --live to use this live key against production, or give a test key.');
    throw new UsageError(
      `The key from ${source} is a ${modeLabel(parsed.mode)} key, but this command runs in ${mode} mode and needs a ${wanted} key.`,
      hint,
      'KEY_MODE_MISMATCH',
    );
  }
  return parsed;
}
