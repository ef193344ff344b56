/**
 * node:crypto, loaded when first used rather than with each module that uses it: a command that hashes nothing
 * (`anchors find --local`) does not pay its 1.5-2 ms as it starts.
 */
export const crypto = (): typeof import('node:crypto') => process.getBuiltinModule('node:crypto');
