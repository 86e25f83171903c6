// A realistic manifest workspace for the benchmarks: one file per service, each a
// Deployment, its Service, its ConfigMap and its ServiceAccount (4 resources, about 70
// lines, as a hand-written app manifest is), in 17 teams' namespaces; and events on the
// pods those Deployments own, through ReplicaSets, as the kubelet writes them.
import type { ClusterEvent } from '../../src/model/clusterEvent';
import type { OwnedObject } from '../../src/model/ownerIndex';

export const RESOURCES_PER_FILE = 4;
const T0 = Date.parse('2026-01-01T00:00:00Z');

const namespaceOf = (app: number) => `team-${app % 17}`;

/** The text of app `i`'s manifest file. */
export function manifestText(i: number): string {
  const ns = namespaceOf(i);
  const name = `svc-${i}`;
  return `# ${name}: owned by ${ns}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: ${ns}
  labels: {app.kubernetes.io/name: ${name}, app.kubernetes.io/part-of: shop}
spec:
  replicas: 3
  selector:
    matchLabels: {app.kubernetes.io/name: ${name}}
  template:
    metadata:
      labels: {app.kubernetes.io/name: ${name}}
    spec:
      serviceAccountName: ${name}
      containers:
      - name: app
        image: registry.example.com/${ns}/${name}:1.${i % 40}.0
        ports: [{containerPort: 8080, name: http}]
        envFrom: [{configMapRef: {name: ${name}-config}}]
        resources:
          requests: {cpu: 100m, memory: 128Mi}
          limits: {memory: 256Mi}
        readinessProbe:
          httpGet: {path: /healthz, port: http}
          periodSeconds: 5
---
apiVersion: v1
kind: Service
metadata:
  name: ${name}
  namespace: ${ns}
spec:
  selector: {app.kubernetes.io/name: ${name}}
  ports: [{port: 80, targetPort: http}]
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: ${name}-config
  namespace: ${ns}
data:
  LOG_LEVEL: info
  UPSTREAM: http://svc-${(i + 1) % 5000}.${namespaceOf(i + 1)}.svc:80
---
apiVersion: v1
kind: ServiceAccount
metadata:
  name: ${name}
  namespace: ${ns}
`;
}

/** Pod p of app i's current ReplicaSet. */
function pod(app: number, p: number) {
  const ns = namespaceOf(app);
  return { kind: 'Pod', namespace: ns, name: `svc-${app}-7c9c5d-${p.toString(36).padStart(5, 'x')}`, uid: `pod-${app}-${p}`, apiVersion: 'v1', fieldPath: 'spec.containers{app}' };
}

/** Who owns app i's pods: its ReplicaSet, owned by its Deployment. */
export function ownersOfApp(app: number, pods: number): OwnedObject[] {
  const ns = namespaceOf(app);
  const rs = { kind: 'ReplicaSet', name: `svc-${app}-7c9c5d`, uid: `rs-${app}`, apiVersion: 'apps/v1' };
  const out: OwnedObject[] = [{ ...rs, namespace: ns, owner: { kind: 'Deployment', name: `svc-${app}`, uid: `d-${app}`, apiVersion: 'apps/v1' } }];
  for (let p = 0; p < pods; p++) out.push({ ...pod(app, p), owner: rs });
  return out;
}

/** Event n about pod p of app i: a BackOff warning one time in five, else the kubelet's Pulled. */
export function podEvent(n: number, app: number, p: number, time = T0 + n): ClusterEvent {
  const o = pod(app, p);
  const warning = n % 5 === 0;
  return {
    uid: `ev-${n}`, namespace: o.namespace, name: `${o.name}.${n.toString(16)}`, resourceVersion: String(n), type: warning ? 'Warning' : 'Normal',
    reason: warning ? 'BackOff' : 'Pulled', message: warning ? `Back-off restarting failed container app in pod ${o.name}_${o.namespace}(${o.uid})` : `Successfully pulled image "registry.example.com/${o.namespace}/svc-${app}:1.${app % 40}.0" in 1.204s (1.204s including waiting). Image size: 48213311 bytes.`,
    count: 1 + (n % 4), firstSeen: time, lastSeen: time, source: 'kubelet', sourceHost: `node-${p % 40}`, reportingInstance: '', action: '',
    involvedObject: o, origin: 'core/v1',
  };
}
