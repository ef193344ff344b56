/**
 * What each operation answers (pins.md, "Wire shapes"), as the client checks it before a command reads it. Only the
 * fields esign reads are described, each with the type esign reads it as; everything else passes through untouched,
 * and `null` is taken for "absent" wherever the service may send it. The types below are the ones commands use, so
 * the compiler holds every read to what was checked.
 */
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

// zod/mini starts without messages ("Invalid input"); the English ones say what was expected.
z.config(en());

const text = z.nullish(z.string());
const count = z.nullish(z.number());

const named = z.looseObject({ id: text, name: text });

export const participantAnswer = z.looseObject({
  id: text,
  participantId: text,
  templateParticipantId: text,
  name: text,
  email: text,
  phoneNumber: text,
  deliveryMethod: text,
  role: text,
  signingOrder: count,
  status: text,
  isTurn: z.nullish(z.boolean()),
});

export const documentAnswer = z.looseObject({
  id: text,
  documentId: text,
  fileName: text,
  contentType: text,
  status: text,
  pageCount: count,
});

const envelopeFields = {
  id: text,
  envelopeId: text,
  title: text,
  message: text,
  status: text,
  deadline: text,
  createdAt: text,
  folder: z.nullish(named),
  folderId: text,
  sender: z.nullish(named),
  cancellationReason: text,
  participants: z.nullish(z.array(participantAnswer)),
  documents: z.nullish(z.array(documentAnswer)),
};

/** An envelope in a list: no id is not worth refusing a whole page for. */
const envelopeItem = z.looseObject(envelopeFields);

export const envelopeAnswer = envelopeItem.check(
  z.refine((envelope) => Boolean(envelope.id || envelope.envelopeId), {
    message: 'an envelope without id or envelopeId',
  }),
);

export const historyEntryAnswer = z.looseObject({
  id: text,
  at: text,
  createdAt: text,
  action: text,
  type: text,
  actor: z.nullish(z.union([z.string(), z.looseObject({ type: text, name: text, email: text, integration: z.nullish(named) })])),
  details: z.nullish(z.record(z.string(), z.unknown())),
});

export const templateSlotAnswer = z.looseObject({
  templateParticipantId: text,
  id: text,
  label: text,
  name: text,
  role: text,
  signingOrder: count,
});

export const templateAnswer = z.looseObject({
  id: text,
  templateId: text,
  name: text,
  title: text,
  description: text,
  participants: z.nullish(z.array(templateSlotAnswer)),
  roles: z.nullish(z.array(templateSlotAnswer)),
  documents: z.nullish(z.array(z.looseObject({ documentId: text, id: text, fileName: text, pageCount: count }))),
  documentIds: z.nullish(z.array(z.string())),
  createdAt: text,
});

const meAnswer = z.looseObject({
  environment: z.string(),
  account: z.nullish(named),
  integration: z.nullish(named),
  responsibleUser: z.nullish(z.looseObject({ id: text, name: text, email: text })),
  scopes: z.nullish(z.array(z.string())),
});

export const fieldAnswer = z.looseObject({
  id: text,
  participantId: text,
  type: text,
  pages: z.nullish(z.array(z.number())),
  position: z.nullish(z.looseObject({ x: count, y: count })),
  size: z.nullish(z.looseObject({ width: count, height: count })),
});

const anchorMatch = z.looseObject({ key: z.string(), page: z.number(), x: z.number(), y: z.number(), width: z.number(), height: z.number() });

/** A page of any collection (pins.md, "Lists"). */
function page<T extends z.ZodMiniType>(item: T) {
  return z.looseObject({ data: z.array(item), nextCursor: text });
}

const anyObject = z.looseObject({});

/**
 * Each shape an operation may answer, by the name the operation table gives it. `none` reads nothing (204, or a body
 * esign ignores).
 */
export const answerShapes = {
  none: z.unknown(),
  object: anyObject,
  me: meAnswer,
  envelope: envelopeAnswer,
  envelopePage: page(envelopeItem),
  historyPage: page(historyEntryAnswer),
  templatePage: page(templateAnswer),
  template: templateAnswer,
  page: page(anyObject),
  participantPage: page(participantAnswer),
  /** Participants: `{data}`, `{participants}` or a bare list (pins.md asks the CLI to read them tolerantly). */
  participants: z.union([z.array(participantAnswer), z.looseObject({ data: z.array(participantAnswer) }), z.looseObject({ participants: z.array(participantAnswer) })]),
  /** A registered document: its id and where to upload it (`uploadUrl`, or `upload.url`). */
  registeredDocument: z
    .looseObject({ documentId: text, id: text, uploadUrl: text, upload: z.nullish(z.looseObject({ url: text })) })
    .check(
      z.refine((document) => Boolean(document.documentId || document.id), { message: 'a document without documentId or id' }),
      z.refine((document) => Boolean(document.uploadUrl || document.upload?.url), { message: 'a document without uploadUrl' }),
    ),
  document: documentAnswer,
  fields: z.looseObject({ fields: z.array(fieldAnswer) }),
  fieldCounts: z.looseObject({ created: count, updated: count, deleted: count }),
  anchorMatches: z.looseObject({ matches: z.array(anchorMatch), truncated: z.nullish(z.boolean()), pages: z.nullish(z.array(z.unknown())) }),
  /** A signed download address: `{url, expiresAt}` (the envelope ZIP's may say `downloadUrl`). */
  address: z
    .looseObject({ url: text, downloadUrl: text, expiresAt: text })
    .check(z.refine((address) => Boolean(address.url || address.downloadUrl), { message: 'no url' })),
  validation: z.looseObject({
    valid: z.boolean(),
    sealed: z.nullish(z.boolean()),
    reason: text,
    sha256: text,
    pageCount: count,
    documentId: text,
    envelopeId: text,
  }),
} as const;

export type AnswerShape = keyof typeof answerShapes;

export type EnvelopeAnswer = z.infer<typeof envelopeAnswer>;
export type ParticipantAnswer = z.infer<typeof participantAnswer>;
export type DocumentAnswer = z.infer<typeof documentAnswer>;
export type HistoryEntryAnswer = z.infer<typeof historyEntryAnswer>;
export type TemplateAnswer = z.infer<typeof templateAnswer>;
export type TemplateSlotAnswer = z.infer<typeof templateSlotAnswer>;
export type FieldAnswer = z.infer<typeof fieldAnswer>;
export type MeAnswer = z.infer<typeof meAnswer>;
export type Answer<S extends AnswerShape> = z.infer<(typeof answerShapes)[S]>;

/** The first few places where a body departs from its shape, for a person: `participants[0].status: expected string`. */
export function checkAnswer(shape: AnswerShape, body: unknown): { ok: true } | { ok: false; problems: string[] } {
  const result = answerShapes[shape].safeParse(body);
  if (result.success) return { ok: true };
  return {
    ok: false,
    problems: result.error.issues.slice(0, 3).map((issue) => {
      const path = issue.path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('').replace(/^\./, '');
      return `${path ? `${path}: ` : ''}${issue.message}`;
    }),
  };
}
