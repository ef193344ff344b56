import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../core/errors.js';
import { lockJournal } from './journal-lock.js';

const journalIn = () => join(mkdtempSync(join(tmpdir(), 'esign-lock-')), 'run.journal.jsonl');

describe('lockJournal', () => {
  it('refuses a second lock while the first is held (JOURNAL_IN_USE, exit 2), and the release frees it', async () => {
    const journal = journalIn();
    const release = await lockJournal(journal);
    const error = await lockJournal(journal).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).code).toBe('JOURNAL_IN_USE');
    expect((error as UsageError).message).toContain(`(process ${process.pid})`);
    expect((error as UsageError).hint).toContain(`remove ${journal}.lock`);
    await release();
    expect(existsSync(`${journal}.lock`)).toBe(false);
    await (await lockJournal(journal))();
  });

  it('takes over the lock of a process that is gone (killed with -9)', async () => {
    const journal = journalIn();
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    writeFileSync(`${journal}.lock`, JSON.stringify({ pid: gone, host: hostname() }));
    const release = await lockJournal(journal);
    expect(JSON.parse(readFileSync(`${journal}.lock`, 'utf8'))).toEqual({ pid: process.pid, host: hostname() });
    await release();
  });

  it('counts a lock from another machine, or one it cannot read, as held', async () => {
    const journal = journalIn();
    writeFileSync(`${journal}.lock`, JSON.stringify({ pid: 1, host: 'build-agent-7' }));
    expect(((await lockJournal(journal).catch((caught: unknown) => caught)) as UsageError).message).toContain('(process 1 on build-agent-7)');
    writeFileSync(`${journal}.lock`, 'not json');
    expect(((await lockJournal(journal).catch((caught: unknown) => caught)) as UsageError).code).toBe('JOURNAL_IN_USE');
  });

  it("does not remove a lock that is no longer its own", async () => {
    const journal = journalIn();
    const release = await lockJournal(journal);
    writeFileSync(`${journal}.lock`, JSON.stringify({ pid: 1, host: hostname() }));
    await release();
    expect(existsSync(`${journal}.lock`)).toBe(true);
  });
});
