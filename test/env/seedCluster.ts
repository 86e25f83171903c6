// The small but lively cluster that `npm start` and `npm test` run on the local control plane:
// three KWOK nodes and a few teams' workloads, each chosen for the events it makes.
//   shop        Deployment web (rolled out to a new image once it is up: old pods are
//               stopped and deleted), Deployment api (two containers), StatefulSet db
//   payments    Deployment checkout (crash-loops: BackOff), Deployment fraud-model (asks
//               for a GPU no node has: FailedScheduling)
//   batch       Job db-migrate (fails: BackoffLimitExceeded), CronJob report (every minute)
//   monitoring  DaemonSet node-exporter (a pod on every node)
// Pods tolerate the KWOK nodes' taint; a pod that does not (most tests' own) stays Pending
// with FailedScheduling, as on a cluster with no nodes.
import { AppsV1Api, BatchV1Api, CoreV1Api, type KubeConfig, type V1Container, type V1Node, type V1PodTemplateSpec } from '@kubernetes/client-node';
import { pollUntil } from '../support/wait';
import { CRASH_LABEL, KWOK_NODE_KEY, KWOK_NODE_VALUE, RUN_SECONDS_ANNOTATION } from './kwokStages';

/** Names of what the seed creates, for tests. */
export const SEEDED = {
  nodes: ['kwok-node-1', 'kwok-node-2', 'kwok-node-3'],
  shop: { namespace: 'shop', web: 'web', api: 'api', db: 'db' },
  payments: { namespace: 'payments', crashLoop: 'checkout', crashContainer: 'checkout', unschedulable: 'fraud-model' },
  batch: { namespace: 'batch', failingJob: 'db-migrate', cronJob: 'report' },
  monitoring: { namespace: 'monitoring', daemonSet: 'node-exporter' },
  /** web's image before and after the rollout. */
  webImages: ['nginx:1.27', 'nginx:1.27.3'],
} as const;

/** How long the seed waits for the nodes, and for web before its rollout. */
const READY_TIMEOUT_MS = 60_000;

const TOLERATE_KWOK = { key: KWOK_NODE_KEY, operator: 'Exists', effect: 'NoSchedule' };

function node(name: string, index: number): V1Node {
  const zone = `zone-${'abc'[index % 3]}`;
  return {
    metadata: {
      name,
      // No address of its own: KWOK and every kubelet it plays live on the loopback, so each
      // node's InternalIP is 127.0.0.1 (KWOK's --node-ip), where the apiserver reaches it.
      annotations: { [KWOK_NODE_KEY]: KWOK_NODE_VALUE },
      labels: {
        'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64',
        'node.kubernetes.io/instance-type': 'e2-standard-4', 'topology.kubernetes.io/region': 'local', 'topology.kubernetes.io/zone': zone,
        type: 'kwok',
      },
    },
    spec: {
      taints: [{ key: KWOK_NODE_KEY, value: KWOK_NODE_VALUE, effect: 'NoSchedule' }],
      podCIDR: `10.244.${index + 1}.0/24`,
      podCIDRs: [`10.244.${index + 1}.0/24`],
      // A provider ID keeps cloud controllers (were there any) from taking the node for an orphan.
      providerID: `kwok://${name}`,
    },
  };
}

function container(name: string, image: string, cpu = '100m', memory = '128Mi', extra: Partial<V1Container> = {}): V1Container {
  return { name, image, resources: { requests: { cpu, memory }, limits: { memory } }, ...extra };
}

function template(app: string, containers: V1Container[], extra: { labels?: Record<string, string>; annotations?: Record<string, string>; restartPolicy?: string } = {}): V1PodTemplateSpec {
  return {
    metadata: { labels: { 'app.kubernetes.io/name': app, ...extra.labels }, ...(extra.annotations ? { annotations: extra.annotations } : {}) },
    spec: { containers, tolerations: [TOLERATE_KWOK], ...(extra.restartPolicy ? { restartPolicy: extra.restartPolicy } : {}) },
  };
}

/** Waits for what KWOK and the controllers make of the seed, saying where to look when it never comes. */
function untilSeeded(what: string, check: () => Promise<boolean>): Promise<boolean> {
  return pollUntil(`seed: ${what} (is KWOK running? see the plane's logs/kwok.log)`, check, READY_TIMEOUT_MS, 250);
}

