/*
 * participants.yaml (or .json): `participants: [...]` or a bare list. Checked here, before anything is sent, with
 * `file:line:column` for each problem. E.164 phone numbers are required for SMS and WHATSAPP (pins.md, "Delivery
 * methods").
 */
import type { ZodType } from 'zod';
import { UsageError } from '../core/errors.js';
import { e164Pattern } from '../shared/phone.js';
import { EMAIL_MAX_LENGTH, emailPattern, isEmailAddress } from '../shared/email.js';
import { inputError, readStructuredFile, validateInput, type StructuredInput } from './structured.js';
import { idSchema } from './ids.js';

import { deliveryMethods, participantRoles, type DeliveryMethod, type ParticipantRole } from '../shared/values.js';

export { deliveryMethods, participantRoles, type DeliveryMethod, type ParticipantRole };

export const needsPhone = (method: string): boolean => method === 'SMS' || method === 'WHATSAPP';

/** The JSON Schema of text that must hold more than spaces (zod's `.trim().min(1)`), for `esign batch schema`. */
export const NOT_BLANK = { pattern: '\\S' };

/** phoneRule, as the JSON Schema of `esign batch schema` says it: SMS and WHATSAPP need phoneNumber. */
export const PHONE_RULE_JSON_SCHEMA = {
  if: { properties: { deliveryMethod: { enum: ['SMS', 'WHATSAPP'] } }, required: ['deliveryMethod'] },
  then: { required: ['phoneNumber'] },
};

/** The body item of `PUT .../participants`. */
export interface ParticipantInput {
  id?: string;
  name: string;
  email: string;
  phoneNumber?: string;
  deliveryMethod: DeliveryMethod;
  role: ParticipantRole;
  signingOrder?: number;
}

/** A participant of `POST /templates/{id}/envelopes`: the template's slot by id or by its role label. */
export interface TemplateParticipantInput {
  templateParticipantId?: string;
  templateRole?: string;
  name: string;
  email: string;
  phoneNumber?: string;
  deliveryMethod: DeliveryMethod;
}

const fileHint = 'Each participant needs name and email; deliveryMethod is EMAIL (default), SMS or WHATSAPP (these need phoneNumber in E.164, e.g. +33612345678).';

/**
 * The participant properties every input file shares (participants.yaml, template participants, the envelope spec),
 * so that each is checked, and worded, the same way.
 */
export function participantSchemaParts(z: typeof import('zod').z) {
  const upper = (values: readonly [string, ...string[]], what: string) =>
    z.preprocess((value) => (typeof value === 'string' ? value.toUpperCase() : value), z.enum(values, { error: `${what} must be one of ${values.join(', ')}` }));
  const common = {
    name: z.string({ error: 'name is required' }).trim().min(1, 'name must not be empty').meta(NOT_BLANK),
    email: z
      .string({ error: 'email is required' })
      .trim()
      .max(EMAIL_MAX_LENGTH, `email must be at most ${EMAIL_MAX_LENGTH} characters`)
      .regex(emailPattern, 'email is not an e-mail address'),
    phoneNumber: z
      .string({
        error: (issue) =>
          typeof issue.input === 'number' ? 'phoneNumber must be quoted ("+33612345678"): unquoted, YAML reads it as a number and drops the +' : 'phoneNumber must be text',
      })
      .trim().regex(e164Pattern, 'phoneNumber must be in E.164 form, e.g. +33612345678').optional(),
    deliveryMethod: upper(deliveryMethods, 'deliveryMethod').default('EMAIL'),
  };
  return {
    common,
    role: upper(participantRoles, 'role').default('SIGNER'),
    signingOrder: z.number().int('signingOrder must be a whole number').min(1, 'signingOrder starts at 1').optional(),
    phoneRule(participant: { deliveryMethod: string; phoneNumber?: string | undefined }, ctx: { addIssue(issue: { code: 'custom'; message: string; path: string[] }): void }) {
      if (needsPhone(participant.deliveryMethod) && !participant.phoneNumber) {
        ctx.addIssue({ code: 'custom', message: `phoneNumber (E.164) is required when deliveryMethod is ${participant.deliveryMethod}`, path: ['deliveryMethod'] });
      }
    },
  };
}

export async function participantSchemas() {
  const { z } = await import('zod');
  const { common, role, signingOrder, phoneRule } = participantSchemaParts(z);
  const participant = z
    .strictObject({
      id: idSchema(z).optional(),
      ...common,
      role,
      signingOrder,
    })
    .superRefine(phoneRule)
    .meta(PHONE_RULE_JSON_SCHEMA);
  const templateParticipant = z
    .strictObject({
      templateParticipantId: idSchema(z).optional(),
      templateRole: z.string().trim().min(1).optional(),
      ...common,
    })
    .superRefine((value, ctx) => {
      phoneRule(value, ctx);
      if (Boolean(value.templateParticipantId) === Boolean(value.templateRole)) {
        ctx.addIssue({ code: 'custom', message: 'give exactly one of templateParticipantId or templateRole (the role label shown by `esign templates get`)', path: [] });
      }
    })
    .meta({ allOf: [PHONE_RULE_JSON_SCHEMA, { oneOf: [{ required: ['templateParticipantId'] }, { required: ['templateRole'] }] }] });
  return { z, participant, templateParticipant };
}

