// The words the manifest surfaces show: a CodeLens title, a Problems entry, a hover. Event
// text is made visible and kept on one line (displayText.ts); ages are kubectl's.
import type { ClusterEvent, InvolvedObject } from '../clusterEvent';
import { oneLine } from '../displayText';
import { humanDuration, lastSeenAge } from '../kubectlFormat';
import type { ResourceStatus, WarningLine } from './manifestStatus';
import type { LiveName } from './manifestResource';

/** What the cluster answered about the object, as the lens needs it. */
export type LensPresence = 'present' | 'absent' | 'unknownKind' | 'checking' | 'disconnected' | { readonly error: string };

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** `2 warnings · 17 events · 1m ago`, `no events in kind-dev`, `not in kind-dev`. */
export function lensTitle(s: ResourceStatus, presence: LensPresence, context: string | undefined, kind: string, now: number): string {
  const where = context ?? 'the cluster';
  const counts = s.events > 0 ? `${plural(s.warnings.length, 'warning')} · ${plural(s.events, 'event')} · ${humanDuration(now - (s.lastSeen ?? now))} ago` : '';
  if (presence === 'disconnected') return counts || 'no cluster connected';
  if (presence === 'absent') return counts ? `not in ${where} (deleted) · ${counts}` : `not in ${where}`;
  if (presence === 'unknownKind') return `${where} serves no ${kind}`;
  if (counts) return counts;
  if (presence === 'checking') return `looking in ${where}…`;
  if (presence === 'present') return `no events in ${where}`;
  return `cannot tell whether it is in ${where}: ${oneLine(presence.error).slice(0, 120)}`;
}

/** `BackOff x22 (last 7s) on Pod/checkout-7c9c: Back-off restarting failed container …` */
export function warningMessage(w: WarningLine, own: readonly LiveName[], now: number): string {
  const count = w.count > 1 ? ` x${w.count}` : '';
  const about = isOwn(w.object, own) ? '' : ` on ${w.object.kind}/${w.object.name}`;
  return `${w.reason}${count} (last ${humanDuration(now - w.lastSeen)})${about}: ${oneLine(w.message)}`;
}

function isOwn(o: InvolvedObject, own: readonly LiveName[]): boolean {
  return own.some((n) => n.kind === o.kind && n.name === o.name);
}

/** The hover: what the resource is live, then its newest events as `kubectl events` lists them. */
export function hoverLines(s: ResourceStatus, events: readonly ClusterEvent[], own: readonly LiveName[], context: string | undefined, now: number): string[] {
  const name = own[0] ? `${own[0].kind}/${own[0].name}${own[0].namespace ? ` in ${own[0].namespace}` : ''}` : '';
  const lines = [`${name} · ${context ?? 'no cluster'} · ${plural(s.warnings.length, 'warning')} · ${plural(s.events, 'event')}`];
  if (!events.length) return [...lines, 'No events stored about it (the apiserver keeps events for an hour by default).'];
  lines.push('');
  const rows = events.map((e) => [lastSeenAge(e, now), e.type, e.reason, `${e.involvedObject.kind}/${e.involvedObject.name}`, oneLine(e.message)]);
  const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => [...r[i]].length), ['LAST SEEN', 'TYPE', 'REASON', 'OBJECT'][i].length));
  const row = (r: string[]) => r.map((c, i) => (i < 4 ? c + ' '.repeat(widths[i] - [...c].length) : c)).join('   ');
  lines.push(row(['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE']), ...rows.map(row));
  return lines;
}

/** A fence longer than any run of backticks in the text, so nothing in it can close the block. */
export function codeFence(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(Math.max(3, longest + 1));
}
