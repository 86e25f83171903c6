// Every kind of kubeconfig kubectl accepts (and some it refuses), side by side: the real
// kubectl (`kubectl auth whoami`) and our client (a SelfSubjectReview) on the same file,
// against the real apiserver, with real proxies and the real `kubectl proxy`. Same outcome
// each time: both work as the same user, or both fail; a failure of ours that is the
// kubeconfig's fault is a KubeconfigError that names what to fix and quotes kubectl.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import { ApiClient } from '../../src/cluster/apiRequest';
import { KubeconfigError } from '../../src/cluster/errors';
import { loadKubeconfig } from '../../src/cluster/kubeconfig';
import { restConfigFor } from '../../src/cluster/restConfig';
import { APISERVER_ALT_NAME, ControlPlane, EXEC_TOKEN, FILE_TOKEN, USER_TOKEN } from '../env/controlPlane';
import { kubeRelease } from '../env/versions';
import { kubectlWhoami, startKubectlProxy, startSocks, startStunnel, startTinyproxy, type KubectlOutcome, type Peer } from './peers';
import { controlPlaneDir } from './support';

type UserInfo = NonNullable<KubectlOutcome['user']>;

interface Ours {
  readonly ok: boolean;
  readonly user?: UserInfo;
  readonly error?: Error;
}

/** Our client on a kubeconfig (or the KUBECONFIG list in env): who the apiserver says we are. */
async function oursWhoami(file: string | undefined, env: NodeJS.ProcessEnv = process.env): Promise<Ours> {
  let client: ApiClient | undefined;
  try {
    client = new ApiClient(restConfigFor(loadKubeconfig(file, env)), 20_000);
    const review = await client.request<{ status: { userInfo: UserInfo } }>({
      method: 'POST',
      path: '/apis/authentication.k8s.io/v1/selfsubjectreviews',
      body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }),
    });
    return { ok: true, user: review.status.userInfo };
  } catch (e) {
    return { ok: false, error: e as Error };
  } finally {
    client?.dispose();
  }
}

interface Case {
  readonly name: string;
  /** The kubeconfig (an object written as YAML), or several for the KUBECONFIG list. */
  readonly config: () => Record<string, unknown> | Record<string, unknown>[];
  /** Works as this user, or fails. */
  readonly expect: { user: string } | { fails: true; kubectl: RegExp; ours: RegExp; configError: boolean };
  /** Extra checks once both ran. */
  readonly check?: (dir: string) => void;
}

const rows: string[] = [];
/**
 * The refusal of an impersonation the user may not do. From 1.36 the apiserver tries constrained
 * impersonation (KEP-5284) first and names its verb for the request's resource.
 */
const NOT_IMPERSONATOR = kubeRelease().minor >= 36
  ? /User "kev-limited" cannot impersonate-on:user-info:create resource "selfsubjectreviews"/
  : /User "kev-limited" cannot impersonate resource "users"/;

