// Errors that say what to fix: against the real apiserver, a configuration error (a missing
// exec plugin, a plugin that exits non-zero, an untrusted CA, a missing client certificate,
// an unreadable token file) names the file, plugin or CA with kubectl's words, and is final
// (no retry loop); a network error keeps backing off.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import { ApiClient } from '../../src/cluster/apiRequest';
import { ClusterConnection } from '../../src/cluster/clusterConnection';
import { KubeconfigError } from '../../src/cluster/errors';
import { EventObserver } from '../../src/cluster/eventObserver';
import { loadKubeconfig } from '../../src/cluster/kubeconfig';
import type { ListWatchState } from '../../src/cluster/listWatch';
import { restConfigFor } from '../../src/cluster/restConfig';
import { EventStore } from '../../src/model/eventStore';
import { ControlPlane, USER_TOKEN } from '../env/controlPlane';
import { freePort } from '../env/ports';
import { pollUntil } from '../support/wait';
import { controlPlaneDir } from './support';

describe('configuration errors against the real apiserver', function () {
  this.timeout(60_000);
  let dir: string;
  let plane: ControlPlane;
  const observers: EventObserver[] = [];

  before(() => {
    plane = ControlPlane.attach(controlPlaneDir());
    dir = path.join(controlPlaneDir(), 'config-errors');
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    fs.copyFileSync(path.join(controlPlaneDir(), 'pki', 'ca.crt'), path.join(dir, 'ca.crt'));
    // The apiserver's own certificate as a CA: it did not sign itself, so nothing trusts the server.
    fs.copyFileSync(path.join(controlPlaneDir(), 'pki', 'apiserver.crt'), path.join(dir, 'wrong-ca.crt'));
    fs.writeFileSync(path.join(dir, 'failing.sh'), `#!/bin/sh\necho run >> "$(dirname "$0")/failing.runs"\necho "refresh token expired: run 'sso login'" >&2\nexit 2\n`, { mode: 0o755 });
  });

  afterEach(async () => {
    for (const o of observers.splice(0)) await o.stop();
  });

  function write(name: string, cluster: Record<string, unknown>, user: Record<string, unknown>): string {
    const file = path.join(dir, `${name}.kubeconfig`);
    fs.writeFileSync(file, yaml.dump({ apiVersion: 'v1', kind: 'Config', clusters: [{ name: 'c', cluster: { server: plane.info.server, 'certificate-authority': 'ca.crt', ...cluster } }], users: [{ name: 'u', user }], contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }], 'current-context': 'x' }));
    return file;
  }

  /** Watches with the kubeconfig until the first final or backoff state; returns every state seen after a pause. */
  async function watchUntilSettled(file: string): Promise<ListWatchState[]> {
    const observer = new EventObserver(new ApiClient(restConfigFor(loadKubeconfig(file)), 3_000), new EventStore());
    observers.push(observer);
    const states: ListWatchState[] = [];
    observer.onDidChangeState((s) => states.push(s.get('') as ListWatchState));
    observer.start();
    await pollUntil('a configError or backoff state', () => states.some((s) => s.phase === 'configError' || s.phase === 'backoff'));
    // Long enough for several retries, were there any.
    await new Promise((r) => setTimeout(r, 2_500));
    return states;
  }

  const exec = (command: string) => ({ exec: { apiVersion: 'client.authentication.k8s.io/v1', command, interactiveMode: 'Never' } });

  it('a missing exec plugin is a final configError naming the plugin, with kubectl\'s words', async () => {
    const states = await watchUntilSettled(write('missing-plugin', {}, exec('kev-sso-login')));
    const last = states[states.length - 1];
    assert.equal(last.phase, 'configError', states.map((s) => s.phase).join(' → '));
    assert.ok(!states.some((s) => s.phase === 'backoff'), 'never retried');
    assert.match((last as { message: string }).message, /exec credential plugin "kev-sso-login" of user "u" \(kubeconfig .*missing-plugin\.kubeconfig\) was not found.*kubectl: exec: executable kev-sso-login not found/);
  });

  it('a plugin that exits non-zero is a final configError with its stderr, and runs once', async () => {
    const states = await watchUntilSettled(write('failing-plugin', {}, exec('./failing.sh')));
    const last = states[states.length - 1];
    assert.equal(last.phase, 'configError');
    assert.match((last as { message: string }).message, /failing\.sh" of user "u" .*failed with exit code 2: refresh token expired: run 'sso login'.*kubectl: exec: executable .*failing\.sh failed with exit code 2/);
    assert.equal(fs.readFileSync(path.join(dir, 'failing.runs'), 'utf8').trim().split('\n').length, 1, 'the plugin ran once: no retry loop');
  });

  it('an untrusted CA is a final configError naming the CA file', async () => {
    const states = await watchUntilSettled(write('untrusted-ca', { 'certificate-authority': 'wrong-ca.crt' }, { token: USER_TOKEN }));
    const last = states[states.length - 1];
    assert.equal(last.phase, 'configError');
    assert.match((last as { message: string }).message, /certificate-authority .*wrong-ca\.crt does not trust .*kubectl: Unable to connect to the server: tls: failed to verify certificate: x509: certificate signed by unknown authority/);
  });

  it('a missing client certificate fails the connect itself, naming the file as kubectl does', async () => {
    const connection = new ClusterConnection(new EventStore(), { kubeconfigPath: write('missing-cert', {}, { 'client-certificate': 'gone.crt', 'client-key': 'gone.key' }) });
    await assert.rejects(connection.connect(), (e: Error) => {
      assert.ok(e instanceof KubeconfigError);
      assert.match(e.message, /unable to read client-cert .*gone\.crt for u due to open .*gone\.crt: no such file or directory/);
      return true;
    });
  });

  it('an unreadable token file fails the connect itself, naming the file', async () => {
    const token = path.join(dir, 'unreadable-token');
    fs.writeFileSync(token, USER_TOKEN);
    fs.chmodSync(token, 0o000);
    const connection = new ClusterConnection(new EventStore(), { kubeconfigPath: write('unreadable-token', {}, { tokenFile: 'unreadable-token' }) });
    // root reads a file whatever its mode: a folder where the file should be cannot be read by anyone.
    fs.rmSync(token);
    fs.mkdirSync(token);
    await assert.rejects(connection.connect(), (e: Error) => {
      assert.ok(e instanceof KubeconfigError, `${e.name}: ${e.message}`);
      assert.match(e.message, /token file .*unreadable-token of user "u" .*cannot be used: failed to read token file ".*unreadable-token": .*is a directory/);
      return true;
    });
  });

  it('a network error (nothing listens) keeps backing off instead', async () => {
    const port = await freePort();
    const states = await watchUntilSettled(write('nothing-listens', { server: `https://127.0.0.1:${port}` }, { token: USER_TOKEN }));
    const backoffs = states.filter((s) => s.phase === 'backoff');
    assert.ok(backoffs.length >= 2, `retried: ${states.map((s) => s.phase).join(' → ')}`);
    assert.ok(!states.some((s) => s.phase === 'configError'));
    assert.match((backoffs[0] as { error: string }).error, /ECONNREFUSED/);
  });
});
