// The workspace `npm start` opens on the local cluster: the payments team's manifests, as a
// repository would hold them (a kustomization naming the namespace), so the manifests'
// surfaces show the seeded crash loop and the unschedulable pod, and the extension starts
// with the workbench (its workspaceContains activation) to open the Events view and the
// walkthrough on the first run.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SEEDED } from './seedCluster';

function deployment(name: string, image: string): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
spec:
  replicas: 1
  selector:
    matchLabels:
      app.kubernetes.io/name: ${name}
  template:
    metadata:
      labels:
        app.kubernetes.io/name: ${name}
    spec:
      containers:
        - name: ${name}
          image: ${image}
`;
}

/** Writes the manifests into `workspace` (the files it owns are replaced, nothing else is touched). */
export function writeDemoWorkspace(workspace: string): void {
  const { namespace, crashLoop, unschedulable } = SEEDED.payments;
  const dir = path.join(workspace, namespace);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'kustomization.yaml'), `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamespace: ${namespace}\nresources:\n  - ${crashLoop}.yaml\n  - ${unschedulable}.yaml\n`);
  fs.writeFileSync(path.join(dir, `${crashLoop}.yaml`), deployment(crashLoop, 'ghcr.io/acme-shop/checkout:2.3.0'));
  fs.writeFileSync(path.join(dir, `${unschedulable}.yaml`), deployment(unschedulable, 'ghcr.io/acme-shop/fraud-model:0.9.1'));
}
