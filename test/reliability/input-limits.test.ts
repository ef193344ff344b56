/*
 * Input files are parsed with limits: an alias bomb or absurd nesting is a usage error (exit 2) that names the file,
 * and nothing is sent.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../support/cli.js';
import { expectCleanFailure, json, startHostileServer, type HostileServer } from '../support/hostile-server.js';

let server: HostileServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

function billionLaughs(): string {
  const lines = ['lol: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let level = 1; level < 9; level++) {
    const name = String.fromCharCode(97 + level);
    lines.push(`l${level}: &${name} [${Array.from({ length: 9 }, () => `*${String.fromCharCode(96 + level)}`).join(', ')}]`);
  }
  return `${lines.join('\n')}\nparticipants: *i\n`;
}

describe('input files with limits', () => {
  it.each([
    ['participants set --file', 'participants.yaml', billionLaughs(), ['participants', 'set', 'env-1', '--file'], /participants\.yaml: its aliases \(\*name\) expand past 100 copies/],
    ['fields put --file', 'fields.json', `{"fields": ${'['.repeat(10_000)}${']'.repeat(10_000)}}`, ['fields', 'put', 'env-1', 'doc-1', '--file'], /fields\.json:1:\d+: nested more than 64 levels deep/],
    ['envelopes send-now --file', 'envelope.yaml', `title: x\nparticipants: ${'['.repeat(5_000)}${']'.repeat(5_000)}\n`, ['envelopes', 'send-now', '--file'], /envelope\.yaml:2:\d+: nested more than 64 levels deep/],
  ])('%s refuses it with exit 2, sending nothing', async (_name, fileName, text, args, message) => {
    server = await startHostileServer((_request, response) => json(response, 200, {}));
    const dir = tempDir();
    writeFileSync(join(dir, fileName), text);
    const result = await server.esign([...args, fileName], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expectCleanFailure(result);
    expect(server.requests).toHaveLength(0);
  });
});
