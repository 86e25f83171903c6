// The words above and instead of the timeline's plot: the scope, the filter, what is drawn,
// and why nothing is.
import type { TimelineHeader } from '../protocol';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export interface HeaderTexts {
  readonly scope: string;
  readonly filter: string;
  readonly summary: string;
  /** Shown over an empty plot; undefined when there are lanes. */
  readonly empty: string | undefined;
}

export function headerTexts(h: TimelineHeader, lanes: number, events: number, warnings: number): HeaderTexts {
  const parts = [plural(lanes, 'lane'), plural(events, 'event'), plural(warnings, 'live warning')];
  if (h.untimed > 0) parts.push(`${h.untimed} without a time (not shown)`);
  const all = h.scope === 'All objects';
  const empty = lanes > 0 ? undefined : h.filter ? `No events of ${all ? 'any object' : h.scope} pass the filter (${h.filter}).` : all ? 'No events yet.' : `No events about ${h.scope} (events expire after an hour by default).`;
  return { scope: h.scope, filter: h.filter ? `Filter: ${h.filter}` : '', summary: parts.join(' · '), empty };
}
