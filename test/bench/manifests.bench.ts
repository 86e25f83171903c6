// The manifest index's own costs (issue 28), in plain Node: 5,000 manifest files holding
// 20,000 resources (test/support/manifestWorkspace.ts) parsed, indexed and mapped to 20,000
// stored events on the Deployments' pods; then what one new event costs, at that workspace
// and at one a tenth its size with the same store (the cost must follow the event's object,
// not the workspace). The end-to-end figures inside the extension host, with
// vscode.workspace.findFiles as the reference, are in test/hostbench/manifests.bench.ts.
import { EventStore } from '../../src/model/eventStore';
import { NO_FILTER } from '../../src/model/filters';
import { ManifestIndex } from '../../src/model/manifests/manifestIndex';
import type { ManifestResource } from '../../src/model/manifests/manifestResource';
import { ManifestStatus } from '../../src/model/manifests/manifestStatus';
import { parseManifests } from '../../src/model/manifests/parseManifests';
import { OwnerIndex } from '../../src/model/ownerIndex';
import { manifestText, ownersOfApp, podEvent, RESOURCES_PER_FILE } from '../support/manifestWorkspace';
import { interleaved, printTable } from './harness';

const RUNS = 5;
const FILES = 5000;
const EVENTS = 20_000;
const PODS_PER_APP = 3;
/** New events timed one at a time per run. */
const SINGLES = 2000;

function storeFor(apps: number): { store: EventStore; owners: OwnerIndex } {
  const store = new EventStore({ maxEvents: EVENTS * 2 });
  const owners = new OwnerIndex();
  for (let app = 0; app < apps; app++) for (const o of ownersOfApp(app, PODS_PER_APP)) owners.set(o);
  store.batch(() => {
    for (let n = 0; n < EVENTS; n++) store.upsert(podEvent(n, n % apps, n % PODS_PER_APP));
  });
  return { store, owners };
}

const texts = Array.from({ length: FILES }, (_, i) => manifestText(i));

function parseAll(files: number): [string, readonly ManifestResource[]][] {
  return texts.slice(0, files).map((t, i) => {
    const r = parseManifests(t);
    if (!('resources' in r) || r.resources.length !== RESOURCES_PER_FILE) throw new Error(`file ${i} parsed to ${JSON.stringify(r).slice(0, 200)}`);
    return [`/w/apps/svc-${i}.yaml`, r.resources];
  });
}

async function main(): Promise<void> {
  const { store, owners } = storeFor(FILES);
  const source = { group: (k: string) => store.group(k), view: () => store.view(NO_FILTER) };
  store.view(NO_FILTER);

  const phases = { parse: [] as number[], index: [] as number[], map: [] as number[] };
  const cold = await interleaved(RUNS, [
    {
      label: 'cold',
      run: () => {
        const t0 = performance.now();
        const parsed = parseAll(FILES);
        const t1 = performance.now();
        const index = new ManifestIndex();
        index.setFiles(parsed);
        const t2 = performance.now();
        new ManifestStatus(source, owners, index).rebuild();
        const t3 = performance.now();
        phases.parse.push(t1 - t0);
        phases.index.push(t2 - t1);
        phases.map.push(t3 - t2);
        return t3 - t0;
      },
    },
  ]);
  printTable(`Indexing ${FILES.toLocaleString('en')} files (${(FILES * RESOURCES_PER_FILE).toLocaleString('en')} resources) from cold, ${EVENTS.toLocaleString('en')} events stored`, 'ms', [
    { label: 'parse (js-yaml, offsets kept)', values: phases.parse },
    { label: 'index (names, kustomize)', values: phases.index },
    { label: 'map the stored events', values: phases.map },
    { label: 'all three', values: cold.get('cold') ?? [], note: 'goal: under 2,000 ms (one synchronous pass here; the extension reads files in batches of 50 between turns)' },
  ], 1);

  // One new event at a time: the update a store change makes, at 20,000 and at 2,000 resources.
  const sized = (files: number) => {
    const index = new ManifestIndex();
    index.setFiles(parseAll(files));
    const status = new ManifestStatus(source, owners, index);
    status.rebuild();
    return status;
  };
  const big = sized(FILES);
  const small = sized(FILES / 10);
  let n = EVENTS;
  const single = (status: ManifestStatus) => () => {
    let spent = 0;
    for (let i = 0; i < SINGLES; i++) {
      const e = podEvent(n++, i % FILES, i % PODS_PER_APP);
      let files = new Set<string>();
      const sub = store.onDidChange((c) => {
        const t = performance.now();
        files = status.update(c);
        spent += performance.now() - t;
      });
      store.upsert(e);
      sub.dispose();
      if (files.size > 1) throw new Error(`one event touched ${files.size} files`);
    }
    return (spent / SINGLES) * 1000;
  };
  const singles = await interleaved(RUNS, [
    { label: `${(FILES * RESOURCES_PER_FILE).toLocaleString('en')} resources`, run: single(big) },
    { label: `${((FILES / 10) * RESOURCES_PER_FILE).toLocaleString('en')} resources (reference)`, run: single(small) },
  ]);
  printTable('One new event: the manifest update a store change makes (µs per event)', 'µs', [
    { label: `${(FILES * RESOURCES_PER_FILE).toLocaleString('en')} resources`, values: singles.get(`${(FILES * RESOURCES_PER_FILE).toLocaleString('en')} resources`) ?? [], vs: `${((FILES / 10) * RESOURCES_PER_FILE).toLocaleString('en')} resources (reference)`, note: 'goal: ratio near 1 (the workspace ten times larger)' },
    { label: `${((FILES / 10) * RESOURCES_PER_FILE).toLocaleString('en')} resources (reference)`, values: singles.get(`${((FILES / 10) * RESOURCES_PER_FILE).toLocaleString('en')} resources (reference)`) ?? [] },
  ], 1);
}

void main();
