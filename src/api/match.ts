import { operations, pathParams, type HttpMethod, type Operation } from './operations.js';

export const httpMethods: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

export interface MatchedOperation {
  operation: Operation;
  /** Values found where the template has `{name}`, decoded. */
  params: Record<string, string>;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A template as a pattern: `{name}` is one path segment, and a collection's trailing slash is optional. */
function patternOf(template: string): RegExp {
  const body = template
    .replace(/\/$/, '')
    .split(/(\{\w+\})/)
    .map((part) => (/^\{\w+\}$/.test(part) ? '([^/]+)' : escapeRegExp(part)))
    .join('');
  return new RegExp(`^${body}/?$`);
}

/**
 * The operation of the table a `METHOD /path` names, with the ids in the path. Literal segments win over parameters
 * (`/envelopes/send-now` is sendNow, not an envelope called "send-now").
 */
export function matchOperation(method: string, path: string): MatchedOperation | undefined {
  const wanted = method.toUpperCase();
  const matches: MatchedOperation[] = [];
  for (const operation of operations) {
    if (operation.method !== wanted) continue;
    const found = patternOf(operation.path).exec(path);
    if (!found) continue;
    const names = pathParams(operation.path);
    matches.push({ operation, params: Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(found[index + 1]!)])) });
  }
  return matches.sort((a, b) => Object.keys(a.params).length - Object.keys(b.params).length)[0];
}
