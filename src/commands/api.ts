import { UsageError } from '../core/errors.js';
import { httpMethods, matchOperation } from '../api/match.js';
import { getOperation, operations, pathParams, type Operation } from '../api/operations.js';
import { collect, defineCommand, type Context } from '../cli/command.js';
import { readStdinBytes } from '../input/stdin.js';
import { fieldPath, fieldsBody, parseHeader, rawField, readsStdin, typedField, type Field } from '../input/api-fields.js';
import { MAX_INPUT_BYTES, readFileCapped, readFileCappedSync } from '../files/capped-read.js';
import { ListWriter } from '../output/list-output.js';
import { terminalJson, visible } from '../output/sanitize.js';
import { revealNewSecretOnce } from '../output/secret.js';
import { renderTable } from '../output/table.js';
import { forgetWebhookSecret, storeWebhookSecret } from './webhooks/view.js';

interface ApiArgs {
  operation?: string;
  path?: string;
  rawField?: string[];
  field?: string[];
  input?: string;
  header?: string[];
  paginate?: boolean;
  include?: boolean;
  list?: boolean;
  openapi?: boolean;
}

function listOperations(ctx: Context): void {
  const rows = operations.map((op) => ({ operationId: op.id, resource: op.resource, method: op.method, path: op.path, idempotencyKey: op.idempotent, paginated: Boolean(op.paginated) }));
  ctx.output.result(rows, () =>
    renderTable(
      rows,
      [
        { header: 'OPERATION', value: (row) => row.operationId },
        { header: 'METHOD', value: (row) => row.method },
        { header: 'PATH', value: (row) => row.path },
        { header: 'IDEMPOTENCY-KEY', value: (row) => (row.idempotencyKey ? 'required' : '') },
        { header: 'LIST', value: (row) => (row.paginated ? 'yes' : '') },
      ],
      ctx.output.style,
    ),
  );
}

/** The methods whose request carries a body: `--input` with any other would send one the operation does not read. */
const bodyMethods: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH']);

function pathIsUrl(): UsageError {
  return new UsageError('Give the path only, not a URL.', 'The host comes from your profile or ESIGN_*_BASE_URL, so the key only ever goes to the origin it is bound to.', 'API_PATH_IS_URL');
}

/**
 * The path of `esign api METHOD path`, read against a placeholder host. A URL parser takes `//host`, `/\host` and
 * `\\host` as a host and drops spaces, tabs and line breaks, so each of those is refused instead of quietly
 * becoming some other path on the bound host; so is a fragment, which is never sent.
 */
function parsePath(path: string): URL {
  if (/[\u0000-\u0020\u007f]/.test(path)) {
    throw new UsageError(`The path ${JSON.stringify(path)} holds a space or a control character.`, 'Write the path as the API has it, e.g. /v4/api/envelopes/; percent-encode a space in a query value as %20.', 'API_PATH_INVALID');
  }
  let pathname: string;
  try {
    pathname = decodeURIComponent(path.split('?')[0]!);
  } catch {
    throw new UsageError(`The path ${JSON.stringify(path)} has a % that does not start a valid escape.`, 'Write a % itself as %25.', 'API_PATH_INVALID');
  }
  // Decoded too: `/%2F%2Fhost` or `https%3A//host` is a URL to anyone who decodes it once.
  if ([path, pathname].some((text) => /^[a-z][a-z0-9+.-]*:/i.test(text) || /^[/\\]{2}/.test(text))) throw pathIsUrl();
  if (path.includes('\\')) throw new UsageError(`The path ${JSON.stringify(path)} holds a backslash.`, 'Paths take forward slashes only, e.g. /v4/api/envelopes/.', 'API_PATH_INVALID');
  if (path.includes('#')) throw new UsageError(`The path ${JSON.stringify(path)} holds a fragment (#…), which is never sent.`, 'Leave out the # and what follows it.', 'API_PATH_INVALID');
  return new URL(path, 'http://path.invalid');
}

interface Resolved {
  operation: Operation;
  /** The path parameters written in a METHOD path. */
  params: Record<string, string>;
  query: Record<string, string>;
  /** The `{placeholders}` fields fill: each field name with the path parameter it fills. */
  slots: Map<string, string>;
}

/**
 * The operation named by its id (fields fill every `{parameter}`), or by `METHOD /path` with the ids in the path, where
 * a segment written `{name}` is a placeholder the field `name` fills, as in gh api.
 */
