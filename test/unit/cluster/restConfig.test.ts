// One context of a merged kubeconfig as the rest.Config kubectl would build, refused in
// kubectl's words where kubectl would refuse it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import { KubeconfigError } from '../../../src/cluster/errors';
import { loadKubeconfig } from '../../../src/cluster/kubeconfig';
import { clusterIdentity, restConfigFor } from '../../../src/cluster/restConfig';

describe('restConfigFor', () => {
  let home: string;
  beforeEach(() => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'kev-rest-'));
  });
  afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

  function load(config: object) {
    const file = path.join(home, `config-${Math.random().toString(36).slice(2)}`);
    fs.writeFileSync(file, yaml.dump(config));
    return restConfigFor(loadKubeconfig(file, { HOME: home }));
  }
  const one = (cluster: object, user: object | undefined, context = 'ctx') => ({
    clusters: [{ name: 'c', cluster }],
    users: user ? [{ name: 'u', user }] : [],
    contexts: [{ name: context, context: { cluster: 'c', ...(user ? { user: 'u' } : {}) } }],
    'current-context': context,
  });

  it('keys history by server and user: two clusters behind one context name differ', () => {
    const a = load(one({ server: 'https://a.example:6443' }, { token: 't' }));
    const b = load(one({ server: 'https://b.example:6443' }, { token: 't' }));
    assert.equal(a.context, b.context);
    assert.notEqual(clusterIdentity(a), clusterIdentity(b));
    const as = load(one({ server: 'https://a.example:6443' }, { token: 't', as: 'alice', 'as-groups': ['g'] }));
    assert.notEqual(clusterIdentity(a), clusterIdentity(as), 'impersonating someone else is another view');
    assert.equal(clusterIdentity(as), 'https://a.example:6443 user=u as=alice as-groups=g');
  });

  it('sends no credentials to an http:// server, as client-go reads them only for https', () => {
    const c = load(one({ server: 'http://127.0.0.1:8001' }, { token: 't', exec: { apiVersion: 'client.authentication.k8s.io/v1', command: 'x', interactiveMode: 'Never' }, as: 'bob' }));
    assert.equal(c.token, '');
    assert.equal(c.exec, undefined);
    assert.equal(c.impersonate?.user, 'bob', 'impersonation headers still go');
  });

  it('keeps a server path prefix (a proxy in front of the apiserver) and drops its query', () => {
    assert.equal(load(one({ server: 'https://rancher.example/k8s/clusters/c-1/?x=1' }, { token: 't' })).server, 'https://rancher.example/k8s/clusters/c-1');
  });

  it('defaults interactiveMode for v1beta1 plugins only', () => {
    const beta = load(one({ server: 'https://a:1' }, { exec: { apiVersion: 'client.authentication.k8s.io/v1beta1', command: 'x' } }));
    assert.equal(beta.exec?.interactiveMode, 'IfAvailable');
    assert.throws(() => load(one({ server: 'https://a:1' }, { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: 'x' } })), (e: Error) => e instanceof KubeconfigError && /interactiveMode must be specified for u/.test(e.message));
  });

  it('refuses exec plugins of an apiVersion kubectl no longer runs', () => {
    assert.throws(() => load(one({ server: 'https://a:1' }, { exec: { apiVersion: 'client.authentication.k8s.io/v1alpha1', command: 'x', interactiveMode: 'Never' } })), /invalid apiVersion "client.authentication.k8s.io\/v1alpha1"/);
  });

  it('lists every problem kubectl would, in its words', () => {
    assert.throws(() => load(one({ server: 'https://a:1' }, { token: 't', username: 'a', password: 'b', 'client-certificate-data': 'eA==' })), (e: Error) => {
      assert.match(e.message, /client-key-data or client-key must be specified for u/);
      assert.match(e.message, /more than one authentication method found for u; found \[token basicAuth\], only one is allowed/);
      assert.match(e.message, /kubectl: error: invalid configuration: \[/);
      return true;
    });
  });
});
