// npm run bench -- timeline: the timeline webview at 20,000 events in Chromium. The host
// side (store → lanes message) is timed in Node with the real EventStore and TimelineFeed;
// the page is the real bundle (media/timeline/timeline.js) and stylesheet in Debian's
// Chromium, handed the message as VS Code hands it (window.postMessage). Measured:
//   first draw   postMessage of the whole timeline until the frame after it is drawn
//   pan          requestAnimationFrame deltas while a scripted drag pans a quarter of the
//                history (every pointermove asks for a frame), and while a drag scrolls
//                the lanes at the widest zoom (every mark in sight)
// No reference peer exists: no other event viewer draws a timeline (see the output).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser } from '../env/browser';
import { repoRoot } from '../env/paths';
import type { ClusterEvent } from '../../src/model/clusterEvent';
import { EventStore } from '../../src/model/eventStore';
import { ObjectLanes } from '../../src/views/timeline/lanes';
import type { HostMessage } from '../../src/views/timeline/protocol';
import { TimelineFeed } from '../../src/views/timeline/timelineFeed';
import { storeSource } from '../../src/views/timeline/timelineSource';
import { prng } from '../support/prng';

const EVENTS = 20_000;
const RUNS = 5;
const HOUR = 3_600_000;
const DRAG_STEPS = 180;

const REASONS: [string, string, string][] = [
  ['Normal', 'Scheduled', 'Successfully assigned {ns}/{name} to node-{n}'],
  ['Normal', 'Pulling', 'Pulling image "registry.example/{name}:1.{n}.0"'],
  ['Normal', 'Pulled', 'Successfully pulled image "registry.example/{name}:1.{n}.0" in 1.2s (1.2s including waiting). Image size: 48213611 bytes.'],
  ['Normal', 'Created', 'Created container {name}'],
  ['Normal', 'Started', 'Started container {name}'],
  ['Normal', 'ScalingReplicaSet', 'Scaled up replica set {name}-7d9f8c6b5 to 3 from 2'],
  ['Normal', 'SuccessfulCreate', 'Created pod: {name}-7d9f8c6b5-x2x9q'],
  ['Warning', 'BackOff', 'Back-off restarting failed container {name} in pod {name}_{ns}(0c3c4f1e-7a55-4bde-9f0e-2d4d3f0a{n})'],
  ['Warning', 'FailedScheduling', '0/12 nodes are available: 3 Insufficient cpu, 9 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }. preemption: 0/12 nodes are available.'],
  ['Warning', 'Unhealthy', 'Readiness probe failed: Get "http://10.244.{n}.17:8080/healthz": context deadline exceeded (Client.Timeout exceeded while awaiting headers)'],
];

/** 20,000 events about ~1,600 objects over a day: a few busy objects, bursts, series, history. */
export function realisticEvents(now: number, total: number, objectCount: number): ClusterEvent[] {
  const r = prng(42);
  const kinds = ['Pod', 'Pod', 'Pod', 'Pod', 'ReplicaSet', 'Deployment', 'Job', 'Node', 'StatefulSet'];
  const objects = Array.from({ length: objectCount }, (_, i) => {
    const kind = kinds[Math.floor(r() * kinds.length)];
    const ns = kind === 'Node' ? '' : `team-${Math.floor(r() * 30)}`;
    return { kind, namespace: ns, name: `${['web', 'api', 'worker', 'cache', 'batch'][i % 5]}-${i.toString(36)}-${Math.floor(r() * 1e6).toString(36)}`, uid: `obj-${i}`, apiVersion: kind === 'Pod' || kind === 'Node' ? 'v1' : 'apps/v1', fieldPath: '' };
  });
  const bursts = [now - 3 * HOUR, now - 11 * HOUR, now - 20 * 60_000];
  const out: ClusterEvent[] = [];
  for (let i = 0; i < total; i++) {
    // Zipf-like: a few objects hold many events.
    const o = objects[Math.min(objects.length - 1, Math.floor(objects.length * Math.pow(r(), 2.2)))];
    const [type, reason, template] = REASONS[Math.floor(r() * REASONS.length)];
    const inBurst = r() < 0.3;
    const last = Math.min(now, inBurst ? bursts[i % bursts.length] + r() * 10 * 60_000 : now - r() * 24 * HOUR);
    const series = r() < 0.2;
    const count = series ? 2 + Math.floor(Math.pow(r(), 3) * 500) : 1;
    const first = series ? last - r() * 2 * HOUR : last;
    const n = Math.floor(r() * 40);
    out.push({
      uid: `ev-${i}`,
      namespace: o.namespace || 'default',
      name: `${o.name}.${(0x17a000000 + i).toString(16)}`,
      resourceVersion: String(1000 + i),
      type,
      reason,
      message: template.replaceAll('{ns}', o.namespace).replaceAll('{name}', o.name).replaceAll('{n}', String(n)),
      count,
      firstSeen: first,
      lastSeen: last,
      source: type === 'Warning' && reason === 'FailedScheduling' ? 'default-scheduler' : 'kubelet',
      sourceHost: `node-${n % 12}`,
      reportingInstance: '',
      action: '',
      involvedObject: o,
      origin: 'core/v1',
      ...(last < now - HOUR ? { expiredAt: last + HOUR } : {}),
    });
  }
  return out;
}

