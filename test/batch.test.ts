import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, countEnvelopes as countEnvelopesOf, expectStatus } from './support/api-call.js';
import { baseEnv, esignBin, parseJson, runEsign, startEsign, tempDir, type RunOptions } from './support/cli.js';
import { minimalDocx } from './support/documents.js';
import { participantAction } from './support/envelope-flow.js';
import { useEmulator, withEmulator } from './support/emulator.js';
import { ndaPdf } from './support/pdfs.js';

const emulator = useEmulator(['--processing-delay', '20']);
let dir: string;
let templateId: string;

beforeAll(async () => {
  dir = tempDir('esign-batch-');
  writeFileSync(join(dir, 'nda.pdf'), await ndaPdf());
  const templates = expectStatus(await call(emulator, 'GET', '/v4/api/templates/'), 200).body as { data: { id: string; participants?: unknown[] }[] };
  templateId = templates.data[0]!.id;
});

function esign(args: readonly string[], options: RunOptions = {}) {
  return runEsign(args, { cwd: dir, ...options, env: { ...emulator.env, ...options.env } });
}

function write(name: string, text: string): string {
  writeFileSync(join(dir, name), text);
  return name;
}

/** Envelopes whose title starts with `prefix`, counted through the API's own list. */
function countEnvelopes(prefix: string): Promise<number> {
  return countEnvelopesOf(emulator, prefix);
}

const signer = (ref: string, name: string) => `      - { ref: ${ref}, name: ${name}, email: ${ref}@example.com }`;
const anchoredSignature = (participant: string) =>
  [
    '      - type: SIGNATURE',
    '        documentRef: nda',
    `        participantRef: ${participant}`,
    '        size: { width: 150, height: 40 }',
    '        anchor: { text: "{{signature}}", occurrence: 1 }',
  ].join('\n');

function batchOf(prefix: string, refs: readonly string[]): string {
  return [
    'version: 1',
    'defaults:',
    '  documents:',
    '    - { ref: nda, file: nda.pdf }',
    'envelopes:',
    ...refs.flatMap((ref, index) => [
      `  - ref: ${ref}`,
      `    title: ${prefix} ${ref}`,
      `    via: ${index % 2 === 0 ? 'flow' : 'send-now'}`,
      '    participants:',
      signer(`p${index}`, `Person ${index}`),
      '    fields:',
      anchoredSignature(`p${index}`),
    ]),
    '',
  ].join('\n');
}

