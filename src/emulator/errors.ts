/** An error answer in the contract's shape `{error: {code, message, details?}}`, thrown from any route. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  get body(): { error: { code: string; message: string; details?: unknown } } {
    return { error: { code: this.code, message: this.message, ...(this.details === undefined ? {} : { details: this.details }) } };
  }
}

export const fail = {
  badRequest: (code: string, message: string, details?: unknown) => new ApiFailure(400, code, message, details),
  validation: (message: string, details?: unknown) => new ApiFailure(400, 'VALIDATION_ERROR', message, details),
  notFound: (what: string, id: string) => new ApiFailure(404, 'RESOURCE_NOT_FOUND', `${what} ${id} not found.`, { resource: what, id }),
  conflict: (code: string, message: string, details?: unknown) => new ApiFailure(409, code, message, details),
  unprocessable: (code: string, message: string, details?: unknown) => new ApiFailure(422, code, message, details),
  unavailable: (code: string, message: string, retryAfterSeconds: number) =>
    new ApiFailure(503, code, message, undefined, { 'retry-after': String(retryAfterSeconds) }),
};
