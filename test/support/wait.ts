// Polling for a state that nothing announces to the test (a cluster, an extension host, a
// store filled by a watch): the check runs now and every intervalMs until it gives a value,
// or the wait fails at its deadline saying what it waited for. Plain Node. For a state an
// event announces, src/common/until.ts waits without polling.
import { inspect } from 'node:util';

/**
 * The check's first answer other than undefined and false. A check that throws has not
 * answered yet: it runs again, and its last error ends the timeout's message.
 */
export async function pollUntil<T>(what: string, check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 30_000, intervalMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (e) {
      lastError = e;
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  const why = lastError === undefined ? '' : `; the check last threw: ${lastError instanceof Error ? lastError.message : inspect(lastError)}`;
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${why}`);
}
