// The proxy from the environment when the kubeconfig names none, by Go's rules.
import * as assert from 'node:assert/strict';
import { proxyFromEnvironment } from '../../../src/cluster/envProxy';

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
