// Every command line in README.md and docs/ that runs esign (in ```sh blocks) is run here, in the order the page gives,
// by bash with the built binary on PATH, against real emulators: it must exit 0. A line whose comment ends in `needs a
// real service`, `needs a terminal` or `needs a receiver` is only parsed. docs/commands.md is generated from the commands' own examples,
// which test/help.test.ts parses.
//
// The pages' ids are stand-ins for objects created here first (see `standIns`); servers (`esign emulator`,
// `esign webhooks listen`) are started on port 0, must stay up and print, and must stop cleanly on SIGTERM.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, esignBin, parseJson, repoRoot, runEsign, tempDir, type RunResult } from './support/cli.js';
import { useEmulators } from './support/emulator.js';
import { parseCommandLine } from './support/parse-command-line.js';
import { ndaPdf } from './support/pdfs.js';
import { esignInvocations } from './support/shell-words.js';

interface DocLine {
  where: string;
  text: string;
  skipped?: string;
  /** `npm run examples`: the example PDFs exist only from this line on, as in a fresh clone. */
  drawsExamples?: boolean;
}

/** The line that draws the example PDFs (.gitignored: a fresh clone has none until it runs). */
const drawsExamples = /^npm run examples(\s|$)/;

const pages = ['README.md', ...readdirSync(join(repoRoot, 'docs')).filter((name) => name.endsWith('.md') && name !== 'commands.md').map((name) => `docs/${name}`)];
/** A comment ending in one of these reasons: the line is parsed, not run. */
const skipMarker = /#.*\bneeds a (real service|terminal|receiver)\s*$/;

/** The lines of ```sh blocks that run esign, continuation lines joined. */
function commandLines(page: string): DocLine[] {
  const lines = readFileSync(join(repoRoot, page), 'utf8').split('\n');
  const found: DocLine[] = [];
  let inShell = false;
  let fenced = false;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (line.startsWith('```')) {
      fenced = !fenced;
      inShell = fenced && /^```(sh|bash|shell)?$/.test(line.trim());
      continue;
    }
    if (!inShell) continue;
    let text = line;
    const first = index;
    while (text.endsWith('\\') && index + 1 < lines.length) text = `${text.slice(0, -1)} ${lines[++index]!.trim()}`;
    if (drawsExamples.test(text.trim())) {
      found.push({ where: `${page}:${first + 1}`, text, drawsExamples: true });
      continue;
    }
    if (esignInvocations(text).length === 0) continue;
    const reason = skipMarker.exec(text)?.[1];
    found.push({ where: `${page}:${first + 1}`, text, ...(reason ? { skipped: `needs a ${reason}` } : {}) });
  }
  return found;
}

const documented = pages.map((page) => [page, commandLines(page)] as const);

describe('command lines in README.md and docs/', () => {
  it('finds command lines on the pages it reads (a page without any would mean the reader broke)', () => {
    expect(documented.find(([page]) => page === 'README.md')![1].length).toBeGreaterThan(8);
    expect(documented.reduce((sum, [, lines]) => sum + lines.length, 0)).toBeGreaterThan(60);
  });

  it("shows examples/nda/envelope.yaml as it is, so the send-now spec a reader copies names files that exist", () => {
    const spec = readFileSync(join(repoRoot, 'examples', 'nda', 'envelope.yaml'), 'utf8')
      .split('\n')
      .filter((line) => !line.startsWith('#'))
      .join('\n');
    expect(readFileSync(join(repoRoot, 'docs', 'usage.md'), 'utf8')).toContain(`\`\`\`yaml\n${spec.trimEnd()}\n\`\`\``);
    expect(spec).toContain('file: nda.pdf');
  });

  it.each(documented.flatMap(([, lines]) => lines.filter((line) => !line.drawsExamples).map((line) => [line.where, line] as const)))('%s parses', async (_where, line) => {
    for (const argv of esignInvocations(line.text)) {
      const parsed = await parseCommandLine(argv);
      expect(parsed.error, `${line.where}: ${line.text}\n${parsed.error}`).toBeUndefined();
    }
  });
});

let work: string;
let env: Record<string, string>;
const [sandbox, production] = useEmulators(['--processing-delay', '50'], ['--environment', 'production']);
let hooks: Server;
/** Literal text in the pages → the object created for it. */
const standIns = new Map<string, string>();

