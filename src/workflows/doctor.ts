/*
 * `esign doctor`: every part of a set-up that can stop a command, checked in the order a person would fix them, each
 * with what was found and, when it fails, the fix. Only the resolved base URL ever receives the key; the other base
 * URLs are probed without one.
 */
import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { ApiError, ExitCode, isEsignError } from '../core/errors.js';
import type { ApiClient } from '../api/client.js';
import { headerValue } from '../api/answer-reader.js';
import { discard, HttpPool } from '../api/http.js';
import type { MeAnswer } from '../api/answers.js';
import { credentialStore } from '../auth/credential-store.js';
import { unusedFileKeys } from '../auth/profile-change.js';
import { configFilePath, credentialsFilePath } from '../files/own-files.js';
import { configExposures, modeText } from '../auth/config-dir.js';
import { parseBaseUrl } from '../auth/hosts.js';
import { modeLabel, type Mode } from '../auth/keys.js';
import { loadConfigFile, loadTrustedProjectConfigs, type ConfigFile } from '../auth/profiles.js';
import { describeKeyOrigin, refusedKeyHint, resolveCredentials, selectProfileName, type ResolvedCredentials } from '../auth/resolve.js';
import { env } from '../core/env.js';
import { findProjectConfigFile, loadProjectConfig } from '../config/project.js';
import { trustCommand, trustState } from '../config/trust.js';

export interface Check {
  name: string;
  ok: boolean;
  /** What was found. */
  detail: string;
  /** How to fix it (failures only). */
  fix?: string;
  /** The exit code this failure stands for (pins.md): 2 set-up, 3 the key refused, 7 a host not answering. */
  exitCode?: number;
}

export interface DoctorOptions {
  live: boolean;
  profileFlag?: string;
  timeoutMs: number;
  /** The API client for the resolved credentials (created only once they resolve). */
  client(): Promise<ApiClient>;
}

/** The oldest Node esign supports (package.json#engines). */
const minimumNode = [20, 19] as const;
/** More than this between our clock and the server's: deadlines given as durations and webhook timestamps drift. */
const clockSkewLimitMs = 60_000;

const pass = (name: string, detail: string): Check => ({ name, ok: true, detail });
const fail = (name: string, detail: string, fix: string, exitCode: number = ExitCode.usage): Check => ({ name, ok: false, detail, fix, exitCode });

function nodeCheck(): Check {
  const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
  const needed = `${minimumNode[0]}.${minimumNode[1]}`;
  const ok = major > minimumNode[0] || (major === minimumNode[0] && minor >= minimumNode[1]);
  return ok ? pass('node', `Node ${process.versions.node} (esign needs ${needed} or later)`) : fail('node', `Node ${process.versions.node} is older than ${needed}`, `Install Node ${needed} or later (or use the single esign binary, which brings its own).`);
}

