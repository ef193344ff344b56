import { UsageError } from '../../core/errors.js';
import { collect, defineCommand } from '../../cli/command.js';
import { readSearchesFile, type SearchSpec } from '../../input/fields.js';
import { parseWholeNumber } from '../../input/whole-number.js';
import { occurrenceWords } from '../../shared/values.js';
import { renderTable } from '../../output/table.js';
import {
  anchorSearchAnswer,
  ANCHORS_FIND_DEFAULT_OCCURRENCE,
  ANCHOR_KEY_MAX_LENGTH,
  describeInvalidSearches,
  type AnchorSearch,
  type AnchorSearchResult,
  type Occurrence,
} from '../../pdf/anchors.js';
import { envelopeIdDescription, resolveEnvelopeArgument } from '../../workflows/envelope-id.js';
import { PreflightError, readLocalPdf, searchLocalPdf } from '../../workflows/preflight.js';
import { visible } from '../../output/sanitize.js';

interface FindArgs {
  id?: string;
  documentId?: string;
  text?: string[];
  key?: string[];
  occurrence?: Occurrence;
  caseSensitive?: boolean;
  wholeWord?: boolean;
  offset?: { x: number; y: number };
  file?: string;
  template?: string;
  local?: string;
}

/** As the service answers: a hundredth of a point. */
const formatPoints = (value: number) => value.toFixed(2);

function parseOccurrence(value: string): Occurrence {
  if (value === 'first' || value === 'all') return value;
  try {
    return parseWholeNumber(value, 1);
  } catch {
    throw new Error('expected first, all, or the N-th match as a whole number from 1, in plain digits.');
  }
}

function parseOffset(value: string): { x: number; y: number } {
  // Plain decimals only: Number() would also take 0x10, 1e3 and an empty part (0).
  const parts = value.split(',').map((part) => (/^[+-]?\d+(?:\.\d+)?$/.test(part.trim()) ? Number(part) : Number.NaN));
  if (parts.length !== 2 || !parts.every(Number.isFinite)) throw new Error('expected x,y in points, e.g. 0,-12 (x right, y down).');
  return { x: parts[0]!, y: parts[1]! };
}

/** The searches of the call: one per --text (keys from --key, else the text), then the file's; flags are defaults. */
async function searchesFrom(args: FindArgs, stdin: () => NodeJS.ReadableStream): Promise<AnchorSearch[]> {
  const texts = args.text ?? [];
  if (args.key && args.key.length !== texts.length) {
    throw new UsageError(`${args.key.length} --key for ${texts.length} --text.`, 'Give one --key per --text, in the same order, or none (the key is then the text).');
  }
  const fromFile: SearchSpec[] = args.file ? (await readSearchesFile(args.file, stdin())).searches : [];
  const items: SearchSpec[] = [...texts.map((text, index) => ({ key: args.key?.[index], text })), ...fromFile];
  if (items.length === 0) throw new UsageError('Nothing to search for.', 'Pass --text "{{signature}}" (repeatable) or --file searches.yaml.');
  const searches: AnchorSearch[] = items.map((item) => ({
    // A text's first 100 characters name it when no key is given: a key is at most that long, a text may be longer.
    key: item.key ?? [...item.text].slice(0, ANCHOR_KEY_MAX_LENGTH).join(''),
    text: item.text,
    occurrence: item.occurrence ?? args.occurrence ?? ANCHORS_FIND_DEFAULT_OCCURRENCE,
    ...(item.caseSensitive ?? args.caseSensitive ? { caseSensitive: true } : {}),
    ...(item.matchWholeWord ?? args.wholeWord ? { matchWholeWord: true } : {}),
    ...(item.offset ?? args.offset ? { offset: item.offset ?? args.offset } : {}),
  }));
  // The length of a key nobody gave is not reported: an empty text, the only way it can be empty, is reported as a text.
  const problems = describeInvalidSearches(searches, (index) => items[index]!.key !== undefined);
  if (problems.length) throw new UsageError(problems, 'Anchor texts are 1 to 200 characters; keys are up to 100 and unique.', 'INPUT_INVALID');
  return searches;
}

/** The same matcher as the service, over a local PDF. */
async function findLocally(path: string, searches: readonly AnchorSearch[]): Promise<AnchorSearchResult> {
  const found = await searchLocalPdf(path, await readLocalPdf(path), searches);
  if (!found.hasText) {
    throw new PreflightError(
      `${path} has no text layer, so anchors cannot be searched (a scan needs OCR first); place fields by position instead.`,
      { problems: [], warnings: [] },
      'DOCUMENT_HAS_NO_TEXT',
    );
  }
  return anchorSearchAnswer(found, found.matches);
}

