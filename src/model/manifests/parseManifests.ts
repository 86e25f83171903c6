// The Kubernetes resources in a YAML or JSON file, with where each is: every document of a
// multi-document file, each item of a List. What is not a manifest is skipped with a reason
// (said once in the log, never in a popup): a file too big to parse without stalling the
// editor, invalid YAML, a Helm template, documents without apiVersion, kind and a name.
// js-yaml reads the file, its node listener giving each node's offsets (nine times faster
// than a full syntax tree from `yaml`, which takes over when the offsets do not check out).
import { loadAll, type State } from 'js-yaml';
import { isMap, isScalar, isSeq, LineCounter, parseAllDocuments, type Node, type YAMLMap } from 'yaml';
import type { ManifestResource, TextSpan } from './manifestResource';

/** Files bigger than this are not parsed (generated bundles, data dumps). */
export const MAX_MANIFEST_BYTES = 1024 * 1024;

/**
 * A file bigger than this is parsed a few documents at a time, the event loop getting a
 * turn between them: 1 MiB of manifests takes about 120 ms to parse, and the extension
 * host's thread is every extension's.
 */
export const SLICE_BYTES = 64 * 1024;

/** The annotation `kustomize build` stamps with the file a resource came from (buildMetadata: [originAnnotations]). */
export const ORIGIN_ANNOTATION = 'config.kubernetes.io/origin';

export type ParsedManifests = { readonly resources: readonly ManifestResource[] } | { readonly skipped: string };

/** Helm's template delimiters: a name or namespace holding one is not a real object's. */
const TEMPLATE = /\{\{|\}\}/;

/** What the fields of one resource are, before they are placed in the text. */
interface Found {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly namespace: string;
  readonly originPath?: string;
  /** Offsets of the resource's map and of metadata.name's value. */
  readonly at: readonly [number, number];
  readonly nameAt: readonly [number, number];
}

/** A node as js-yaml's listener reports it: its offsets, value and children (a map's alternate keys and values). */
interface Composed {
  readonly start: number;
  readonly end: number;
  readonly kind: string | null;
  readonly result: unknown;
  readonly children: Composed[];
}

export function parseManifests(text: string): ParsedManifests {
  if (text.length > MAX_MANIFEST_BYTES) return { skipped: `larger than ${MAX_MANIFEST_BYTES / 1024 / 1024} MiB` };
  // Cheap first look: no apiVersion key, no manifest (most YAML and JSON in a workspace).
  if (!text.includes('apiVersion')) return { resources: [] };
  const fast = viaJsYaml(text);
  if ('skipped' in fast) return fast;
  const lines = lineStarts(text);
  const place = (from: number, to: number): TextSpan => {
    const a = position(lines, from);
    const b = position(lines, to);
    return { startLine: a[0], startChar: a[1], endLine: b[0], endChar: b[1] };
  };
  const checked = fast.found.every((f) => isNameAt(text, f));
  const found = checked ? fast.found : viaYaml(text);
  if (!Array.isArray(found)) return found;
  if (fast.templated && !found.length) return { skipped: 'a Helm template' };
  return { resources: found.map((f) => ({ apiVersion: f.apiVersion, kind: f.kind, name: f.name, namespace: f.namespace, originPath: f.originPath, span: place(f.at[0], f.at[1]), nameSpan: place(f.nameAt[0], f.nameAt[1]) })) };
}

/**
 * parseManifests, for a big file: its documents (split at their `---` lines, which YAML
 * allows nowhere else at the start of a line) parsed in groups of about SLICE_BYTES, with a
 * turn of the event loop between groups. One document bigger than that is still parsed whole.
 */
export async function parseManifestsInSlices(text: string, yieldToEventLoop: () => Promise<void>): Promise<ParsedManifests> {
  if (text.length <= SLICE_BYTES || text.length > MAX_MANIFEST_BYTES) return parseManifests(text);
  const resources: ManifestResource[] = [];
  for (const part of documentGroups(text)) {
    const r = parseManifests(part.text);
    if ('skipped' in r) return r;
    for (const x of r.resources) resources.push({ ...x, span: shifted(x.span, part.line), nameSpan: shifted(x.nameSpan, part.line) });
    await yieldToEventLoop();
  }
  return { resources };
}

function shifted(s: TextSpan, lines: number): TextSpan {
  return { ...s, startLine: s.startLine + lines, endLine: s.endLine + lines };
}

/** The text cut at document markers into pieces of about SLICE_BYTES, each with the line it starts on. */
function documentGroups(text: string): { text: string; line: number }[] {
  const groups: { text: string; line: number }[] = [];
  let start = 0;
  let startLine = 0;
  let line = 0;
  for (let at = 0; at < text.length; ) {
    const next = text.indexOf('\n', at);
    const end = next < 0 ? text.length : next + 1;
    if (at - start >= SLICE_BYTES && /^---(\s|$)/.test(text.slice(at, Math.min(end, at + 4)))) {
      groups.push({ text: text.slice(start, at), line: startLine });
      start = at;
      startLine = line;
    }
    line++;
    at = end;
  }
  groups.push({ text: text.slice(start), line: startLine });
  return groups;
}

