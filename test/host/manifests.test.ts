// Manifests mapped to the live objects `kubectl apply` made of them, in the real extension
// host against the real apiserver: multi-document files, a List, a kustomize overlay with a
// prefix, suffix and namespace, a build whose origin annotations name files a transformer
// renamed, cluster-scoped objects, a custom resource, an object recreated with a new uid.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import * as vscode from 'vscode';
import type { Parts as Services } from '../../src/api';
import { ControlPlane } from '../env/controlPlane';
import { extensionApi, waitFor } from './support';

const run = promisify(execFile);
const NS = `manifests-${Date.now().toString(36)}`;
const REASON = 'ManifestHostTest';

/** `kubectl` as a user runs it, from the workspace folder. */
async function kubectl(cwd: string, ...args: string[]): Promise<string> {
  const plane = ControlPlane.attach(process.env.KEV_CONTROL_PLANE_DIR ?? '');
  const { stdout } = await run(path.join(plane.info.binDir, 'kubectl'), ['--kubeconfig', plane.info.adminKubeconfig, ...args], { cwd });
  return stdout;
}

const FILES: Record<string, string> = {
  'app/multi.yaml': `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: ${NS}\ndata: {a: "1"}\n---\n# the second document\napiVersion: v1\nkind: Secret\nmetadata:\n  name: token\n  namespace: ${NS}\nstringData: {t: x}\n`,
  'app/list.yaml': `apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: listed-a\n    namespace: ${NS}\n- apiVersion: v1\n  kind: ServiceAccount\n  metadata:\n    name: listed-b\n    namespace: ${NS}\n`,
  'kustomize/base/kustomization.yaml': 'resources:\n- deploy.yaml\n',
  'kustomize/base/deploy.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      nodeSelector: {kubernetes-events.test/never: "true"}\n      containers: [{name: web, image: example.invalid/web:1}]\n',
  'kustomize/overlay/kustomization.yaml': `resources:\n- ../base\nnamespace: ${NS}\nnamePrefix: ov-\nnameSuffix: -s\n`,
  'generated/kustomization.yaml': `resources: [job.yaml]\nnamespace: ${NS}\ntransformers: [acme.yaml]\nbuildMetadata: [originAnnotations]\n`,
  'generated/acme.yaml': 'apiVersion: builtin\nkind: PrefixSuffixTransformer\nmetadata: {name: acme}\nprefix: acme-\nfieldSpecs: [{path: metadata/name}]\n',
  'generated/job.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: job-config\ndata: {x: "1"}\n',
  'cluster.yaml': `apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: ${NS}-reader\n  namespace: ignored-for-cluster-scoped\nrules: []\n`,
  'crd.yaml': 'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.manifests.example.com\nspec:\n  group: manifests.example.com\n  names: {kind: Widget, plural: widgets, singular: widget}\n  scope: Namespaced\n  versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}]\n',
  'widget.json': JSON.stringify({ apiVersion: 'manifests.example.com/v1', kind: 'Widget', metadata: { name: 'gizmo', namespace: NS } }, null, 2),
};

