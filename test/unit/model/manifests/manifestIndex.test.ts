import * as assert from 'node:assert/strict';
import { parseKustomization } from '../../../../src/model/manifests/kustomization';
import { ManifestIndex } from '../../../../src/model/manifests/manifestIndex';
import { parseManifests } from '../../../../src/model/manifests/parseManifests';

function parsed(text: string) {
  const r = parseManifests(text);
  assert.ok('resources' in r);
  return r.resources;
}
const live = (kind: string, name: string, namespace: string, apiVersion = 'apps/v1') => ({ kind, name, namespace, apiVersion });

describe('manifest index', () => {
  it('finds a namespaced resource in its namespace only, a cluster-scoped one whatever its manifest says', () => {
    const index = new ManifestIndex();
    index.setFile('/w/a.yaml', parsed('apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: reader, namespace: ignored}\n'));
    assert.equal(index.find(live('Deployment', 'web', 'default')).length, 1);
    assert.equal(index.find(live('Deployment', 'web', 'shop')).length, 0);
    assert.equal(index.find(live('ClusterRole', 'reader', '', 'rbac.authorization.k8s.io/v1')).length, 1);
    // An event that names no apiVersion still maps.
    assert.equal(index.find(live('Deployment', 'web', 'default', '')).length, 1);
    assert.deepEqual(index.setDefaultNamespace('shop'), ['/w/a.yaml']);
    assert.equal(index.find(live('Deployment', 'web', 'shop')).length, 1);
  });

  it('follows kustomizations as they come and go', () => {
    const index = new ManifestIndex();
    index.setFile('/w/base/d.yaml', parsed('apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n'));
    index.setKustomization('/w/base', parseKustomization('/w/base', 'resources: [d.yaml]\nnameSuffix: -x\nnamespace: team\n'));
    assert.equal(index.find(live('Deployment', 'web-x', 'team')).length, 1);
    assert.equal(index.find(live('Deployment', 'web', 'default')).length, 0);
    index.setKustomization('/w/base', undefined);
    assert.equal(index.find(live('Deployment', 'web', 'default')).length, 1);
  });

  it("maps a kustomize build's origin annotation back to the source file, whatever the build renamed", () => {
    const index = new ManifestIndex();
    index.setKustomization('/w/prod', parseKustomization('/w/prod', 'resources: [../base]\n'));
    index.setFile('/w/base/d.yaml', parsed('apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n'));
    index.setFile('/w/rendered/prod.yaml', parsed('apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: acme-web-7d8f\n  namespace: prod\n  annotations:\n    config.kubernetes.io/origin: |\n      path: ../base/d.yaml\n'));
    const found = index.find(live('Deployment', 'acme-web-7d8f', 'prod')).map((e) => e.file).sort();
    assert.deepEqual(found, ['/w/base/d.yaml', '/w/rendered/prod.yaml']);
  });

  it('forgets a deleted file', () => {
    const index = new ManifestIndex();
    index.setFile('/w/a.yaml', parsed('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n'));
    index.deleteFile('/w/a.yaml');
    assert.equal(index.find(live('ConfigMap', 'c', 'default', 'v1')).length, 0);
    assert.equal(index.fileCount, 0);
  });
});
