/**
 * A phone number in E.164 form: `+`, then 7 to 15 digits, the first not 0. The emulator refuses others and the CLI
 * checks the same rule before sending (pins.md: SMS and WHATSAPP need an E.164 phoneNumber).
 */
export const e164Pattern = /^\+[1-9]\d{6,14}$/;
