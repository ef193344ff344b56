import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseEnv, repoRoot } from './support/cli.js';

describe('npm run demo', () => {
  it('runs the typical flow and shows every command it runs, flags included, before its output', () => {
    const demo = spawnSync(process.execPath, [join(repoRoot, 'scripts', 'demo.mjs')], { env: baseEnv({ ESIGN_PRISM: process.env.ESIGN_PRISM }), encoding: 'utf8', timeout: 120_000 });
    expect(demo.status, demo.stderr).toBe(0);
    const shown = demo.stdout.split('\n').filter((line) => line.startsWith('$ esign '));
    const commands = shown.map((line) => line.split(' ').slice(2, 4).filter((word) => !/^[0-9a-f-]{36}$/.test(word)).join(' '));
    expect(commands).toEqual([
      '--json emulator',
      'profiles add',
      'me',
      'envelopes create',
      'envelopes settings',
      'participants set',
      'documents upload',
      'documents list',
      'fields put',
      'send',
      'envelopes get',
    ]);
    // The flags that decide what a command prints are on its line: the output below it is what a reader would get.
    expect(shown[0]).toMatch(/^\$ esign --json emulator --port 0 --processing-delay 200 &$/);
    expect(shown[1]).toMatch(/^\$ esign profiles add demo --test-key-stdin --sandbox-base-url http:\/\/127\.0\.0\.1:\d+ <<< "\$KEY"$/);
    expect(shown[3]).toBe("$ esign envelopes create --title 'Mutual NDA' --quiet");
    expect(shown[5]).toMatch(/ --file \S+participants\.yaml --json$/);
    expect(shown[7]).toMatch(/^\$ esign documents list \S+ --quiet$/);
    const id = demo.stdout.split('\n')[demo.stdout.split('\n').indexOf(shown[3]!) + 1];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(shown[4]).toContain(`envelopes settings ${id} --message 'Please sign the NDA' --deadline 7d`);
    expect(demo.stdout).toMatch(/Status: +SENT/);
    // A dozen processes one after another: on a busy two-core machine that takes more than the default 30 s.
  }, 120_000);
});
