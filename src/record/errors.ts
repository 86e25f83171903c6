// The error kinds recordToSink tells apart (client-go's *errors.StatusError,
// *rest.RequestConstructionError, *errors.UnexpectedObjectError); anything else is a
// transport failure and is retried.

/** A cause in a Status's details (metav1.StatusCause). */
export interface StatusCause {
  readonly type?: string;
  readonly message?: string;
  readonly field?: string;
}

/** The apiserver answered with a non-2xx status: never retried. */
export class StatusError extends Error {
  constructor(
    /** The HTTP status code. */
    readonly code: number,
    /** metav1.Status reason, such as NotFound, AlreadyExists, Invalid, Forbidden. */
    readonly reason: string,
    message: string,
    readonly causes: readonly StatusCause[] = [],
  ) {
    super(message);
    this.name = 'StatusError';
  }

  hasCause(type: string): boolean {
    return this.causes.some((c) => c.type === type);
  }
}

/** The request could not be built: never retried. */
export class RequestConstructionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RequestConstructionError';
  }
}

/** The answer was not the object expected: retried. */
export class UnexpectedObjectError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnexpectedObjectError';
  }
}

export function isAlreadyExists(err: unknown): boolean {
  return err instanceof StatusError && err.reason === 'AlreadyExists';
}