/** A VS Code dark theme's variables, as VS Code sets them on a webview's root. */
const THEME = `
html { --vscode-font-family: system-ui, sans-serif; --vscode-font-size: 13px; --vscode-editor-background: #1f1f1f; --vscode-editor-foreground: #cccccc;
  --vscode-foreground: #cccccc; --vscode-descriptionForeground: #9d9d9d; --vscode-charts-lines: rgba(204,204,204,0.5); --vscode-charts-blue: #3794ff;
  --vscode-list-warningForeground: #cca700; --vscode-focusBorder: #0078d4; --vscode-list-inactiveSelectionBackground: #37373d;
  --vscode-scrollbarSlider-background: rgba(121,121,121,0.4); --vscode-editorHoverWidget-background: #202020; --vscode-editorHoverWidget-foreground: #cccccc;
  --vscode-editorHoverWidget-border: #454545; --vscode-panel-border: #2b2b2b; --vscode-button-secondaryBackground: #313131; --vscode-button-secondaryForeground: #cccccc; }`;

function pageHtml(): string {
  const media = path.join(repoRoot, 'media', 'timeline');
  const script = fs.readFileSync(path.join(media, 'timeline.js'), 'utf8');
  const css = fs.readFileSync(path.join(media, 'timeline.css'), 'utf8');
  // The panel's own markup (timelinePanel.ts), with the stylesheet and script inline.
  return `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8"><style>${THEME}\n${css}</style></head>
<body class="vscode-dark">
<header id="bar"><div id="title"><span id="scope"></span><span id="filter"></span></div><div id="summary"></div>
<div id="buttons"><button id="zoomOut">−</button><button id="zoomIn">+</button><button id="fit">Fit</button></div></header>
<div id="plot"><canvas id="canvas" tabindex="0"></canvas><div id="empty" hidden></div><div id="tooltip" role="tooltip" hidden></div></div>
<footer><div id="help"></div><div id="cursor"></div></footer>
<script>
  window.__posted = [];
  let state;
  window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__posted.push(m), getState: () => state, setState: (s) => { state = s; } });
</script>
<script>${script}</script>
</body></html>`;
}

interface Frames {
  /** Between consecutive animation frames: what the user sees as smoothness. */
  readonly deltas: number[];
  /** From a frame's start to the end of its callbacks: the draw's share of the frame. */
  readonly work: number[];
}

/** Input scripted in the page, one event per animation frame. */
type Gesture = { readonly kind: 'drag'; readonly from: Point; readonly to: Point } | { readonly kind: 'wheel'; readonly at: Point; readonly deltaY: number };
interface Point {
  readonly x: number;
  readonly y: number;
}

/**
 * Runs a gesture in the page for `steps` frames, one input event a frame (so every frame
 * has something to draw, unlike driver-paced input that leaves most frames idle): a drag
 * from one point of the canvas to another, or wheel turns at a point (zooming in for the
 * first half of the frames and out again for the second).
 */
