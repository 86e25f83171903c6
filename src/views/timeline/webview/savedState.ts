// What survives the timeline panel being hidden and shown again, or the window reloaded:
// the time window, the scroll and the cursor, kept by VS Code's webview state and checked
// when read back (it is whatever an earlier version of this page saved).
import type { WindowMode } from './timeWindow';

export interface SavedState {
  readonly start: number;
  readonly end: number;
  readonly mode: WindowMode;
  readonly scrollY: number;
  readonly cursor?: { readonly lane: string; readonly uid: string };
}

export function readSavedState(raw: unknown): SavedState | undefined {
  const s = raw as Partial<SavedState> | undefined;
  if (!s || typeof s.start !== 'number' || typeof s.end !== 'number' || typeof s.scrollY !== 'number') return undefined;
  const mode = s.mode === 'follow' || s.mode === 'free' ? s.mode : 'fit';
  const cursor = s.cursor && typeof s.cursor.lane === 'string' && typeof s.cursor.uid === 'string' ? s.cursor : undefined;
  return { start: s.start, end: s.end, mode, scrollY: s.scrollY, cursor };
}
