// What a screen reader says for each row of the Events view: a sentence, with kubectl's
// short ages ("5m2s") spelled out, the numbers a sighted user reads from badges and
// colours said in words, and the event text on one line as the row shows it.
import { oneLine } from '../../model/displayText';

const UNITS: Record<string, [string, string]> = {
  y: ['year', 'years'],
  d: ['day', 'days'],
  h: ['hour', 'hours'],
  m: ['minute', 'minutes'],
  s: ['second', 'seconds'],
};

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** kubectl's short duration (`45s`, `5m2s`, `3h5m`, `2d5h`, `3y45d`) in words; other text as it is. */
export function spokenDuration(age: string): string {
  if (age === '<unknown>') return 'an unknown time';
  if (age === '<invalid>') return 'an invalid time (in the future)';
  const parts = [...age.matchAll(/(\d+)([ydhms])/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== age) return age;
  return parts.map(([, n, unit]) => plural(Number(n), ...UNITS[unit])).join(' ');
}

export interface ObjectRow {
  readonly kind: string;
  readonly name: string;
  /** Empty for a cluster-scoped object. */
  readonly namespace: string;
  readonly events: number;
  readonly warnings: number;
  /** kubectl's age of the newest event, empty when there is none. */
  readonly age: string;
  /** In the workload roll-up: how many objects it owns (their events are summed in). */
  readonly owns: number;
}

/** "Pod checkout-7c9 in namespace payments: 3 live warnings, 12 events, the last 45 seconds ago." */
export function objectRowName(o: ObjectRow): string {
  const where = o.namespace ? ` in namespace ${oneLine(o.namespace)}` : ', cluster-scoped';
  const owns = o.owns > 0 ? ` with the ${plural(o.owns, 'object')} it owns` : '';
  const warnings = o.warnings > 0 ? `${plural(o.warnings, 'live warning')}, ` : '';
  const last = o.age ? `, the last ${spokenDuration(o.age)} ago` : '';
  return `${oneLine(o.kind || 'Unknown kind')} ${oneLine(o.name)}${where}${owns}: ${warnings}${plural(o.events, 'event')}${last}.`;
}

export interface EventRow {
  readonly type: string;
  readonly reason: string;
  readonly message: string;
  readonly count: number;
  /** kubectl's ages of the last and the first occurrence. */
  readonly lastAge: string;
  readonly firstAge: string;
  readonly expired: boolean;
  readonly recordedHere: boolean;
}

/** "Warning event BackOff, 3 times over 5 minutes 2 seconds, the last 45 seconds ago: Back-off restarting…" */
export function eventRowName(e: EventRow): string {
  const when = e.count > 1 ? `${e.count} times over ${spokenDuration(e.firstAge)}, the last ${spokenDuration(e.lastAge)} ago` : `${spokenDuration(e.firstAge)} ago`;
  const marks = [e.recordedHere ? ' Recorded in this window.' : '', e.expired ? ' Kept from history: the apiserver has deleted it.' : ''].join('');
  return `${oneLine(e.type || 'Unknown type')} event ${oneLine(e.reason)}, ${when}: ${oneLine(e.message)}.${marks}`;
}

/** "Show 120 more events of Pod/checkout-7c9." */
export function moreRowName(hidden: number, object: string): string {
  return `Show ${plural(hidden, 'more event')} of ${oneLine(object)}.`;
}

const TONES: Record<string, string> = { loading: 'In progress', error: 'Problem', warning: 'Warning', info: 'Note', none: '' };

/** "Problem: the apiserver at https://… cannot be reached." */
export function statusRowName(tone: string, text: string): string {
  const prefix = TONES[tone];
  return prefix ? `${prefix}: ${oneLine(text)}` : oneLine(text);
}

/** "Namespace payments" or "Cluster-scoped objects". */
export function namespaceRowName(namespace: string): string {
  return namespace ? `Namespace ${oneLine(namespace)}` : 'Cluster-scoped objects';
}
