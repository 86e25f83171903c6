// The two kinds of failure a request can have, told apart as client-go's callers need:
// a configuration error (a kubeconfig, credential plugin, certificate or CA that cannot be
// used) waits for the user, while a network error is retried with backoff.

/**
 * A kubeconfig, credential plugin, certificate or CA that cannot be used: a configuration
 * error, with a message meant for the user that names what to fix and what kubectl says.
 * Never retried in a loop.
 */
export class KubeconfigError extends Error {
  override name = 'KubeconfigError';
}

/** A request that did not finish within its deadline (a network error: retried). */
export class DeadlineError extends Error {
  override name = 'DeadlineError';
  constructor(
    message: string,
    readonly deadlineMs: number,
  ) {
    super(message);
  }
}
