/**
 * The GitHub Actions recipe for batch mode (docs/batch.md), run as a runner would run it, so that it cannot rot: its
 * yaml block is read from the page, `uses:` steps are skipped (the checkout is a copy of this repository's files), the
 * `run:` steps run in order in bash with `$GITHUB_ENV` carried from step to step and `if:` honoured. The one step
 * replaced is "Install esign": the freshly built binary is put on PATH instead of `npm ci`.
 */
import { spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { baseEnv, esignBin, repoRoot, tempDir } from './support/cli.js';

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  env?: Record<string, string>;
}

function recipe(): { steps: Step[] } {
  const page = readFileSync(join(repoRoot, 'docs', 'batch.md'), 'utf8');
  const section = page.slice(page.indexOf('### Batch mode in CI (GitHub Actions)'));
  const block = /```yaml\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('docs/batch.md: no yaml block under "### Batch mode in CI (GitHub Actions)"');
  const workflow = parse(block) as { jobs: Record<string, { steps: Step[] }> };
  return Object.values(workflow.jobs)[0]!;
}

const groups: number[] = [];

afterAll(() => {
  // The emulator the recipe left running in the background, with the rest of its step's process group.
  for (const group of groups) {
    try {
      process.kill(-group, 'SIGTERM');
    } catch {
      // already gone
    }
  }
});

function runStep(script: string, cwd: string, env: Record<string, string>): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    // As a runner does: bash -e, a process group per step (so what it leaves running can be stopped afterwards).
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    groups.push(child.pid!);
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

describe("README's batch CI recipe", () => {
  it('runs green: the emulator in the background, validate, plan, run, and a JUnit report to upload', { timeout: 240_000 }, async () => {
    const { steps } = recipe();
    expect(steps.some((step) => step.uses?.startsWith('actions/upload-artifact'))).toBe(true);

    // The checkout: the files the recipe uses, with this repository's node_modules for `npm run examples`.
    const checkout = tempDir('esign-ci-recipe-');
    for (const path of ['examples', 'scripts', 'schema', 'package.json']) cpSync(join(repoRoot, path), join(checkout, path), { recursive: true, filter: (source) => !/\.(pdf|jsonl|xml)$/.test(source) });
    symlinkSync(join(repoRoot, 'node_modules'), join(checkout, 'node_modules'));
    const bin = join(tempDir('esign-ci-bin-'), 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'esign'), `#!/bin/sh\nexec "${process.execPath}" "${esignBin}" "$@"\n`);
    chmodSync(join(bin, 'esign'), 0o755);
    const githubEnv = join(checkout, '..', 'github-env');
    writeFileSync(githubEnv, '');

    const env: Record<string, string> = baseEnv({ CI: 'true', GITHUB_ENV: githubEnv, GITHUB_PATH: join(checkout, '..', 'github-path'), ESIGN_CONFIG_DIR: tempDir('esign-ci-config-') });
    env.PATH = `${bin}:${env.PATH}`;
    let failed = false;
    const ran: string[] = [];
    for (const step of steps) {
      if (step.uses || !step.run) continue;
      if (step.name === 'Install esign') continue;
      const condition = step.if ?? 'success()';
      if (condition === 'failure()' ? !failed : condition === 'success()' ? failed : condition !== 'always()') continue;
      const added = Object.fromEntries(
        readFileSync(githubEnv, 'utf8')
          .split('\n')
          .filter((line) => line.includes('='))
          .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
      );
      const result = await runStep(step.run, checkout, { ...env, ...added, ...step.env });
      ran.push(`${step.name ?? step.run}: exit ${result.code}`);
      if (result.code !== 0) {
        failed = true;
        console.error(`step ${step.name ?? step.run} failed:\n${result.output}`);
      }
    }
    expect(ran).toEqual(['Start the emulator: exit 0', 'Documents: exit 0', 'Validate and plan: exit 0', 'Send: exit 0']);
    expect(failed).toBe(false);

    // What the upload step would upload: one passing test case per envelope of both specs.
    const report = join(checkout, 'junit.xml');
    expect(existsSync(report)).toBe(true);
    const junit = readFileSync(report, 'utf8');
    expect(junit).toContain('tests="6" failures="0"');
    expect(junit.match(/<testcase /g)).toHaveLength(6);
    expect(readFileSync(join(checkout, 'plan.txt'), 'utf8')).toContain('Idempotency-Key');
  });
});