function viaJsYaml(text: string): { found: Found[]; templated: boolean } | { skipped: string } {
  const stack: { start: number; children: Composed[] }[] = [];
  const docs: Composed[] = [];
  const listener = (event: 'open' | 'close', state: State) => {
    if (event === 'open') return void stack.push({ start: state.position, children: [] });
    const open = stack.pop();
    if (!open) return;
    const only = open.children.length === 1 ? open.children[0] : undefined;
    // A flow collection in block context is reported twice, the outer wrapping the inner.
    const node: Composed = only && only.result === state.result && typeof only.result === 'object' ? only : { start: open.start, end: state.position, kind: state.kind, result: state.result, children: open.children };
    (stack.length ? stack[stack.length - 1].children : docs).push(node);
  };
  try {
    loadAll(text, undefined, { listener, json: true });
  } catch (e) {
    return { skipped: TEMPLATE.test(text) ? 'a Helm template' : `invalid YAML: ${(e as Error).message.split('\n')[0]}` };
  }
  const found: Found[] = [];
  let templated = false;
  const consider = (map: Composed) => {
    const r = readResource(map);
    if (r === 'templated') templated ||= TEMPLATE.test(text);
    else if (r) found.push(r);
  };
  for (const doc of docs) {
    if (doc.kind !== 'mapping') continue;
    const kind = value(doc, 'kind');
    const items = child(doc, 'items');
    if (typeof kind?.result === 'string' && kind.result.endsWith('List') && items?.kind === 'sequence') {
      for (const item of items.children) if (item.kind === 'mapping') consider(item);
    } else consider(doc);
  }
  return { found, templated };
}

/** A map's value node for a key. */
function child(map: Composed, key: string): Composed | undefined {
  for (let i = 0; i + 1 < map.children.length; i += 2) if (map.children[i].result === key) return map.children[i + 1];
  return undefined;
}

function value(map: Composed, key: string): Composed | undefined {
  const c = child(map, key);
  return c?.kind === 'scalar' ? c : undefined;
}

function readResource(map: Composed): Found | 'templated' | undefined {
  const text = (c: Composed | undefined) => (typeof c?.result === 'string' ? c.result : undefined);
  const apiVersion = text(value(map, 'apiVersion'));
  const kind = text(value(map, 'kind'));
  const metadata = child(map, 'metadata');
  if (!apiVersion || !kind || metadata?.kind !== 'mapping') return undefined;
  const nameNode = child(metadata, 'name');
  const name = nameNode?.kind === 'scalar' ? text(nameNode) : undefined;
  const namespace = text(value(metadata, 'namespace')) ?? '';
  // `name: {{ .Release.Name }}` reads as a map in a map.
  if (!nameNode || name === undefined || TEMPLATE.test(name) || TEMPLATE.test(namespace)) return nameNode ? 'templated' : undefined;
  if (!name) return undefined;
  const annotations = child(metadata, 'annotations');
  const origin = annotations?.kind === 'mapping' ? text(value(annotations, ORIGIN_ANNOTATION)) : undefined;
  return { apiVersion, kind, name, namespace, originPath: origin ? originPath(origin) : undefined, at: [map.start, map.end], nameAt: [nameNode.start, nameNode.end] };
}


/** Whether the text at the found offsets is the name, plain or quoted (else the offsets are not trusted). */
function isNameAt(text: string, f: Found): boolean {
  let [from, to] = f.nameAt;
  while (from < to && (text[from] === ' ' || text[from] === '\t')) from++;
  while (to > from && /\s/.test(text[to - 1])) to--;
  const token = text.slice(from, to);
  const ok = token === f.name || token === JSON.stringify(f.name) || token === `'${f.name.replace(/'/g, "''")}'`;
  if (ok) (f as { nameAt: readonly [number, number] }).nameAt = [from, to];
  return ok;
}

/** The same, from `yaml`'s syntax tree: slower, exact for anything js-yaml's offsets miss (aliases, odd layouts). */
function viaYaml(text: string): Found[] | { skipped: string } {
  const docs = parseAllDocuments(text, { lineCounter: new LineCounter(), uniqueKeys: false });
  const found: Found[] = [];
  const str = (map: YAMLMap, key: string) => {
    const v = map.get(key, true);
    return isScalar(v) && typeof v.value === 'string' ? v.value : undefined;
  };
  const range = (n: Node): [number, number] => [n.range?.[0] ?? 0, n.range?.[1] ?? 0];
  const push = (map: YAMLMap) => {
    const apiVersion = str(map, 'apiVersion');
    const kind = str(map, 'kind');
    const metadata = map.get('metadata', true);
    if (!apiVersion || !kind || !isMap(metadata)) return;
    const nameNode = metadata.get('name', true);
    if (!isScalar(nameNode) || typeof nameNode.value !== 'string' || !nameNode.value || TEMPLATE.test(nameNode.value)) return;
    const annotations = metadata.get('annotations', true);
    const origin = isMap(annotations) ? str(annotations, ORIGIN_ANNOTATION) : undefined;
    found.push({ apiVersion, kind, name: nameNode.value, namespace: str(metadata, 'namespace') ?? '', originPath: origin ? originPath(origin) : undefined, at: range(map), nameAt: range(nameNode) });
  };
  for (const doc of docs) {
    if (doc.errors.length) return { skipped: `invalid YAML: ${doc.errors[0].message.split('\n')[0]}` };
    const root = doc.contents;
    if (!isMap(root)) continue;
    const items = root.get('items', true);
    if (str(root, 'kind')?.endsWith('List') && isSeq(items)) {
      for (const item of items.items) if (isMap(item)) push(item);
    } else push(root);
  }
  return found;
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** Line and character (from 0) of an offset. */
function position(starts: readonly number[], offset: number): [number, number] {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return [lo, offset - starts[lo]];
}

/** The `path:` line of an origin annotation (a small YAML document of its own). */
function originPath(origin: string): string | undefined {
  const m = /^path:\s*(.+?)\s*$/m.exec(origin);
  return m?.[1].replace(/^(['"])(.*)\1$/, '$2');
}
