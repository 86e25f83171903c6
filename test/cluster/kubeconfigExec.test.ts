// A kubeconfig whose user is an exec credential plugin, against the real apiserver: the
// plugin runs, its token authenticates, and a broken plugin gives a clear error.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ApiClient } from '../../src/cluster/apiRequest';
import { kubeConfigFor, loadKubeconfig } from '../../src/cluster/kubeconfig';
import { ControlPlane, EXEC_TOKEN } from '../env/controlPlane';
import { controlPlaneDir } from './support';

describe('kubeconfig with an exec credential plugin', () => {
  let dir: string;
  let server: string;
  let ca: string;

  before(() => {
    const plane = ControlPlane.attach(controlPlaneDir());
    dir = path.join(controlPlaneDir(), 'exec');
    fs.mkdirSync(dir, { recursive: true });
    server = plane.info.server;
    ca = fs.readFileSync(path.join(controlPlaneDir(), 'pki', 'ca.crt')).toString('base64');
  });

  function kubeconfig(name: string, plugin: string): string {
    fs.writeFileSync(path.join(dir, `${name}.sh`), plugin, { mode: 0o755 });
    const file = path.join(dir, `${name}.kubeconfig`);
    // A relative command path: resolved against the kubeconfig's folder, as kubectl does.
    fs.writeFileSync(file, `apiVersion: v1
kind: Config
clusters:
- name: c
  cluster: {server: "${server}", certificate-authority-data: "${ca}"}
users:
- name: u
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1
      command: ./${name}.sh
      interactiveMode: Never
contexts:
- name: exec
  context: {cluster: c, user: u}
current-context: exec
`);
    return file;
  }

  it('runs the plugin and authenticates with the token it prints', async () => {
    const file = kubeconfig('good', `#!/bin/sh\necho "$(date +%s)" >> "$(dirname "$0")/good.calls"\nprintf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"${EXEC_TOKEN}"}}'\n`);
    const client = new ApiClient(kubeConfigFor(loadKubeconfig(file)));
    try {
      const review = await client.request<{ status: { userInfo: { username: string } } }>({
        method: 'POST',
        path: '/apis/authentication.k8s.io/v1/selfsubjectreviews',
        body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }),
      });
      assert.equal(review.status.userInfo.username, 'kev-exec');
      const events = await client.request<{ items: unknown[] }>({ method: 'GET', path: '/api/v1/events?limit=1' });
      assert.ok(Array.isArray(events.items));
      assert.ok(fs.readFileSync(path.join(dir, 'good.calls'), 'utf8').trim().split('\n').length >= 1, 'the plugin ran');
    } finally {
      client.dispose();
    }
  });

  it('reports a failing plugin instead of sending no credentials', async () => {
    const file = kubeconfig('bad', '#!/bin/sh\necho "login required: run sso-login first" >&2\nexit 3\n');
    const client = new ApiClient(kubeConfigFor(loadKubeconfig(file)));
    try {
      await assert.rejects(client.request({ method: 'GET', path: '/api/v1/events?limit=1' }), (e: Error) => {
        assert.match(e.message, /^Cannot get credentials for context "exec": its exec plugin .*bad\.sh failed: .*login required: run sso-login first/);
        return true;
      });
    } finally {
      client.dispose();
    }
  });
});
