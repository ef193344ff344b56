/**
 * examples/: every spec there runs through `batch validate`, `batch plan` and `batch run` against a real emulator, and
 * its sent envelopes are taken to COMPLETED with `esign emulator sign|approve`, so CI proves the examples still work.
 * The examples are copied to a temp dir (journals and reports land there) with their PDFs drawn by
 * scripts/examples.mjs, as `npm run examples` draws them for a reader.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectStatus } from './support/api-call.js';
import { parseJson, repoRoot, runEsign, tempDir } from './support/cli.js';
import { useEmulator } from './support/emulator.js';

const examplesDir = join(repoRoot, 'examples', 'batch');
const schemaFile = join(repoRoot, 'schema', 'esign-batch.schema.json');
const examples = readdirSync(examplesDir).filter((name) => name.endsWith('.yaml')).sort();

const emulator = useEmulator(['--processing-delay', '20']);
let copy: string;
let templateId: string;

beforeAll(async () => {
  copy = join(tempDir('esign-examples-'), 'examples');
  cpSync(join(repoRoot, 'examples'), copy, { recursive: true, filter: (source) => !/\.(pdf|jsonl|xml)$/.test(source) });
  execFileSync(process.execPath, [join(repoRoot, 'scripts', 'examples.mjs'), copy], { stdio: 'ignore' });
  const templates = expectStatus(await call(emulator, 'GET', '/v4/api/templates/'), 200).body as { data: { id: string; name: string }[] };
  templateId = templates.data.find((template) => template.name === 'Mutual NDA')!.id;
});

function esign(args: readonly string[]) {
  return runEsign(args, { cwd: join(copy, 'batch'), env: { ...emulator.env, ESIGN_TEMPLATE_ID: templateId }, timeoutMs: 90_000 });
}

/** Signs or approves, whoever's turn it is, until the envelope is COMPLETED. */
async function complete(envelopeId: string): Promise<string> {
  let status = 'SENT';
  for (let turn = 0; turn < 6 && status !== 'COMPLETED'; turn++) {
    let acted = await esign(['--json', 'emulator', 'sign', envelopeId]);
    if (acted.code !== 0) acted = await esign(['--json', 'emulator', 'approve', envelopeId]);
    expect(acted.code, acted.stderr).toBe(0);
    status = parseJson<{ status: string }>(acted.stdout).status;
  }
  return status;
}

describe('the shipped JSON Schema', () => {
  it('schema/esign-batch.schema.json is what `esign batch schema` prints now (run npm run schema after changing the spec)', async () => {
    const printed = await runEsign(['batch', 'schema']);
    expect(printed.code, printed.stderr).toBe(0);
    expect(readFileSync(schemaFile, 'utf8')).toBe(printed.stdout);
  });

  // ajv (JSON Schema 2020-12) reads the shipped file, as an editor's validator does.
  const validate = () => new Ajv2020({ strict: false }).compile(JSON.parse(readFileSync(schemaFile, 'utf8')) as Record<string, unknown>);

  it.each(examples)('%s validates against it, as the yaml-language-server line makes editors check it', async (name) => {
    const { parseAllDocuments } = await import('yaml');
    const check = validate();
    for (const document of parseAllDocuments(readFileSync(join(examplesDir, name), 'utf8'), { merge: true })) {
      expect(check(document.toJS()), JSON.stringify(check.errors)).toBe(true);
    }
  });

  it('still refuses what esign refuses (a title that is not text, an unknown key; the rest: test/batch-schema-agreement.test.ts)', () => {
    const check = validate();
    expect(check({ version: 1, envelopes: [{ ref: 'a', title: 3 }] })).toBe(false);
    expect(check({ version: 1, envelopes: [{ ref: 'a', titel: 'x' }] })).toBe(false);
    expect(check({ version: 1, defaults: { via: 'fax' }, envelopes: [{ ref: 'a' }] })).toBe(false);
  });

  it('ships with the package (package.json files)', () => {
    const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { files: string[] };
    expect(pkg.files).toContain('schema');
  });
});

describe('examples/batch', () => {
  it('holds the examples CI runs', () => {
    expect(examples).toEqual(expect.arrayContaining(['bulk-nda.yaml', 'onboarding.yaml', 'stream.yaml', 'template.yaml']));
  });

  it.each(examples)('%s starts with a yaml-language-server line naming the shipped schema', (name) => {
    const first = readFileSync(join(examplesDir, name), 'utf8').split('\n')[0]!;
    const match = /^# yaml-language-server: \$schema=(\S+)$/.exec(first);
    expect(match, first).not.toBeNull();
    expect(resolve(dirname(join(examplesDir, name)), match![1]!)).toBe(schemaFile);
  });

  it.each(examples)('%s validates, plans, runs and its sent envelopes complete', { timeout: 180_000 }, async (name) => {
    const validated = await esign(['--json', 'batch', 'validate', name]);
    expect(validated.code, validated.stderr).toBe(0);
    const { envelopes } = parseJson<{ envelopes: { ref: string }[] }>(validated.stdout);
    expect(envelopes.length).toBeGreaterThan(0);

    const planned = await esign(['--json', 'batch', 'plan', name]);
    expect(planned.code, planned.stderr).toBe(0);
    const plans = parseJson<{ ref: string; requests: { method: string; idempotencyKey?: string }[] }[]>(planned.stdout);
    expect(plans.map((plan) => plan.ref)).toEqual(envelopes.map((envelope) => envelope.ref));
    for (const plan of plans) {
      // The contract: POSTs that create or send carry an Idempotency-Key; batch mode derives every one of them.
      for (const request of plan.requests.filter((candidate) => candidate.method === 'POST')) expect(request.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    }

    const report = `${name}.junit.xml`;
    const ran = await esign(['--json', 'batch', 'run', name, '--wait', 'sent', '--report', report]);
    expect(ran.code, ran.stderr).toBe(0);
    const summary = parseJson<{ ok: boolean; envelopes: { ref: string; envelopeId: string; status: string }[] }>(ran.stdout);
    expect(summary.envelopes.map((envelope) => envelope.ref)).toEqual(envelopes.map((envelope) => envelope.ref));
    const junit = readFileSync(join(copy, 'batch', report), 'utf8');
    expect(junit).toContain(`tests="${envelopes.length}" failures="0"`);

    const sent = summary.envelopes.filter((envelope) => envelope.status === 'SENT');
    for (const envelope of summary.envelopes.filter((candidate) => candidate.status !== 'SENT')) {
      // Only `send: false` leaves a draft.
      expect([envelope.ref, envelope.status]).toEqual([expect.stringMatching(/draft/), 'DRAFT']);
    }
    for (const envelope of sent) expect(await complete(envelope.envelopeId)).toBe('COMPLETED');
    if (sent.length) {
      const waited = await esign(['--json', 'envelopes', 'wait', ...sent.map((envelope) => envelope.envelopeId), '--until', 'COMPLETED', '--wait-timeout', '30s']);
      expect(waited.code, waited.stderr).toBe(0);
    }
  });
});