/** Creates the nodes and waits until KWOK has made them Ready. */
export async function seedNodes(kc: KubeConfig): Promise<void> {
  const core = kc.makeApiClient(CoreV1Api);
  for (const [i, name] of SEEDED.nodes.entries()) await core.createNode({ body: node(name, i) });
  await untilSeeded('the KWOK nodes', async () => {
    const nodes = await core.listNode({ labelSelector: 'type=kwok' });
    // Ready, and the node lifecycle controller has lifted its not-ready taint (else pods meet FailedScheduling first).
    const ready = nodes.items.filter((n) => n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') && (n.spec?.taints ?? []).every((t) => t.key === KWOK_NODE_KEY));
    return ready.length === SEEDED.nodes.length;
  });
}

/** Creates every namespace and workload, and starts web's rollout once its first pods are up. */
export async function seedWorkloads(kc: KubeConfig): Promise<void> {
  const core = kc.makeApiClient(CoreV1Api);
  const apps = kc.makeApiClient(AppsV1Api);
  const batch = kc.makeApiClient(BatchV1Api);
  for (const ns of [SEEDED.shop, SEEDED.payments, SEEDED.batch, SEEDED.monitoring]) await core.createNamespace({ body: { metadata: { name: ns.namespace } } });
  const deployment = (namespace: string, name: string, replicas: number, pod: V1PodTemplateSpec) =>
    apps.createNamespacedDeployment({ namespace, body: { metadata: { name }, spec: { replicas, selector: { matchLabels: { 'app.kubernetes.io/name': name } }, template: pod } } });

  const { shop, payments, monitoring } = SEEDED;
  await deployment(shop.namespace, shop.web, 3, template(shop.web, [container('nginx', SEEDED.webImages[0])]));
  await deployment(shop.namespace, shop.api, 2, template(shop.api, [container('api', 'ghcr.io/stefanprodan/podinfo:6.7.1'), container('envoy', 'envoyproxy/envoy:v1.31.2', '50m', '64Mi')]));
  await core.createNamespacedService({ namespace: shop.namespace, body: { metadata: { name: shop.db }, spec: { clusterIP: 'None', selector: { 'app.kubernetes.io/name': shop.db }, ports: [{ name: 'postgres', port: 5432 }] } } });
  await apps.createNamespacedStatefulSet({
    namespace: shop.namespace,
    body: { metadata: { name: shop.db }, spec: { serviceName: shop.db, replicas: 2, selector: { matchLabels: { 'app.kubernetes.io/name': shop.db } }, template: template(shop.db, [container('postgres', 'postgres:16.4', '250m', '512Mi')]) } },
  });
  await deployment(payments.namespace, payments.crashLoop, 2, template(payments.crashLoop, [container(payments.crashContainer, 'ghcr.io/acme-shop/checkout:2.3.0')], { labels: { [CRASH_LABEL]: payments.crashContainer } }));
  await deployment(payments.namespace, payments.unschedulable, 1, template(payments.unschedulable, [container('model', 'ghcr.io/acme-shop/fraud-model:0.9.1', '1', '2Gi', { resources: { requests: { cpu: '1', memory: '2Gi', 'nvidia.com/gpu': '1' }, limits: { 'nvidia.com/gpu': '1' } } })]));
  await apps.createNamespacedDaemonSet({
    namespace: monitoring.namespace,
    body: { metadata: { name: monitoring.daemonSet }, spec: { selector: { matchLabels: { 'app.kubernetes.io/name': monitoring.daemonSet } }, template: template(monitoring.daemonSet, [container('node-exporter', 'quay.io/prometheus/node-exporter:v1.8.2', '50m', '64Mi')]) } },
  });
  await seedBatch(batch);

  // web's rollout: a new ReplicaSet scales up while the old one's pods are stopped and deleted.
  await untilSeeded('deployment web', async () => (await apps.readNamespacedDeployment({ namespace: shop.namespace, name: shop.web })).status?.readyReplicas === 3);
  await apps.patchNamespacedDeployment({ namespace: shop.namespace, name: shop.web, body: [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: SEEDED.webImages[1] }] });
}

async function seedBatch(batch: BatchV1Api): Promise<void> {
  const { namespace, failingJob, cronJob } = SEEDED.batch;
  // Two attempts fail (after 2 s each, 10 s apart): BackoffLimitExceeded.
  await batch.createNamespacedJob({
    namespace,
    body: {
      metadata: { name: failingJob },
      spec: { backoffLimit: 1, template: template(failingJob, [container('migrate', 'ghcr.io/acme-shop/migrate:1.4.2')], { labels: { [CRASH_LABEL]: 'migrate' }, annotations: { [RUN_SECONDS_ANNOTATION]: '2' }, restartPolicy: 'Never' }) },
    },
  });
  await batch.createNamespacedCronJob({
    namespace,
    body: {
      metadata: { name: cronJob },
      spec: {
        schedule: '* * * * *',
        successfulJobsHistoryLimit: 2,
        failedJobsHistoryLimit: 1,
        jobTemplate: { spec: { backoffLimit: 0, template: template(cronJob, [container('report', 'busybox:1.36', '10m', '16Mi', { command: ['sh', '-c', 'echo report'] })], { restartPolicy: 'OnFailure' }) } },
      },
    },
  });
}

/** The whole lively cluster: nodes first, then the workloads. */
export async function seedCluster(kc: KubeConfig): Promise<void> {
  await seedNodes(kc);
  await seedWorkloads(kc);
}