/** `participants: [...]` or a bare list, at least one item. */
function listSchema<T>(z: typeof import('zod').z, item: ZodType<T>, data: unknown): ZodType<T[]> {
  const list = z.array(item).min(1, 'at least one participant is needed');
  if (Array.isArray(data)) return list;
  return z.strictObject({ participants: list }).transform((value) => value.participants) as unknown as ZodType<T[]>;
}

/** Paths inside the file: items sit under `participants` unless the file is a bare list. */
export function itemPath(input: StructuredInput, index: number): (string | number)[] {
  return Array.isArray(input.data) ? [index] : ['participants', index];
}

export async function readParticipantsFile(path: string, stdin: NodeJS.ReadableStream): Promise<ParticipantInput[]> {
  const input = await readStructuredFile(path, stdin);
  const { z, participant } = await participantSchemas();
  return validateInput(input, listSchema(z, participant as ZodType<ParticipantInput>, input.data), fileHint);
}

export async function readTemplateParticipantsFile(path: string, stdin: NodeJS.ReadableStream): Promise<{ input: StructuredInput; participants: TemplateParticipantInput[] }> {
  const input = await readStructuredFile(path, stdin);
  const { z, templateParticipant } = await participantSchemas();
  const participants = validateInput(input, listSchema(z, templateParticipant as ZodType<TemplateParticipantInput>, input.data), fileHint);
  return { input, participants };
}

/** A template role label that is not on the template: points at the item in the file. */
export function unknownTemplateRole(input: StructuredInput, index: number, label: string, known: readonly string[]): UsageError {
  return inputError(
    input,
    [...itemPath(input, index), 'templateRole'],
    `the template has no role ${JSON.stringify(label)}`,
    known.length ? `Roles of this template: ${known.map((role) => JSON.stringify(role)).join(', ')}.` : 'This template defines no roles.',
  );
}

/** `Ada Lovelace <ada@example.com>` */
export function parseNameAndEmail(text: string, flag: string): { name: string; email: string } {
  const match = /^\s*(\S.*?)\s*<\s*([^<>\s]+)\s*>\s*$/.exec(text);
  if (!match || !isEmailAddress(match[2]!)) {
    throw new UsageError(`${flag} ${JSON.stringify(text)}: expected "Name <email>".`, `For example: ${flag} "Ada Lovelace <ada@example.com>".`);
  }
  return { name: match[1]!, email: match[2]! };
}

export function checkPhoneNumber(phone: string, flag: string): string {
  if (!e164Pattern.test(phone)) {
    throw new UsageError(`${flag} ${JSON.stringify(phone)} is not an E.164 phone number.`, 'Write it with + and the country code, no spaces: +33612345678.', 'PHONE_NUMBER_INVALID');
  }
  return phone;
}

export function checkEmail(email: string, flag: string): string {
  if (!isEmailAddress(email)) throw new UsageError(`${flag} ${JSON.stringify(email)} is not an e-mail address.`);
  return email;
}

/** Participants given as repeated `--add "Name <email>"`; the other flags apply to each of them. */
export function participantsFromFlags(flags: { add: readonly string[]; delivery?: string; phone?: string; role?: string }): ParticipantInput[] {
  const deliveryMethod = (flags.delivery ?? 'EMAIL').toUpperCase();
  if (!(deliveryMethods as readonly string[]).includes(deliveryMethod)) {
    throw new UsageError(`--delivery ${flags.delivery}: expected one of ${deliveryMethods.join(', ')}.`);
  }
  const role = (flags.role ?? 'SIGNER').toUpperCase();
  if (!(participantRoles as readonly string[]).includes(role)) throw new UsageError(`--role ${flags.role}: expected one of ${participantRoles.join(', ')}.`);
  if (flags.phone !== undefined) {
    checkPhoneNumber(flags.phone, '--phone');
    if (flags.add.length > 1) {
      throw new UsageError('--phone applies to a single --add: each participant has their own number.', 'Use --file participants.yaml to give several participants with phone numbers.');
    }
  }
  if (needsPhone(deliveryMethod) && flags.phone === undefined) {
    throw new UsageError(`--delivery ${deliveryMethod} needs --phone with an E.164 number (e.g. +33612345678).`, undefined, 'PHONE_NUMBER_REQUIRED');
  }
  return flags.add.map((text) => ({
    ...parseNameAndEmail(text, '--add'),
    ...(flags.phone === undefined ? {} : { phoneNumber: flags.phone }),
    deliveryMethod: deliveryMethod as DeliveryMethod,
    role: role as ParticipantRole,
  }));
}
