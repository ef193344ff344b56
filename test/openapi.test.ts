/**
 * The OpenAPI 3.1 document of the contract: `esign api --openapi` prints docs/openapi.json as committed (the staleness
 * check itself is src/manual/generated-files.test.ts), the emulator serves it with itself as the server, and it says
 * what the operation table says. .ci/run lints it with Redocly and sends the integration flows through a validating
 * proxy built from it (test/validated-traffic.test.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { operations } from '../src/api/operations.js';
import { repoRoot, runEsign } from './support/cli.js';
import { useEmulator } from './support/emulator.js';

const committed = readFileSync(join(repoRoot, 'docs', 'openapi.json'), 'utf8');
const document = JSON.parse(committed) as { openapi: string; servers: { url: string }[]; paths: Record<string, Record<string, any>> };
const emulator = useEmulator();

describe('the OpenAPI document', () => {
  it('`esign api --openapi` prints docs/openapi.json, with no key and no base URL', async () => {
    const printed = await runEsign(['api', '--openapi']);
    expect(printed.code, printed.stderr).toBe(0);
    expect(printed.stdout).toBe(committed);
  });

  it('--openapi takes nothing else', async () => {
    for (const args of [['api', '--openapi', 'getMe'], ['api', '--openapi', '--list'], ['api', '--openapi', '--paginate']]) {
      const refused = await runEsign(args);
      expect(refused.code, args.join(' ')).toBe(2);
      expect(refused.stderr).toMatch(/takes nothing else/);
      expect(refused.stdout).toBe('');
    }
  });

  it('the emulator serves it at /_emulator/openapi.json, without a key, naming itself as the server', async () => {
    const answer = await emulator.fetch('/_emulator/openapi.json', { key: false });
    expect(answer.status).toBe(200);
    const served = (await answer.json()) as typeof document;
    expect(served.servers[0]!.url).toBe(emulator.url);
    expect({ ...served, servers: document.servers }).toEqual(document);
  });

  it('is OpenAPI 3.1 with every operation of the table: its method, path, success status, Idempotency-Key and scope', () => {
    expect(document.openapi).toBe('3.1.0');
    const described = Object.values(document.paths).flatMap((item) => Object.values(item).map((operation) => operation.operationId));
    expect(described.sort()).toEqual(operations.map((operation) => operation.id).sort());
    for (const operation of operations) {
      const described = document.paths[operation.path]![operation.method.toLowerCase()];
      expect(described.operationId).toBe(operation.id);
      expect(Object.keys(described.responses)).toContain(String(operation.successStatus));
      const key = (described.parameters ?? []).find((parameter: { name?: string }) => parameter.name === 'Idempotency-Key');
      expect(Boolean(key?.required), `${operation.id} Idempotency-Key`).toBe(operation.idempotent);
      if (operation.scope) expect(described.description).toContain(operation.scope);
    }
  });

  it('describes refusals as the error envelope, and the rate limit with its headers', () => {
    const getMe = document.paths['/v4/api/me']!.get;
    expect(getMe.responses['401']).toEqual({ $ref: '#/components/responses/Error' });
    expect(getMe.responses['429']).toEqual({ $ref: '#/components/responses/RateLimited' });
    const components = JSON.parse(committed).components;
    expect(components.schemas.Error.properties.error.required).toEqual(['code', 'message']);
    expect(Object.keys(components.responses.RateLimited.headers)).toEqual(['Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']);
  });

  it('takes its request bodies from the emulator: what the emulator refuses, the document does not allow', () => {
    const webhook = document.paths['/v4/api/webhooks/']!.post.requestBody;
    expect(webhook.required).toBe(true);
    expect(webhook.content['application/json'].schema).toMatchObject({ required: ['url', 'events', 'isActive'], additionalProperties: false });
    // A missing body is refused by createEnvelope, though every property is optional.
    expect(document.paths['/v4/api/envelopes/']!.post.requestBody.required).toBe(true);
    expect(document.paths['/v4/api/documents/validate']!.post.requestBody.content).toHaveProperty(['application/pdf']);
  });
});