describe('kubeconfigs side by side with the real kubectl', function () {
  this.timeout(120_000);
  let dir: string;
  let plane: ControlPlane;
  let pki: string;
  const peers: Peer[] = [];
  let httpProxy: Peer;
  let httpsProxy: Peer;
  let socksProxy: Peer;
  let kubectlProxy: Peer;
  const b64 = (f: string) => fs.readFileSync(path.join(pki, f)).toString('base64');

  before(async () => {
    plane = ControlPlane.attach(controlPlaneDir());
    pki = path.join(controlPlaneDir(), 'pki');
    dir = path.join(controlPlaneDir(), 'matrix');
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(path.join(dir, 'certs'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'bin'));
    for (const f of ['ca.crt', 'admin.crt', 'admin.key', 'limited.crt', 'limited.key', 'impersonator.crt', 'impersonator.key']) fs.copyFileSync(path.join(pki, f), path.join(dir, 'certs', f));
    fs.writeFileSync(path.join(dir, 'token'), `${FILE_TOKEN}\n`);
    // A CA the apiserver's certificate does not come from.
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', 'other-ca.key', '-out', 'other-ca.crt', '-subj', '/CN=another-ca', '-days', '2'], { cwd: path.join(dir, 'certs'), stdio: 'ignore' });
    const credential = (status: object, apiVersion = 'client.authentication.k8s.io/v1') => JSON.stringify({ apiVersion, kind: 'ExecCredential', status });
    const plugin = (name: string, body: string) => fs.writeFileSync(path.join(dir, 'bin', name), `#!/bin/sh\n${body}\n`, { mode: 0o755 });
    fs.writeFileSync(path.join(dir, 'bin', 'token.json'), credential({ token: EXEC_TOKEN }));
    fs.writeFileSync(path.join(dir, 'bin', 'token-beta.json'), credential({ token: EXEC_TOKEN }, 'client.authentication.k8s.io/v1beta1'));
    fs.writeFileSync(path.join(dir, 'bin', 'cert.json'), credential({ clientCertificateData: fs.readFileSync(path.join(pki, 'admin.crt'), 'utf8'), clientKeyData: fs.readFileSync(path.join(pki, 'admin.key'), 'utf8') }));
    // Records what it was given (args, env, KUBERNETES_EXEC_INFO, stdin), then prints its credential.
    plugin('record.sh', `tty=no; [ -t 0 ] && tty=yes\ninfo=$(printf '%s' "$KUBERNETES_EXEC_INFO" | tr -d '\\n')\nprintf '{"args":"%s","env":"%s","tty":"%s","info":%s}\\n' "$*" "$KEV_PLUGIN_ENV" "$tty" "$info" >> "$(dirname "$0")/$KEV_RECORD"\ncat "$(dirname "$0")/$1"`);
    plugin('fail.sh', 'echo "token expired: run sso-login" >&2\nexit 3');
    httpProxy = await startTinyproxy(dir);
    peers.push(httpProxy);
    httpsProxy = await startStunnel(dir, httpProxy.url, path.join(pki, 'apiserver.crt'), path.join(pki, 'apiserver.key'));
    peers.push(httpsProxy);
    socksProxy = await startSocks(dir);
    peers.push(socksProxy);
    kubectlProxy = await startKubectlProxy(plane.info.adminKubeconfig);
    peers.push(kubectlProxy);
  });

  after(() => {
    for (const p of peers) p.stop();
    console.log(`\n      kubeconfig matrix (case | kubectl | ours):\n${rows.map((r) => `        ${r}`).join('\n')}`);
  });

  const server = () => plane.info.server;
  const cluster = (extra: Record<string, unknown> = {}) => ({ server: server(), 'certificate-authority': 'certs/ca.crt', ...extra });
  const kubeconfig = (c: Record<string, unknown>, user: Record<string, unknown> | undefined, context: Record<string, unknown> = {}) => ({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'c', cluster: c }],
    users: user ? [{ name: 'u', user }] : [],
    contexts: [{ name: 'x', context: { cluster: 'c', ...(user ? { user: 'u' } : {}), ...context } }],
    'current-context': 'x',
  });
  const execUser = (exec: Record<string, unknown>) => ({ exec: { apiVersion: 'client.authentication.k8s.io/v1', command: './bin/record.sh', args: ['token.json'], env: [{ name: 'KEV_RECORD', value: 'record.log' }], interactiveMode: 'Never', ...exec } });
  const records = (d: string): Record<string, unknown>[] => {
    const f = path.join(d, 'bin', 'record.log');
    if (!fs.existsSync(f)) return [];
    return fs.readFileSync(f, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
  };
  const fails = (kubectl: RegExp, ours: RegExp, configError = true) => ({ fails: true as const, kubectl, ours, configError });

  const cases: Case[] = [
    { name: 'token', config: () => kubeconfig(cluster(), { token: USER_TOKEN }), expect: { user: 'kev-token' } },
    { name: 'tokenFile (relative to the kubeconfig)', config: () => kubeconfig(cluster(), { tokenFile: 'token' }), expect: { user: 'kev-token-file' } },
    { name: 'token and tokenFile (the file wins, as it is re-read)', config: () => kubeconfig(cluster(), { token: USER_TOKEN, tokenFile: 'token' }), expect: { user: 'kev-token-file' } },
    {
      name: 'tokenFile missing',
      config: () => kubeconfig(cluster(), { tokenFile: 'no-such-token' }),
      expect: fails(/open .*no-such-token: no such file or directory/, /token file .*no-such-token of user "u" .*no such file or directory/),
    },
    { name: 'client certificate and key files (relative)', config: () => kubeconfig(cluster(), { 'client-certificate': 'certs/admin.crt', 'client-key': 'certs/admin.key' }), expect: { user: 'kev-admin' } },
    { name: 'client certificate and key data', config: () => kubeconfig(cluster(), { 'client-certificate-data': b64('admin.crt'), 'client-key-data': b64('admin.key') }), expect: { user: 'kev-admin' } },
    {
      name: 'client certificate file missing',
      config: () => kubeconfig(cluster(), { 'client-certificate': 'certs/gone.crt', 'client-key': 'certs/admin.key' }),
      expect: fails(/unable to read client-cert .*gone\.crt for u due to open .*: no such file or directory/, /unable to read client-cert .*gone\.crt for u due to open/),
    },
    {
      name: 'client certificate and a key of another user',
      config: () => kubeconfig(cluster(), { 'client-certificate': 'certs/admin.crt', 'client-key': 'certs/limited.key' }),
      expect: fails(/private key does not match public key/, /client certificate and key .*admin\.crt and .*limited\.key.*cannot be used.*private key does not match public key/),
    },
    { name: 'exec with args and env, interactiveMode Never', config: () => kubeconfig(cluster(), execUser({ env: [{ name: 'KEV_RECORD', value: 'record.log' }, { name: 'KEV_PLUGIN_ENV', value: 'from-kubeconfig' }] })), expect: { user: 'kev-exec' } },
    { name: 'exec with provideClusterInfo (KUBERNETES_EXEC_INFO)', config: () => kubeconfig(cluster({ 'tls-server-name': APISERVER_ALT_NAME, extensions: [{ name: 'client.authentication.k8s.io/exec', extension: { audience: 'kev' } }] }), execUser({ provideClusterInfo: true })), expect: { user: 'kev-exec' } },
    { name: 'exec interactiveMode IfAvailable (no terminal: not interactive)', config: () => kubeconfig(cluster(), execUser({ interactiveMode: 'IfAvailable' })), expect: { user: 'kev-exec' } },
    {
      name: 'exec interactiveMode Always (no terminal)',
      config: () => kubeconfig(cluster(), execUser({ interactiveMode: 'Always' })),
      expect: fails(/standard input is not a terminal/, /needs a terminal.*standard input is not a terminal/),
    },
    {
      name: 'exec v1 without interactiveMode',
      config: () => kubeconfig(cluster(), { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: './bin/record.sh', args: ['token.json'], env: [{ name: 'KEV_RECORD', value: 'record.log' }] } }),
      expect: fails(/interactiveMode must be specified for u to use exec authentication plugin/, /interactiveMode must be specified for u/),
    },
    { name: 'exec v1beta1 without interactiveMode (IfAvailable)', config: () => kubeconfig(cluster(), execUser({ apiVersion: 'client.authentication.k8s.io/v1beta1', interactiveMode: undefined, args: ['token-beta.json'] })), expect: { user: 'kev-exec' } },
    { name: 'exec plugin giving a client certificate', config: () => kubeconfig(cluster(), execUser({ args: ['cert.json'] })), expect: { user: 'kev-admin' } },
    {
      name: 'exec plugin not installed',
      config: () => kubeconfig(cluster(), execUser({ command: 'kev-no-such-plugin', installHint: 'Install it with: apt install kev-login' })),
      expect: fails(/executable kev-no-such-plugin not found/, /plugin "kev-no-such-plugin" of user "u" .*was not found.*Install it with: apt install kev-login.*executable kev-no-such-plugin not found/),
    },
    {
      name: 'exec plugin exiting 3',
      config: () => kubeconfig(cluster(), execUser({ command: './bin/fail.sh' })),
      expect: fails(/executable .*fail\.sh failed with exit code 3/, /plugin ".*fail\.sh" of user "u" .*failed with exit code 3: token expired: run sso-login.*failed with exit code 3/),
    },
    {
      name: 'impersonation: as, as-groups, as-uid, as-user-extra',
      config: () => kubeconfig(cluster(), { 'client-certificate': 'certs/impersonator.crt', 'client-key': 'certs/impersonator.key', as: 'kev-someone', 'as-groups': ['team-a', 'team-b'], 'as-uid': 'uid-1234', 'as-user-extra': { scopes: ['read', 'write'], 'example.com/team': ['blue'] } }),
      expect: { user: 'kev-someone' },
    },
    {
      name: 'as-groups without as',
      config: () => kubeconfig(cluster(), { 'client-certificate': 'certs/impersonator.crt', 'client-key': 'certs/impersonator.key', 'as-groups': ['team-a'] }),
      expect: fails(/requesting uid, groups or user-extra for u without impersonating a user/, /requesting uid, groups or user-extra for u without impersonating a user/),
    },
    {
      name: 'impersonation the user may not do',
      config: () => kubeconfig(cluster(), { 'client-certificate-data': b64('limited.crt'), 'client-key-data': b64('limited.key'), as: 'kev-admin' }),
      expect: fails(NOT_IMPERSONATOR, NOT_IMPERSONATOR, false),
    },
    { name: 'tls-server-name in the certificate', config: () => kubeconfig(cluster({ 'tls-server-name': APISERVER_ALT_NAME }), { token: USER_TOKEN }), expect: { user: 'kev-token' } },
    {
      name: 'tls-server-name not in the certificate',
      config: () => kubeconfig(cluster({ 'tls-server-name': 'wrong.test' }), { token: USER_TOKEN }),
      expect: fails(/x509: certificate is valid for .*not wrong\.test/, /not valid for the name "wrong\.test".*tls-server-name/),
    },
    { name: 'certificate-authority-data', config: () => kubeconfig({ server: server(), 'certificate-authority-data': b64('ca.crt') }, { token: USER_TOKEN }), expect: { user: 'kev-token' } },
    {
      name: 'certificate-authority file missing',
      config: () => kubeconfig(cluster({ 'certificate-authority': 'certs/missing-ca.crt' }), { token: USER_TOKEN }),
      expect: fails(/unable to read certificate-authority .*missing-ca\.crt for c due to open/, /unable to read certificate-authority .*missing-ca\.crt for c/),
    },
    {
      name: 'certificate-authority that did not sign the server',
      config: () => kubeconfig(cluster({ 'certificate-authority': 'certs/other-ca.crt' }), { token: USER_TOKEN }),
      expect: fails(/certificate signed by unknown authority/, /certificate-authority .*other-ca\.crt does not trust.*certificate signed by unknown authority/),
    },
    { name: 'insecure-skip-tls-verify', config: () => kubeconfig({ server: server(), 'insecure-skip-tls-verify': true }, { token: USER_TOKEN }), expect: { user: 'kev-token' } },
    {
      name: 'insecure-skip-tls-verify with a CA',
      config: () => kubeconfig(cluster({ 'insecure-skip-tls-verify': true }), { token: USER_TOKEN }),
      expect: fails(/specifying a root certificates file with the insecure flag is not allowed/, /insecure-skip-tls-verify together with a certificate authority.*specifying a root certificates file with the insecure flag is not allowed/),
    },
    { name: 'proxy-url http (tinyproxy)', config: () => kubeconfig(cluster({ 'proxy-url': httpProxy.url }), { token: USER_TOKEN }), expect: { user: 'kev-token' }, check: () => assert.match(fs.readFileSync(httpProxy.log, 'utf8'), /CONNECT/, 'tinyproxy tunnelled the requests') },
    { name: 'proxy-url https (stunnel + tinyproxy)', config: () => kubeconfig(cluster({ 'proxy-url': httpsProxy.url }), { token: USER_TOKEN }), expect: { user: 'kev-token' } },
    { name: 'proxy-url socks5 (microsocks)', config: () => kubeconfig(cluster({ 'proxy-url': socksProxy.url }), { token: USER_TOKEN }), expect: { user: 'kev-token' } },
    {
      name: 'proxy-url with a scheme kubectl does not know',
      config: () => kubeconfig(cluster({ 'proxy-url': 'ftp://127.0.0.1:1' }), { token: USER_TOKEN }),
      expect: fails(/unsupported scheme "ftp", must be http, https, or socks5/, /unsupported scheme "ftp", must be http, https, or socks5/),
    },
    { name: 'http:// server (kubectl proxy), context without a user', config: () => kubeconfig({ server: kubectlProxy.url }, undefined), expect: { user: 'kev-admin' } },
    { name: 'http:// server with a client certificate (not sent over http)', config: () => kubeconfig({ server: kubectlProxy.url }, { 'client-certificate': 'certs/limited.crt', 'client-key': 'certs/limited.key', token: USER_TOKEN }), expect: { user: 'kev-admin' } },
    // kubectl asks for a username on its terminal (stdout); without one it fails with EOF. We cannot ask: anonymous.
    { name: 'context naming a user that is not there (no credentials)', config: () => ({ ...kubeconfig(cluster(), { token: USER_TOKEN }), contexts: [{ name: 'x', context: { cluster: 'c', user: 'nobody' } }] }), expect: fails(/^error: EOF$/, /User "system:anonymous" cannot create resource "selfsubjectreviews"/, false) },
    {
      name: 'KUBECONFIG list: first file wins for a name and for current-context',
      config: () => [
        { apiVersion: 'v1', kind: 'Config', clusters: [{ name: 'c', cluster: cluster() }], users: [{ name: 'u', user: { token: USER_TOKEN } }], contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }], 'current-context': 'x' },
        { apiVersion: 'v1', kind: 'Config', clusters: [{ name: 'c', cluster: { server: 'https://127.0.0.1:1' } }], users: [{ name: 'u', user: { tokenFile: 'token' } }], contexts: [{ name: 'y', context: { cluster: 'c', user: 'u' } }], 'current-context': 'y' },
      ],
      expect: { user: 'kev-token' },
    },
    { name: 'basic auth (the apiserver has none)', config: () => kubeconfig(cluster(), { username: 'admin', password: 'secret' }), expect: fails(/User "system:anonymous" cannot create resource "selfsubjectreviews"/, /User "system:anonymous" cannot create resource "selfsubjectreviews"/, false) },
  ];

  for (const c of cases) {
    it(c.name, async () => {
      const configs = c.config();
      const list = Array.isArray(configs) ? configs : [configs];
      const files = list.map((conf, i) => {
        const f = path.join(dir, `${c.name.replace(/[^a-z0-9]+/gi, '-')}-${i}.kubeconfig`);
        fs.writeFileSync(f, yaml.dump(conf), { mode: 0o600 });
        return f;
      });
      fs.rmSync(path.join(dir, 'bin', 'record.log'), { force: true });
      const env = { ...process.env, KUBECONFIG: files.join(path.delimiter) };
      const single = files.length === 1 ? files[0] : undefined;
      const kubectl = kubectlWhoami(single, env);
      const kubectlRecords = records(dir);
      fs.rmSync(path.join(dir, 'bin', 'record.log'), { force: true });
      const ours = await oursWhoami(single, env);
      const ourRecords = records(dir);
      rows.push(`${c.name} | ${kubectl.ok ? `works as ${kubectl.user?.username}` : `fails: ${kubectl.stderr.split('\n')[0].slice(0, 140)}`} | ${ours.ok ? `works as ${ours.user?.username}` : `${ours.error instanceof KubeconfigError ? 'configError' : 'fails'}: ${ours.error?.message.slice(0, 160)}`}`);
      if ('user' in c.expect) {
        assert.ok(kubectl.ok, `kubectl failed: ${kubectl.stderr}`);
        assert.ok(ours.ok, `ours failed: ${ours.error?.message}`);
        assert.equal(kubectl.user?.username, c.expect.user);
        assert.deepEqual(ours.user, kubectl.user, 'the apiserver sees the same user, groups, uid and extra');
        // A plugin sees the same arguments, environment, terminal and KUBERNETES_EXEC_INFO under both.
        assert.equal(ourRecords.length, kubectlRecords.length, 'the plugin ran as often');
        assert.deepEqual(ourRecords, kubectlRecords);
      } else {
        assert.ok(!kubectl.ok, `kubectl worked as ${kubectl.user?.username}`);
        assert.ok(!ours.ok, `ours worked as ${ours.user?.username}`);
        assert.match(kubectl.stderr, c.expect.kubectl);
        assert.match(ours.error?.message ?? '', c.expect.ours);
        assert.equal(ours.error instanceof KubeconfigError, c.expect.configError, `configuration error: ${ours.error?.name}: ${ours.error?.message}`);
      }
      c.check?.(dir);
    });
  }
});
