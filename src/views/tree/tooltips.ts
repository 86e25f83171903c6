// Tooltips as plain strings: VS Code shows a string tooltip as text (no Markdown, no links,
// line breaks kept), which is the only safe way to show text anyone may have written.
import { isAggregated, type ClusterEvent } from '../../model/clusterEvent';
import { displayText, oneLine } from '../../model/displayText';
import { eventInterval } from '../../model/kubectlFormat';

function time(t: number | undefined): string {
  return t === undefined ? '<unknown>' : new Date(t).toISOString();
}

/** Every field of an event, then its message exactly (line breaks kept, controls made visible). */
export function eventTooltip(e: ClusterEvent, now: number): string {
  const o = e.involvedObject;
  const lines = [
    `${oneLine(e.type)} ${oneLine(e.reason)}${isAggregated(e) ? ' (aggregated by the recorder)' : ''}`,
    `Object: ${oneLine(`${o.kind}/${o.name}`)}${o.fieldPath ? ` (${oneLine(o.fieldPath)})` : ''}`,
    `Namespace: ${oneLine(o.namespace || e.namespace) || '(cluster-scoped)'}`,
    `From: ${oneLine(e.source) || '(not given)'}${e.sourceHost ? ` on ${oneLine(e.sourceHost)}` : ''}`,
    `Count: ${e.count} · ${eventInterval(e, now)}`,
    `First seen: ${time(e.firstSeen)}`,
    `Last seen: ${time(e.lastSeen)}`,
    `Event: ${oneLine(`${e.namespace}/${e.name}`)} (${e.origin === 'local' ? 'recorded in this window' : e.origin})`,
  ];
  if (e.expiredAt !== undefined) lines.push(`History: gone from the server since ${time(e.expiredAt)}`);
  return `${lines.join('\n')}\n\n${displayText(e.message)}`;
}