function resolveOperation(args: ApiArgs): Resolved {
  const named = args.operation!;
  if (httpMethods.includes(named.toUpperCase() as (typeof httpMethods)[number])) {
    if (!args.path) throw new UsageError(`${named.toUpperCase()} needs a path, e.g. \`esign api GET /v4/api/envelopes/\`.`);
    const url = parsePath(args.path);
    const match = matchOperation(named, url.pathname);
    if (!match) throw new UsageError(`No operation ${named.toUpperCase()} ${url.pathname} in the v4 contract.`, '`esign api --list` shows every operation with its method and path.', 'UNKNOWN_OPERATION');
    const slots = new Map<string, string>();
    for (const [param, value] of Object.entries(match.params)) {
      const placeholder = /^\{(\w+)\}$/.exec(value)?.[1];
      if (placeholder === undefined) continue;
      if (slots.has(placeholder)) throw new UsageError(`{${placeholder}} is written twice in the path.`, 'Each placeholder fills one path parameter: give the other a name of its own.', 'API_PATH_INVALID');
      slots.set(placeholder, param);
      delete match.params[param];
    }
    return { ...match, query: Object.fromEntries(url.searchParams), slots };
  }
  const operation = operations.find((op) => op.id === named) ?? operations.find((op) => op.id.toLowerCase() === named.toLowerCase());
  if (args.path) {
    if (!operation) {
      throw new UsageError(
        `${JSON.stringify(named)} is neither a method of the v4 API (${httpMethods.join(', ')}) nor an operationId.`,
        `Give one of them with the path (esign api GET /v4/api/me), or an operationId alone (\`esign api --list\`).`,
        'UNKNOWN_METHOD',
      );
    }
    throw new UsageError(`Unexpected ${JSON.stringify(args.path)}: an operationId takes no path.`, 'Fill path parameters with -f, e.g. `esign api getEnvelope -f envelopeId=3f6c…`.');
  }
  if (!operation) {
    const close = operations.filter((op) => op.id.toLowerCase().includes(named.toLowerCase())).map((op) => op.id);
    throw new UsageError(`No operation ${JSON.stringify(named)}.`, close.length ? `Did you mean ${close.slice(0, 5).join(', ')}?` : '`esign api --list` shows every operationId.', 'UNKNOWN_OPERATION');
  }
  return { operation: getOperation(operation.id), params: {}, query: {}, slots: new Map(pathParams(operation.path).map((param) => [param, param])) };
}

/**
 * A webhook's new signing secret in an answer (createWebhook's 201, rotateWebhookSecret's `{secret}`) and the endpoint
 * it belongs to. The service has switched to it already and never shows it again, so it is stored and printed once as
 * `webhooks create` and `rotate-secret` do; else `webhooks listen --endpoint` would reject every delivery.
 */
function newWebhookSecret(operation: Operation, params: Record<string, string>, body: unknown): { secret: string; webhookId?: string } | undefined {
  if (operation.resource !== 'webhooks' || typeof body !== 'object' || body === null) return undefined;
  const { secret, id } = body as { secret?: unknown; id?: unknown };
  if (typeof secret !== 'string' || !secret.startsWith('whsec_')) return undefined;
  const webhookId = params.webhookId ?? (typeof id === 'string' && id ? id : undefined);
  return { secret, ...(webhookId ? { webhookId } : {}) };
}

/**
 * The -F fields, `@-` reading standard input as gh api does: once, so only one field (and not --input -) may take it.
 */
async function typedFields(ctx: Context, args: ApiArgs): Promise<Field[]> {
  const texts = args.field ?? [];
  const fromStdin = texts.filter(readsStdin);
  if (fromStdin.length > 1 || (fromStdin.length === 1 && args.input === '-')) {
    throw new UsageError(
      `Standard input is read once, but ${[...fromStdin.map((text) => `-F ${text}`), ...(args.input === '-' ? ['--input -'] : [])].join(' and ')} each ask for it.`,
      'Give the others from files (-F key=@file, --input file).',
      'STDIN_TWICE',
    );
  }
  const stdinText = fromStdin.length ? (await readStdinBytes(ctx.stdin, `-F ${fromStdin[0]}`, MAX_INPUT_BYTES)).toString('utf8') : undefined;
  return texts.map((text) => typedField(text, (path, what) => (path === '-' && stdinText !== undefined ? stdinText : readFileCappedSync(path, what).toString('utf8'))));
}

async function readInput(ctx: Context, input: string): Promise<{ json?: unknown; raw?: { body: Buffer; contentType: string; length: number } }> {
  // A PDF body (validateSealedDocument) may be far larger than any JSON one.
  const maxBytes = 4 * MAX_INPUT_BYTES;
  const bytes =
    input === '-'
      ? await readStdinBytes(ctx.stdin, '--input -', maxBytes)
      : await readFileCapped(input, `--input ${input}`, maxBytes).catch((error: NodeJS.ErrnoException) => {
          if (error instanceof UsageError) throw error;
          throw new UsageError(`--input ${input}: cannot read it (${error.code ?? error.message}).`);
        });
  if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') return { raw: { body: bytes, contentType: 'application/pdf', length: bytes.length } };
  try {
    return { json: JSON.parse(bytes.toString('utf8')) };
  } catch (error) {
    throw new UsageError(`--input ${input}: not JSON (${(error as Error).message}).`, 'The request body is JSON, or a PDF for validateSealedDocument.', 'INPUT_INVALID');
  }
}

