/**
 * docs/ci.md's recipes, run as CI systems run them, so that they cannot rot: `npm run release` makes the folder a
 * CI job downloads from, served here on loopback; each job of the GitHub Actions matrix and of the GitLab
 * `parallel:matrix` runs its `run:` / `before_script` + `script` lines in bash with CI=true, no terminal, in a
 * workspace of its own (a fresh runner per job and per retry: no journal, no esign installed), against a real
 * emulator; the envelopes are counted through the API. A job is killed halfway and retried; a new run follows.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, createReadStream, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { call, expectStatus } from './support/api-call.js';
import { baseEnv, repoRoot, tempDir } from './support/cli.js';
import { useEmulator, type EmulatorProcess } from './support/emulator.js';
import { ndaPdf } from './support/pdfs.js';

const executable = join(repoRoot, 'dist', 'bin', `esign-${process.platform}-${process.arch}`);
const required = process.env.ESIGN_REQUIRE_BINARY === '1';
const runnable = process.platform === 'linux' && process.arch === 'x64' && (existsSync(executable) || required);
if (!runnable) console.warn(`test/ci-recipes.test.ts skipped: the GitLab recipe downloads esign-<version>-linux-x64, and ${executable} is not built (npm run build:binary)`);

const ROWS = 30;
const SHARDS = 3;
const xsd = join(repoRoot, 'test', 'fixtures', 'junit-10.xsd');
const xmllint = spawnSync('xmllint', ['--version']).status === 0;

/** The yaml block under a heading of docs/ci.md. */
function recipe(heading: string): Record<string, unknown> {
  const page = readFileSync(join(repoRoot, 'docs', 'ci.md'), 'utf8');
  const block = /```yaml\n([\s\S]*?)```/.exec(page.slice(page.indexOf(heading)))?.[1];
  if (!block) throw new Error(`docs/ci.md: no yaml block under "${heading}"`);
  return parse(block) as Record<string, unknown>;
}

let release: string;
let server: Server;
let releaseUrl: string;
let checkout: string;
const groups: number[] = [];

beforeAll(async () => {
  if (!runnable) return;
  // What `npm run release` writes, in a folder of this test's own.
  release = join(tempDir('esign-ci-release-'), 'release');
  const made = spawnSync(process.execPath, [join(repoRoot, 'scripts', 'release.mjs'), '--out', release], { cwd: repoRoot, encoding: 'utf8', env: baseEnv({ npm_config_update_notifier: 'false' }) });
  expect(made.status, made.stderr).toBe(0);
  server = createServer((request, response) => {
    const file = join(release, basename(decodeURIComponent(request.url ?? '/')));
    if (!existsSync(file)) return response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'application/octet-stream' });
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  releaseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  // The repository the recipes run in: a 30-row bulk NDA with a relative deadline, as the shipped examples have.
  checkout = tempDir('esign-ci-checkout-');
  mkdirSync(join(checkout, 'envelopes'));
  writeFileSync(join(checkout, 'envelopes', 'nda.pdf'), await ndaPdf());
  writeFileSync(join(checkout, 'envelopes', 'recipients.csv'), ['id,name,email', ...Array.from({ length: ROWS }, (_, index) => `r${index},Person ${index},p${index}@example.test`), ''].join('\n'));
  writeFileSync(
    join(checkout, 'envelopes', 'batch.yaml'),
    [
      'version: 1',
      'envelopes:',
      '  - each: recipients.csv',
      '    ref: nda-${{ row.id }}',
      '    title: CI NDA ${{ row.id }}',
      '    deadline: 7d',
      '    participants: [{ ref: p, name: "${{ row.name }}", email: "${{ row.email }}" }]',
      '    documents: [{ ref: nda, file: nda.pdf }]',
      '    fields: [{ type: SIGNATURE, documentRef: nda, participantRef: p, size: { width: 150, height: 40 }, anchor: { text: "{{signature}}", occurrence: 1 } }]',
      '',
    ].join('\n'),
  );
}, 600_000);

afterAll(async () => {
  for (const group of groups) {
    try {
      process.kill(-group, 'SIGKILL');
    } catch {
      // gone already
    }
  }
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
});

