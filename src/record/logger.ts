// The logger the event machinery writes to: klog's structured calls, as an interface the
// extension wires to an output channel and tests to an array.

/** Key/value pairs of a structured log line, in order. */
export type KeysAndValues = readonly (string | number | boolean | undefined | null)[];

export interface Logger {
  /** klog V(verbosity).InfoS(message, keysAndValues...). */
  info(verbosity: number, message: string, keysAndValues?: KeysAndValues): void;
  /** klog ErrorS(err, message, keysAndValues...). */
  error(err: unknown, message: string, keysAndValues?: KeysAndValues): void;
}

/** A logger that keeps nothing. */
export const discardLogger: Logger = {
  info: () => undefined,
  error: () => undefined,
};

function formatValue(v: KeysAndValues[number]): string {
  return typeof v === 'string' ? JSON.stringify(v) : String(v);
}

/** `key="value" key2=3`, as klog's text format writes key/value pairs. */
export function formatKeysAndValues(kv: KeysAndValues = []): string {
  const parts: string[] = [];
  for (let i = 0; i < kv.length; i += 2) parts.push(`${String(kv[i])}=${formatValue(kv[i + 1])}`);
  return parts.join(' ');
}

/** An error's text as Go's err.Error() would give it: the message, or the value itself. */
export function errorText(err: unknown): string {
  if (err instanceof Error) return err.message;
  return typeof err === 'string' ? err : JSON.stringify(err) ?? String(err as undefined);
}