async function statsOf(path: string): Promise<Stats | undefined> {
  try {
    return await stat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The config dir and config.json writable only by their owner; the credentials file readable only by its owner (0600). */
async function configChecks(): Promise<Check[]> {
  const dir = env.configDir();
  const dirStats = await statsOf(dir);
  if (dirStats === undefined) return [pass('config', `${dir} does not exist yet (no profile stored)`)];
  // Nothing in it can be looked at: the checks reading config.json say the rest.
  if (!dirStats.isDirectory()) return [fail('config', `${dir} is not a folder`, 'Move it away, or set ESIGN_CONFIG_DIR to a folder.')];
  const exposures = await configExposures();
  const exposed = (path: string) => exposures.find((exposure) => exposure.path === path);
  const checks: Check[] = exposures.map((exposure) => fail(exposure.subject, exposure.message, exposure.fix));
  if (!exposed(dir)) checks.unshift(pass('config', `${dir} (mode ${modeText(dirStats.mode)})`));
  const credentials = credentialsFilePath();
  const credentialsMode = (await statsOf(credentials))?.mode;
  if (credentialsMode === undefined) checks.push(pass('credentials file', 'none (no key kept in a file)'));
  else if (!exposed(credentials)) checks.push(pass('credentials file', `${credentials} (mode ${modeText(credentialsMode)})`));
  return checks;
}

/** Keys in credentials.json no profile uses (left by earlier versions): a failure only when there are some. */
async function unusedKeysCheck(config: ConfigFile): Promise<Check[]> {
  let unused;
  try {
    unused = await unusedFileKeys(config);
  } catch (error) {
    // A damaged credentials file is the profile check's to report, with its fix.
    if (isEsignError(error)) return [];
    throw error;
  }
  if (unused.length === 0) return [];
  const listed = unused.map((entry) => `${entry.account} (${entry.masked})`).join(', ');
  return [fail('unused keys', `${credentialsFilePath()} holds ${unused.length} key${unused.length === 1 ? '' : 's'} no profile uses: ${listed}`, 'esign profiles prune')];
}

/**
 * A keychain that cannot keep a key is fine while every key is in the file; a key kept in it is then out of reach. The
 * probe writes, reads back and deletes a test entry, as `profiles add` does with a key, so the two never disagree.
 */
async function keychainCheck(config: ConfigFile | undefined): Promise<Check> {
  const problem = await credentialStore.keychainProblem();
  const stored = (storage: 'keychain' | 'file') =>
    Object.entries(config?.profiles ?? {}).flatMap(([name, profile]) =>
      (['sandbox', 'production'] as const).filter((mode) => profile.keys[mode]?.storage === storage).map((mode) => `${name} (${modeLabel(mode)})`),
    );
  if (!problem) {
    const inFile = stored('file');
    return pass('keychain', `works (a test entry was written, read back and deleted); profiles add stores new keys there${inFile.length ? `; kept in ${credentialsFilePath()}: ${inFile.join(', ')}` : ''}`);
  }
  const inKeychain = stored('keychain');
  if (inKeychain.length === 0) return pass('keychain', `cannot keep keys (${problem}); profiles add stores them in ${credentialsFilePath()}`);
  return fail('keychain', `does not answer (${problem}), and these keys are stored there: ${inKeychain.join(', ')}`, 'Unlock the keychain (or start its service), or set ESIGN_API_KEY for this shell.');
}

async function projectConfigCheck(): Promise<Check> {
  const file = await findProjectConfigFile();
  if (!file) return pass('project config', `none in ${process.cwd()}`);
  const trust = trustState(file, await loadTrustedProjectConfigs());
  if (trust === 'trusted') return pass('project config', `${file.filepath} (trusted)`);
  return fail(
    'project config',
    `${file.filepath} is ${trust === 'changed' ? 'changed since you trusted it' : 'not trusted'}: esign uses none of its base URLs${file.executesCode ? ' and runs none of its code' : ''}`,
    `Read it; if you trust it, run \`${trustCommand(file.filepath)}\`; otherwise remove it.`,
  );
}

/** Every base URL a command could use here: the environment's and the selected profile's, for both modes. */
function baseUrls(config: ConfigFile | undefined, profileName: string | undefined): { source: string; raw: string }[] {
  const profile = profileName ? config?.profiles[profileName] : undefined;
  const found = [
    { source: 'ESIGN_SANDBOX_BASE_URL', raw: env.sandboxBaseUrl() },
    { source: 'ESIGN_BASE_URL', raw: env.baseUrl() },
    { source: `profile ${profileName} (sandbox)`, raw: profile?.sandboxBaseUrl },
    { source: `profile ${profileName} (production)`, raw: profile?.baseUrl },
  ];
  return found.filter((entry): entry is { source: string; raw: string } => entry.raw !== undefined);
}

interface Probe {
  check: Check;
  /** The server's clock, from its Date header. */
  serverDate?: number;
}

/** HTTPS or loopback, and answering at all (any HTTP status): no key is sent, and no redirect is followed. */
async function probeBaseUrl(source: string, raw: string, timeoutMs: number): Promise<Probe> {
  const name = `base URL ${source}`;
  let url: URL;
  try {
    url = parseBaseUrl(raw, source);
  } catch (error) {
    return { check: fail(name, (error as Error).message, `Set it to an https:// URL, or http:// on localhost or 127.0.0.1 (the emulator).`) };
  }
  // The pool every request uses: the same deadlines, the same proxy variables, no redirect followed.
  const pool = new HttpPool(timeoutMs, 1);
  try {
    const response = await pool.request(url, { method: 'GET', headers: {} });
    discard(response.body);
    const date = Date.parse(headerValue(response.headers.date) ?? '');
    return { check: pass(name, `${url.href} answers (HTTP ${response.statusCode})`), ...(Number.isNaN(date) ? {} : { serverDate: date }) };
  } catch (error) {
    const { code, message } = error as { code?: string; message?: string };
    const why = code ?? message;
    return {
      check: fail(name, `${url.href} does not answer (${why})`, `Check the URL and the network; for the emulator, start it with \`esign emulator\` and use the URL it prints.`, ExitCode.network),
    };
  } finally {
    pool.close();
  }
}

function profileCheck(resolved: ResolvedCredentials, mode: Mode): Check {
  const chosen = resolved.profileSource ? describeKeyOrigin(resolved) : `no profile in use; the key comes from ${resolved.keySource}`;
  return pass('profile', `${chosen} · ${mode} mode (${mode === 'production' ? '--live' : 'the default; --live for production'})`);
}

async function meCheck(client: ApiClient, resolved: ResolvedCredentials): Promise<{ check: Check; serverDate?: number }> {
  try {
    const { body, headers } = await client.call<MeAnswer>('getMe');
    const date = Date.parse(String(headers.date ?? ''));
    const serverDate = Number.isNaN(date) ? {} : { serverDate: date };
    if (body.environment && body.environment !== resolved.mode) {
      return {
        check: fail(
          'api',
          `${resolved.baseUrl.origin} is a ${body.environment} host, but a ${modeLabel(resolved.mode)} key was sent to it`,
          resolved.mode === 'production' ? 'Point ESIGN_BASE_URL (or the profile) at the production host.' : 'Point ESIGN_SANDBOX_BASE_URL (or the profile) at the sandbox host, or pass --live.',
        ),
        ...serverDate,
      };
    }
    const account = body.account ? `${body.account.name ?? '?'} (${body.account.id ?? '?'})` : '?';
    return { check: pass('api', `esign me answers: account ${account}, ${body.environment} environment`), ...serverDate };
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return { check: fail('api', `401 ${error.code}: ${error.message}`, refusedKeyHint(resolved), ExitCode.auth) };
    if (isEsignError(error)) return { check: fail('api', `${error.code}: ${error.message}`, error.hint ?? 'Run `esign me --debug` to see the exchange.', error.exitCode) };
    throw error;
  }
}

function clockCheck(serverDate: number, source: string): Check {
  // The Date header counts whole seconds.
  const skewMs = Date.now() - serverDate;
  const seconds = Math.round(Math.abs(skewMs) / 1000);
  if (Math.abs(skewMs) <= clockSkewLimitMs) return pass('clock', `within ${Math.max(seconds, 1)} s of ${source}`);
  return fail('clock', `${seconds} s ${skewMs > 0 ? 'ahead of' : 'behind'} ${source}`, 'Set the system clock (enable NTP: `timedatectl set-ntp true` on Linux).');
}

/** Every check, in order; none throws for a problem it checks. */
export async function runDoctor(options: DoctorOptions): Promise<Check[]> {
  const mode: Mode = options.live ? 'production' : 'sandbox';
  const checks: Check[] = [nodeCheck(), ...(await configChecks())];
  let config: ConfigFile | undefined;
  try {
    config = await loadConfigFile();
  } catch (error) {
    checks.push(fail('config', (error as Error).message, isEsignError(error) && error.hint ? error.hint : `Fix or remove ${configFilePath()}.`));
  }
  if (config) checks.push(...(await unusedKeysCheck(config)));
  checks.push(await keychainCheck(config));
  checks.push(await projectConfigCheck());

  let resolved: ResolvedCredentials | undefined;
  try {
    const project = await loadProjectConfig(process.cwd(), loadTrustedProjectConfigs);
    resolved = await resolveCredentials({ live: options.live, ...(project ? { project } : {}), ...(options.profileFlag ? { profileFlag: options.profileFlag } : {}) });
    checks.push(profileCheck(resolved, mode));
    checks.push(pass('key', `${resolved.maskedKey}: a well-formed ${modeLabel(mode)} key, as ${mode} mode needs, sent only to ${resolved.baseUrl.origin}`));
    // The config files' exposures are the config checks above; a key file others can read is said here.
    for (const warning of resolved.warnings ?? []) checks.push(fail('key file', warning, 'Restrict it, then replace the key if others may have read it.'));
  } catch (error) {
    if (!isEsignError(error)) throw error;
    checks.push(fail('profile and key', error.message, error.hint ?? 'Run `esign profiles add <name>`.'));
  }

  const profileName = config ? selectProfileName({ live: options.live, ...(options.profileFlag ? { profileFlag: options.profileFlag } : {}) }, config).name : undefined;
  let probedDate: { date: number; source: string } | undefined;
  const unanswered = new Set<string>();
  for (const { source, raw } of baseUrls(config, profileName)) {
    const probe = await probeBaseUrl(source, raw, options.timeoutMs);
    checks.push(probe.check);
    if (!probe.check.ok) unanswered.add(raw.replace(/\/+$/, ''));
    if (probe.serverDate !== undefined && !probedDate) probedDate = { date: probe.serverDate, source: new URL(raw).origin };
  }

  // Retrying a host that did not answer the probe would only make the person wait.
  const resolvedUrl = resolved?.baseUrl.href.replace(/\/+$/, '');
  if (resolved && !unanswered.has(resolvedUrl!)) {
    const me = await meCheck(await options.client(), resolved);
    checks.push(me.check);
    const date = me.serverDate !== undefined ? { date: me.serverDate, source: resolved.baseUrl.origin } : probedDate;
    checks.push(date ? clockCheck(date.date, date.source) : pass('clock', `not compared: ${resolved.baseUrl.origin} sent no Date header`));
  } else {
    checks.push(fail('api', resolved ? `not asked: ${resolved.baseUrl.origin} does not answer` : 'not asked: no usable key and base URL', 'Fix the checks above first.', resolved ? ExitCode.network : ExitCode.usage));
    checks.push(probedDate ? clockCheck(probedDate.date, probedDate.source) : pass('clock', 'not compared: no server answered'));
  }
  return checks;
}
