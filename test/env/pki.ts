// Generates the control plane's PKI with the openssl CLI: one CA, the apiserver's
// serving certificate, the kubelet's (KWOK's server) serving certificate, a client
// certificate per user, and the service-account key pair.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** A client identity: the certificate's CN is the user, each O a group. */
export interface ClientIdentity {
  readonly file: string;
  readonly user: string;
  readonly groups: readonly string[];
}

/** Validity of every certificate: long enough for a day of work on a cached cluster. */
const VALIDITY_DAYS = '30';

function openssl(args: string[], cwd: string): void {
  execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
}

function subject(cn: string, groups: readonly string[] = []): string {
  return groups.map((g) => `/O=${g}`).join('') + `/CN=${cn}`;
}

function signedCertificate(dir: string, file: string, subj: string, extensions: string): void {
  openssl(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', `${file}.key`], dir);
  openssl(['req', '-new', '-key', `${file}.key`, '-subj', subj, '-out', `${file}.csr`], dir);
  fs.writeFileSync(path.join(dir, `${file}.ext`), extensions);
  openssl(['x509', '-req', '-in', `${file}.csr`, '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-days', VALIDITY_DAYS, '-extfile', `${file}.ext`, '-out', `${file}.crt`], dir);
}

/**
 * The kubelet's serving certificate (kubelet.crt, kubelet.key): KWOK serves every simulated
 * node's kubelet API with it. The apiserver reaches a kubelet at its node's InternalIP, which
 * is the loopback for every KWOK node, and checks the certificate against the plane's CA.
 */
export const KUBELET_SERVING = 'kubelet';
/** Where every kubelet KWOK plays listens: KWOK's server, on the loopback. */
export const KUBELET_ADDRESS = '127.0.0.1';

/** Writes ca.*, apiserver.*, kubelet.*, <identity>.*, sa.key and sa.pub into dir; extraNames go into the apiserver's certificate. */
export function generatePki(dir: string, clients: readonly ClientIdentity[], extraNames: readonly string[] = []): void {
  fs.mkdirSync(dir, { recursive: true });
  openssl(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', 'ca.key'], dir);
  openssl(['req', '-x509', '-new', '-key', 'ca.key', '-subj', '/CN=kubernetes-events-test-ca', '-days', VALIDITY_DAYS, '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign,digitalSignature', '-out', 'ca.crt'], dir);
  signedCertificate(dir, 'apiserver', '/CN=kube-apiserver',
    'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n' +
    `subjectAltName=IP:127.0.0.1,IP:10.0.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc${extraNames.map((n) => `,DNS:${n}`).join('')}\n`);
  signedCertificate(dir, KUBELET_SERVING, '/CN=kwok-kubelet',
    `basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\nsubjectAltName=IP:${KUBELET_ADDRESS}\n`);
  for (const c of clients) {
    signedCertificate(dir, c.file, subject(c.user, c.groups), 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=clientAuth\n');
  }
  openssl(['genrsa', '-out', 'sa.key', '2048'], dir);
  openssl(['rsa', '-in', 'sa.key', '-pubout', '-out', 'sa.pub'], dir);
}

/** A kubeconfig context: a name and the client identity it authenticates as. */
export interface KubeconfigContext {
  readonly name: string;
  readonly identity: ClientIdentity;
}

/** A kubeconfig with the CA and client credentials embedded, so it can be copied anywhere. */
export function kubeconfigYaml(pkiDir: string, server: string, contexts: readonly KubeconfigContext[], clusterName = 'kubernetes-events-test'): string {
  const b64 = (f: string) => fs.readFileSync(path.join(pkiDir, f)).toString('base64');
  const lines = [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    `- name: ${clusterName}`,
    '  cluster:',
    `    server: ${server}`,
    `    certificate-authority-data: ${b64('ca.crt')}`,
    'users:',
    ...contexts.flatMap((c) => [
      `- name: ${c.name}`,
      '  user:',
      `    client-certificate-data: ${b64(`${c.identity.file}.crt`)}`,
      `    client-key-data: ${b64(`${c.identity.file}.key`)}`,
    ]),
    'contexts:',
    ...contexts.flatMap((c) => [`- name: ${c.name}`, '  context:', `    cluster: ${clusterName}`, `    user: ${c.name}`, '    namespace: default']),
    `current-context: ${contexts[0].name}`,
    '',
  ];
  return lines.join('\n');
}