interface StepResult {
  code: number;
  output: string;
}

/**
 * One step as a runner runs it: bash -e in the workspace, a process group of its own. `killWhen`: the runner dies
 * (SIGKILL to the whole group) once the output matches, as when a CI machine is lost halfway through.
 */
function runStep(script: string, cwd: string, env: Record<string, string>, killWhen?: RegExp): Promise<StepResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    groups.push(child.pid!);
    let output = '';
    const take = (chunk: Buffer) => {
      output += chunk.toString();
      if (killWhen?.test(output)) process.kill(-child.pid!, 'SIGKILL');
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 137 : 1), output }));
  });
}

/** A fresh runner's workspace: the checkout, nothing else. */
function workspace(): string {
  const dir = tempDir('esign-ci-workspace-');
  cpSync(checkout, dir, { recursive: true });
  return dir;
}

/** Every envelope, through the API: the titles, to count them and to see none twice. */
async function titles(emulator: EmulatorProcess): Promise<string[]> {
  const found: string[] = [];
  let cursor: string | null = null;
  do {
    const page = expectStatus(await call(emulator, 'GET', `/v4/api/envelopes/?limit=100${cursor ? `&cursor=${cursor}` : ''}`), 200).body as { data: { title: string }[]; nextCursor: string | null };
    found.push(...page.data.map((envelope) => envelope.title));
    cursor = page.nextCursor;
  } while (cursor);
  return found;
}

