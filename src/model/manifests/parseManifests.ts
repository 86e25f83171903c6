// The Kubernetes resources in a YAML or JSON file, with where each is: every document of a
// multi-document file, each item of a List. What is not a manifest is skipped with a reason
// (said once in the log, never in a popup): a file too big to parse without stalling the
// editor, invalid YAML, a Helm template, documents without apiVersion, kind and a name.
import { isMap, isScalar, isSeq, LineCounter, parseAllDocuments, type Document, type Node, type YAMLMap } from 'yaml';
import type { ManifestResource, TextSpan } from './manifestResource';

/**
 * Files bigger than this are not parsed: a 1 MiB manifest parses in about 30 ms on the
 * extension host's thread, and every extension shares that thread.
 */
export const MAX_MANIFEST_BYTES = 1024 * 1024;

/** The annotation `kustomize build` stamps with the file a resource came from (buildMetadata: [originAnnotations]). */
export const ORIGIN_ANNOTATION = 'config.kubernetes.io/origin';

export type ParsedManifests = { readonly resources: readonly ManifestResource[] } | { readonly skipped: string };

/** Helm's template delimiters: a name or namespace holding one is not a real object's. */
const TEMPLATE = /\{\{|\}\}/;

export function parseManifests(text: string): ParsedManifests {
  if (text.length > MAX_MANIFEST_BYTES) return { skipped: `larger than ${MAX_MANIFEST_BYTES / 1024 / 1024} MiB` };
  // Cheap first look: no apiVersion key, no manifest (most YAML and JSON in a workspace).
  if (!text.includes('apiVersion')) return { resources: [] };
  const lines = new LineCounter();
  let docs: Document.Parsed[];
  try {
    docs = parseAllDocuments(text, { lineCounter: lines, uniqueKeys: false, prettyErrors: false }) as Document.Parsed[];
  } catch (e) {
    return { skipped: `not YAML: ${(e as Error).message}` };
  }
  const spanOf = (node: Node): TextSpan => {
    const [from, , to] = node.range ?? [0, 0, 0];
    const a = lines.linePos(from);
    const b = lines.linePos(to);
    return { startLine: a.line - 1, startChar: a.col - 1, endLine: b.line - 1, endChar: b.col - 1 };
  };
  const resources: ManifestResource[] = [];
  /** A document whose name is a template: the file is Helm's, not a manifest. */
  let templated = false;
  for (const doc of docs) {
    if (doc.errors.length) {
      const helm = TEMPLATE.test(text);
      return { skipped: helm ? 'a Helm template' : `invalid YAML: ${doc.errors[0].message.split('\n')[0]}` };
    }
    const root = doc.contents;
    if (!isMap(root)) continue;
    const kind = text_(root, 'kind');
    const items = root.get('items', true);
    if (kind?.endsWith('List') && isSeq(items)) {
      for (const item of items.items) if (isMap(item)) push(item);
    } else {
      push(root);
    }
  }
  return templated && !resources.length ? { skipped: 'a Helm template' } : { resources };

  function push(map: YAMLMap): void {
    const apiVersion = text_(map, 'apiVersion');
    const kind = text_(map, 'kind');
    const metadata = map.get('metadata', true);
    if (!apiVersion || !kind || !isMap(metadata)) return;
    const nameNode = metadata.get('name', true);
    const namespace = text_(metadata, 'namespace') ?? '';
    if (!isScalar(nameNode) || typeof nameNode.value !== 'string' || TEMPLATE.test(nameNode.value) || TEMPLATE.test(namespace)) {
      // `name: {{ .Release.Name }}` parses as a map in a map.
      templated ||= TEMPLATE.test(text);
      return;
    }
    const name = nameNode.value;
    if (!name) return;
    const annotations = metadata.get('annotations', true);
    const origin = isMap(annotations) ? text_(annotations, ORIGIN_ANNOTATION) : undefined;
    resources.push({ apiVersion, kind, name, namespace, span: spanOf(map), nameSpan: spanOf(nameNode), originPath: origin ? originPath(origin) : undefined });
  }
}

/** A string value of a map's key, or undefined. */
function text_(map: YAMLMap, key: string): string | undefined {
  const v = map.get(key, true);
  return isScalar(v) && typeof v.value === 'string' ? v.value : undefined;
}

/** The `path:` line of an origin annotation (a small YAML document of its own). */
function originPath(origin: string): string | undefined {
  const m = /^path:\s*(.+?)\s*$/m.exec(origin);
  return m?.[1].replace(/^(['"])(.*)\1$/, '$2');
}
