// Comparing our events with Go's as reflect.DeepEqual compares them: a field Go leaves at its
// zero value is absent from the JSON Go writes, so ours must drop the same.

/** V without the fields at a zero value: undefined, null, "" and empty objects. */
export function zeroless<T>(v: T): T {
  if (Array.isArray(v)) return v.map(zeroless) as T;
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      const c: unknown = zeroless(x as unknown);
      if (c === undefined || c === null || c === '' || (typeof c === 'object' && !Array.isArray(c) && Object.keys(c).length === 0)) continue;
      out[k] = c;
    }
    return out as T;
  }
  return v;
}