/** A job's log: what CI shows. No terminal escapes, no stack trace. */
function expectCleanLog(output: string): void {
  expect(output).not.toMatch(/\x1b/);
  expect(output).not.toMatch(/\n\s+at \S+ \(/);
}

function expectValidJunit(file: string, shard: number): void {
  const junit = readFileSync(file, 'utf8');
  expect(junit).toContain(`<testsuite name="esign batch batch.yaml (shard ${shard}/${SHARDS})"`);
  expect(junit).toMatch(/failures="0" errors="0" skipped="0"/);
  // xmllint comes with libxml2-utils, which .ci/run installs: under CI its absence fails the test.
  if (xmllint || process.env.CI) {
    const checked = spawnSync('xmllint', ['--noout', '--schema', xsd, file], { encoding: 'utf8' });
    expect(checked.status, checked.stderr).toBe(0);
  }
}

describe.skipIf(!runnable)('docs/ci.md: GitHub Actions, a matrix of shards', () => {
  const emulator = useEmulator(['--processing-delay', '50']);

  interface Step {
    name?: string;
    uses?: string;
    run?: string;
    if?: string;
  }
  const workflow = () =>
    recipe('## GitHub Actions') as { env: Record<string, string>; jobs: Record<string, { env: Record<string, string>; strategy: { matrix: { shard: number[] } }; steps: Step[] }> };

  /** `${{ … }}` as GitHub evaluates it, for the expressions the recipe uses. */
  function expand(text: string, context: { shard: number; runId: string; attempt: number }): string {
    const values: Record<string, string> = {
      'matrix.shard': String(context.shard),
      'github.run_id': context.runId,
      'github.run_attempt': String(context.attempt),
      'vars.ESIGN_SANDBOX_BASE_URL': emulator.url,
      'secrets.ESIGN_TEST_KEY': emulator.key,
    };
    return text.replace(/\$\{\{\s*([\w.]+)\s*\}\}/g, (whole, name: string) => {
      if (!(name in values)) throw new Error(`docs/ci.md uses ${whole}, which this test does not know`);
      return values[name]!;
    });
  }

  /** One job of the matrix on a fresh runner: Node (setup-node), the checkout, nothing installed. */
  async function job(context: { shard: number; runId: string; attempt: number }, killSendWhen?: RegExp): Promise<{ ok: boolean; dir: string; log: string }> {
    const { env: workflowEnv, jobs } = workflow();
    const [definition] = Object.values(jobs);
    const dir = workspace();
    const runner = tempDir('esign-ci-runner-');
    const expandAll = (values: Record<string, string>) => Object.fromEntries(Object.entries(values).map(([name, value]) => [name, expand(String(value), context)]));
    const env = baseEnv({
      ...expandAll(workflowEnv),
      ESIGN_RELEASE_URL: releaseUrl,
      ...expandAll(definition!.env),
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      HOME: runner,
      // setup-node's Node, and a global npm prefix of this runner's own; the npm cache is shared, as actions/cache would.
      PATH: [join(runner, 'npm', 'bin'), dirname(process.execPath), '/usr/bin', '/bin'].join(':'),
      npm_config_prefix: join(runner, 'npm'),
      npm_config_cache: process.env.npm_config_cache ?? join(homedir(), '.npm'),
      npm_config_prefer_offline: 'true',
      npm_config_update_notifier: 'false',
    });
    let ok = true;
    let log = '';
    for (const step of definition!.steps) {
      if (step.uses || !step.run) continue;
      if ((step.if ?? 'success()') === 'success()' && !ok) continue;
      const result = await runStep(expand(step.run, context), dir, env, step.name === 'Send this shard' ? killSendWhen : undefined);
      log += result.output;
      if (result.code !== 0) ok = false;
    }
    expectCleanLog(log);
    return { ok, dir, log };
  }

  it('sends 30 envelopes in 3 shards; a job killed halfway and re-run on a new runner finishes with none twice; a new run sends anew', { timeout: 600_000 }, async () => {
    const { jobs } = workflow();
    const [definition] = Object.values(jobs);
    expect(definition!.strategy.matrix.shard).toEqual([1, 2, 3]);
    expect(definition!.steps.some((step) => step.uses?.startsWith('actions/upload-artifact') && step.if === 'always()')).toBe(true);

    // Run 1001, attempt 1: the runner of shard 2 is lost once it has created an envelope.
    const first = [];
    for (const shard of [1, 2, 3]) first.push(await job({ shard, runId: '1001', attempt: 1 }, shard === 2 ? /envelope \S+ created/ : undefined));
    expect(first.map((result) => result.ok)).toEqual([true, false, true]);
    for (const shard of [1, 3]) {
      expectValidJunit(join(first[shard - 1]!.dir, `junit-${shard}.xml`), shard);
      // Each job plans its own shard only.
      const plan = readFileSync(join(first[shard - 1]!.dir, 'plan.txt'), 'utf8');
      expect((plan.match(/^nda-r\d+ \(via flow\)/gm) ?? []).length).toBeLessThan(ROWS);
    }
    expect((await titles(emulator)).length).toBeLessThan(ROWS);

    // "Re-run failed jobs": shard 2 again, same run id, a new runner (no journal, esign installed anew).
    const retried = await job({ shard: 2, runId: '1001', attempt: 2 });
    expect(retried.ok, retried.log).toBe(true);
    expect(retried.log).toMatch(/\d+ of \d+ envelopes come from an earlier run with run id 1001/);
    expectValidJunit(join(retried.dir, 'junit-2.xml'), 2);
    const afterRetry = await titles(emulator);
    expect(afterRetry).toHaveLength(ROWS);
    expect(new Set(afterRetry).size).toBe(ROWS);

    // The next push: run 1002 sends every envelope anew.
    for (const shard of [1, 2, 3]) expect((await job({ shard, runId: '1002', attempt: 1 })).ok).toBe(true);
    expect(await titles(emulator)).toHaveLength(2 * ROWS);
  });
});

describe.skipIf(!runnable)('docs/ci.md: GitLab CI, parallel:matrix with the single executable', () => {
  const emulator = useEmulator(['--processing-delay', '50']);

  /** A PATH of the image's tools only: no Node anywhere, so the executable is all that runs esign. */
  const image = tempDir('esign-ci-image-');
  for (const tool of ['bash', 'sh', 'curl', 'sha256sum', 'mkdir', 'mv', 'chmod', 'cat', 'ls']) {
    const found = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
    if (found) symlinkSync(found, join(image, tool));
  }

  const definition = () => {
    const [job] = Object.values(recipe('## GitLab CI')) as { parallel: { matrix: { SHARD: string[] }[] }; variables: Record<string, string>; before_script: string[]; script: string[]; retry: number }[];
    return job!;
  };

  /** One job as GitLab runs it: before_script and script in one shell, on a fresh runner. */
  async function job(shard: string, pipelineId: string, killWhen?: RegExp): Promise<{ ok: boolean; dir: string; log: string }> {
    const { variables, before_script: before, script } = definition();
    const dir = workspace();
    const env = baseEnv({
      ...variables,
      ESIGN_RELEASE_URL: releaseUrl,
      SHARD: shard,
      CI: 'true',
      GITLAB_CI: 'true',
      CI_PIPELINE_ID: pipelineId,
      HOME: tempDir('esign-ci-runner-'),
      PATH: image,
      ...emulator.env,
    });
    const result = await runStep([...before, ...script].join('\n'), dir, env, killWhen);
    expectCleanLog(result.output);
    return { ok: result.code === 0, dir, log: result.output };
  }

  it('sends 30 envelopes with no Node on the runner; a retried job finds what it sent; a new pipeline sends anew', { timeout: 600_000 }, async () => {
    const { parallel, retry } = definition();
    const shards = parallel.matrix[0]!.SHARD;
    expect(shards).toEqual(['1', '2', '3']);
    expect(retry).toBeGreaterThan(0);
    expect(spawnSync('sh', ['-c', 'command -v node'], { env: { PATH: image } }).status).not.toBe(0);

    const first = [];
    for (const shard of shards) first.push(await job(shard, '777', shard === '3' ? /envelope \S+ created/ : undefined));
    expect(first.map((result) => result.ok)).toEqual([true, true, false]);
    // `retry:`: the job again, same pipeline, a new runner.
    const retried = await job('3', '777');
    expect(retried.ok, retried.log).toBe(true);
    expect(retried.log).toMatch(/come from an earlier run with run id 777/);
    for (const [index, result] of [first[0]!, first[1]!, retried].entries()) expectValidJunit(join(result.dir, `junit-${index + 1}.xml`), index + 1);
    const afterRetry = await titles(emulator);
    expect(afterRetry).toHaveLength(ROWS);
    expect(new Set(afterRetry).size).toBe(ROWS);

    for (const shard of shards) expect((await job(shard, '778')).ok).toBe(true);
    expect(await titles(emulator)).toHaveLength(2 * ROWS);
  });
});

describe.skipIf(!runnable)('the release folder', () => {
  it('holds the tarball, the executable, a CycloneDX SBOM and SHA256SUMS that checks them', () => {
    const version = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
    const sums = readFileSync(join(release, 'SHA256SUMS'), 'utf8');
    expect(sums.trim().split('\n').map((line) => line.split('  ')[1])).toEqual([`esign-${version}.tgz`, `esign-${version}-linux-x64`, `esign-${version}.cdx.json`]);
    expect(spawnSync('sha256sum', ['-c', 'SHA256SUMS'], { cwd: release }).status).toBe(0);
    const sbom = JSON.parse(readFileSync(join(release, `esign-${version}.cdx.json`), 'utf8')) as { bomFormat: string; metadata: { component: { name: string } }; components: { name: string }[] };
    expect(sbom.bomFormat).toBe('CycloneDX');
    expect(sbom.metadata.component.name).toBe('esign');
    expect(sbom.components.map((component) => component.name)).toEqual(expect.arrayContaining(['commander', 'fastify', 'pdfjs-dist']));
    // Production dependencies only: what the tarball installs and the executable carries.
    for (const devOnly of ['vitest', 'esbuild', 'typescript']) expect(sbom.components.map((component) => component.name)).not.toContain(devOnly);
  });

  it('runs with npx from the tarball, nothing installed', { timeout: 240_000 }, () => {
    const version = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
    const runner = tempDir('esign-ci-npx-');
    const result = spawnSync('npx', ['--yes', '--package', join(release, `esign-${version}.tgz`), 'esign', '--version'], {
      cwd: runner,
      encoding: 'utf8',
      env: baseEnv({ CI: 'true', HOME: runner, npm_config_cache: process.env.npm_config_cache ?? join(homedir(), '.npm'), npm_config_prefer_offline: 'true', npm_config_update_notifier: 'false' }),
    });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toBe(`${version}\n`);
  });
});
