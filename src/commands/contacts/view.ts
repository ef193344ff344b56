import { UsageError } from '../../core/errors.js';
import type { OptionSpec } from '../../cli/command.js';
import { checkEmail, checkPhoneNumber } from '../../input/participants.js';
import { cell, renderRecord } from '../../output/record.js';
import type { Column } from '../../output/table.js';

export interface ContactBody {
  id: string;
  name?: string;
  email?: string;
  phoneNumber?: string | null;
  company?: string | null;
  createdAt?: string;
}

export interface ContactFlags {
  name?: string;
  email?: string;
  phone?: string;
  company?: string;
}

export const contactFieldOptions: readonly OptionSpec[] = [
  { flags: '--name <name>', description: 'full name' },
  { flags: '--email <email>', description: 'e-mail address (one contact per address)' },
  { flags: '--phone <e164>', description: 'phone number in E.164, e.g. +33612345678' },
  { flags: '--company <name>', description: 'company' },
];

/** The fields given, checked here so a mistake is refused before anything is sent. */
export function contactFields(flags: ContactFlags): Record<string, string> {
  const fields: Record<string, string> = {};
  if (flags.name !== undefined) {
    if (!flags.name.trim()) throw new UsageError('--name must not be empty.');
    fields.name = flags.name.trim();
  }
  if (flags.email !== undefined) fields.email = checkEmail(flags.email.trim(), '--email');
  if (flags.phone !== undefined) fields.phoneNumber = checkPhoneNumber(flags.phone.trim(), '--phone');
  if (flags.company !== undefined) fields.company = flags.company.trim();
  return fields;
}

/** Create and replace need both: the API keeps no contact without a name and an address. */
export function wholeContact(flags: ContactFlags): Record<string, string> {
  const missing = (['name', 'email'] as const).filter((name) => flags[name] === undefined).map((name) => `--${name}`);
  if (missing.length) throw new UsageError(`Missing ${missing.join(' and ')}.`, 'A contact needs --name and --email; --phone and --company are optional.');
  return contactFields(flags);
}

export const contactColumns: readonly Column<ContactBody>[] = [
  { header: 'ID', value: (contact) => contact.id },
  { header: 'NAME', value: (contact) => cell(contact.name), freeText: true, wrap: true },
  { header: 'EMAIL', value: (contact) => cell(contact.email) },
  { header: 'PHONE', value: (contact) => cell(contact.phoneNumber), dropOrder: 1 },
  { header: 'COMPANY', value: (contact) => cell(contact.company), freeText: true, dropOrder: 2 },
];

export const renderContact = (contact: ContactBody): string => renderRecord({ ...contact }, { phoneNumber: 'Phone' });
