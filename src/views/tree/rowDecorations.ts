// The right-hand badge of a row (a FileDecoration), which stays visible however long the
// label is: a group's number of warnings, an event's "history" (H) and "recorded here" (R)
// marks. What a row shows is carried in its resourceUri's query, so the provider needs no
// state and no change events: a row whose badge changes gets a new URI.
import * as vscode from 'vscode';

export const ROW_SCHEME = 'kubernetes-events-row';

/** A decoration's badge holds at most two characters. */
const BADGE_MAX = 99;

export interface RowBadge {
  readonly badge: string;
  readonly tooltip: string;
  readonly tone: 'warning' | 'muted' | 'plain';
}

/** The resourceUri of a row with this badge (undefined when the row has none). */
export function rowUri(id: string, badge: RowBadge | undefined): vscode.Uri | undefined {
  if (!badge) return undefined;
  return vscode.Uri.from({ scheme: ROW_SCHEME, path: `/${encodeURIComponent(id)}`, query: new URLSearchParams({ b: badge.badge, t: badge.tooltip, c: badge.tone }).toString() });
}

export function warningBadge(warnings: number): RowBadge | undefined {
  if (warnings <= 0) return undefined;
  return { badge: warnings > BADGE_MAX ? `${BADGE_MAX}` : String(warnings), tooltip: `${warnings} warning event${warnings === 1 ? '' : 's'}`, tone: 'warning' };
}

export function eventMarks(expiredAt: number | undefined, local: boolean): RowBadge | undefined {
  const parts: string[] = [];
  const tips: string[] = [];
  if (local) {
    parts.push('R');
    tips.push('Recorded in this window');
  }
  if (expiredAt !== undefined) {
    parts.push('H');
    tips.push(`History: gone from the server since ${new Date(expiredAt).toISOString()}`);
  }
  return parts.length ? { badge: parts.join(''), tooltip: tips.join('; '), tone: expiredAt !== undefined ? 'muted' : 'plain' } : undefined;
}

export class RowDecorationProvider implements vscode.FileDecorationProvider {
  provideFileDecoration(uri: vscode.Uri): vscode.FileDecoration | undefined {
    if (uri.scheme !== ROW_SCHEME) return undefined;
    const q = new URLSearchParams(uri.query);
    const badge = q.get('b') ?? '';
    if (!badge) return undefined;
    const tone = q.get('c');
    const color = tone === 'warning' ? new vscode.ThemeColor('list.warningForeground') : tone === 'muted' ? new vscode.ThemeColor('disabledForeground') : undefined;
    return new vscode.FileDecoration(badge, q.get('t') ?? undefined, color);
  }
}
