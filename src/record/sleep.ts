// time.After in a select with a cancelled context: a wait that an AbortSignal cuts short.

/** Waits ms (a zero wait yields once, like time.After(0)); false when the signal aborts first. */
export function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  if (ms <= 0) return new Promise((resolve) => setImmediate(() => resolve(!signal.aborted)));
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
