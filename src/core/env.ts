import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Environment lookups as functions, never cached values, so that tests running commands in-process can change the
 * environment between runs.
 */
export const env = {
  apiKey: (): string | undefined => nonEmpty(process.env.ESIGN_API_KEY),
  apiKeyFile: (): string | undefined => nonEmpty(process.env.ESIGN_API_KEY_FILE),
  profile: (): string | undefined => nonEmpty(process.env.ESIGN_PROFILE),
  baseUrl: (): string | undefined => nonEmpty(process.env.ESIGN_BASE_URL),
  sandboxBaseUrl: (): string | undefined => nonEmpty(process.env.ESIGN_SANDBOX_BASE_URL),
  noKeyring: (): boolean => truthy(process.env.ESIGN_NO_KEYRING),
  noColor: (): boolean => process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '',
  ci: (): boolean => truthy(process.env.CI),
  /** The proxy variables as curl reads them, lower case first (undici's EnvHttpProxyAgent reads them the same way). */
  httpsProxy: (): string | undefined => nonEmpty(process.env.https_proxy) ?? nonEmpty(process.env.HTTPS_PROXY),
  httpProxy: (): string | undefined => nonEmpty(process.env.http_proxy) ?? nonEmpty(process.env.HTTP_PROXY),
  runId: (): string | undefined => nonEmpty(process.env.ESIGN_RUN_ID),
  /** A terminal's width as the shell states it (COLUMNS), over what the terminal reports. */
  columns: (): number | undefined => {
    const columns = Number(nonEmpty(process.env.COLUMNS));
    return Number.isInteger(columns) && columns > 0 ? columns : undefined;
  },
  configDir: (): string => {
    const explicit = nonEmpty(process.env.ESIGN_CONFIG_DIR);
    if (explicit) return explicit;
    const xdg = nonEmpty(process.env.XDG_CONFIG_HOME);
    return join(xdg ?? join(homedir(), '.config'), 'esign');
  },
};

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

function truthy(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}
