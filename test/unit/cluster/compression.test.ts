// Whether a context's requests ask for gzip: as client-go does, except on this machine.
import * as assert from 'node:assert/strict';
import { asksForCompression, isLoopbackHost } from '../../../src/cluster/compression';

describe('compression', () => {
  it('knows this machine by name and address, and nothing else', () => {
    for (const h of ['localhost', 'LOCALHOST', 'kind.localhost', '127.0.0.1', '127.1.2.3', '[::1]', '::1', '[::ffff:127.0.0.1]', '[0:0:0:0:0:0:0:1]']) assert.ok(isLoopbackHost(h), h);
    for (const h of ['10.0.0.1', '128.0.0.1', '192.168.49.2', 'localhost.example.com', 'mylocalhost', 'api.example.com', '[::2]', '[fe80::1]', '[::ffff:10.0.0.1]']) assert.ok(!isLoopbackHost(h), h);
  });

  it('asks a remote apiserver for gzip as client-go does, not one on this machine, and never when the kubeconfig disables it', () => {
    assert.equal(asksForCompression(new URL('https://api.example.com:6443'), false), true);
    assert.equal(asksForCompression(new URL('https://10.0.0.1:6443'), false), true);
    assert.equal(asksForCompression(new URL('https://127.0.0.1:6443'), false), false);
    assert.equal(asksForCompression(new URL('https://[::1]:6443'), false), false);
    assert.equal(asksForCompression(new URL('http://localhost:8001'), false), false);
    assert.equal(asksForCompression(new URL('https://api.example.com:6443'), true), false);
  });
});
