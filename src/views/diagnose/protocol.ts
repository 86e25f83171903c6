// The messages between the Diagnose panel and its webview. The host sends text already
// formatted (kubectl's ages, inert log text); the webview puts it in the page as text only.
// What the webview sends is checked here before anything acts on it.

export interface Row {
  readonly cells: readonly string[];
  /** Draw the row in the warning colour. */
  readonly warn?: boolean;
}

export interface PodRow extends Row {
  /** The pod's name: a click diagnoses it. */
  readonly pod: string;
}

export interface ContainerChoice {
  readonly container: string;
  readonly previous: boolean;
  readonly label: string;
  readonly selected: boolean;
}

export interface StateMessage {
  readonly type: 'state';
  /** The page keeps it (setState) so that a window reload brings this panel back: the host's key, no object data. */
  readonly restoreKey: string;
  readonly title: string;
  readonly subtitle: string;
  /** One line: phase and reason, or a workload's counts. */
  readonly summary: string;
  readonly summaryWarn: boolean;
  readonly problem?: string;
  readonly containers?: { readonly head: readonly string[]; readonly rows: readonly Row[] };
  readonly conditions?: { readonly head: readonly string[]; readonly rows: readonly Row[] };
  readonly pods?: { readonly head: readonly string[]; readonly rows: readonly PodRow[] };
  readonly events: { readonly head: readonly string[]; readonly rows: readonly Row[]; readonly note: string };
  /** Undefined for objects without logs. */
  readonly logs?: {
    readonly choices: readonly ContainerChoice[];
    /** "Previous log of checkout (it restarted 4 times) · the last 12 lines, 1.1 KiB" */
    readonly header: string;
    readonly problem?: string;
    readonly canLoadMore: boolean;
    readonly kubectl: string;
    readonly timestamps: boolean;
  };
}

export interface LogLinesMessage {
  readonly type: 'lines';
  /** A new log (or the same read again): the page clears what it shows first. */
  readonly reset: boolean;
  /** [timestamp, text] pairs, inert. */
  readonly lines: readonly (readonly [string, string])[];
}

export type HostMessage = StateMessage | LogLinesMessage;

export type WebviewMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'chooseLog'; readonly container: string; readonly previous: boolean }
  | { readonly type: 'loadMore' }
  | { readonly type: 'timestamps'; readonly on: boolean }
  | { readonly type: 'copy' }
  | { readonly type: 'save' }
  | { readonly type: 'copyCommand' }
  | { readonly type: 'diagnosePod'; readonly pod: string }
  | { readonly type: 'problem'; readonly text: string };

/** Names are DNS labels or subdomains: 253 characters at most. */
const MAX_NAME = 253;
const MAX_PROBLEM = 2000;

const isName = (x: unknown): x is string => typeof x === 'string' && x.length > 0 && x.length <= MAX_NAME;

export function parseWebviewMessage(x: unknown): WebviewMessage | undefined {
  if (!x || typeof x !== 'object') return undefined;
  const m = x as Record<string, unknown>;
  switch (m.type) {
    case 'ready':
    case 'loadMore':
    case 'copy':
    case 'save':
    case 'copyCommand':
      return { type: m.type };
    case 'timestamps':
      return typeof m.on === 'boolean' ? { type: 'timestamps', on: m.on } : undefined;
    case 'chooseLog':
      return isName(m.container) && typeof m.previous === 'boolean' ? { type: 'chooseLog', container: m.container, previous: m.previous } : undefined;
    case 'diagnosePod':
      return isName(m.pod) ? { type: 'diagnosePod', pod: m.pod } : undefined;
    case 'problem':
      return typeof m.text === 'string' ? { type: 'problem', text: m.text.slice(0, MAX_PROBLEM) } : undefined;
    default:
      return undefined;
  }
}
