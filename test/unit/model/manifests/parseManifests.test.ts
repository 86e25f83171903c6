import * as assert from 'node:assert/strict';
import { MAX_MANIFEST_BYTES, parseManifests, parseManifestsInSlices, SLICE_BYTES } from '../../../../src/model/manifests/parseManifests';

const resources = (text: string) => {
  const r = parseManifests(text);
  assert.ok('resources' in r, `skipped: ${'skipped' in r ? r.skipped : ''}`);
  return r.resources;
};

describe('parseManifests', () => {
  it('finds each document of a multi-document file, with the line of its name', () => {
    const text = ['# a comment', 'apiVersion: apps/v1', 'kind: Deployment', 'metadata:', '  name: checkout', '  namespace: payments', '---', 'apiVersion: v1', 'kind: Service', 'metadata: {name: "checkout"}', ''].join('\n');
    const r = resources(text);
    assert.deepEqual(r.map((x) => [x.apiVersion, x.kind, x.name, x.namespace, x.nameSpan.startLine, x.nameSpan.startChar, x.span.startLine]), [
      ['apps/v1', 'Deployment', 'checkout', 'payments', 4, 8, 1],
      ['v1', 'Service', 'checkout', '', 9, 17, 7],
    ]);
  });

  it('finds each item of a List, and JSON manifests', () => {
    const list = ['apiVersion: v1', 'kind: List', 'items:', '- apiVersion: v1', '  kind: ConfigMap', '  metadata:', '    name: a', '- apiVersion: v1', '  kind: Secret', '  metadata:', '    name: b'].join('\n');
    assert.deepEqual(resources(list).map((x) => [x.kind, x.name, x.nameSpan.startLine]), [['ConfigMap', 'a', 6], ['Secret', 'b', 10]]);
    const json = JSON.stringify({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'migrate', namespace: 'batch' } }, null, 2);
    assert.deepEqual(resources(json).map((x) => [x.kind, x.name, x.namespace, x.nameSpan.startLine]), [['Job', 'migrate', 'batch', 4]]);
  });

  it('keeps positions in UTF-16 units past CJK, emoji and RTL text', () => {
    const text = ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  annotations: {note: "日本語 🚀 \u200fשלום"}', '  name: "日本-🚀"'].join('\n');
    const [r] = resources(text);
    assert.equal(r.name, '日本-🚀');
    assert.deepEqual([r.nameSpan.startLine, r.nameSpan.startChar, r.nameSpan.endChar], [4, 8, 8 + '"日本-🚀"'.length]);
  });

  it('skips what is not a manifest, saying why: invalid YAML, a Helm template, a huge file', () => {
    assert.deepEqual(resources('name: x\nitems: [1, 2]\n'), []);
    assert.deepEqual(resources('{"apiVersion": 1, "kind": "X"}'), []);
    const invalid = parseManifests('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: [unclosed\n');
    assert.ok('skipped' in invalid && invalid.skipped.startsWith('invalid YAML'), JSON.stringify(invalid));
    const helm = parseManifests('apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}\n');
    assert.deepEqual(helm, { skipped: 'a Helm template' });
    assert.deepEqual(parseManifests('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: "{{ .Values.name }}"\n'), { skipped: 'a Helm template' });
    // A real manifest may hold braces in its data (an alert's template).
    assert.equal(resources('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: alerts\ndata:\n  t: "{{ $labels.pod }}"\n').length, 1);
    const huge = parseManifests(`apiVersion: v1\nkind: ConfigMap\nmetadata: {name: big}\ndata: {x: "${'x'.repeat(MAX_MANIFEST_BYTES)}"}\n`);
    assert.ok('skipped' in huge && huge.skipped.startsWith('larger than'));
  });

  it('reads the origin a kustomize build stamped', () => {
    const text = ['apiVersion: apps/v1', 'kind: Deployment', 'metadata:', '  annotations:', '    config.kubernetes.io/origin: |', '      path: ../base/deploy.yaml', '  name: prod-web'].join('\n');
    assert.equal(resources(text)[0].originPath, '../base/deploy.yaml');
  });
});

describe('parseManifestsInSlices', () => {
  it('parses a big file a few documents at a time, giving each resource the same place as in one go', async () => {
    const doc = (i: number) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c-${i}\ndata:\n  x: "${'y'.repeat(500)}"\n`;
    const text = Array.from({ length: 400 }, (_, i) => doc(i)).join('---\n');
    assert.ok(text.length > SLICE_BYTES * 3);
    let turns = 0;
    const sliced = await parseManifestsInSlices(text, async () => void turns++);
    assert.ok(turns >= 3, `${turns} turns`);
    assert.deepEqual(sliced, parseManifests(text));
  });
});
