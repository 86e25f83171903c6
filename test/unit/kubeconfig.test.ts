import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { KubeconfigError, kubeconfigFiles, loadKubeConfig } from '../../src/cluster/kubeconfig';

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

describe('loadKubeConfig', () => {
  let home: string;
  beforeEach(() => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'kev-kubeconfig-'));
  });
  afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

  it('refuses the silent fallback to localhost:8080 when there is no kubeconfig', () => {
    assert.throws(() => loadKubeConfig(undefined, { HOME: home }), (e: Error) => e instanceof KubeconfigError && /No kubeconfig found/.test(e.message));
  });

  it('reads ~/.kube/config when KUBECONFIG is unset', () => {
    fs.mkdirSync(path.join(home, '.kube'));
    fs.writeFileSync(path.join(home, '.kube', 'config'), VALID);
    const kc = loadKubeConfig(undefined, { HOME: home });
    assert.equal(kc.getCurrentCluster()?.server, 'https://127.0.0.1:6443');
  });

  it('skips KUBECONFIG entries that do not exist, as kubectl does', () => {
    const file = path.join(home, 'real');
    fs.writeFileSync(file, VALID);
    assert.deepEqual(kubeconfigFiles(undefined, { HOME: home, KUBECONFIG: [path.join(home, 'missing'), file].join(path.delimiter) }), [file]);
  });

  it('names the file when an explicit path is missing or broken', () => {
    const missing = path.join(home, 'nope');
    assert.throws(() => loadKubeConfig(missing, { HOME: home }), new RegExp(`${missing} does not exist`));
    const broken = path.join(home, 'broken');
    fs.writeFileSync(broken, 'clusters: [unterminated');
    assert.throws(() => loadKubeConfig(broken, { HOME: home }), (e: Error) => e instanceof KubeconfigError && e.message.includes(broken));
  });

  it('rejects a kubeconfig without a current context', () => {
    const file = path.join(home, 'nocontext');
    fs.writeFileSync(file, VALID.replace('current-context: ctx', ''));
    assert.throws(() => loadKubeConfig(file, { HOME: home }), /no current context/);
  });
});
