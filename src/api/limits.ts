/** The most esign reads of one JSON answer from the API; past it, it stops reading and reports the operation. */
export const MAX_JSON_ANSWER_BYTES = 32 * 1024 * 1024;
