// Test doubles shared by the ports of client-go's record tests.
import * as assert from 'node:assert/strict';
import { getEventKey } from '../../../src/record/eventsCache';
import { fingerprint } from '../../../src/record/joinedKey';
import type { EventSink } from '../../../src/record/recordToSink';
import type { Event } from '../../../src/record/types';
import { Channel } from '../../../src/record/watch/channel';
import { zeroless } from '../../support/zeroless';

/** validateEvent of event_test.go: timestamps set, first == last iff count == 1, name prefix, the rest deeply equal. */
export function validateEvent(label: string, actual: Event, expected: Event): void {
  assert.ok(actual.firstTimestamp && actual.lastTimestamp, `${label}: timestamps are set`);
  if (actual.firstTimestamp === actual.lastTimestamp) assert.ok((expected.count ?? 0) <= 1, `${label}: first and last must differ after compression`);
  else assert.notEqual(expected.count, 1, `${label}: first and last must be equal for one occurrence`);
  assert.ok((actual.metadata.name ?? '').startsWith(expected.metadata.name ?? ''), `${label}: name ${actual.metadata.name} starts with ${expected.metadata.name}`);
  const received = { ...actual, firstTimestamp: expected.firstTimestamp, lastTimestamp: expected.lastTimestamp, reportingComponent: expected.reportingComponent, metadata: { ...actual.metadata, name: expected.metadata.name } };
  assert.deepEqual(zeroless(received), zeroless(expected), label);
}

/** A flat merge patch applied as the apiserver's strategic merge does for these fields. */
function applyPatch(original: Event, patch: string): Event {
  const out = JSON.parse(JSON.stringify(original)) as Record<string, unknown>;
  for (const [k, v] of Object.entries(JSON.parse(patch) as Record<string, unknown>)) {
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return out as unknown as Event;
}

/** testEventSink with OnCreateFactory and OnPatchFactory: a store keyed by getEventKey, and what was written. */
export class TestEventSink implements EventSink {
  readonly store = new Map<string, Event>();
  readonly created = new Channel<Event>(10_000);
  readonly patched = new Channel<Event>(10_000);

  async create(e: Event): Promise<Event> {
    const copy = JSON.parse(JSON.stringify(e)) as Event;
    this.store.set(getEventKey(copy), copy);
    this.created.trySend(copy);
    return copy;
  }

  async update(e: Event): Promise<Event> {
    return e;
  }

  async patch(e: Event, patch: string): Promise<Event> {
    const cached = this.store.get(getEventKey(e));
    if (!cached) throw new Error("unexpected error: couldn't find Event in testCache.");
    const patched = applyPatch(cached, patch);
    this.patched.trySend(patched);
    return patched;
  }
}

/** The next value, or a failure after timeoutMs. */
export async function next<T>(c: Channel<T>, what: string, timeoutMs = 5000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), timeoutMs)));
  try {
    const r = await Promise.race([c.receive(), timeout]);
    if (!r.ok) throw new Error(`${what}: channel closed`);
    return r.value;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Up to 40 texts of 400 characters that share `base`'s fingerprint: equal to it but for one
 * character between the positions the fingerprint samples.
 */
export function collidingTexts(): { base: string; texts: string[] } {
  const base = 'x'.repeat(400);
  const texts: string[] = [];
  for (let i = 0; texts.length < 40 && i < base.length; i++) {
    const t = `${base.slice(0, i)}y${base.slice(i + 1)}`;
    if (fingerprint(t) === fingerprint(base)) texts.push(t);
  }
  assert.ok(texts.length > 20, `found ${texts.length} colliding texts`);
  return { base, texts };
}