async function scripted(page: Page, gesture: Gesture, steps: number): Promise<Frames> {
  return page.evaluate(
    ({ gesture, steps }) =>
      new Promise<Frames>((resolve) => {
        const canvas = document.getElementById('canvas') as HTMLCanvasElement;
        const r = canvas.getBoundingClientRect();
        const pointer = (type: string, k: number) => {
          if (gesture.kind !== 'drag') return;
          const { from, to } = gesture;
          canvas.dispatchEvent(new PointerEvent(type, { clientX: r.left + from.x + ((to.x - from.x) * k) / steps, clientY: r.top + from.y + ((to.y - from.y) * k) / steps, pointerId: 1, pointerType: 'mouse', isPrimary: true, button: 0, buttons: 1, bubbles: true }));
        };
        const input = (k: number) => {
          if (gesture.kind === 'drag') return pointer('pointermove', k);
          const deltaY = k <= steps / 2 ? -gesture.deltaY : gesture.deltaY;
          canvas.dispatchEvent(new WheelEvent('wheel', { clientX: r.left + gesture.at.x, clientY: r.top + gesture.at.y, deltaY, deltaMode: 0, bubbles: true, cancelable: true }));
        };
        const deltas: number[] = [];
        const work: number[] = [];
        let prev: number | undefined;
        let k = 0;
        pointer('pointerdown', 0);
        const frame = (t: number) => {
          // The app's frame callback was asked for during the last input, before this one: it has run.
          if (prev !== undefined) {
            deltas.push(t - prev);
            work.push(performance.now() - t);
          }
          prev = t;
          if (k === steps) {
            pointer('pointerup', k);
            return resolve({ deltas, work });
          }
          input(++k);
          requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      }),
    { gesture, steps },
  );
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * (s.length - 1)))];
};
const median = (xs: number[]) => quantile(xs, 0.5);
const ms = (x: number) => `${x.toFixed(1)} ms`;

interface Run {
  readonly firstDraw: number;
  readonly pan: Frames;
  readonly zoom: Frames;
  /** Undefined when every lane fits: nothing to scroll. */
  readonly scroll: Frames | undefined;
}

const join = (a: Frames, b: Frames): Frames => ({ deltas: [...a.deltas, ...b.deltas], work: [...a.work, ...b.work] });

async function oneRun(page: Page, message: HostMessage & { type: 'reset' }, shot: string | undefined): Promise<Run> {
  await page.setContent(pageHtml());
  await page.waitForFunction(() => (window as unknown as { __posted: { type: string }[] }).__posted.some((m) => m.type === 'ready'));
  await page.evaluate((m) => ((window as unknown as { __message: unknown }).__message = m), message as unknown as Record<string, unknown>);
  const firstDraw = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const start = performance.now();
        window.postMessage((window as unknown as { __message: unknown }).__message, '*');
        // The app asks for its frame while handling the message; this callback comes after it in that frame.
        setTimeout(() => requestAnimationFrame(() => resolve(performance.now() - start)), 0);
      }),
  );
  const box = await page.locator('#canvas').boundingBox();
  if (!box) throw new Error('no canvas');
  const mid = { x: box.width * 0.6, y: box.height * 0.6 };
  const left = { x: mid.x - box.width * 0.5, y: mid.y };
  // From the whole history in sight, the wheel zooms in about the pointer and out again.
  const zoom = await scripted(page, { kind: 'wheel', at: mid, deltaY: 40 }, DRAG_STEPS);
  // Zoomed in to about a quarter of the history, a drag pans across it and back.
  await page.locator('#canvas').focus();
  await page.keyboard.press('0');
  for (let i = 0; i < 3; i++) await page.keyboard.press('+');
  const pan = join(await scripted(page, { kind: 'drag', from: mid, to: left }, DRAG_STEPS), await scripted(page, { kind: 'drag', from: left, to: mid }, DRAG_STEPS));
  // The whole history again, lanes dragged up (when there are more than fit).
  await page.keyboard.press('0');
  const laneRoom = box.height - 100;
  const scroll = message.lanes.length * 22 > laneRoom ? await scripted(page, { kind: 'drag', from: { x: mid.x, y: box.height - 20 }, to: { x: mid.x, y: 120 } }, DRAG_STEPS) : undefined;
  if (shot) {
    await page.mouse.move(box.x + mid.x, box.y + mid.y);
    await page.screenshot({ path: shot });
  }
  return { firstDraw, pan, zoom, scroll };
}

