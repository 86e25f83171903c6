// The messages between the timeline panel (extension host) and its webview (Chromium).
// Neither side trusts the other's shape: the webview's messages are parsed here before the
// host acts on them. Event text never travels as markup: labels and details are plain
// strings the webview puts into textContent or draws with fillText.

/** A mark's flags: a Warning event, an event kept as history (gone from the server). */
export const MARK_WARNING = 1;
export const MARK_HISTORY = 2;

/** One lane as drawn: its title and its marks, oldest first, as parallel arrays (compact to post). */
export interface LaneData {
  readonly id: string;
  /** One line, controls made visible. */
  readonly label: string;
  readonly description: string;
  /** 0 for a top lane; a roll-up's child lanes follow their parent one level deeper. */
  readonly depth: number;
  readonly uids: readonly string[];
  /** First occurrence (ms since the epoch); equal to `last` for a single occurrence. */
  readonly first: readonly number[];
  /** Last occurrence: where the mark sits. */
  readonly last: readonly number[];
  readonly counts: readonly number[];
  readonly flags: readonly number[];
}

/** What the panel shows, in words (put into the header as text). */
export interface TimelineHeader {
  /** "All objects" or the object the panel was opened on. */
  readonly scope: string;
  /** The view's filter as the Events view describes it; empty when none. */
  readonly filter: string;
  /** Events that carry no time at all and so have no place on the axis. */
  readonly untimed: number;
}

export type HostMessage =
  | {
      readonly type: 'reset';
      /** The host's clock, so a browser with another clock still puts "now" where the host does. */
      readonly now: number;
      /** Marks before this are outside the history window (a hostile or skewed time): the axis stops here. */
      readonly oldest: number;
      readonly header: TimelineHeader;
      readonly lanes: readonly LaneData[];
      /** A new scope: show all its history from the top, forgetting where the user had zoomed and scrolled. */
      readonly fit?: boolean;
    }
  | {
      readonly type: 'update';
      readonly now: number;
      readonly header: TimelineHeader;
      /** Lanes that are new or whose marks changed. */
      readonly lanes: readonly LaneData[];
      readonly removed: readonly string[];
      /** Every lane id top to bottom, when the order changed. */
      readonly order?: readonly string[];
    }
  | {
      readonly type: 'details';
      readonly uid: string;
      /** The event's tooltip as plain text; undefined when it left the store. */
      readonly text: string | undefined;
    };

export type ResetMessage = Extract<HostMessage, { type: 'reset' }>;

export type WebviewMessage =
  | { readonly type: 'ready' }
  /** The pointer (or the keyboard cursor) rests on a mark: the host answers with 'details'. */
  | { readonly type: 'details'; readonly uid: string }
  /** A mark was clicked, or Enter pressed on it. */
  | { readonly type: 'reveal'; readonly uid: string }
  /** Something the user should never see happen (a blocked resource, a script error), for the log. */
  | { readonly type: 'problem'; readonly text: string };

/** Longer than any UID the store holds (`local:<namespace>/<name>`: 63 + 253 + 7). */
const MAX_UID = 512;
const MAX_PROBLEM = 2000;

/** The webview's message, or undefined when it is not one (nothing else is acted on). */
export function parseWebviewMessage(x: unknown): WebviewMessage | undefined {
  if (!x || typeof x !== 'object') return undefined;
  const m = x as Record<string, unknown>;
  switch (m.type) {
    case 'ready':
      return { type: 'ready' };
    case 'details':
    case 'reveal':
      return typeof m.uid === 'string' && m.uid.length > 0 && m.uid.length <= MAX_UID ? { type: m.type, uid: m.uid } : undefined;
    case 'problem':
      return typeof m.text === 'string' ? { type: 'problem', text: m.text.slice(0, MAX_PROBLEM) } : undefined;
    default:
      return undefined;
  }
}
