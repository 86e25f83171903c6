// What UI tests (and the host tests with the Kubernetes extension) arrange in the real cluster
// (through its API, never through the extension): a workload whose controllers write real
// events, events with text to look at, and faults.
import * as path from 'node:path';
import { AppsV1Api, BatchV1Api, CoreV1Api, KubeConfig, type CoreV1Event } from '@kubernetes/client-node';
import { ControlPlane } from '../env/controlPlane';

export function controlPlane(): ControlPlane {
  const dir = process.env.KEV_CONTROL_PLANE_DIR;
  if (!dir) throw new Error('KEV_CONTROL_PLANE_DIR is not set: run UI tests through `npm test`');
  return ControlPlane.attach(dir);
}

export function adminKubeConfig(): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromFile(process.env.KUBECONFIG ?? path.join(controlPlane().info.dir, 'admin.kubeconfig'));
  return kc;
}

/** A namespace with two Deployments whose pods never schedule: ScalingReplicaSet, SuccessfulCreate, FailedScheduling. */
export async function seedWorkload(namespace: string): Promise<void> {
  const kc = adminKubeConfig();
  const core = kc.makeApiClient(CoreV1Api);
  try {
    await core.createNamespace({ body: { metadata: { name: namespace } } });
  } catch (e) {
    if ((e as { code?: number }).code !== 409) throw e;
  }
  const apps = kc.makeApiClient(AppsV1Api);
  for (const [name, replicas] of [['web', 2], ['api', 1]] as const) {
    const labels = { app: name };
    try {
      await apps.createNamespacedDeployment({
        namespace,
        body: { metadata: { name }, spec: { replicas, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { nodeSelector: { 'kubernetes-events.test/never': 'true' }, containers: [{ name, image: `registry.example/${name}:1.4.2` }] } } } },
      });
    } catch (e) {
      if ((e as { code?: number }).code !== 409) throw e;
    }
  }
}

/** An event written straight to the apiserver, as any client with create on events could. */
export async function createEvent(namespace: string, name: string, o: { kind: string; name: string; apiVersion: string; uid?: string }, reason: string, message: string, type = 'Warning'): Promise<void> {
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  await adminKubeConfig().makeApiClient(CoreV1Api).createNamespacedEvent({
    namespace,
    body: { metadata: { name, namespace }, involvedObject: { ...o, namespace }, reason, message, type, count: 1, firstTimestamp: now as unknown as Date, lastTimestamp: now as unknown as Date, source: { component: 'ui-test' } },
  });
}

/** Freezes the apiserver (SIGSTOP) until thaw: it accepts connections and answers nothing. */
export function freezeApiserver(): () => void {
  const pid = controlPlane().info.pids['kube-apiserver'];
  if (!pid) throw new Error('the apiserver is not running');
  process.kill(pid, 'SIGSTOP');
  return () => process.kill(pid, 'SIGCONT');
}

/** The count of an event rises, as a recorder's patch would do it. */
export async function bumpEvent(namespace: string, name: string, count: number): Promise<void> {
  const core = adminKubeConfig().makeApiClient(CoreV1Api);
  const e = await core.readNamespacedEvent({ namespace, name });
  e.count = count;
  e.lastTimestamp = new Date().toISOString().replace(/\.\d+Z$/, 'Z') as unknown as Date;
  await core.replaceNamespacedEvent({ namespace, name, body: e });
}

export async function deleteEvent(namespace: string, name: string): Promise<void> {
  await adminKubeConfig().makeApiClient(CoreV1Api).deleteNamespacedEvent({ namespace, name });
}

const ignoreExisting = (e: unknown) => {
  if ((e as { code?: number }).code !== 409) throw e;
};

/**
 * What the Kubernetes extension's explorer lists in `namespace`, and namesakes in
 * `${namespace}-twin`: Deployment web (its pod never schedules: ScalingReplicaSet,
 * FailedScheduling) and PersistentVolumeClaim data (no volume, no storage class: FailedBinding).
 */
