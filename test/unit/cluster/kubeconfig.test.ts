// Kubeconfig files merged with kubectl's rules, and the RestConfig of each context.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { KubeconfigError, kubeconfigFiles, loadKubeconfig } from '../../../src/cluster/kubeconfig';
import { restConfigFor, type RestConfig } from '../../../src/cluster/restConfig';

const VALID = `apiVersion: v1
kind: Config
clusters:
- name: c
  cluster: {server: "https://127.0.0.1:6443"}
users:
- name: u
  user: {token: t}
contexts:
- name: ctx
  context: {cluster: c, user: u}
current-context: ctx
`;

/** The current context's RestConfig, from an explicit path or KUBECONFIG or ~/.kube/config. */
function currentRestConfig(explicitPath: string | undefined, env: NodeJS.ProcessEnv): RestConfig {
  return restConfigFor(loadKubeconfig(explicitPath, env));
}

describe('loadKubeconfig', () => {
  let home: string;
  beforeEach(() => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'kev-kubeconfig-'));
  });
  afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

  it('refuses the silent fallback to localhost:8080 when there is no kubeconfig', () => {
    assert.throws(() => currentRestConfig(undefined, { HOME: home }), (e: Error) => e instanceof KubeconfigError && /No kubeconfig found/.test(e.message));
  });

  it('reads ~/.kube/config when KUBECONFIG is unset', () => {
    fs.mkdirSync(path.join(home, '.kube'));
    fs.writeFileSync(path.join(home, '.kube', 'config'), VALID);
    const kc = currentRestConfig(undefined, { HOME: home });
    assert.equal(kc.server, 'https://127.0.0.1:6443');
  });

  it('skips KUBECONFIG entries that do not exist, as kubectl does', () => {
    const file = path.join(home, 'real');
    fs.writeFileSync(file, VALID);
    assert.deepEqual(kubeconfigFiles(undefined, { HOME: home, KUBECONFIG: [path.join(home, 'missing'), file].join(path.delimiter) }), [file]);
  });

  it('names the file when an explicit path is missing or broken', () => {
    const missing = path.join(home, 'nope');
    assert.throws(() => currentRestConfig(missing, { HOME: home }), new RegExp(`Kubeconfig ${missing} cannot be read: it does not exist`));
    const broken = path.join(home, 'broken');
    fs.writeFileSync(broken, 'clusters: [unterminated');
    assert.throws(() => currentRestConfig(broken, { HOME: home }), (e: Error) => e instanceof KubeconfigError && e.message.includes(broken));
  });

  it('rejects a kubeconfig without a current context', () => {
    const file = path.join(home, 'nocontext');
    fs.writeFileSync(file, VALID.replace('current-context: ctx', ''));
    assert.throws(() => currentRestConfig(file, { HOME: home }), /no current context/);
  });

  /** The CA file the `two` configs name (its content is only read when a client is built). */
  const writeCa = (dir: string) => {
    fs.mkdirSync(path.join(dir, 'certs'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'certs', 'ca.crt'), 'not read here');
  };

  const two = (name: string, server: string, current: string) => `apiVersion: v1
kind: Config
clusters:
- name: shared
  cluster: {server: "${server}"}
- name: ${name}
  cluster: {server: "${server}", certificate-authority: certs/ca.crt}
users:
- name: u
  user: {token: ${name}}
contexts:
- name: shared
  context: {cluster: shared, user: u}
- name: ${name}
  context: {cluster: ${name}, user: u, namespace: ns-${name}}
current-context: ${current}
`;

  it('merges KUBECONFIG as kubectl does: the first file wins for a duplicate name and for current-context', () => {
    const a = path.join(home, 'a');
    const b = path.join(home, 'b');
    writeCa(home);
    fs.writeFileSync(a, two('alpha', 'https://a.example:6443', 'alpha'));
    fs.writeFileSync(b, two('beta', 'https://b.example:6443', 'beta'));
    const loaded = loadKubeconfig(undefined, { HOME: home, KUBECONFIG: [a, b].join(path.delimiter) });
    assert.equal(loaded.currentContext, 'alpha');
    assert.deepEqual(loaded.contexts.map((c) => c.name), ['shared', 'alpha', 'beta']);
    assert.equal(restConfigFor(loaded, 'shared').server, 'https://a.example:6443', 'the first file\'s "shared" cluster');
    assert.equal(restConfigFor(loaded, 'beta').server, 'https://b.example:6443');
    assert.equal(restConfigFor(loaded, 'shared').token, 'alpha', 'the first file\'s user');
  });

  it('resolves relative file paths against the kubeconfig that holds them', () => {
    const dir = path.join(home, 'sub');
    fs.mkdirSync(dir);
    const file = path.join(dir, 'config');
    fs.writeFileSync(file, two('alpha', 'https://a.example:6443', 'alpha'));
    writeCa(dir);
    const kc = restConfigFor(loadKubeconfig(file, { HOME: home }));
    assert.equal(kc.tls.caFile, path.join(dir, 'certs', 'ca.crt'));
  });

  it('gives each context a KubeConfig of its own: switching never touches another client\'s config', () => {
    const file = path.join(home, 'config');
    fs.writeFileSync(file, two('alpha', 'https://a.example:6443', 'alpha'));
    writeCa(home);
    const loaded = loadKubeconfig(file, { HOME: home });
    const first = restConfigFor(loaded, 'alpha');
    const second = restConfigFor(loaded, 'shared');
    assert.notEqual(first, second);
    assert.equal(first.context, 'alpha');
    assert.equal(second.context, 'shared');
  });

  it('names a context that does not exist, and the ones that do', () => {
    const file = path.join(home, 'config');
    fs.writeFileSync(file, two('alpha', 'https://a.example:6443', 'alpha'));
    assert.throws(() => restConfigFor(loadKubeconfig(file, { HOME: home }), 'gone'), /Context "gone" is not in kubeconfig .*; it has: shared, alpha/);
  });

  it('says which name is missing when a context points at an unknown cluster', () => {
    const file = path.join(home, 'config');
    fs.writeFileSync(file, VALID.replace('cluster: c,', 'cluster: nowhere,'));
    assert.throws(() => currentRestConfig(file, { HOME: home }), /names cluster "nowhere", which is not in kubeconfig/);
  });

  it('rejects YAML that is not a kubeconfig, naming the file', () => {
    const file = path.join(home, 'list');
    fs.writeFileSync(file, '- just\n- a list\n');
    assert.throws(() => currentRestConfig(file, { HOME: home }), new RegExp(`Kubeconfig ${file} is not a kubeconfig`));
  });
});
