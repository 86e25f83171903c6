import * as assert from 'node:assert/strict';
import { joinPath, Kustomizations, parseKustomization } from '../../../../src/model/manifests/kustomization';
import type { ManifestResource } from '../../../../src/model/manifests/manifestResource';

const at = { startLine: 0, startChar: 0, endLine: 0, endChar: 0 };
const resource = (kind: string, name: string, apiVersion = 'apps/v1', namespace = ''): ManifestResource => ({ apiVersion, kind, name, namespace, span: at, nameSpan: at });

describe('kustomizations', () => {
  const base = parseKustomization('/w/base', 'resources:\n- deploy.yaml\n- ./crd.yaml\n- https://example.invalid/remote.yaml\nnamePrefix: b-\nnamespace: basens\n');
  const overlay = parseKustomization('/w/overlays/prod', 'resources: [../../base]\nnamePrefix: prod-\nnameSuffix: -v2\nnamespace: prod\n');
  const ks = new Kustomizations();
  ks.set(base!);
  ks.set(overlay!);

  it('reads resources (remote ones left out), the namespace and the name prefix and suffix', () => {
    assert.deepEqual(base, { dir: '/w/base', entries: ['/w/base/deploy.yaml', '/w/base/crd.yaml'], namespace: 'basens', namePrefix: 'b-', nameSuffix: '' });
    assert.equal(parseKustomization('/w', 'resources: [unclosed'), undefined);
  });

  it('names a listed resource as the base and as the overlay that includes it would (as kubectl kustomize does)', () => {
    const names = ks.liveNames('/w/base/deploy.yaml', resource('Deployment', 'web'), 'default');
    assert.deepEqual(names.map((n) => `${n.namespace}/${n.name}`), ['basens/b-web', 'prod/prod-b-web-v2']);
  });

  it('leaves CustomResourceDefinition names alone and renames a Namespace to the kustomization namespace', () => {
    const crd = ks.liveNames('/w/base/crd.yaml', resource('CustomResourceDefinition', 'widgets.example.com', 'apiextensions.k8s.io/v1'), 'default');
    assert.deepEqual(crd.map((n) => n.name), ['widgets.example.com', 'widgets.example.com']);
    assert.deepEqual(ks.liveNames('/w/base/deploy.yaml', resource('Namespace', 'team', 'v1'), 'default').map((n) => n.name), ['basens', 'prod']);
  });

  it('names an unlisted file as written, in the default namespace when it gives none', () => {
    assert.deepEqual(ks.liveNames('/w/other.yaml', resource('Deployment', 'api'), 'shop'), [{ group: 'apps', kind: 'Deployment', namespace: 'shop', name: 'api' }]);
    assert.deepEqual(ks.liveNames('/w/other.yaml', resource('Deployment', 'api', 'apps/v1', 'team'), 'shop')[0].namespace, 'team');
  });

  it('stops at a loop of kustomizations', () => {
    const loop = new Kustomizations();
    loop.set(parseKustomization('/a', 'resources: [x.yaml, ../b]\nnamePrefix: a-\n')!);
    loop.set(parseKustomization('/b', 'resources: [../a]\nnamePrefix: b-\n')!);
    assert.deepEqual(loop.liveNames('/a/x.yaml', resource('ConfigMap', 'c', 'v1'), 'default').map((n) => n.name), ['a-c', 'b-a-c']);
  });

  it('joins paths as kustomize resolves them', () => {
    assert.equal(joinPath('/w/overlays/prod', '../../base'), '/w/base');
    assert.equal(joinPath('/w', './a/./b.yaml'), '/w/a/b.yaml');
  });
});
