// Waiting for a condition that events announce, without polling: the condition is checked
// now, then again each time one of the events fires, until it gives an answer or the time
// runs out.
import type { IDisposable } from './lifecycle';

/** An event to subscribe to (Emitter.event, vscode.Event). */
export type EventLike = (listener: (value: unknown) => void) => IDisposable;

/** `check`'s first answer other than undefined, or undefined when `timeoutMs` passed first. */
export function until<T>(events: readonly EventLike[], check: () => T | undefined, timeoutMs: number): Promise<T | undefined> {
  const now = check();
  if (now !== undefined || timeoutMs <= 0) return Promise.resolve(now);
  return new Promise((resolve) => {
    const subscriptions: IDisposable[] = [];
    const finish = (value: T | undefined) => {
      clearTimeout(timer);
      for (const s of subscriptions) s.dispose();
      resolve(value);
    };
    const timer = setTimeout(() => finish(undefined), timeoutMs);
    for (const event of events) {
      subscriptions.push(event(() => {
        const value = check();
        if (value !== undefined) finish(value);
      }));
    }
  });
}
