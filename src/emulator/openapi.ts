/**
 * The OpenAPI 3.1 document of the contract as this project pins it, generated, never written by hand: methods, paths,
 * success statuses, Idempotency-Key and scopes from the operation table (src/api/operations.ts), request bodies from the
 * emulator's own body schemas (the route files' `requestBodies`), answers from the shapes the CLI checks
 * (src/api/answers.ts), and the error envelope, pagination, authentication and rate-limit headers of pins.md.
 * `esign api --openapi` prints it, the emulator serves it at /_emulator/openapi.json, and docs/openapi.json is it.
 */
import type { ZodType } from 'zod';
import { answerShapes } from '../api/answers.js';
import { idempotencyKeyPattern } from '../api/idempotency.js';
import { operations, pathParams, type Operation } from '../api/operations.js';
import { envelopeStatuses } from '../shared/values.js';
import { loadRouteModules } from './routes/index.js';
import type { RequestBodies, RequestBody } from './validate.js';

type Json = Record<string, unknown>;

const ERROR_REF = { $ref: '#/components/responses/Error' };

/** The refusals every operation may answer (pins.md: validation, key, plan, missing resource, state, ceiling). */
const COMMON_REFUSALS = ['400', '401', '403', '404', '409', '422'] as const;

const rateLimitHeaders: Json = {
  'RateLimit-Limit': { description: 'Requests the account may make per second.', schema: { type: 'string' } },
  'RateLimit-Remaining': { description: 'Requests left in the current second.', schema: { type: 'string' } },
  'RateLimit-Reset': { description: 'Seconds until the ceiling resets.', schema: { type: 'string' } },
};

const retryAfter = { description: 'Seconds to wait before repeating the request.', schema: { type: 'string' } };

/** `envelopePage` → `EnvelopePageAnswer`: the component of an answer shape. */
function answerName(shape: string): string {
  return `${shape[0]!.toUpperCase()}${shape.slice(1)}Answer`;
}

