export type Environment = 'sandbox' | 'production';

export interface FaultRates {
  /** Probability of a dropped connection. */
  reset: number;
  /** Probability of a 503 answer. */
  unavailable: number;
  /** Probability of a 429 answer. */
  rateLimited: number;
  /** Added latency in ms for every API request. */
  latencyMs: number;
  /** Added latency in ms before an upload address reads its body: a slow storage host (tests interrupt uploads). */
  uploadLatencyMs: number;
}

export interface EmulatorOptions {
  host: string;
  port: number;
  environment: Environment;
  /** Accepted API keys; each must be of the environment's kind. */
  keys: string[];
  processingDelayMs: number;
  maxDocumentBytes: number;
  anchorSearch: boolean;
  anchorTimeLimitMs: number;
  /** How long upload and download addresses stay valid (tests shorten it to see them expire). */
  signedAddressTtlMs: number;
  messageLimit: number;
  envelopeQuota?: number;
  /** Requests per second per account; undefined = unlimited. */
  rateLimit?: number;
  faults: FaultRates;
  statePath?: string;
  /**
   * Told when a save to `statePath` fails after one that worked, and when one works again (`undefined`), with when
   * the state was last saved whole.
   */
  onStateSaveProblem?: (failure: Error | undefined, savedAt: Date | undefined) => void;
  /** Webhook retry schedule in ms (tests shorten it). */
  webhookRetryDelaysMs: number[];
  /** Seed the account with folders, a team and templates. */
  seed: boolean;
  /** Draft envelopes put straight into the store at start (bench: a large store without a million requests). */
  preloadDrafts?: number;
  /** Contacts put straight into the store at start (bench: `contacts list --all` over 100,000). */
  preloadContacts?: number;
  /** Deterministic randomness for faults (tests). */
  random?: () => number;
}

export const defaultEmulatorOptions: EmulatorOptions = {
  host: '127.0.0.1',
  port: 0,
  environment: 'sandbox',
  keys: [],
  processingDelayMs: 300,
  maxDocumentBytes: 25 * 1024 * 1024,
  anchorSearch: true,
  anchorTimeLimitMs: 10_000,
  signedAddressTtlMs: 15 * 60 * 1000,
  messageLimit: 1000,
  faults: { reset: 0, unavailable: 0, rateLimited: 0, latencyMs: 0, uploadLatencyMs: 0 },
  webhookRetryDelaysMs: [1_000, 5_000, 30_000, 120_000],
  seed: true,
};

/** The longest injected latency: a minute is past any client's patience, and far from setTimeout's limit. */
const MAX_INJECTED_LATENCY_MS = 60_000;
const PROBABILITY = /^(?:\d+(?:\.\d*)?|\.\d+)$/;
const WHOLE = /^\d+$/;

/** `reset=0.1,503=0.05,429=0.05,latency=20,upload-latency=5000` */
export function parseFaults(spec: string): FaultRates {
  const faults: FaultRates = { ...defaultEmulatorOptions.faults };
  const parts = spec.split(',').map((item) => item.trim()).filter(Boolean);
  if (parts.length === 0) throw new Error('--faults: give at least one name=value, e.g. reset=0.1 (known: reset, 503, 429, latency, upload-latency)');
  const named = new Set<string>();
  for (const part of parts) {
    const match = /^([\w-]+)=(.*)$/.exec(part);
    const name = match?.[1] ?? part;
    if (named.has(name)) throw new Error(`--faults: ${name} is given twice (${JSON.stringify(spec)}); give each fault once`);
    named.add(name);
    const raw = match?.[2]?.trim() ?? '';
    const probability = (): number => {
      const value = Number(raw);
      if (!PROBABILITY.test(raw) || value > 1) throw new Error(`--faults: ${JSON.stringify(part)}: ${name} is a probability from 0 to 1, e.g. ${name}=0.1`);
      return value;
    };
    const latency = (): number => {
      const value = Number(raw);
      if (!WHOLE.test(raw) || value > MAX_INJECTED_LATENCY_MS) {
        throw new Error(`--faults: ${JSON.stringify(part)}: ${name} is whole milliseconds up to ${MAX_INJECTED_LATENCY_MS}, e.g. ${name}=20`);
      }
      return value;
    };
    if (name === 'reset') faults.reset = probability();
    else if (name === '503') faults.unavailable = probability();
    else if (name === '429') faults.rateLimited = probability();
    else if (name === 'latency') faults.latencyMs = latency();
    else if (name === 'upload-latency') faults.uploadLatencyMs = latency();
    else throw new Error(`--faults: unknown fault ${JSON.stringify(name)}; known: reset, 503, 429, latency, upload-latency (as name=value)`);
  }
  // One roll decides which fault a request gets, so together they are one probability. The sum is of decimals as
  // binary fractions (0.34 + 0.56 + 0.1 is 1.0000000000000002), hence the margin.
  if (faults.reset + faults.unavailable + faults.rateLimited > 1 + 1e-9) {
    throw new Error(`--faults: reset, 503 and 429 add up to more than 1 (${JSON.stringify(spec)}); a request gets at most one of them`);
  }
  return faults;
}

/** `50/s` or `50` */
export function parseRateLimit(spec: string): number {
  const match = /^(\d+)(\/s)?$/.exec(spec.trim());
  if (!match || Number(match[1]) < 1) throw new Error(`--rate-limit: expected requests per second like 50/s, got ${JSON.stringify(spec)}`);
  return Number(match[1]);
}
