// The current view as JSON, CSV or Markdown. Markdown output escapes event text so a
// hostile message stays text in any renderer; CSV quotes every field and defuses formulas.
import type { ClusterEvent } from './clusterEvent';
import type { EventGroup } from './eventStore';
import { eventInterval } from './kubectlFormat';

export type ExportFormat = 'json' | 'csv' | 'markdown';

const COLUMNS = ['namespace', 'object', 'type', 'reason', 'age', 'count', 'from', 'message', 'firstSeen', 'lastSeen', 'expired'] as const;

function row(e: ClusterEvent, now: number): Record<(typeof COLUMNS)[number], string> {
  const iso = (t: number | undefined) => (t === undefined ? '' : new Date(t).toISOString());
  return {
    namespace: e.involvedObject.namespace || e.namespace,
    object: `${e.involvedObject.kind}/${e.involvedObject.name}`,
    type: e.type,
    reason: e.reason,
    age: eventInterval(e, now),
    count: String(e.count),
    from: e.source,
    message: e.message,
    firstSeen: iso(e.firstSeen),
    lastSeen: iso(e.lastSeen),
    expired: e.expiredAt === undefined ? '' : iso(e.expiredAt),
  };
}

function csvField(s: string): string {
  // A leading = + - @ would make a spreadsheet run the cell as a formula.
  const safe = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** Markdown table cell: backslash-escape every punctuation character Markdown or HTML could use. */
export function markdownCell(s: string): string {
  return s.replace(/[\\`*_{}[\]()#+\-.!|<>&~"':;=$]/g, '\\$&').replace(/\s+/g, ' ');
}

export function exportView(groups: readonly EventGroup[], format: ExportFormat, now: number): string {
  const events = groups.flatMap((g) => g.events);
  if (format === 'json') {
    return JSON.stringify(events.map((e) => ({ ...row(e, now), uid: e.uid, name: e.name, origin: e.origin, involvedObject: e.involvedObject })), null, 2) + '\n';
  }
  const rows = events.map((e) => row(e, now));
  if (format === 'csv') return [COLUMNS.join(','), ...rows.map((r) => COLUMNS.map((c) => csvField(r[c])).join(','))].join('\r\n') + '\r\n';
  const header = `| ${COLUMNS.join(' | ')} |\n|${COLUMNS.map(() => '---').join('|')}|`;
  return `${header}\n${rows.map((r) => `| ${COLUMNS.map((c) => markdownCell(r[c])).join(' | ')} |`).join('\n')}\n`;
}