async function esign(args: readonly string[], input?: string): Promise<Record<string, unknown>> {
  const result = await runEsign(['--json', ...args], { env, cwd: work, ...(input === undefined ? {} : { input }) });
  if (result.code !== 0) throw new Error(`esign ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return result.stdout.trim() ? parseJson(result.stdout) : {};
}

beforeAll(async () => {
  hooks = createServer((_request, response) => response.end('ok'));
  await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));

  work = tempDir('esign-docs-');
  mkdirSync(join(work, 'bin'));
  symlinkSync(esignBin, join(work, 'bin', 'esign'));
  // As a fresh clone has it: the example PDFs are drawn only where a page says `npm run examples`.
  cpSync(join(repoRoot, 'examples'), join(work, 'examples'), { recursive: true, filter: (source) => !source.endsWith('.pdf') });
  writeFileSync(join(work, 'setup-nda.pdf'), await ndaPdf());
  // A project config, so docs/ci.md's `esign config trust` has one to trust; trusted already, as the checkout it
  // stands for would be, for the pages (README's `esign doctor`) that run before docs/ci.md.
  writeFileSync(join(work, '.esignrc.yaml'), 'profile: acme\n');
  env = baseEnv({ ESIGN_CONFIG_DIR: join(work, 'config'), PATH: `${join(work, 'bin')}:${process.env.PATH}` });
  await esign(['config', 'trust', '.esignrc.yaml']);
  await esign(['profiles', 'add', 'acme', '--test-key-stdin', '--live-key-stdin', '--sandbox-base-url', sandbox.url, '--base-url', production.url], `${sandbox.key}\n${production.key}\n`);

  // The emulator's seed has a Sales folder, as the support recipes assume.
  const folders = (await esign(['folders', 'list', '--all'])) as unknown as { id: string; name: string }[];
  const folder = folders.find((candidate) => candidate.name === 'Sales')!;
  const webhook = await esign(['webhooks', 'create', '--url', `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/esign`, '--events', 'ENVELOPE_SENT,ENVELOPE_COMPLETED']);
  const envelope = await esign(['envelopes', 'create', '--title', 'NDA Acme', '--folder', String(folder.id)]);
  const envelopeId = String(envelope.id);
  const { participants } = (await esign(['participants', 'set', envelopeId, '--add', 'Ada Lovelace <ada@example.com>', '--add', 'Grace Hopper <grace@example.com>'])) as { participants: { id: string }[] };
  await esign(['documents', 'upload', envelopeId, 'setup-nda.pdf']);
  const documents = (await esign(['documents', 'list', envelopeId])) as { data: { documentId: string }[] };
  const documentId = documents.data[0]!.documentId;
  const fields = participants.map((participant, index) => ({
    participantId: participant.id,
    type: 'SIGNATURE',
    anchor: { text: '{{signature}}', occurrence: index + 1 },
    size: { width: 150, height: 30 },
  }));
  writeFileSync(join(work, 'setup-fields.json'), JSON.stringify({ fields }));
  await esign(['fields', 'put', envelopeId, documentId, '--file', 'setup-fields.json']);
  await esign(['send', envelopeId]);
  let deliveries: { data: { id: string }[] } = { data: [] };
  for (let attempt = 0; attempt < 50 && deliveries.data.length === 0; attempt++) {
    deliveries = (await esign(['webhooks', 'deliveries', String(webhook.id)])) as typeof deliveries;
    if (!deliveries.data.length) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const templates = (await esign(['templates', 'list'])) as { data: { id: string }[] };
  const template = (await esign(['templates', 'get', templates.data[0]!.id])) as { documents: { id?: string; documentId?: string }[] };

  standIns.set('3f6c1a2b', envelopeId.slice(0, 8));
  standIns.set('3f6c…', envelopeId);
  standIns.set('9a1b…', documentId);
  standIns.set('7b2e…', participants[0]!.id);
  standIns.set('5d0e…', templates.data[0]!.id);
  standIns.set('4c3b…', String(template.documents[0]!.id ?? template.documents[0]!.documentId));
  standIns.set('8c2d…', String(webhook.id));
  standIns.set('51aa…', deliveries.data[0]!.id);
  standIns.set('0b7f…', String(folder.id));
}, 120_000);

afterAll(async () => {
  hooks?.close();
});

/** Servers do not end by themselves: they run on a free port until they have printed, then get SIGTERM. */
function isServer(argv: readonly string[]): boolean {
  return argv[0] === 'emulator' && (argv.length === 1 || argv[1]!.startsWith('-')) ? true : argv[0] === 'webhooks' && argv[1] === 'listen';
}

function onFreePort(text: string): string {
  if (/--port \d+/.test(text)) return text.replace(/--port \d+/, '--port 0');
  return text.replace(/esign (emulator|webhooks listen)/, 'esign $1 --port 0');
}

function runLine(text: string, server: boolean): Promise<RunResult> {
  const child = spawn('bash', ['-c', server ? onFreePort(text) : text], { cwd: work, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const stopGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // the group has already ended
    }
  };
  const limit = setTimeout(() => stopGroup('SIGKILL'), 60_000);
  if (server) {
    // Up and talking (or backgrounded by the line itself) after a moment: then stopped as Ctrl-C would.
    const poll = setInterval(() => {
      if (stdout || stderr || child.exitCode !== null) {
        clearInterval(poll);
        setTimeout(() => stopGroup('SIGTERM'), 1_000);
      }
    }, 100);
    child.on('close', () => clearInterval(poll));
  }
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(limit);
      resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr });
    });
  });
}

function withStandIns(text: string): string {
  let result = text;
  for (const [standIn, real] of standIns) result = result.split(standIn).join(real);
  return result;
}

describe.each(documented.filter(([, lines]) => lines.some((line) => !line.skipped)))('%s, run against the emulator', (_page, lines) => {
  const runnable = lines.filter((line) => !line.skipped);
  it.each(runnable.map((line) => [line.where, line.text, line] as const))('%s: %s', async (_where, _text, line) => {
    if (line.drawsExamples) {
      execFileSync(process.execPath, [join(repoRoot, 'scripts', 'examples.mjs'), join(work, 'examples')], { stdio: 'ignore' });
      return;
    }
    const text = withStandIns(line.text);
    const server = esignInvocations(text).some(isServer);
    const result = await runLine(text, server);
    expect(result.code, `${line.where}: ${text}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`).toBe(0);
  });
});
