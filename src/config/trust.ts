import { shellQuote } from '../core/shell-quote.js';

/** A project config file the user trusts (`esign config trust`), as config.json records it. */
export interface TrustedProjectConfig {
  /** Absolute, symbolic links resolved. */
  path: string;
  /** SHA-256 of the file's content when it was trusted: any change withdraws the trust. */
  sha256: string;
  trustedAt: string;
}

/** `changed`: trusted once, but its content is no longer what was trusted. */
export type TrustState = 'trusted' | 'changed' | 'untrusted';

/** The trusted files config.json lists, ignoring malformed entries (a hand-edited file must not crash esign). */
export function trustedProjectConfigs(config: { trustedProjectConfigs?: unknown }): TrustedProjectConfig[] {
  const listed: unknown = config.trustedProjectConfigs;
  if (!Array.isArray(listed)) return [];
  return listed.filter(
    (entry): entry is TrustedProjectConfig =>
      typeof entry === 'object' && entry !== null && typeof (entry as TrustedProjectConfig).path === 'string' && typeof (entry as TrustedProjectConfig).sha256 === 'string',
  );
}

export function trustState(file: { realpath: string; sha256: string }, trusted: readonly TrustedProjectConfig[]): TrustState {
  const entry = trusted.find((candidate) => candidate.path === file.realpath);
  if (!entry) return 'untrusted';
  return entry.sha256 === file.sha256 ? 'trusted' : 'changed';
}

export function trustCommand(path: string): string {
  return `esign config trust ${shellQuote(path)}`;
}
