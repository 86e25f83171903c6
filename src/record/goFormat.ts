// The part of Go's fmt that event recorders use: Sprintf with %s %v %d %q %% (plus %x and
// %t), Go's error forms for a wrong or missing argument, strconv.Quote, and the %#v form of
// an ObjectReference that StartLogging prints.
import type { ObjectReference } from './types';

/** Go's name for a JavaScript value's type, as fmt prints it in %!verb(type=value). */
function goTypeName(v: unknown): string {
  if (v === null || v === undefined) return 'nil';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'bigint') return 'int64';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float64';
  if (Array.isArray(v)) return '[]interface {}';
  return 'map[string]interface {}';
}

/** %v of a float64: Go's shortest 'g' form, which %v switches to an exponent below 1e-4 and from 1e21. */
function formatFloat(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (f === Infinity) return '+Inf';
  if (f === -Infinity) return '-Inf';
  const exp = f === 0 ? 0 : Math.floor(Math.log10(Math.abs(f)));
  if (exp < -4 || exp >= 21) {
    const [mantissa, e] = f.toExponential().split('e');
    return `${mantissa}e${e.startsWith('-') ? '-' : '+'}${e.replace(/^[+-]/, '').padStart(2, '0')}`;
  }
  return String(f);
}

/** %v of a value. */
function formatValue(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (typeof v === 'number') return Number.isInteger(v) && Math.abs(v) < 2 ** 63 ? String(v) : formatFloat(v);
  if (v instanceof Error) return v.message;
  if (Array.isArray(v)) return `[${v.map(formatValue).join(' ')}]`;
  if (typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `map[${entries.map(([k, x]) => `${k}:${formatValue(x)}`).join(' ')}]`;
  }
  return String(v as symbol);
}

/** strconv.Quote: Go-escaped, printable Unicode kept as it is. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (ch === '\x07') out += '\\a';
    else if (ch === '\b') out += '\\b';
    else if (ch === '\f') out += '\\f';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\v') out += '\\v';
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else if (ch !== ' ' && /[\p{C}\p{Z}]/u.test(ch)) out += c > 0xffff ? `\\U${c.toString(16).padStart(8, '0')}` : `\\u${c.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return out + '"';
}

function formatVerb(verb: string, v: unknown): string {
  switch (verb) {
    case 'v':
      return formatValue(v);
    case 's':
      if (typeof v === 'string') return v;
      if (v instanceof Error) return v.message;
      if (Array.isArray(v) || (typeof v === 'object' && v !== null)) return formatValue(v);
      return `%!s(${goTypeName(v)}=${formatValue(v)})`;
    case 'd':
      if ((typeof v === 'number' && Number.isInteger(v)) || typeof v === 'bigint') return String(v);
      return `%!d(${goTypeName(v)}=${formatValue(v)})`;
    case 'q':
      if (typeof v === 'string') return goQuote(v);
      if (typeof v === 'number' && Number.isInteger(v)) return `'${String.fromCodePoint(v)}'`;
      return `%!q(${goTypeName(v)}=${formatValue(v)})`;
    case 'x':
      if (typeof v === 'string') return Buffer.from(v, 'utf8').toString('hex');
      if ((typeof v === 'number' && Number.isInteger(v)) || typeof v === 'bigint') return (v < 0 ? '-' : '') + (typeof v === 'bigint' ? (v < 0n ? -v : v) : Math.abs(v)).toString(16);
      return `%!x(${goTypeName(v)}=${formatValue(v)})`;
    case 't':
      if (typeof v === 'boolean') return String(v);
      return `%!t(${goTypeName(v)}=${formatValue(v)})`;
    default:
      return `%!${verb}(${goTypeName(v)}=${formatValue(v)})`;
  }
}

/** fmt.Sprintf for the verbs above. Wrong or missing arguments print as Go prints them. */
export function sprintf(format: string, ...args: unknown[]): string {
  let out = '';
  let next = 0;
  for (let i = 0; i < format.length; i++) {
    const ch = format[i];
    if (ch !== '%') {
      out += ch;
      continue;
    }
    if (i + 1 >= format.length) {
      out += '%!(NOVERB)';
      break;
    }
    const verb = format[++i];
    if (verb === '%') {
      out += '%';
      continue;
    }
    if (next >= args.length) {
      out += `%!${verb}(MISSING)`;
      continue;
    }
    out += formatVerb(verb, args[next++]);
  }
  if (next < args.length) {
    out += `%!(EXTRA ${args.slice(next).map((a) => `${goTypeName(a)}=${formatValue(a)}`).join(', ')})`;
  }
  return out;
}

/** %#v of a v1.ObjectReference, field by field in Go's declaration order. */
export function goSyntaxObjectReference(ref: ObjectReference): string {
  const f = (name: string, v: string | undefined) => `${name}:${goQuote(v ?? '')}`;
  return `v1.ObjectReference{${[
    f('Kind', ref.kind),
    f('Namespace', ref.namespace),
    f('Name', ref.name),
    f('UID', ref.uid),
    f('APIVersion', ref.apiVersion),
    f('ResourceVersion', ref.resourceVersion),
    f('FieldPath', ref.fieldPath),
  ].join(', ')}}`;
}
