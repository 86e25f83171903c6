// A kubeconfig whose user is an exec credential plugin, against the real apiserver: the
// plugin runs, its token authenticates and is cached as client-go caches it (until its
// expirationTimestamp, or a 401), and a broken plugin gives a clear error.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ApiClient } from '../../src/cluster/apiRequest';
import { KubeconfigError } from '../../src/cluster/errors';
import { loadKubeconfig } from '../../src/cluster/kubeconfig';
import { restConfigFor } from '../../src/cluster/restConfig';
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

  function kubeconfig(name: string, plugin: string, context = 'exec'): string {
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
- name: ${context}
  context: {cluster: c, user: u}
current-context: ${context}
`);
    return file;
  }

  /** Runs USE with a client of the kubeconfig FILE, and disposes of the client after. */
  async function withClient(file: string, use: (client: ApiClient) => Promise<void>): Promise<void> {
    const client = new ApiClient(restConfigFor(loadKubeconfig(file)));
    try {
      await use(client);
    } finally {
      client.dispose();
    }
  }

  it('runs the plugin and authenticates with the token it prints', async () => {
    const file = kubeconfig('good', `#!/bin/sh\necho "$(date +%s)" >> "$(dirname "$0")/good.calls"\nprintf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"${EXEC_TOKEN}"}}'\n`);
    await withClient(file, async (client) => {
      const review = await client.request<{ status: { userInfo: { username: string } } }>({
        method: 'POST',
        path: '/apis/authentication.k8s.io/v1/selfsubjectreviews',
        body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }),
      });
      assert.equal(review.status.userInfo.username, 'kev-exec');
      const events = await client.request<{ items: unknown[] }>({ method: 'GET', path: '/api/v1/events?limit=1' });
      assert.ok(Array.isArray(events.items));
      assert.ok(fs.readFileSync(path.join(dir, 'good.calls'), 'utf8').trim().split('\n').length >= 1, 'the plugin ran');
    });
  });

  it('reports a failing plugin instead of sending no credentials', async () => {
    const file = kubeconfig('bad', '#!/bin/sh\necho "login required: run sso-login first" >&2\nexit 3\n');
    await withClient(file, async (client) => {
      await assert.rejects(client.request({ method: 'GET', path: '/api/v1/events?limit=1' }), (e: Error) => {
        assert.ok(e instanceof KubeconfigError);
        assert.match(e.message, /^The exec credential plugin ".*bad\.sh" of user "u" \(kubeconfig .*bad\.kubeconfig\) failed with exit code 3: login required: run sso-login first/);
        return true;
      });
    });
  });

  const calls = (name: string) => (fs.existsSync(path.join(dir, `${name}.calls`)) ? fs.readFileSync(path.join(dir, `${name}.calls`), 'utf8').trim().split('\n').length : 0);
  const plugin = (name: string, status: string) => `#!/bin/sh\necho run >> "$(dirname "$0")/${name}.calls"\nprintf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":${status}}'\n`;

  it('runs the plugin once for many requests while its token has not expired', async () => {
    const expires = new Date(Date.now() + 3_600_000).toISOString();
    await withClient(kubeconfig('cached', plugin('cached', `{"token":"${EXEC_TOKEN}","expirationTimestamp":"${expires}"}`), 'cached'), async (client) => {
      for (let i = 0; i < 5; i++) await client.request({ method: 'GET', path: '/api/v1/namespaces/default/events?limit=1' });
      assert.equal(calls('cached'), 1);
    });
  });

  it('runs the plugin again once its token has expired', async () => {
    const expired = new Date(Date.now() - 1_000).toISOString();
    await withClient(kubeconfig('expired', plugin('expired', `{"token":"${EXEC_TOKEN}","expirationTimestamp":"${expired}"}`), 'expired'), async (client) => {
      for (let i = 0; i < 3; i++) await client.request({ method: 'GET', path: '/api/v1/namespaces/default/events?limit=1' });
      assert.equal(calls('expired'), 3);
    });
  });

  it('after a 401 runs the plugin again and sends the request once more with the new token', async () => {
    // The first run prints a token the apiserver does not know; later runs print the good one.
    const script = `#!/bin/sh\nf="$(dirname "$0")/rotating.calls"\necho run >> "$f"\nif [ "$(wc -l < "$f")" -eq 1 ]; then t=stale-token; else t=${EXEC_TOKEN}; fi\nprintf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"%s"}}' "$t"\n`;
    await withClient(kubeconfig('rotating', script, 'rotating'), async (client) => {
      const events = await client.request<{ items: unknown[] }>({ method: 'GET', path: '/api/v1/namespaces/default/events?limit=1' });
      assert.ok(Array.isArray(events.items));
      assert.equal(calls('rotating'), 2, 'one run for the stale token, one after the 401');
    });
  });
});
