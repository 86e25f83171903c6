// What the Diagnose panel says, as text: rows for containers, conditions, pods and events
// (kubectl's ages and counts), and the log's header. Plain Node, unit-tested.
import { displayText } from '../../model/displayText';
import type { EventsAbout } from '../../model/diagnose/eventsAbout';
import { hasStarted, stateText, terminatedText, type Condition, type PodReport } from '../../model/diagnose/podStatus';
import { eventInterval, timestampSince } from '../../model/kubectlFormat';
import type { LogState, StatusState } from '../../services/diagnoseSession';
import type { ContainerChoice, PodRow, Row } from './protocol';

/** Log text shown per line; a longer line says how much more it has (Save writes it whole). */
export const MAX_SHOWN_LINE_CHARS = 10_000;

const FAILING = /BackOff|Err|Error|Invalid|OOMKilled|Evicted|ContainerStatusUnknown|ExitCode:[1-9]|Signal:/;

export function kib(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toLocaleString('en-US', { maximumFractionDigits: 1 })} KiB`;
}

export function summaryOf(s: StatusState): { text: string; warn: boolean } {
  if (s.loading) return { text: 'Reading its status…', warn: false };
  if (s.gone) return { text: 'It is not on the cluster (deleted, or not created yet): its events are what is left.', warn: true };
  if (s.pod) {
    const p = s.pod;
    const main = p.containers.filter((c) => !c.init);
    const ready = main.filter((c) => c.ready).length;
    const restarts = main.reduce((n, c) => n + c.restartCount, 0);
    // kubectl get pod's STATUS, with the pod's own reason beside it when the containers' words hid it (Evicted).
    const own = p.reason && p.reason !== p.status && !p.containers.some((c) => (c.state.kind === 'waiting' || c.state.kind === 'terminated') && c.state.reason === p.reason) ? ` (${p.reason})` : '';
    const status = `${p.status || p.phase}${own}`;
    return { text: `${status} · ${ready}/${main.length} ready · ${restarts} restart${restarts === 1 ? '' : 's'}${p.node ? ` · node ${p.node}` : ''}`, warn: p.deleting || p.phase === 'Failed' || p.phase === 'Pending' || FAILING.test(p.status) || FAILING.test(p.reason) || ready < main.length };
  }
  if (s.workload) return { text: `${s.workload.summary} · ${s.workload.counts.map((c) => `${c.label} ${c.value}`).join(' · ')}`, warn: s.workload.short };
  return { text: s.conditions?.length ? `${s.conditions.length} condition${s.conditions.length === 1 ? '' : 's'}` : 'It has no status conditions.', warn: false };
}

export function containerRows(p: PodReport, now: number): { head: string[]; rows: Row[] } {
  return {
    head: ['Container', 'State', 'Ready', 'Restarts', 'Last terminated'],
    rows: p.containers.map((c) => {
      const state = stateText(c.state) + (c.state.kind === 'running' && c.state.startedAt ? ` for ${timestampSince(c.state.startedAt, now)}` : '') + (c.state.kind === 'waiting' && c.state.message ? ` (${displayText(c.state.message)})` : '');
      const last = c.lastTerminated ? `${terminatedText(c.lastTerminated)}${c.lastTerminated.finishedAt ? `, ${timestampSince(c.lastTerminated.finishedAt, now)} ago` : ''}` : '';
      return { cells: [c.init ? `${c.name} (init)` : c.name, state, c.ready ? 'yes' : 'no', String(c.restartCount), last], warn: (c.state.kind === 'waiting' && FAILING.test(c.state.reason)) || (c.state.kind === 'terminated' && c.state.exitCode !== 0) };
    }),
  };
}

export function conditionRows(conditions: readonly Condition[], now: number): { head: string[]; rows: Row[] } {
  return {
    head: ['Condition', 'Status', 'Reason', 'Message', 'Since'],
    rows: conditions.map((c) => ({ cells: [c.type, c.status, c.reason, displayText(c.message), c.lastTransition ? timestampSince(c.lastTransition, now) : ''], warn: isBadCondition(c) })),
  };
}

/** A condition that says something is wrong: a healthy one False, or a problem one True. */
function isBadCondition(c: Condition): boolean {
  const problem = /Pressure|Unavailable|Failed|ReplicaFailure|Stalled/.test(c.type);
  return problem ? c.status === 'True' : c.status === 'False';
}

export function podRows(pods: readonly PodReport[]): { head: string[]; rows: PodRow[] } {
  return {
    head: ['Pod', 'Status', 'Ready', 'Restarts', 'Node'],
    rows: pods.map((p) => {
      const main = p.containers.filter((c) => !c.init);
      const restarts = main.reduce((n, c) => n + c.restartCount, 0);
      const status = p.status || p.phase;
      return { pod: p.name, cells: [p.name, status, `${main.filter((c) => c.ready).length}/${main.length}`, String(restarts), p.node], warn: FAILING.test(status) || p.deleting || p.phase === 'Failed' || p.phase === 'Pending' };
    }),
  };
}

export function eventRows(about: EventsAbout, now: number): { head: string[]; rows: Row[]; note: string } {
  const rows = about.events.map((e) => ({
    cells: [e.type, e.reason, eventInterval(e, now), `${e.involvedObject.kind}/${e.involvedObject.name}`, displayText(e.message)],
    warn: e.type === 'Warning',
  }));
  const note = about.total === 0 ? 'No events are stored about it (the apiserver keeps events for an hour; this extension keeps them longer while it watches).' : about.total > about.events.length ? `The newest ${about.events.length} of ${about.total} events (${about.warnings} warnings).` : `${about.total} event${about.total === 1 ? '' : 's'}, ${about.warnings} warning${about.warnings === 1 ? '' : 's'}, newest first.`;
  return { head: ['Type', 'Reason', 'Last seen', 'Object', 'Message'], rows, note };
}

/** The logs one can read: each container's current log, and its previous one when it has restarted. */
export function logChoices(p: PodReport, shown: LogState | undefined): ContainerChoice[] {
  const out: ContainerChoice[] = [];
  for (const c of p.containers) {
    if (c.init && !hasStarted(c)) continue;
    const name = c.init ? `${c.name} (init)` : c.name;
    out.push({ container: c.name, previous: false, label: name, selected: shown?.container === c.name && !shown.previous });
    if (c.restartCount > 0 || c.lastTerminated) {
      const why = c.lastTerminated ? terminatedText(c.lastTerminated) : 'restarted';
      out.push({ container: c.name, previous: true, label: `${name}: previous (${why})`, selected: shown?.container === c.name && shown.previous });
    }
  }
  return out;
}

export function logHeader(l: LogState): string {
  const which = `${l.previous ? 'Previous log' : 'Log'} of ${l.container}`;
  // A followed log's answer starts with its first line: until one comes, it is waited for.
  // Nothing read (the problem above says why): no extent to speak of.
  if (l.problem && l.lines === 0 && !l.loading && !l.retrying) return `${which} · not read`;
  if (l.loading) return l.following ? `${which} · following · no lines yet (waiting for the container to write one)` : `${which} · reading…`;
  const extent = l.whole ? `the whole log: ${l.lines} line${l.lines === 1 ? '' : 's'}, ${kib(l.bytes)}` : `showing the last ${l.lines.toLocaleString('en-US')} line${l.lines === 1 ? '' : 's'} (${kib(l.bytes)})`;
  const short = l.shortened ? ` · its lines are long: fewer than ${l.tailLines.toLocaleString('en-US')} fit in one read` : '';
  const dropped = l.dropped.lines ? ` · ${l.dropped.lines.toLocaleString('en-US')} older lines (${kib(l.dropped.bytes)}) let go from view; Save writes the whole log` : '';
  return `${which}${l.following ? ' · following' : ''} · ${extent}${short}${dropped}`;
}

/** A line as the page shows it: at most MAX_SHOWN_LINE_CHARS, and how much more it has. */
export function shownLine(text: string, droppedBytes: number): string {
  if (text.length <= MAX_SHOWN_LINE_CHARS && droppedBytes === 0) return text;
  // Cut before a surrogate pair, not inside it (half an emoji shows as U+FFFD); count what is
  // not shown in UTF-8 bytes, as droppedBytes is (a CJK character is one unit but three bytes).
  const c = text.charCodeAt(MAX_SHOWN_LINE_CHARS - 1);
  const cut = c >= 0xd800 && c <= 0xdbff ? MAX_SHOWN_LINE_CHARS - 1 : MAX_SHOWN_LINE_CHARS;
  const more = Buffer.byteLength(text.slice(cut)) + droppedBytes;
  return `${text.slice(0, cut)} … [${kib(more)} more on this line; Save writes it whole]`;
}
