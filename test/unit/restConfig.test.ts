import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import { proxyFromEnvironment } from '../../src/cluster/envProxy';
import { KubeconfigError } from '../../src/cluster/errors';
import { loadKubeconfig } from '../../src/cluster/kubeconfig';
import { clusterIdentity, restConfigFor } from '../../src/cluster/restConfig';
import { CachedFileTokenSource, TOKEN_FILE_LEEWAY_MS, TOKEN_FILE_PERIOD_MS } from '../../src/cluster/tokenFile';

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

describe('proxyFromEnvironment (Go\'s ProxyFromEnvironment rules)', () => {
  const env = { HTTPS_PROXY: 'proxy.example:3128', NO_PROXY: '.internal.example,10.0.0.0/8,exact.example:6443' };
  it('uses HTTPS_PROXY for https, with http:// when the scheme is left out', () => {
    assert.equal(proxyFromEnvironment(new URL('https://api.example:6443'), env)?.href, 'http://proxy.example:3128/');
  });
  it('never proxies loopback or localhost', () => {
    assert.equal(proxyFromEnvironment(new URL('https://127.0.0.1:6443'), env), undefined);
    assert.equal(proxyFromEnvironment(new URL('https://localhost:6443'), env), undefined);
  });
  it('honours NO_PROXY domains, CIDRs and ports', () => {
    assert.equal(proxyFromEnvironment(new URL('https://k8s.internal.example'), env), undefined);
    assert.equal(proxyFromEnvironment(new URL('https://10.1.2.3:6443'), env), undefined);
    assert.equal(proxyFromEnvironment(new URL('https://exact.example:6443'), env), undefined);
    assert.ok(proxyFromEnvironment(new URL('https://exact.example:443'), env), 'another port is proxied');
  });
});

describe('CachedFileTokenSource (client-go\'s cached file token source)', () => {
  let dir: string;
  let now = 0;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kev-token-'));
    now = 1_000_000;
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reads the file again once a period (less the leeway) has passed, trimmed', () => {
    const file = path.join(dir, 'token');
    fs.writeFileSync(file, 'first\n');
    const source = new CachedFileTokenSource(file, () => now);
    assert.equal(source.current('', 'u', 'k'), 'first');
    fs.writeFileSync(file, 'second\n');
    now += TOKEN_FILE_PERIOD_MS - TOKEN_FILE_LEEWAY_MS - 1;
    assert.equal(source.current('', 'u', 'k'), 'first', 'still cached');
    now += 2;
    assert.equal(source.current('', 'u', 'k'), 'second');
  });

  it('keeps the last token when the file goes away, and names the file when there never was one', () => {
    const file = path.join(dir, 'token');
    fs.writeFileSync(file, 'kept');
    const source = new CachedFileTokenSource(file, () => now);
    assert.equal(source.current('', 'u', 'k'), 'kept');
    fs.rmSync(file);
    now += TOKEN_FILE_PERIOD_MS;
    assert.equal(source.current('', 'u', 'k'), 'kept');
    assert.match(source.lastError ?? '', /failed to read token file ".*token": open .*: no such file or directory/);
    assert.throws(() => new CachedFileTokenSource(file, () => now).current('', 'u', 'k'), (e: Error) => e instanceof KubeconfigError && e.message.includes(file));
  });
});
