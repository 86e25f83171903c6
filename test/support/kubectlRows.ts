// Rows as `kubectl events` and `kubectl describe` print them, built from our interval
// (src/model/kubectlFormat.ts), to hold against the real kubectl's output (the cluster
// layer's kubectlFormat.test.ts). The extension shows no such rows.
import type { ClusterEvent } from '../../src/model/clusterEvent';
import { eventInterval } from '../../src/model/kubectlFormat';

/** Go's strings.TrimSpace (unicode.IsSpace): unlike String.prototype.trim it trims U+0085 and keeps U+FEFF. */
const GO_SPACE = '[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const GO_TRIM = new RegExp(`^${GO_SPACE}+|${GO_SPACE}+$`, 'g');
export function goTrimSpace(s: string): string {
  return s.replace(GO_TRIM, '');
}

/** cli-runtime printers.EscapeTerminal: what kubectl does to text before a terminal sees it. */
export function escapeTerminal(s: string): string {
  return s.replaceAll('\u001b', '^[').replaceAll('\r', '\\r');
}

/** One row of `kubectl describe`'s Events table: Type, Reason, Age, From, Message. */
export function describeRow(e: ClusterEvent, now: number): [string, string, string, string, string] {
  // describe escapes all it writes (PrefixWriter → printers.WriteEscaped).
  return [escapeTerminal(e.type), escapeTerminal(e.reason), eventInterval(e, now), escapeTerminal(e.source), escapeTerminal(goTrimSpace(e.message))];
}

/** One row of `kubectl events` (-A adds the namespace): LAST SEEN, TYPE, REASON, OBJECT, MESSAGE. */
export function kubectlEventsRow(e: ClusterEvent, now: number): [string, string, string, string, string] {
  // pkg/cmd/events event_printer.go escapes each column but the interval.
  const o = e.involvedObject;
  return [eventInterval(e, now), escapeTerminal(e.type), escapeTerminal(e.reason), `${escapeTerminal(o.kind)}/${escapeTerminal(o.name)}`, escapeTerminal(goTrimSpace(e.message))];
}