async function components(): Promise<Json> {
  const shapes = [...new Set(operations.filter((operation) => operation.successStatus !== 204).map((operation) => operation.answers))].sort();
  const answers: Json = {};
  for (const shape of shapes) answers[answerName(shape)] = await jsonSchemaOf(answerShapes[shape], 'output');
  return {
    securitySchemes: {
      apiKey: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: '<prefix>_(test|live)_<secret>',
        description: 'An API key of the account; a test key is accepted only by a sandbox host, a live key only by a production host.',
      },
      sessionToken: { type: 'http', scheme: 'bearer', description: 'A user session token (legacy /v2 only), sent with the x-account-id header.' },
    },
    schemas: {
      ...answers,
      Error: {
        type: 'object',
        description: 'Every refusal: `{error: {code, message, details?}}`.',
        required: ['error'],
        properties: {
          error: {
            type: 'object',
            required: ['code', 'message'],
            properties: { code: { type: 'string' }, message: { type: 'string' }, details: { type: 'object' } },
          },
        },
      },
    },
    parameters: {
      limit: { name: 'limit', in: 'query', description: 'Items per page.', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
      cursor: { name: 'cursor', in: 'query', description: 'The `nextCursor` of the previous page.', schema: { type: 'string' } },
    },
    headers: {
      IdempotentReplayed: { description: '`true` when the answer is the stored one of an earlier request with the same Idempotency-Key.', schema: { type: 'string', enum: ['true'] } },
    },
    responses: {
      Error: { description: 'A refusal.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
      RateLimited: {
        description: 'The account request ceiling is reached.',
        headers: { 'Retry-After': retryAfter, ...rateLimitHeaders },
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
      Unavailable: {
        description: 'The service (or anchor search) is busy or unavailable.',
        headers: { 'Retry-After': retryAfter },
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
    },
  };
}

/** A JSON Schema of a zod schema as OpenAPI 3.1 embeds it: what a request may send, without its own `$schema`. */
async function jsonSchemaOf(schema: ZodType | import('zod/mini').ZodMiniType, io: 'input' | 'output'): Promise<Json> {
  const { z } = await import('zod');
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Json;
  return rest;
}

/** `getEnvelopeHistory` → `Get envelope history`: the public title, from the operationId. */
function summaryOf(id: string): string {
  const words = id.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words[0]!.toUpperCase() + words.slice(1);
}

/** Lists answer a page, `{data, nextCursor}` (pins.md, "Lists (every collection)"). */
function answersPage(operation: Operation): boolean {
  return operation.paginated === true || /Page$|^page$/.test(operation.answers);
}

/** Query parameters beyond `limit` and `cursor`, as pins.md and docs/emulator.md give them. */
const queryParameters: Record<string, Json[]> = {
  listEnvelopes: [
    { name: 'status', in: 'query', schema: { type: 'string', enum: [...envelopeStatuses] } },
    { name: 'folderId', in: 'query', schema: { type: 'string' } },
  ],
  listContacts: [{ name: 'q', in: 'query', description: 'Text searched in name, e-mail and company (an emulator extension).', schema: { type: 'string' } }],
  listMembers: [{ name: 'groupId', in: 'query', schema: { type: 'string' } }],
  getUsageByGroup: [
    { name: 'from', in: 'query', schema: { type: 'string', format: 'date-time' } },
    { name: 'to', in: 'query', schema: { type: 'string', format: 'date-time' } },
  ],
};

async function requestBodyOf(operation: Operation, body: RequestBody | undefined): Promise<Json | undefined> {
  if (operation.id === 'validateSealedDocument') {
    return { required: true, content: { 'application/pdf': { schema: { type: 'string', contentMediaType: 'application/pdf' } } } };
  }
  if (!['POST', 'PUT', 'PATCH'].includes(operation.method)) return undefined;
  if (!body) return { required: false, content: { 'application/json': { schema: { type: 'object' } } } };
  const schema = await body.schema();
  // A body is required when the operation says so, or when `{}` (what a missing body reads as) is refused.
  const required = body.required === true || !schema.safeParse({}).success;
  return { required, content: { 'application/json': { schema: await jsonSchemaOf(schema, 'input') } } };
}

async function operationObject(operation: Operation, body: RequestBody | undefined): Promise<Json> {
  const legacy = operation.resource === 'legacy';
  const parameters: Json[] = pathParams(operation.path).map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
  if (answersPage(operation)) parameters.push({ $ref: '#/components/parameters/limit' }, { $ref: '#/components/parameters/cursor' });
  parameters.push(...(queryParameters[operation.id] ?? []));
  // Required where the contract says so; honoured on any other POST that changes something (a retry is then safe).
  const takesKey = operation.idempotent || (operation.method === 'POST' && !operation.readOnly && !legacy);
  if (takesKey) {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: operation.idempotent,
      description: 'Repeating a request with the same key within 24 hours answers the first result; the same key with another request is 409 IDEMPOTENCY_KEY_REUSED.',
      schema: { type: 'string', pattern: idempotencyKeyPattern.source },
    });
  }
  if (legacy) parameters.push({ name: 'x-account-id', in: 'header', required: true, schema: { type: 'string' } });

  const success: Json = { description: operation.successStatus === 204 ? 'Done; no content.' : 'Done.' };
  if (operation.successStatus !== 204) success.content = { 'application/json': { schema: { $ref: `#/components/schemas/${answerName(operation.answers)}` } } };
  if (takesKey) success.headers = { 'Idempotent-Replayed': { $ref: '#/components/headers/IdempotentReplayed' } };
  const responses: Json = { [operation.successStatus]: success };
  // An operation that may answer nothing (pins.md leaves its body open) may also answer 204.
  if (operation.mayAnswerNothing && operation.successStatus !== 204) responses['204'] = { description: 'Done; no content.' };
  for (const status of COMMON_REFUSALS) responses[status] = ERROR_REF;
  if (operation.method !== 'GET') responses['413'] = ERROR_REF;
  if (operation.method !== 'GET' && operation.method !== 'DELETE') responses['415'] = ERROR_REF;
  responses['429'] = { $ref: '#/components/responses/RateLimited' };
  responses['503'] = { $ref: '#/components/responses/Unavailable' };
  responses.default = ERROR_REF;

  const requestBody = await requestBodyOf(operation, body);
  const notes = [
    operation.stated ? 'Method and path stated by the contract.' : 'Method and path pinned by the project (shared/spec/pins.md).',
    ...(operation.idempotent ? ['Requires an Idempotency-Key.'] : []),
    ...(operation.scope ? [`Scope: \`${operation.scope}\`.`] : []),
  ];
  return {
    operationId: operation.id,
    summary: summaryOf(operation.id),
    description: notes.join(' '),
    tags: [operation.resource],
    ...(legacy ? { security: [{ sessionToken: [] }] } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses,
  };
}

/** The document, as JSON; `serverUrl` is the base address it describes (the emulator's own when it serves it). */
export async function openApiDocument(serverUrl = 'http://127.0.0.1:8080'): Promise<Json> {
  const modules = await loadRouteModules();
  const legacy = await import('./routes/legacy.js');
  const bodies: RequestBodies = Object.assign({}, legacy.requestBodies, ...modules.map((module) => module.requestBodies ?? {}));
  const paths: Record<string, Json> = {};
  for (const operation of operations) {
    const item = (paths[operation.path] ??= {});
    item[operation.method.toLowerCase()] = await operationObject(operation, bodies[operation.id]);
  }
  const resources = [...new Set(operations.map((operation) => operation.resource))];
  return {
    openapi: '3.1.0',
    info: {
      title: 'Electronic Signature Envelope API',
      version: '4',
      summary: 'The public contract v4, with the choices this project pins where the contract says "not shown".',
      description:
        'Generated by esign (`esign api --openapi`) from its operation table, the emulator\'s request schemas and the answer shapes esign checks. Answers describe the fields esign reads; others may be present.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: serverUrl, description: 'The base address: ESIGN_SANDBOX_BASE_URL, ESIGN_BASE_URL, or an emulator (`esign emulator`).' }],
    security: [{ apiKey: [] }],
    tags: resources.map((name) => ({ name, description: `Operations on ${name}.` })),
    paths,
    components: await components(),
  };
}
