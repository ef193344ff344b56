/*
 * Special files where a regular file is expected (issue #21, item 5): a named pipe with no writer blocked open() for
 * ever (and then no signal ended esign), /dev/zero read 600 MB, a `.esignrc` symlink to /dev/stdin swallowed stdin and
 * ended in "This is a bug". Each is refused before it is opened, with exit 2, saying what the path is.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, esignBin, runEsign, tempDir, type RunResult } from '../support/cli.js';
import { ndaPdf } from '../support/pdfs.js';

const key = 'ab_test_0123456789abcdef0123';
/** Nothing listens there: a command that got as far as a request would fail with exit 7, not 2. */
const nowhere = 'http://127.0.0.1:9';
let dir: string;

beforeAll(() => {
  dir = tempDir('esign-special-files-');
  execFileSync('mkfifo', [join(dir, 'pipe')]);
  symlinkSync('/dev/zero', join(dir, 'zero.yaml'));
});

function esign(args: readonly string[], env: Record<string, string> = {}, cwd = dir, input?: string): Promise<RunResult> {
  return runEsign(args, { cwd, timeoutMs: 10_000, env: { ESIGN_CONFIG_DIR: tempDir('esign-config-'), ESIGN_SANDBOX_BASE_URL: nowhere, ESIGN_API_KEY: key, ...env }, ...(input === undefined ? {} : { input }) });
}

function expectRefused(result: RunResult, pattern: RegExp): void {
  expect(result.code, result.stderr).toBe(2);
  expect(result.stderr).toMatch(pattern);
  expect(result.stderr).not.toMatch(/This is a bug|\n\s+at /);
}

describe('a special file where a regular file is expected is refused before it is opened', () => {
  it('a named pipe as ESIGN_API_KEY_FILE', async () => {
    expectRefused(await esign(['me'], { ESIGN_API_KEY: '', ESIGN_API_KEY_FILE: join(dir, 'pipe') }), /ESIGN_API_KEY_FILE=\S*pipe is a named pipe, not a regular file/);
  });

  it('a named pipe and /dev/zero as a batch spec', async () => {
    expectRefused(await esign(['batch', 'validate', 'pipe']), /pipe is a named pipe, not a regular file/);
    expectRefused(await esign(['batch', 'validate', 'zero.yaml']), /zero\.yaml is a device, not a regular file/);
  });

  it('a named pipe as a fields file and as an api -F @file value', async () => {
    writeFileSync(join(dir, 'nda.pdf'), await ndaPdf());
    expectRefused(await esign(['fields', 'check', '--local', 'nda.pdf', '--file', 'pipe']), /pipe is a named pipe, not a regular file/);
    expectRefused(await esign(['api', 'getMe', '-F', 'x=@pipe']), /pipe is a named pipe, not a regular file/);
  });

  it('a project config .esignrc that is a named pipe, a symlink to /dev/zero or to /dev/stdin', async () => {
    // The test's own standard input is a socket; a shell's is a pipe or a terminal: each is refused.
    for (const [target, kind] of [[join(dir, 'pipe'), 'a named pipe'], ['/dev/zero', 'a device'], ['/dev/stdin', '(a named pipe|a socket|a device)']] as const) {
      const project = tempDir('esign-special-project-');
      symlinkSync(target, join(project, '.esignrc'));
      const result = await esign(['me'], {}, project, 'profile: swallowed\n');
      expectRefused(result, new RegExp(`project config \\S*\\.esignrc is ${kind}, not a regular file`));
      expect(result.stderr).toContain('a project config is never read from a device or a pipe');
    }
  });

  it('still reads a spec given as /dev/stdin, a pipe named on purpose', () => {
    const result = spawnSync('bash', ['-c', `echo 'version: 1' | "${process.execPath}" "${esignBin}" batch validate /dev/stdin`], { cwd: dir, env: baseEnv(), encoding: 'utf8', timeout: 10_000 });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('/dev/stdin:1:1: envelopes: required, but missing');
  });
});