export async function seedExplorerObjects(namespace: string): Promise<void> {
  const kc = adminKubeConfig();
  const core = kc.makeApiClient(CoreV1Api);
  const apps = kc.makeApiClient(AppsV1Api);
  for (const ns of [namespace, `${namespace}-twin`]) {
    await core.createNamespace({ body: { metadata: { name: ns } } }).catch(ignoreExisting);
    const labels = { app: 'web' };
    await apps
      .createNamespacedDeployment({
        namespace: ns,
        body: { metadata: { name: 'web' }, spec: { replicas: 1, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { nodeSelector: { 'kubernetes-events.test/never': 'true' }, containers: [{ name: 'web', image: 'registry.example/web:1.4.2' }] } } } },
      })
      .catch(ignoreExisting);
    await core
      .createNamespacedPersistentVolumeClaim({ namespace: ns, body: { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } } })
      .catch(ignoreExisting);
  }
}

export type SeededKind = 'Namespace' | 'Deployment' | 'Pod' | 'PersistentVolumeClaim';

/** An object's uid, read through the API. */
export async function uidOf(kind: SeededKind, name: string, namespace = ''): Promise<string> {
  const kc = adminKubeConfig();
  const core = kc.makeApiClient(CoreV1Api);
  const read = {
    Namespace: () => core.readNamespace({ name }),
    Deployment: () => kc.makeApiClient(AppsV1Api).readNamespacedDeployment({ name, namespace }),
    Pod: () => core.readNamespacedPod({ name, namespace }),
    PersistentVolumeClaim: () => core.readNamespacedPersistentVolumeClaim({ name, namespace }),
  }[kind];
  const uid = (await read()).metadata?.uid;
  if (!uid) throw new Error(`${kind}/${name} has no uid`);
  return uid;
}

/** The names of the pods a label selects. */
export async function podNames(namespace: string, selector: string): Promise<string[]> {
  const list = await adminKubeConfig().makeApiClient(CoreV1Api).listNamespacedPod({ namespace, labelSelector: selector });
  return list.items.map((p) => p.metadata?.name ?? '').filter(Boolean).sort();
}

/** Events about an object as the apiserver has them (events about a cluster-scoped object are kept in default). */
export async function eventsAbout(kind: string, name: string, namespace = 'default'): Promise<CoreV1Event[]> {
  const list = await adminKubeConfig().makeApiClient(CoreV1Api).listNamespacedEvent({ namespace, fieldSelector: `involvedObject.kind=${kind},involvedObject.name=${name}` });
  return list.items;
}

/** An event about a cluster-scoped object, kept in namespace default as client-go's recorder keeps them. */
export async function createClusterScopedEvent(name: string, o: { kind: string; name: string; apiVersion: string; uid: string }, reason: string, message: string, type = 'Normal'): Promise<void> {
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  await adminKubeConfig()
    .makeApiClient(CoreV1Api)
    .createNamespacedEvent({
      namespace: 'default',
      body: { metadata: { name, namespace: 'default' }, involvedObject: o, reason, message, type, count: 1, firstTimestamp: now as unknown as Date, lastTimestamp: now as unknown as Date, source: { component: 'kubernetes-events-test' } },
    })
    .catch(ignoreExisting);
}

/** Whether a Pod, ReplicaSet or Job is in the cluster with a controlling owner (false once deleted, or when it has none). */
export async function ownedInCluster(kind: 'Pod' | 'ReplicaSet' | 'Job', name: string, namespace: string): Promise<boolean> {
  const kc = adminKubeConfig();
  try {
    const o =
      kind === 'Pod' ? await kc.makeApiClient(CoreV1Api).readNamespacedPod({ name, namespace })
      : kind === 'ReplicaSet' ? await kc.makeApiClient(AppsV1Api).readNamespacedReplicaSet({ name, namespace })
      : await kc.makeApiClient(BatchV1Api).readNamespacedJob({ name, namespace });
    return (o.metadata?.ownerReferences ?? []).some((r) => r.controller);
  } catch (e) {
    if ((e as { code?: number }).code === 404) return false;
    throw e;
  }
}