describe('manifests mapped to live objects', function () {
  this.timeout(180_000);
  let s: Services;
  let root: string;
  const uri = (file: string) => vscode.Uri.file(path.join(root, file));

  async function warn(kind: string, name: string, namespace: string, apiVersion: string, eventNamespace = namespace || 'default'): Promise<string> {
    const uid = (await kubectl(root, 'get', kind.toLowerCase() === 'widget' ? 'widgets.manifests.example.com' : kind.toLowerCase(), name, ...(namespace ? ['-n', namespace] : []), '-o', 'jsonpath={.metadata.uid}')).trim();
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const client = s.connection.newClient();
    try {
      await client.request({
        method: 'POST',
        path: `/api/v1/namespaces/${eventNamespace}/events`,
        body: JSON.stringify({ metadata: { generateName: `${name}.`, namespace: eventNamespace }, involvedObject: { kind, name, namespace, uid, apiVersion }, reason: REASON, message: `about ${kind}/${name}`, type: 'Warning', count: 1, firstTimestamp: now, lastTimestamp: now, source: { component: 'host-test' } }),
      });
    } finally {
      client.dispose();
    }
    return uid;
  }

  /** Opens the file (the manifests of open editors are read) and waits for its resource's warning. */
  async function mapped(file: string, index: number): Promise<ReturnType<Services['manifests']['statusOf']>> {
    await vscode.workspace.openTextDocument(uri(file));
    return waitFor(`${file}#${index} mapped to its object's warning`, () => {
      const st = s.manifests.statusOf(uri(file), index);
      return st.warnings.some((w) => w.reason === REASON) ? st : undefined;
    });
  }

  before(async () => {
    s = (await extensionApi()).testing.services;
    root = path.join(vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '', 'manifests-host');
    for (const [file, text] of Object.entries(FILES)) {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), text);
    }
    // What a GitOps repository commits: the build's output, with the origin of each resource.
    fs.mkdirSync(path.join(root, 'rendered'), { recursive: true });
    fs.writeFileSync(path.join(root, 'rendered', 'generated.yaml'), await kubectl(root, 'kustomize', 'generated'));
    await kubectl(root, 'create', 'namespace', NS);
    await kubectl(root, 'apply', '-f', 'app/multi.yaml', '-f', 'app/list.yaml', '-f', 'cluster.yaml', '-f', 'crd.yaml');
    await kubectl(root, 'apply', '-k', 'kustomize/overlay');
    await kubectl(root, 'apply', '-f', 'rendered/generated.yaml');
    await kubectl(root, 'wait', '--for=condition=Established', 'crd/widgets.manifests.example.com', '--timeout=60s');
    await kubectl(root, 'apply', '-f', 'widget.json');
  });
  after(async () => {
    await kubectl(root, 'delete', 'namespace', NS, '--wait=false');
    await kubectl(root, 'delete', '-f', 'cluster.yaml', '-f', 'crd.yaml', '--wait=false');
  });

  it('maps each document of a multi-document file and each item of a List', async () => {
    await warn('ConfigMap', 'settings', NS, 'v1');
    await warn('Secret', 'token', NS, 'v1');
    await warn('ServiceAccount', 'listed-b', NS, 'v1');
    assert.deepEqual((await mapped('app/multi.yaml', 0)).objects.map((o) => `${o.kind}/${o.name}`), ['ConfigMap/settings']);
    assert.deepEqual((await mapped('app/multi.yaml', 1)).objects.map((o) => `${o.kind}/${o.name}`), ['Secret/token']);
    assert.deepEqual((await mapped('app/list.yaml', 1)).objects.map((o) => `${o.kind}/${o.name}`), ['ServiceAccount/listed-b']);
    assert.equal(s.manifests.statusOf(uri('app/list.yaml'), 0).events, 0, 'listed-a has no events');
    assert.deepEqual(await s.manifests.presenceOf(uri('app/list.yaml'), 0), { state: 'present' });
  });

  it("maps a kustomize base's Deployment to the object the overlay named, with its pods' scheduling warnings", async () => {
    await warn('Deployment', 'ov-web-s', NS, 'apps/v1');
    const st = await mapped('kustomize/base/deploy.yaml', 0);
    assert.equal(st.objects[0].name, 'ov-web-s');
    const rolled = await waitFor("the pods' FailedScheduling rolled up to the Deployment's manifest", () => {
      const now = s.manifests.statusOf(uri('kustomize/base/deploy.yaml'), 0);
      return now.warnings.find((w) => w.reason === 'FailedScheduling');
    }, 90_000);
    assert.equal(rolled.object.kind, 'Pod');
    assert.match(rolled.object.name, /^ov-web-s-[a-z0-9]+-[a-z0-9]+$/);
  });

  it('maps a resource renamed by a transformer it cannot model, through the origin annotations the build stamped', async () => {
    await warn('ConfigMap', 'acme-job-config', NS, 'v1');
    await vscode.workspace.openTextDocument(uri('rendered/generated.yaml'));
    const st = await mapped('generated/job.yaml', 0);
    assert.equal(st.objects[0].name, 'acme-job-config');
  });

  it('maps a cluster-scoped object whatever namespace its manifest names, and a custom resource', async () => {
    await warn('ClusterRole', `${NS}-reader`, '', 'rbac.authorization.k8s.io/v1', 'default');
    await warn('Widget', 'gizmo', NS, 'manifests.example.com/v1');
    assert.equal((await mapped('cluster.yaml', 0)).objects[0].namespace, '');
    assert.equal((await mapped('widget.json', 0)).objects[0].kind, 'Widget');
    assert.deepEqual(await s.manifests.presenceOf(uri('widget.json'), 0), { state: 'present' });
  });

  it('keeps mapping an object deleted and created again (a new uid) to the same manifest', async () => {
    const first = await warn('ConfigMap', 'settings', NS, 'v1');
    await mapped('app/multi.yaml', 0);
    await kubectl(root, 'delete', 'configmap', 'settings', '-n', NS);
    await kubectl(root, 'apply', '-f', 'app/multi.yaml');
    const second = await warn('ConfigMap', 'settings', NS, 'v1');
    assert.notEqual(first, second);
    const st = await waitFor('both uids mapped', () => {
      const now = s.manifests.statusOf(uri('app/multi.yaml'), 0);
      return new Set(now.objects.map((o) => o.uid)).has(second) ? now : undefined;
    });
    assert.ok(st.objects.some((o) => o.uid === first), 'the old object\'s events stay with it');
  });

  it('says the cluster has no such object once the name is edited to one it lacks', async () => {
    const doc = await vscode.workspace.openTextDocument(uri('app/list.yaml'));
    const edit = new vscode.WorkspaceEdit();
    const at = doc.getText().indexOf('listed-a');
    edit.replace(doc.uri, new vscode.Range(doc.positionAt(at), doc.positionAt(at + 'listed-a'.length)), 'never-applied');
    assert.ok(await vscode.workspace.applyEdit(edit));
    await waitFor('the edit parsed', () => s.manifests.resources(doc.uri)[0]?.name === 'never-applied');
    assert.deepEqual(await s.manifests.presenceOf(doc.uri, 0), { state: 'absent' });
    await vscode.commands.executeCommand('workbench.action.files.revert', doc.uri);
  });
});