export default defineCommand<FindArgs>({
  name: 'find',
  description: 'Find where anchor texts are (page, x, y, width, height): in an envelope document, a template document (--template), or a local PDF (--local)',
  arguments: [
    // Not named envelopeId: with --template it is a document id, which the envelope-prefix hook must not look up.
    { name: 'id', description: `${envelopeIdDescription}; with --template: the template's document id`, required: false },
    { name: 'documentId', description: 'document id', required: false },
  ],
  options: [
    { flags: '--text <text>', description: 'text to find (repeatable)', parse: collect },
    { flags: '--key <key>', description: 'key of each --text, in order (default: the text itself)', parse: collect },
    { flags: '--occurrence <which>', description: 'first, all (default) or N (the N-th in the whole document)', parse: parseOccurrence, completion: { words: occurrenceWords } },
    { flags: '--case-sensitive', description: 'match letter case exactly' },
    { flags: '--whole-word', description: 'no letter or digit directly before or after the text' },
    { flags: '--offset <x,y>', description: 'points added to the top-left of each match (x right, y down), e.g. 0,-12', parse: parseOffset },
    { flags: '-f, --file <path>', description: 'searches.yaml: a list of {key?, text, occurrence?, caseSensitive?, matchWholeWord?, offset?}', completion: 'file' },
    { flags: '--template <templateId>', description: 'search a template document: esign anchors find --template <templateId> <documentId>' },
    { flags: '--local <file.pdf>', description: 'search a local PDF offline (no key needed), with the same matcher as the service', completion: 'file' },
  ],
  examples: [
    'esign anchors find 3f6c… 9a1b… --text "{{signature}}" --text "{{date}}"',
    'esign anchors find --template 7d2a… 9a1b… --text "Signed by:" --occurrence first',
    'esign anchors find --local contract.pdf --text "{{signature}}" --json',
  ],
  async handler(args, ctx) {
    const positional = [args.id, args.documentId].filter((value): value is string => value !== undefined);
    if (args.local && (positional.length > 0 || args.template)) {
      throw new UsageError('--local searches a local PDF: give no envelope, document or --template with it.', 'esign anchors find --local contract.pdf --text "{{signature}}"');
    }
    if (!args.local && args.template && positional.length !== 1) {
      throw new UsageError('With --template, give the template document id and nothing else.', 'esign anchors find --template <templateId> <documentId> --text …');
    }
    if (!args.local && !args.template && positional.length !== 2) {
      throw new UsageError('Give the envelope id and the document id (or --local <file.pdf>, or --template <templateId> <documentId>).', 'esign anchors find <envelopeId> <documentId> --text "{{signature}}"');
    }
    const searches = await searchesFrom(args, () => ctx.stdin);
    let result: AnchorSearchResult;
    if (args.local) {
      result = await findLocally(args.local, searches);
    } else {
      const client = await ctx.client();
      if (args.template) {
        ({ body: result } = await client.call<AnchorSearchResult>('findTemplateAnchors', { params: { templateId: args.template, documentId: positional[0]! }, body: { searches } }));
      } else {
        const envelopeId = await resolveEnvelopeArgument(positional[0]!, ctx);
        // The upload workflow's wait for processing is loaded only here: --local, offline, starts without it.
        const { whileDocumentProcesses } = await import('../../workflows/upload.js');
        const processing = whileDocumentProcesses(ctx, envelopeId);
        try {
          ({ body: result } = await client.call<AnchorSearchResult>('findAnchors', { params: { envelopeId, documentId: positional[1]! }, body: { searches }, ...processing.options }));
        } catch (error) {
          processing.explain(error);
          throw error;
        }
      }
    }
    const matches = result.matches ?? [];
    const found = new Set(matches.map((match) => match.key));
    for (const search of searches) if (!found.has(search.key)) ctx.output.warn(visible(`No match for ${JSON.stringify(search.key)}${search.key === search.text ? '' : ` (${JSON.stringify(search.text)})`}.`));
    if (result.truncated) ctx.output.warn(`Only the first 500 pages were searched (the document has ${result.pages?.length ?? 'more'} pages).`);
    ctx.output.result(result, () =>
      matches.length === 0
        ? 'No matches.'
        : renderTable(
            matches,
            [
              { header: 'KEY', value: (match) => match.key },
              { header: 'PAGE', value: (match) => String(match.page) },
              { header: 'X', value: (match) => formatPoints(match.x) },
              { header: 'Y', value: (match) => formatPoints(match.y) },
              { header: 'WIDTH', value: (match) => formatPoints(match.width) },
              { header: 'HEIGHT', value: (match) => formatPoints(match.height) },
            ],
            ctx.output.style,
          ),
    );
  },
});