/** The store and the lanes message the panel would post, timed on the host side. */
function hostSide(events: ClusterEvent[], now: number): { message: HostMessage & { type: 'reset' }; times: number[] } {
  const store = new EventStore({ maxEvents: events.length * 2 });
  store.batch(() => {
    for (const e of events) store.upsert(e);
  });
  const feed = new TimelineFeed(storeSource(store), new ObjectLanes(), { now: () => now, historyWindowMs: () => 24 * HOUR });
  const times: number[] = [];
  let message: HostMessage | undefined;
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    message = feed.reset();
    times.push(performance.now() - t0);
  }
  if (message?.type !== 'reset') throw new Error('no reset message');
  return { message, times };
}

async function main(): Promise<void> {
  const now = Date.now();
  const shapes = [
    { name: 'a day of a busy cluster: ~1,500 objects', file: 'bench-timeline-20000-objects.png', events: realisticEvents(now, EVENTS, 1600) },
    { name: 'every mark in sight: 30 objects', file: 'bench-timeline-20000-in-sight.png', events: realisticEvents(now, EVENTS, 30) },
  ];
  console.log(`The timeline at ${EVENTS.toLocaleString('en')} events; ${RUNS} runs each in Chromium (headless, software raster), 1400×900.`);
  console.log('No reference peer: no other Kubernetes event viewer (kubectl, k9s, Lens, Headlamp, the Kubernetes extension) draws an event timeline, so nothing runs side by side and no ratio is printed.');
  const browser = await launchBrowser({ width: 1400, height: 900 });
  try {
    const page = await browser.context.newPage();
    const shots = path.join(repoRoot, 'test-results', 'screenshots');
    fs.mkdirSync(shots, { recursive: true });
    for (const shape of shapes) {
      const { message, times } = hostSide(shape.events, now);
      const runs: Run[] = [];
      for (let i = 0; i < RUNS; i++) runs.push(await oneRun(page, message, i === 0 ? path.join(shots, shape.file) : undefined));
      const firsts = runs.map((r) => r.firstDraw);
      const line = (what: string, xs: number[]) => console.log(`    ${what.padEnd(46)} p50 ${ms(quantile(xs, 0.5))}  p95 ${ms(quantile(xs, 0.95))}  max ${ms(Math.max(...xs))}`);
      console.log(`\n  ${shape.name}: ${message.lanes.length} lanes, ${(JSON.stringify(message).length / 1e6).toFixed(1)} MB message`);
      console.log(`    ${'store → lanes message (host)'.padEnd(46)} min ${ms(Math.min(...times))}  median ${ms(median(times))}`);
      console.log(`    ${'first draw (post → frame)'.padEnd(46)} min ${ms(Math.min(...firsts))}  median ${ms(median(firsts))}`);
      for (const [what, of] of [['panning', (r: Run) => r.pan], ['wheel zoom from the whole history', (r: Run) => r.zoom], ['scrolling lanes', (r: Run) => r.scroll]] as const) {
        const frames = runs.map(of).filter((f): f is Frames => f !== undefined);
        if (frames.length === 0) {
          console.log(`    ${what}: every lane fits, nothing to scroll`);
          continue;
        }
        line(`${what}: frame time`, frames.flatMap((f) => f.deltas));
        line(`${what}: drawing`, frames.flatMap((f) => f.work));
      }
    }
    console.log(`\n  A run: ${DRAG_STEPS} frames of wheel zoom, ${DRAG_STEPS * 2} of panning, ${DRAG_STEPS} of scrolling, one input event a frame; 16.7 ms is 60 frames a second.`);
  } finally {
    await browser.close();
  }
}

main().catch((e: Error) => {
  console.error(e.stack ?? e.message);
  process.exit(1);
});
