/**
 * Node's timers fire at once (with a warning) past 2^31-1 ms, about 24.8 days, so a time limit stops at 24 days: a
 * wait that long is a mistake, not a plan. A module of its own: the global `--timeout` option reads it at start-up,
 * without the duration and date parsers.
 */
export const longestTimeLimitMs = 24 * 24 * 60 * 60 * 1000;
