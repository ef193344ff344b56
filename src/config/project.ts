import { UsageError } from '../api/errors.js';

/** Non-secret settings a repository may carry (`.esignrc`, `esign.config.js`, `package.json#esign`, ...). */
export interface ProjectConfig {
  profile?: string;
  baseUrl?: string;
  sandboxBaseUrl?: string;
  output?: { json?: boolean; color?: boolean };
}

export interface LoadedProjectConfig {
  config: ProjectConfig;
  filepath: string;
}

const keyLike = /[a-z0-9]{2,8}_(test|live)_[A-Za-z0-9]{16,}/;
const secretProperty = /^(api[-_]?key|key|secret|token|test[-_]?key|live[-_]?key)$/i;

/** A key committed to a repository is a leaked key: refuse it loudly rather than use it. */
function findSecret(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return keyLike.test(value) ? path : undefined;
  if (value && typeof value === 'object') {
    for (const [name, child] of Object.entries(value)) {
      const childPath = path ? `${path}.${name}` : name;
      if (secretProperty.test(name) && child !== undefined && child !== null && child !== '') return childPath;
      const found = findSecret(child, childPath);
      if (found) return found;
    }
  }
  return undefined;
}

export async function loadProjectConfig(cwd = process.cwd()): Promise<LoadedProjectConfig | undefined> {
  const { cosmiconfig } = await import('cosmiconfig');
  let result: { config: unknown; filepath: string; isEmpty?: boolean } | null;
  try {
    result = await cosmiconfig('esign').search(cwd);
  } catch (error) {
    throw new UsageError(`Could not read the esign project config: ${(error as Error).message}`, undefined, 'CONFIG_INVALID');
  }
  if (!result || result.isEmpty) return undefined;
  const { filepath, config } = result;
  const secretAt = findSecret(config, '');
  if (secretAt) {
    throw new UsageError(
      `${filepath} contains an API key (at ${secretAt}). Keys must never be stored in project files.`,
      'Remove it from the file (and rotate it if the file was committed); store keys with `esign profiles add <name>`.',
      'CONFIG_CONTAINS_KEY',
    );
  }
  const { z } = await import('zod');
  const schema = z.strictObject({
    profile: z.string().optional(),
    baseUrl: z.string().optional(),
    sandboxBaseUrl: z.string().optional(),
    output: z.strictObject({ json: z.boolean().optional(), color: z.boolean().optional() }).optional(),
  });
  const parsed = schema.safeParse(config);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UsageError(
      `${filepath}: ${issue.path.join('.') || '(root)'}: ${issue.message}.`,
      'Allowed settings: profile, baseUrl, sandboxBaseUrl, output.json, output.color.',
      'CONFIG_INVALID',
    );
  }
  return { filepath, config: parsed.data };
}
