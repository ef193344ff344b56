/** See v8-flags.cjs. */
export declare function applyV8Flags(args: readonly string[]): boolean;