describe('batch run', () => {
  it('sends a 3-envelope spec end to end (flow, send-now, template) and reports it as JUnit', async () => {
    const file = write(
      'three.yaml',
      [
        '# yaml-language-server: $schema=../esign-batch.schema.json',
        'version: 1',
        'defaults:',
        '  message: Please sign',
        '  documents:',
        '    - { ref: nda, file: nda.pdf }',
        'envelopes:',
        '  - ref: acme',
        '    title: Three acme',
        '    participants:',
        signer('ada', 'Ada Lovelace'),
        '    fields:',
        anchoredSignature('ada'),
        '  - ref: globex',
        '    title: Three globex',
        '    via: send-now',
        '    participants:',
        signer('bob', 'Bob Stone'),
        '    fields:',
        anchoredSignature('bob'),
        '  - ref: initech',
        '    via: template',
        `    templateId: ${templateId}`,
        '    title: Three initech',
        '    participants:',
        '      - { templateRole: Recipient, name: Cy Young, email: cy@example.com }',
        '',
      ].join('\n'),
    );
    const validated = await esign(['--json', 'batch', 'validate', file]);
    expect(validated.code, validated.stderr).toBe(0);
    const result = await esign(['--json', 'batch', 'run', file, '--wait', 'sent', '--report', 'three.xml']);
    expect(result.code, result.stderr).toBe(0);
    const summary = parseJson<{ ok: boolean; envelopes: { ref: string; envelopeId: string; status: string; participants: Record<string, string> }[] }>(result.stdout);
    expect(summary.ok).toBe(true);
    expect(summary.envelopes.map((envelope) => [envelope.ref, envelope.status])).toEqual([
      ['acme', 'SENT'],
      ['globex', 'SENT'],
      ['initech', 'SENT'],
    ]);
    expect(Object.keys(summary.envelopes[0]!.participants)).toEqual(['ada']);
    expect(await countEnvelopes('Three ')).toBe(3);
    const report = readFileSync(join(dir, 'three.xml'), 'utf8');
    expect(report).toContain('tests="3" failures="0"');
    expect(report).toContain('name="globex"');
  });

  it('re-running a finished spec creates nothing new (derived Idempotency-Keys)', async () => {
    const file = write('rerun.yaml', batchOf('Rerun', ['a', 'b']));
    const first = await esign(['--json', 'batch', 'run', file]);
    expect(first.code, first.stderr).toBe(0);
    const again = await esign(['--json', 'batch', 'run', file, '--force']);
    expect(again.code, again.stderr).toBe(0);
    const ids = (text: string) => parseJson<{ envelopes: { envelopeId: string }[] }>(text).envelopes.map((envelope) => envelope.envelopeId);
    expect(ids(again.stdout)).toEqual(ids(first.stdout));
    expect(await countEnvelopes('Rerun ')).toBe(2);
  });

  it('a send-now entry and `envelopes send-now` of the same spec derive the same Idempotency-Key: each finds what the other created', async () => {
    const envelope = [
      'title: Same key',
      'participants:',
      '  - { ref: p0, name: Person 0, email: p0@example.com }',
      'documents:',
      '  - { ref: nda, file: nda.pdf }',
      'fields:',
      '  - { type: SIGNATURE, documentRef: nda, participantRef: p0, size: { width: 150, height: 40 }, anchor: { text: "{{signature}}", occurrence: 1 } }',
    ];
    const single = write('same-key.yaml', `${envelope.join('\n')}\n`);
    const sent = await esign(['--json', 'envelopes', 'send-now', '--file', single]);
    expect(sent.code, sent.stderr).toBe(0);
    const batch = write('same-key-batch.yaml', ['version: 1', 'envelopes:', '  - ref: same', '    via: send-now', ...envelope.map((line) => `    ${line}`), ''].join('\n'));
    const result = await esign(['--json', 'batch', 'run', batch]);
    expect(result.code, result.stderr).toBe(0);
    expect(parseJson<{ envelopes: { envelopeId: string }[] }>(result.stdout).envelopes[0]!.envelopeId).toBe(parseJson<{ id: string }>(sent.stdout).id);
    expect(await countEnvelopes('Same key')).toBe(1);
  });

  it('refuses to start over an earlier journal without --resume or --force', async () => {
    const file = write('journalled.yaml', batchOf('Journalled', ['x']));
    expect((await esign(['batch', 'run', file])).code).toBe(0);
    const again = await esign(['batch', 'run', file]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('--resume');
  });

  it('expands each: rows from a CSV, with ${{ row.x }} and ${{ env.X }}, refs numbered or named by a column', async () => {
    write('people.csv', 'id,name,email\nc1,"Lovelace, Ada",ada@example.com\nc2,Bob Stone,bob@example.com\nc3,Cy Young,cy@example.com\n');
    const file = write(
      'rows.yaml',
      [
        'ref: welcome',
        'each: people.csv',
        'title: Rows ${{ row.name }} (${{ env.BATCH_TEAM }})',
        'documents: [{ ref: nda, file: nda.pdf }]',
        'participants:',
        '  - { ref: p, name: "${{ row.name }}", email: "${{ row.email }}" }',
        'fields:',
        '  - { type: SIGNATURE, documentRef: nda, participantRef: p, pageNumber: 1, position: { x: 72, y: 100 }, size: { width: 150, height: 40 } }',
        '---',
        'ref: named-${{ row.id }}',
        'each: people.csv',
        'title: Named ${{ row.name }}',
        'send: false',
        'documents: [{ ref: nda, file: nda.pdf }]',
        'participants:',
        '  - { ref: p, name: "${{ row.name }}", email: "${{ row.email }}" }',
        'fields:',
        '  - { type: SIGNATURE, documentRef: nda, participantRef: p, pageNumber: 1, position: { x: 72, y: 100 }, size: { width: 150, height: 40 } }',
        '',
      ].join('\n'),
    );
    const plan = await esign(['--json', 'batch', 'plan', file], { env: { BATCH_TEAM: 'ops' } });
    expect(plan.code, plan.stderr).toBe(0);
    const plans = parseJson<{ ref: string; requests: { body: { title?: string } }[] }[]>(plan.stdout);
    expect(plans.map((entry) => entry.ref)).toEqual(['welcome-1', 'welcome-2', 'welcome-3', 'named-c1', 'named-c2', 'named-c3']);
    expect(plans[0]!.requests[0]!.body.title).toBe('Rows Lovelace, Ada (ops)');
    const run = await esign(['--json', 'batch', 'run', file], { env: { BATCH_TEAM: 'ops' } });
    expect(run.code, run.stderr).toBe(0);
    const statuses = parseJson<{ envelopes: { ref: string; status: string }[] }>(run.stdout).envelopes.map((envelope) => envelope.status);
    expect(statuses).toEqual(['SENT', 'SENT', 'SENT', 'DRAFT', 'DRAFT', 'DRAFT']);

    const missing = await esign(['batch', 'validate', file]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/rows\.yaml:3:8: .*environment variable BATCH_TEAM is not set/);
  });

  it('never writes its journal or report over an input: an each: rows file, or a document of another shard (exit 2, even with --force, nothing sent)', async () => {
    const pdf = readFileSync(join(dir, 'nda.pdf'));
    writeFileSync(join(dir, 'guard-a.pdf'), pdf);
    writeFileSync(join(dir, 'guard-b.pdf'), pdf);
    const rows = 'name,email\nAda,ada@example.com\n';
    write('guard-rows.csv', rows);
    const envelope = (ref: string, extra: string[] = []) => [
      `  - ref: ${ref}`,
      ...extra,
      `    title: Guarded ${ref}`,
      `    documents: [{ ref: nda, file: guard-${ref}.pdf }]`,
      '    participants: [{ ref: p, name: Pat, email: pat@example.com }]',
      '    fields: [{ type: SIGNATURE, documentRef: nda, participantRef: p, pageNumber: 1, position: { x: 72, y: 100 }, size: { width: 150, height: 40 } }]',
    ];
    const file = write('guarded.yaml', ['version: 1', 'envelopes:', ...envelope('a', ['    each: guard-rows.csv']), ...envelope('b'), ''].join('\n'));
    // The two refs land in different shards or the same one; either way each document is an input of the batch.
    for (const [target, extra] of [['guard-rows.csv', []], ['guard-a.pdf', ['--shard', '1/2']], ['guard-b.pdf', ['--shard', '1/2']], ['guard-a.pdf', ['--shard', '2/2']], ['guard-b.pdf', ['--shard', '2/2']]] as const) {
      const result = await esign(['batch', 'run', file, ...extra, '--report', target, '--force']);
      expect(result.code, `${target} ${extra.join(' ')}: ${result.stderr}`).toBe(2);
      expect(result.stderr).toContain(target);
      const journal = await esign(['batch', 'run', file, ...extra, '--journal', target, '--force']);
      expect(journal.code, `--journal ${target}: ${journal.stderr}`).toBe(2);
    }
    expect(readFileSync(join(dir, 'guard-rows.csv'), 'utf8')).toBe(rows);
    expect(readFileSync(join(dir, 'guard-a.pdf')).equals(pdf)).toBe(true);
    expect(readFileSync(join(dir, 'guard-b.pdf')).equals(pdf)).toBe(true);
    expect(await countEnvelopes('Guarded ')).toBe(0);
  });

  it('refuses, before sending anything, a report and journal naming one file (through a symlink and ..) or an output it cannot write, saying why (exit 2)', async () => {
    const file = write('outputs.yaml', batchOf('Outputs', ['o']));
    symlinkSync('.', join(dir, 'here'));
    write('not-a-folder', '');
    const cases: [string[], RegExp][] = [
      [['--report', 'same.x', '--journal', 'same.x'], /--report same\.x and --journal same\.x name the same file/],
      [['--report', `here/../${basename(dir)}/same.x`, '--journal', 'same.x', '--force'], /name the same file/],
      [['--report', 'nodir/r.xml'], /--report nodir\/r\.xml: its folder does not exist/],
      [['--report', 'not-a-folder/r.xml'], /--report not-a-folder\/r\.xml: its folder not-a-folder is not a folder/],
      [['--journal', 'nodir/j.jsonl'], /--journal nodir\/j\.jsonl: its folder does not exist/],
      ...(process.platform === 'linux' ? [[['--report', '/proc/version', '--force'], /--report \/proc\/version: no file can be created in its folder \/proc/] as [string[], RegExp]] : []),
    ];
    for (const [options, message] of cases) {
      const result = await esign(['batch', 'run', file, ...options]);
      expect(result.code, `${options.join(' ')}: ${result.stderr}`).toBe(2);
      expect(result.stderr).toMatch(message);
    }
    expect(existsSync(join(dir, 'same.x'))).toBe(false);
    expect(await countEnvelopes('Outputs ')).toBe(0);
  });

  it('--dry-run prints every envelope\'s requests, sends nothing, writes no journal or report (exit 0); the real run then starts', async () => {
    const file = write('dry.yaml', batchOf('Dry run', ['d1', 'd2']));
    const dry = await esign(['--dry-run', 'batch', 'run', file, '--journal', 'dry.jsonl', '--report', 'dry.xml']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/d1 \(via flow\)[\s\S]*POST \/v4\/api\/envelopes\/[\s\S]*Dry run d1/);
    expect(dry.stdout).toMatch(/d2 \(via send-now\)[\s\S]*POST \/v4\/api\/envelopes\/send-now[\s\S]*Dry run d2/);
    expect(dry.stderr).toContain('nothing sent');
    expect(existsSync(join(dir, 'dry.jsonl'))).toBe(false);
    expect(existsSync(join(dir, 'dry.xml'))).toBe(false);
    expect(await countEnvelopes('Dry run ')).toBe(0);
    const real = await esign(['batch', 'run', file, '--journal', 'dry.jsonl', '--report', 'dry.xml']);
    expect(real.code, real.stderr).toBe(0);
    const resumed = await esign(['--dry-run', '--json', 'batch', 'run', file, '--journal', 'dry.jsonl', '--resume']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(parseJson<{ requests: unknown[] }[]>(resumed.stdout).map((plan) => plan.requests)).toEqual([[], []]);
  });

  it('3 shards cover every envelope exactly once', async () => {
    const refs = Array.from({ length: 12 }, (_, index) => `s${index}`);
    const file = write('sharded.yaml', batchOf('Sharded', refs));
    const seen: string[] = [];
    for (const shard of ['1/3', '2/3', '3/3']) {
      const plan = await esign(['--json', 'batch', 'plan', file, '--shard', shard]);
      expect(plan.code, plan.stderr).toBe(0);
      const result = await esign(['--json', 'batch', 'run', file, '--shard', shard, '--journal', `sharded-${shard.replace('/', 'of')}.jsonl`, '--report', `sharded-${shard.replace('/', 'of')}.xml`]);
      expect(result.code, result.stderr).toBe(0);
      const sent = parseJson<{ envelopes: { ref: string }[] }>(result.stdout).envelopes.map((envelope) => envelope.ref);
      // Each job of a matrix plans what it sends, not the whole batch.
      expect(parseJson<{ ref: string }[]>(plan.stdout).map((entry) => entry.ref)).toEqual(sent);
      // Merged reports of a matrix tell their suites apart.
      expect(readFileSync(join(dir, `sharded-${shard.replace('/', 'of')}.xml`), 'utf8')).toContain(`<testsuite name="esign batch sharded.yaml (shard ${shard})"`);
      seen.push(...sent);
    }
    expect(seen.sort()).toEqual([...refs].sort());
    expect(await countEnvelopes('Sharded ')).toBe(12);
  });
});

describe('batch run --run-id: a CI retry on a fresh workspace, and the next run', () => {
  it('the same run id finds every envelope (deadline: 7d, no journal): exit 0, none twice; a new run id sends new ones', { timeout: 120_000 }, async () => {
    const spec = [
      'version: 1',
      'defaults:',
      '  deadline: 7d',
      '  documents:',
      '    - { ref: nda, file: nda.pdf }',
      'envelopes:',
      '  - ref: flow',
      '    title: Retry flow',
      '    participants:',
      signer('fl', 'Flo Wing'),
      '    fields:',
      anchoredSignature('fl'),
      '  - ref: now',
      '    title: Retry now',
      '    via: send-now',
      '    participants:',
      signer('no', 'Noa Wu'),
      '    fields:',
      anchoredSignature('no'),
      '  - ref: template',
      '    via: template',
      `    templateId: ${templateId}`,
      '    title: Retry template',
      '    participants:',
      '      - { templateRole: Recipient, name: Cy Young, email: cy@example.com }',
      '',
    ].join('\n');
    /** A job in a workspace of its own: the checkout (spec and PDF), no journal of any earlier attempt. */
    const job = async (runId: string, args: readonly string[] = []) => {
      const workspace = tempDir('esign-batch-workspace-');
      writeFileSync(join(workspace, 'batch.yaml'), spec);
      writeFileSync(join(workspace, 'nda.pdf'), readFileSync(join(dir, 'nda.pdf')));
      const result = await esign(['--json', 'batch', 'run', 'batch.yaml', '--wait', 'sent', '--run-id', runId, ...args], { cwd: workspace, env: { CI: 'true' } });
      expect(result.code, result.stderr).toBe(0);
      return { stderr: result.stderr, ...parseJson<{ runId: string; envelopes: { ref: string; envelopeId: string; status: string; earlierRun?: boolean }[] }>(result.stdout) };
    };
    const first = await job('5001');
    expect(first.runId).toBe('5001');
    expect(first.envelopes.map((envelope) => [envelope.ref, envelope.status, envelope.earlierRun ?? false])).toEqual([
      ['flow', 'SENT', false],
      ['now', 'SENT', false],
      ['template', 'SENT', false],
    ]);
    for (const { envelopeId } of first.envelopes) {
      const envelope = expectStatus(await call(emulator, 'GET', `/v4/api/envelopes/${envelopeId}`), 200).body;
      expect(Date.parse(envelope.deadline) - Date.parse(envelope.createdAt)).toBe(7 * 24 * 3600_000);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));

    const retry = await job('5001');
    expect(retry.envelopes.map((envelope) => envelope.envelopeId)).toEqual(first.envelopes.map((envelope) => envelope.envelopeId));
    expect(retry.envelopes.every((envelope) => envelope.earlierRun)).toBe(true);
    expect(retry.stderr).toContain('3 of 3 envelopes come from an earlier run with run id 5001; nothing new was created for them. To send new envelopes, give a new run id (this one is 5001).');
    expect(await countEnvelopes('Retry ')).toBe(3);

    const next = await job('5002');
    expect(next.envelopes.filter((envelope) => first.envelopes.some((earlier) => earlier.envelopeId === envelope.envelopeId))).toEqual([]);
    expect(next.stderr).not.toContain('earlier run');
    expect(await countEnvelopes('Retry ')).toBe(6);
  });

  it('--resume continues the journalled run under its run id, and refuses another (exit 2, nothing sent)', async () => {
    const file = write('resume-run.yaml', batchOf('Resume run', ['a']));
    expect((await esign(['batch', 'run', file, '--run-id', '77'])).code).toBe(0);
    const other = await esign(['batch', 'run', file, '--resume', '--run-id', '78']);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('RUN_ID_MISMATCH');
    expect(other.stderr).toContain('records run 77, not run 78');
    const same = await esign(['--json', 'batch', 'run', file, '--resume']);
    expect(same.code, same.stderr).toBe(0);
    expect(parseJson<{ runId: string }>(same.stdout).runId).toBe('77');
    expect(await countEnvelopes('Resume run ')).toBe(1);
  });
});

describe('batch run when things go wrong', () => {
  it('a run killed with SIGKILL halfway and resumed sends every envelope exactly once', { timeout: 120_000 }, async () => {
    const refs = Array.from({ length: 10 }, (_, index) => `k${index}`);
    const file = write('killed.yaml', batchOf('Killed', refs));
    const child = spawn(process.execPath, [esignBin, 'batch', 'run', file, '--concurrency', '2'], { cwd: dir, env: baseEnv(emulator.env), stdio: 'ignore' });
    const journal = join(dir, 'killed.yaml.journal.jsonl');
    // Kill once a few steps are journalled, wherever the other workers are.
    for (let waited = 0; waited < 20_000; waited += 20) {
      if (existsSync(journal) && readFileSync(journal, 'utf8').split('\n').length > 8) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const resumed = await esign(['--json', 'batch', 'run', file, '--resume', '--wait', 'sent']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(parseJson<{ envelopes: { status: string }[] }>(resumed.stdout).envelopes.every((envelope) => envelope.status === 'SENT')).toBe(true);
    expect(await countEnvelopes('Killed ')).toBe(10);
  });

  it('under resets, 503s and 429s every envelope is sent exactly once', async () => {
    await withEmulator(['--processing-delay', '20', '--faults', 'reset=0.1,503=0.05,429=0.05'], async (faulty) => {
      const refs = Array.from({ length: 8 }, (_, index) => `f${index}`);
      const file = write('faulty.yaml', batchOf('Faulty', refs));
      // A reset can leave a request without an answer: --timeout bounds each attempt, so the run is not held 30 s a time.
      const run = (extra: string[]) => runEsign(['--json', '--timeout', '3', 'batch', 'run', file, '--concurrency', '4', '--wait', 'sent', ...extra], { cwd: dir, env: faulty.env, timeoutMs: 150_000 });
      let result = await run([]);
      // A step whose retries ran out fails its envelope only (exit 8); resuming finishes it without duplicates.
      for (let resumes = 0; result.code === 8 && resumes < 5; resumes++) result = await run(['--resume']);
      expect(result.code, result.stderr).toBe(0);
      expect(parseJson<{ envelopes: { status: string }[] }>(result.stdout).envelopes.map((envelope) => envelope.status)).toEqual(refs.map(() => 'SENT'));
      const titles: string[] = [];
      let cursor: string | null = null;
      for (let pages = 0; pages < 1_000; ) {
        // The emulator's faults hit this listing too: a failed page is asked again.
        const response: Response = await fetch(`${faulty.url}/v4/api/envelopes/?limit=100${cursor ? `&cursor=${cursor}` : ''}`, { headers: { authorization: `Bearer ${faulty.key}` } }).catch(() => new Response(null, { status: 599 }));
        if (response.status !== 200) continue;
        pages++;
        const page = (await response.json()) as { data: { title: string }[]; nextCursor: string | null };
        titles.push(...page.data.map((envelope) => envelope.title));
        cursor = page.nextCursor;
        if (!cursor) break;
      }
      const faultyTitles = titles.filter((title) => title.startsWith('Faulty '));
      expect(faultyTitles.sort()).toEqual(refs.map((ref) => `Faulty ${ref}`).sort());
    });
  }, 240_000);

  it('one failing envelope does not stop the others: exit 8, the failure in the report', async () => {
    const file = write(
      'partial.yaml',
      [
        'version: 1',
        'defaults:',
        '  documents: [{ ref: nda, file: nda.pdf }]',
        'envelopes:',
        '  - ref: good',
        '    title: Partial good',
        '    participants:',
        signer('g', 'Good Person'),
        '    fields:',
        anchoredSignature('g'),
        '  - ref: bad',
        '    title: Partial bad',
        '    folderId: 00000000-0000-4000-8000-000000000000',
        '    participants:',
        signer('b', 'Bad Person'),
        '    fields:',
        anchoredSignature('b'),
        '',
      ].join('\n'),
    );
    const result = await esign(['--json', 'batch', 'run', file, '--report', 'partial.xml']);
    expect(result.code, result.stderr).toBe(8);
    const error = parseJson<{ error: { code: string; details: { envelopes: { ref: string; ok: boolean }[] } } }>(result.stderr).error;
    expect(error.code).toBe('BATCH_PARTIAL');
    expect(error.details.envelopes.map((envelope) => [envelope.ref, envelope.ok])).toEqual([
      ['good', true],
      ['bad', false],
    ]);
    expect(readFileSync(join(dir, 'partial.xml'), 'utf8')).toMatch(/name="bad"[^]*<failure/);
    expect(error.details).toMatchObject({ total: 2, succeeded: 1, failed: 1, errors: 0, skipped: 0 });

    // In a log: one line per failed envelope and the tally, not every envelope's outcome; those come with --verbose.
    const human = await esign(['batch', 'run', file, '--force'], { env: { CI: 'true' } });
    expect(human.code).toBe(8);
    expect(human.stderr.split('\n').filter((line) => line.includes('bad: '))).toEqual([expect.stringMatching(/^! bad: RESOURCE_NOT_FOUND: Folder \S+ not found\.$/)]);
    expect(human.stderr).toContain('✗ BATCH_PARTIAL: 1 of 2 envelopes done, 1 failed, 0 errors, 0 skipped.');
    expect(human.stderr).not.toContain('envelopes:');
    const verbose = await esign(['batch', 'run', file, '--force', '--verbose'], { env: { CI: 'true' } });
    expect(verbose.code).toBe(8);
    expect(verbose.stderr).toContain('envelopes: [');
  });
});

describe('batch run --wait', () => {
  it('an envelope the wait sees refused is reported with the status it ended on (DECLINED), not the last one journalled', async () => {
    const file = write('declined.yaml', batchOf('Declined wait', ['only']));
    const running = startEsign(['--json', 'batch', 'run', file, '--wait', 'completed', '--force'], { cwd: dir, env: emulator.env, timeoutMs: 60_000 });
    let sent: { id: string; participants: { id: string }[] } | undefined;
    for (let waited = 0; !sent && waited < 30_000; waited += 100) {
      const listed = expectStatus(await call(emulator, 'GET', '/v4/api/envelopes/?status=SENT&limit=100'), 200).body as { data: { id: string; title: string; participants: { id: string }[] }[] };
      sent = listed.data.find((envelope) => envelope.title === 'Declined wait only');
      if (!sent) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await participantAction(emulator, sent!.id, sent!.participants[0]!.id, 'refuse', { reason: 'Not me' })).status).toBe(200);
    const result = await running.result;
    expect(result.code, result.stderr).toBe(8);
    const summary = parseJson<{ error: { details: { envelopes: { status?: string; error?: { message: string } }[] } } }>(result.stderr).error.details;
    expect(summary.envelopes[0]!.error!.message).toContain('ended DECLINED');
    expect(summary.envelopes[0]!.status).toBe('DECLINED');
  });
});

describe('batch run with Word documents and nobody to ask', () => {
  it('refuses before anything is sent, naming each .docx and --confirm-conversion (exit 2); with the flag the run goes on', async () => {
    writeFileSync(join(dir, 'offer.docx'), minimalDocx(['Offer letter', '{{signature}}']));
    const file = write(
      'word.yaml',
      [
        'title: Word offer',
        'participants:',
        '  - { ref: ada, name: Ada, email: ada@example.com }',
        'documents:',
        '  - { ref: offer, file: offer.docx }',
        'fields:',
        '  - { type: SIGNATURE, documentRef: offer, participantRef: ada, size: { width: 150, height: 40 }, anchor: { text: "{{signature}}", occurrence: 1 } }',
        '',
      ].join('\n'),
    );
    const refused = await esign(['batch', 'run', file, '--force']);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain('CONVERSION_NOT_CONFIRMED: Word documents wait for their converted PDF to be accepted, and there is no terminal to ask: word:');
    expect(refused.stderr).toContain('--confirm-conversion');
    expect(await countEnvelopes('Word offer')).toBe(0);
    const confirmed = await esign(['batch', 'run', file, '--force', '--confirm-conversion']);
    expect(confirmed.code, confirmed.stderr).toBe(0);
    expect(await countEnvelopes('Word offer')).toBe(1);
  });
});

describe('batch run with a key the service refuses', () => {
  it('stops starting envelopes at the first 401 and exits 3 with the key hint, instead of one refused request per envelope (exit 8)', async () => {
    const refs = Array.from({ length: 12 }, (_, index) => `r${index}`);
    const file = write('refused-key.yaml', batchOf('Refused key', refs));
    // Well formed, of the right mode, unknown to the service.
    const result = await esign(['--json', 'batch', 'run', file, '--concurrency', '2', '--force'], { env: { ESIGN_API_KEY: `em_test_${'Z'.repeat(24)}` } });
    expect(result.code, result.stderr).toBe(3);
    const error = parseJson<{ error: { code: string; message: string; details: { envelopes: { error?: { code: string } }[] } } }>(result.stderr).error;
    expect(error.code).toBe('INVALID_API_KEY');
    const notStarted = error.details.envelopes.filter((envelope) => envelope.error?.code === 'NOT_STARTED').length;
    expect(notStarted).toBeGreaterThanOrEqual(12 - 2);
    expect(error.message).toContain(`The run stopped: ${notStarted} of 12 envelopes not started.`);
  });
});

describe('batch validate', () => {
  const good = [
    'version: 1', //                                   1
    'defaults:', //                                    2
    '  documents: [{ ref: nda, file: nda.pdf }]', //   3
    'envelopes:', //                                   4
    '  - ref: one', //                                 5
    '    title: Valid one', //                         6
    '    participants:', //                            7
    '      - { ref: ada, name: Ada, email: ada@example.com }', // 8
    '    fields:', //                                  9
    '      - type: SIGNATURE', //                      10
    '        documentRef: nda', //                     11
    '        participantRef: ada', //                  12
    '        size: { width: 150, height: 40 }', //     13
    '        anchor: { text: "{{signature}}", occurrence: 1 }', // 14
  ];
  const variant = (line: number, text: string | null, extra: string[] = []) => {
    const lines = [...good];
    if (text === null) lines.splice(line - 1, 1);
    else lines[line - 1] = text;
    return [...lines, ...extra, ''].join('\n');
  };

  // Each broken spec, and where (file:line:column) and what the error must say.
  const cases: [name: string, text: string, where: string, says: RegExp][] = [
    ['a misspelt key', variant(6, '    titel: Valid one'), ':6:12', /titel: unknown key; did you mean "title"\?/],
    ['a missing title', variant(6, null), ':5:5', /title/],
    ['a bad e-mail', variant(8, '      - { ref: ada, name: Ada, email: ada-at-example }'), ':8:39', /not an e-mail address/],
    ['a field for nobody', variant(12, '        participantRef: bob'), ':12:25', /no participant has ref "bob"/],
    ['a missing document file', variant(3, '  documents: [{ ref: nda, file: missing.pdf }]'), ':3:33', /no such file/],
    ['an anchor not in the PDF', variant(14, '        anchor: { text: "NOT THERE", occurrence: 1 }'), ':10:9', /ANCHOR_NOT_FOUND|not found/i],
    ['a signer without a signature', variant(10, '      - type: TEXT'), ':', /SIGNER_WITHOUT_SIGNATURE/],
    ['version 2', variant(1, 'version: 2'), ':1:10', /version must be 1/],
    ['an unknown route', variant(6, '    title: Valid one\n    via: fax'), ':7:10', /via must be one of flow, send-now, template/],
    ['a duplicate ref', good.join('\n'), ':', /ref "one" is already used at .*:5:10/],
    ['both position and anchor', variant(13, '        size: { width: 150, height: 40 }\n        pageNumber: 1\n        position: { x: 1, y: 1 }'), ':16:17', /give either pageNumber \+ position or anchor, not both/],
    ['a YAML syntax error', variant(6, '    title: "unterminated'), ':6:', /.+/],
    ['a missing row column', variant(6, '    title: ${{ row.name }}'), ':6:12', /has no each: rows/],
    ['a deadline on a day that does not exist', variant(6, '    title: Valid one\n    deadline: 2030-04-31'), ':7:15', /"2030-04-31" is not a valid date: April 2030 has 30 days/],
    [
      "a template entry's deadline on a day that does not exist",
      variant(14, good[13]!, ['  - ref: two', '    via: template', `    templateId: ${randomUUID()}`, '    title: T', '    deadline: 2029-02-29T09:00:00Z', '    participants:', '      - { templateRole: Recipient, name: Cy, email: cy@example.com }']),
      ':19:15',
      /"2029-02-29T09:00:00Z" is not a valid date: February 2029 has 28 days/,
    ],
  ];

  it.each(cases)('reports %s at file:line:column with exit 2', async (name, text, where, says) => {
    const file = write(`broken-${name.replace(/\W+/g, '-')}.yaml`, name === 'a duplicate ref' ? [text, ...good.slice(4)].join('\n') + '\n' : text);
    const result = await esign(['batch', 'validate', file]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(`${file}${where}`);
    expect(result.stderr).toMatch(says);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('reports every problem of an envelope past the schema in one run: duplicate ref, unknown refs, deadline, missing file', async () => {
    const file = write(
      'many-problems.yaml',
      [
        'version: 1', //                                                              1
        'envelopes:', //                                                              2
        '  - ref: one', //                                                            3
        '    title: Many problems', //                                                4
        '    deadline: tomorrow', //                                                  5
        '    participants: [{ ref: ada, name: Ada, email: ada@example.com }]', //   6
        '    documents:', //                                                          7
        '      - { ref: nda, file: nda.pdf }', //                                     8
        '      - { ref: nda, file: missing.pdf }', //                                9
        '    fields:', //                                                             10
        '      - { type: SIGNATURE, documentRef: nope, participantRef: bob, pageNumber: 1, position: { x: 72, y: 72 }, size: { width: 150, height: 40 } }',
        '',
      ].join('\n'),
    );
    const result = await esign(['batch', 'validate', file]);
    expect(result.code).toBe(2);
    for (const where of ['many-problems.yaml:9:', 'many-problems.yaml:11:', 'many-problems.yaml:5:']) expect(result.stderr).toContain(where);
    expect(result.stderr).toContain('no document has ref "nope"');
    expect(result.stderr).toContain('no participant has ref "bob"');
    expect(result.stderr).toContain('missing.pdf');
  });

  it('warns of what can still make a retry fail or send twice: a deadline less than 24 hours away, ${{ env }} values, no run id in CI', async () => {
    const soon = new Date(Date.now() + 3600_000).toISOString();
    const file = write('risky.yaml', variant(6, '    title: Risky ${{ env.BUILD_LABEL }}', [`    deadline: ${soon}`]));
    for (const command of ['validate', 'plan']) {
      const result = await esign(['batch', command, file], { env: { CI: 'true', BUILD_LABEL: 'b1' } });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toMatch(new RegExp(`retry risk \\(one\\): risky\\.yaml:15:15: the deadline ${soon.replace(/\./g, '\\.')} is less than 24 hours away: a retry after it is refused`));
      expect(result.stderr).toMatch(/retry risk \(one\): risky\.yaml:5:5: reads \$\{\{ env\.BUILD_LABEL \}\}: a retry where it has another value sends another envelope/);
      expect(result.stderr).toContain('this job has no run id: a re-run within 24 hours answers the envelopes of the first run instead of sending new ones.');
    }
    // With a run id, and with a duration for the deadline, only the variable is left to say.
    const calm = await esign(['batch', 'plan', write('calm.yaml', variant(6, '    title: Calm ${{ env.BUILD_LABEL }}', ['    deadline: 7d'])), '--run-id', '9'], { env: { CI: 'true', BUILD_LABEL: 'b1' } });
    expect(calm.code, calm.stderr).toBe(0);
    expect(calm.stderr.match(/retry risk/g)).toHaveLength(1);
  });

  it('names the first 20 refs of a large batch and counts the rest; --json lists them all', async () => {
    const refs = Array.from({ length: 25 }, (_, index) => `r${index + 1}`);
    const file = write('twenty-five.yaml', batchOf('Many', refs));
    const human = await esign(['batch', 'validate', file]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain(`25 envelopes valid: ${refs.slice(0, 20).join(', ')} and 5 more`);
    const json = await esign(['--json', 'batch', 'validate', file]);
    expect(parseJson<{ envelopes: unknown[] }>(json.stdout).envelopes).toHaveLength(25);
  });

  it('prints a JSON Schema that names the spec keys', async () => {
    const result = await esign(['batch', 'schema']);
    expect(result.code).toBe(0);
    const schema = parseJson<{ anyOf: unknown[] }>(result.stdout);
    expect(JSON.stringify(schema)).toContain('"participantRef"');
  });
});
