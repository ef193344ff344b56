import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './support/cli.js';
import { esignOn } from './support/esign-on.js';
import { useEmulator } from './support/emulator.js';

const emulator = useEmulator();
let agreementId: string;

const { run: esign, json: esignJson } = esignOn(emulator);

function participantsFile(text: string): string {
  const dir = tempDir();
  writeFileSync(join(dir, 'participants.yaml'), text);
  return dir;
}

beforeAll(async () => {
  const { data } = await esignJson<{ data: { id: string; name: string }[] }>(['templates', 'list']);
  agreementId = data.find((template) => template.name === 'Service agreement')!.id;
});

describe('templates list and get', () => {
  it('lists the templates with the roles to fill', async () => {
    const result = await esign(['templates', 'list']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Mutual NDA\s+Recipient/);
    expect(result.stdout).toMatch(/Service agreement\s+Client, Provider/);
  });

  it('get shows each role with its templateParticipantId', async () => {
    const template = await esignJson(['templates', 'get', agreementId]);
    const human = await esign(['templates', 'get', agreementId]);
    for (const role of template.participants as { label: string; templateParticipantId: string }[]) {
      expect(human.stdout).toMatch(new RegExp(`${role.label}\\s+SIGNER\\s+${role.templateParticipantId}`));
    }
  });

  it('get shows each document with the id anchors find --template takes', async () => {
    const template = await esignJson(['templates', 'get', agreementId]);
    const human = await esign(['templates', 'get', agreementId]);
    expect(template.documents.length).toBeGreaterThan(0);
    for (const document of template.documents as { documentId: string; fileName: string }[]) {
      expect(human.stdout).toMatch(new RegExp(`${document.documentId}\\s+${document.fileName.replace('.', '\\.')}`));
      const found = await esign(['anchors', 'find', '--template', agreementId, document.documentId, '--text', 'Signature']);
      expect(found.code, found.stderr).toBe(0);
    }
  });
});

describe('templates use: "POST /templates/{templateId}/envelopes … send (boolean; true sends, false leaves a draft)"', () => {
  it('fills roles by their label (templateRole) and leaves a draft', async () => {
    const dir = participantsFile(
      'participants:\n  - templateRole: client\n    name: Ada Client\n    email: ada@example.test\n  - templateRole: Provider\n    name: Pat Provider\n    email: pat@example.test\n',
    );
    const envelope = await esignJson(['templates', 'use', agreementId, '--participants', 'participants.yaml', '--title', 'Agreement Acme', '--deadline', '14d'], { cwd: dir });
    expect(envelope).toMatchObject({ title: 'Agreement Acme', status: 'DRAFT' });
    expect(envelope.participants.map((p: { name: string; signingOrder: number }) => [p.name, p.signingOrder])).toEqual([
      ['Ada Client', 1],
      ['Pat Provider', 2],
    ]);
  });

  it('takes templateParticipantId as is, and --send sends at once', async () => {
    const template = await esignJson(['templates', 'get', agreementId]);
    const [client, provider] = template.participants as { templateParticipantId: string }[];
    const dir = participantsFile(
      `- templateParticipantId: ${client!.templateParticipantId}\n  name: Ada Client\n  email: ada@example.test\n- templateParticipantId: ${provider!.templateParticipantId}\n  name: Pat Provider\n  email: pat@example.test\n`,
    );
    const envelope = await esignJson(['templates', 'use', agreementId, '--participants', 'participants.yaml', '--send'], { cwd: dir });
    expect(envelope.status).toBe('SENT');
    expect(envelope.title).toBe('Service agreement');
    expect(envelope.participants.map((p: { status: string }) => p.status)).toEqual(['NOTIFIED', 'PENDING']);
  });

  it('an unknown role label is refused at file:line:column with the known roles (exit 2, nothing created)', async () => {
    const before = (await esignJson(['envelopes', 'list', '--all'])).length;
    const dir = participantsFile('- templateRole: Client\n  name: Ada\n  email: ada@example.test\n- templateRole: Vendor\n  name: Pat\n  email: pat@example.test\n');
    const result = await esign(['templates', 'use', agreementId, '--participants', 'participants.yaml'], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('participants.yaml:4:17: the template has no role "Vendor"');
    expect(result.stderr).toContain('Roles of this template: "Client", "Provider"');
    expect((await esignJson(['envelopes', 'list', '--all'])).length).toBe(before);
  });

  it('--participants is required', async () => {
    const result = await esign(['templates', 'use', agreementId]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--participants is required');
  });
});
