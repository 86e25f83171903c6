// The Diagnose webview's script: draws the host's state (status, pods, events, the log's
// header and choices) and appends log lines, all as text (textContent, never markup), and
// sends the user's clicks back. At most MAX_LINES log lines stay in the page.
import type { HostMessage, LogLinesMessage, PodRow, Row, StateMessage, WebviewMessage } from '../protocol';

interface VsCodeApi {
  postMessage(m: WebviewMessage): void;
  setState(state: { restoreKey: string }): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

/** Log lines kept in the page (the host holds more, and Copy and Save take the host's). */
const MAX_LINES = 5000;

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, cls?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

function table(id: string, data: { head: readonly string[]; rows: readonly Row[] } | undefined, cell?: (row: Row, i: number, td: HTMLTableCellElement) => void): void {
  const section = $(id);
  section.hidden = !data;
  const t = section.querySelector('table') as HTMLTableElement;
  t.replaceChildren();
  if (!data) return;
  const head = el('tr');
  for (const h of data.head) head.append(el('th', h));
  t.append(el('thead'));
  t.tHead?.append(head);
  const body = el('tbody');
  for (const r of data.rows) {
    const tr = el('tr', undefined, r.warn ? 'warn' : undefined);
    r.cells.forEach((c, i) => {
      const td = el('td');
      if (cell) cell(r, i, td);
      if (!td.firstChild) td.textContent = c;
      tr.append(td);
    });
    body.append(tr);
  }
  t.append(body);
}

class DiagnoseApp {
  private stickToBottom = true;
  private timestamps = false;

  constructor(private readonly vscode: VsCodeApi) {
    $('loadMore').addEventListener('click', () => vscode.postMessage({ type: 'loadMore' }));
    $('copy').addEventListener('click', () => vscode.postMessage({ type: 'copy' }));
    $('save').addEventListener('click', () => vscode.postMessage({ type: 'save' }));
    $('copyCommand').addEventListener('click', () => vscode.postMessage({ type: 'copyCommand' }));
    const ts = $<HTMLInputElement>('timestamps');
    ts.addEventListener('change', () => vscode.postMessage({ type: 'timestamps', on: ts.checked }));
    const log = $('log');
    log.addEventListener('scroll', () => {
      this.stickToBottom = log.scrollTop + log.clientHeight >= log.scrollHeight - 4;
    });
  }

  receive(m: HostMessage): void {
    if (m.type === 'state') this.state(m);
    else this.lines(m);
  }

  private state(m: StateMessage): void {
    this.vscode.setState({ restoreKey: m.restoreKey });
    $('title').textContent = m.title;
    $('subtitle').textContent = m.subtitle;
    const summary = $('summary');
    summary.textContent = m.summary;
    summary.classList.toggle('warn', m.summaryWarn);
    const problem = $('problem');
    problem.hidden = !m.problem;
    problem.textContent = m.problem ?? '';
    table('containers', m.containers);
    table('conditions', m.conditions);
    table('pods', m.pods, (row, i, td) => {
      if (i !== 0) return;
      const b = el('button', row.cells[0], 'link');
      b.type = 'button';
      b.title = `Diagnose Pod/${row.cells[0]}`;
      b.addEventListener('click', () => this.vscode.postMessage({ type: 'diagnosePod', pod: (row as PodRow).pod }));
      td.append(b);
    });
    table('events', m.events);
    $('eventsNote').textContent = m.events.note;
    const logs = $('logs');
    logs.hidden = !m.logs;
    if (!m.logs) return;
    const choices = $('choices');
    choices.replaceChildren();
    for (const c of m.logs.choices) {
      const b = el('button', c.label, c.selected ? 'choice selected' : 'choice');
      b.type = 'button';
      b.setAttribute('aria-pressed', String(c.selected));
      b.addEventListener('click', () => this.vscode.postMessage({ type: 'chooseLog', container: c.container, previous: c.previous }));
      choices.append(b);
    }
    $('logHeader').textContent = m.logs.header;
    const lp = $('logProblem');
    lp.hidden = !m.logs.problem;
    lp.textContent = m.logs.problem ?? '';
    $<HTMLButtonElement>('loadMore').disabled = !m.logs.canLoadMore;
    $('kubectl').textContent = m.logs.kubectl;
    $<HTMLInputElement>('timestamps').checked = m.logs.timestamps;
    if (this.timestamps !== m.logs.timestamps) {
      this.timestamps = m.logs.timestamps;
      $('log').classList.toggle('timestamps', this.timestamps);
    }
  }

  private lines(m: LogLinesMessage): void {
    const log = $('log');
    if (m.reset) {
      log.replaceChildren();
      this.stickToBottom = true;
    }
    const frag = document.createDocumentFragment();
    for (const [t, x] of m.lines) {
      const line = el('div', undefined, 'line');
      const ts = el('span', t, 'ts');
      line.append(ts, document.createTextNode(x));
      frag.append(line);
    }
    log.append(frag);
    let extra = log.childElementCount - MAX_LINES;
    while (extra-- > 0) log.firstElementChild?.remove();
    if (this.stickToBottom) log.scrollTop = log.scrollHeight;
  }
}

function start(): void {
  const vscode = acquireVsCodeApi();
  window.addEventListener('error', (e) => vscode.postMessage({ type: 'problem', text: `Diagnose script error: ${e.message} (${e.filename}:${e.lineno})` }));
  document.addEventListener('securitypolicyviolation', (e) => vscode.postMessage({ type: 'problem', text: `Content security policy blocked ${e.blockedURI || 'an inline resource'} (${e.violatedDirective})` }));
  const app = new DiagnoseApp(vscode);
  window.addEventListener('message', (e: MessageEvent<HostMessage>) => {
    const m = e.data;
    if (m && typeof m === 'object' && (m.type === 'state' || m.type === 'lines')) app.receive(m);
  });
  vscode.postMessage({ type: 'ready' });
}

start();