export default defineCommand<ApiArgs>({
  name: 'api',
  description: 'Call any operation of the API by operationId or METHOD /path (like `gh api`); --list shows them all',
  arguments: [
    { name: 'operation', description: 'an operationId (getEnvelope) or an HTTP method (GET)', required: false },
    { name: 'path', description: 'with a method: the path, e.g. /v4/api/envelopes/3f6c…/history?limit=5', required: false },
  ],
  options: [
    { flags: '-f, --raw-field <key=value>', description: 'a string parameter (repeatable): fills {key} in the path, else the query (GET, DELETE) or the JSON body, where key[]=value appends to an array and key[member]=value builds an object', parse: collect },
    { flags: '-F, --field <key=value>', description: 'a typed parameter: numbers, true, false, null, @file for a file\'s text, @- for standard input\'s (repeatable)', parse: collect },
    { flags: '--input <file>', description: 'the request body from a file (JSON, or a PDF) or - for standard input; fields then go to the query', completion: 'file' },
    { flags: '-H, --header <header>', description: "an extra request header 'Name: value' (repeatable; not one esign sets or that picks the host, e.g. Authorization, Host)", parse: collect },
    { flags: '--paginate', description: 'follow nextCursor through every page; prints the rows as one JSON array once the last page is in (nothing if a page fails)' },
    { flags: '--include', description: 'print the HTTP status and response headers before the body' },
    { flags: '--list', description: 'list every operation: operationId, method, path, whether it needs an Idempotency-Key' },
    { flags: '--openapi', description: 'print the OpenAPI 3.1 document of the contract (JSON), for SDK generators, fuzzers and mocks' },
  ],
  examples: [
    'esign api --list',
    'esign api --openapi > openapi.json',
    'esign api getEnvelope -f envelopeId=3f6c…',
    'esign api GET /v4/api/envelopes/3f6c…/history',
    "esign api GET '/v4/api/envelopes/{envelopeId}/history' -f envelopeId=3f6c…",
    "esign api createWebhook -f url=https://hooks.example.com/esign -f 'events[]=ENVELOPE_COMPLETED' -F isActive=true",
    'esign api createFolder -f name="Q3 contracts"',
    'esign api updateWebhook -f webhookId=8c2d… -F isActive=false --dry-run',
    'esign api validateSealedDocument --input signed.pdf',
  ],
  async handler(args, ctx) {
    const { list, openapi, ...rest } = args;
    if (list || openapi) {
      const flag = list ? '--list' : '--openapi';
      const others = list && openapi ? ['--openapi'] : Object.entries(rest).filter(([, given]) => given !== undefined);
      if (others.length) throw new UsageError(`${flag} takes nothing else: it prints ${list ? 'the table of operations' : 'the OpenAPI document'} and calls none.`, `Run \`esign api ${flag}\` alone, then call one operation without it.`);
      if (list) return listOperations(ctx);
      // Loaded only here: the document is built from the emulator's route files and zod, which no other command needs.
      const { openApiDocument } = await import('../emulator/openapi.js');
      return ctx.output.data(JSON.stringify(await openApiDocument(), null, 2));
    }
    if (!args.operation) throw new UsageError('Name an operation: an operationId, or a method and a path.', '`esign api --list` shows them all.');
    const { operation, params, query, slots } = resolveOperation(args);
    const fields: Field[] = [...(args.rawField ?? []).map(rawField), ...(await typedFields(ctx, args))];
    const headers: Record<string, string> = {};
    for (const [name, value] of (args.header ?? []).map(parseHeader)) {
      const earlier = Object.keys(headers).find((given) => given.toLowerCase() === name.toLowerCase());
      if (earlier !== undefined) throw new UsageError(`-H ${name} is given twice (also as ${earlier}).`, 'Give each header once; for several values, join them in one -H with commas.', 'HEADER_INVALID');
      headers[name] = value;
    }
    const input = args.input === undefined ? undefined : await readInput(ctx, args.input);
    const fieldsInQuery = input !== undefined || operation.method === 'GET' || operation.method === 'DELETE';
    const bodyFields: Field[] = [];
    const given = new Set([...Object.keys(params), ...Object.keys(query)]);
    for (const field of fields) {
      const { key, members, append } = fieldPath(field.name);
      const single = members.length === 0 && !append;
      // The path and each field name a parameter once: a second value would silently replace the first.
      if (given.has(key)) throw new UsageError(`${key} is given twice (in the path or by another -f/-F).`, `Give ${key} once.`, 'FIELD_GIVEN_TWICE');
      const slot = slots.get(key);
      if (slot !== undefined || fieldsInQuery) {
        if (!single) {
          throw new UsageError(
            `${field.name}: ${slot !== undefined ? `{${key}} in the path` : `a query parameter of ${operation.id}`} takes one value, not an array or object.`,
            `Give -f ${key}=<value>.${slot === undefined && input !== undefined ? ' (With --input, fields go to the query.)' : ''}`,
            'FIELD_INVALID',
          );
        }
        given.add(key);
        if (slot !== undefined) params[slot] = String(field.value);
        else query[key] = field.value === null ? 'null' : String(field.value);
      } else bodyFields.push(field);
    }
    const body = bodyFields.length ? fieldsBody(bodyFields) : undefined;
    const fieldOf = new Map([...slots].map(([name, param]) => [param, name]));
    const missing = pathParams(operation.path)
      .filter((param) => !params[param])
      .map((param) => fieldOf.get(param) ?? param);
    if (missing.length) {
      throw new UsageError(
        `${operation.id} needs ${missing.map((name) => `{${name}}`).join(', ')}.`,
        `Pass ${missing.map((name) => `-f ${name}=<id>`).join(' ')} (or write the ids in the path: esign api ${operation.method} ${operation.path}).`,
        'PATH_PARAMETER_MISSING',
      );
    }
    if (args.paginate && !operation.paginated) throw new UsageError(`--paginate: ${operation.id} is not a list.`, '`esign api --list` marks the lists.');
    if (args.paginate && args.include) {
      throw new UsageError('--paginate and --include cannot be combined: every page has its own status and headers, and the rows are printed as one array.', 'Drop --include, or read one page with --include (and -f cursor=… for the next).');
    }
    if (input !== undefined && !bodyMethods.has(operation.method)) {
      throw new UsageError(`--input: ${operation.id} is a ${operation.method}, which takes no body.`, `Pass its parameters with -f/-F; they go to the query.`);
    }
    if (ctx.globals.idempotencyKey !== undefined && operation.method !== 'POST') {
      throw new UsageError(`--idempotency-key: ${operation.id} is a ${operation.method}; an Idempotency-Key goes with a POST only.`, 'Leave out --idempotency-key for this operation.');
    }
    if (params.envelopeId) {
      const { resolveEnvelopeId } = await import('../workflows/envelope-id.js');
      params.envelopeId = await resolveEnvelopeId(await ctx.client(), params.envelopeId);
    }
    const client = await ctx.client();
    const request = {
      params,
      query,
      headers,
      dryRun: ctx.globals.dryRun,
      // Every POST takes the key given, not only those that need one (the client adds those itself).
      ...(ctx.globals.idempotencyKey !== undefined ? { idempotencyKey: ctx.globals.idempotencyKey } : {}),
      ...(input?.raw ? { raw: input.raw } : {}),
      ...(input?.json !== undefined ? { body: input.json } : body ? { body } : {}),
    };
    if (args.paginate) {
      const writer = new ListWriter(ctx.output, ctx.output.quiet && !ctx.output.json ? 'ids' : 'json', [], '');
      for await (const page of client.pages(operation.id, request)) await writer.add(page.data);
      await writer.end();
      return;
    }
    const response = await client.call(operation.id, request);
    const answerHeaders = Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : (value ?? '')]));
    const print = (): void => {
      if (args.include && ctx.output.json) {
        // --json keeps stdout one JSON document: the status and headers go in it.
        ctx.output.data(terminalJson({ status: response.status, headers: answerHeaders, body: response.body ?? null }, 2));
        return;
      }
      if (args.include) {
        const lines = [`HTTP ${response.status}`, ...Object.entries(answerHeaders).map(([name, value]) => visible(`${name}: ${value}`)), '', ''];
        ctx.output.data(lines.join('\n'));
      }
      // An answer without content (204) is `null` with --json, so stdout always holds one JSON document.
      if (response.body !== undefined || ctx.output.json) ctx.output.result(response.body ?? null, () => terminalJson(response.body, 2));
      else ctx.output.success(`${operation.id}: HTTP ${response.status}, no content.`);
    };
    // An endpoint deleted here loses its stored signing secret too, as with `webhooks delete`.
    if (operation.id === 'deleteWebhook' && params.webhookId) await forgetWebhookSecret(params.webhookId);
    const fresh = newWebhookSecret(operation, params, response.body);
    if (!fresh) return print();
    const { stored, failure } = fresh.webhookId
      ? await storeWebhookSecret(ctx, fresh.webhookId, fresh.secret)
      : { stored: 'the answer names no webhook endpoint, so it is not stored: keep it now.', failure: undefined };
    revealNewSecretOnce(ctx.output, fresh.secret, stored, print);
    if (failure) throw failure;
  },
});
