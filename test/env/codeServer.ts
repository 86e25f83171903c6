// A real VS Code (code-server under Node 24) on loopback, isolated from the real
// home folder, for host tests, UI tests and `npm start`.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { freePort } from './ports';
import { pinned } from './versions';


/** Node 24, code-server and the cache folder, as versions.sh pins them. */
export function pinnedVersions(): Record<string, string> {
  return { node24: pinned('NODE24_VERSION'), codeServer: pinned('CODE_SERVER_VERSION'), cacheDir: pinned('KEV_CACHE_DIR') };
}

/** Paths of Node 24 and code-server as setup.sh installs them. */
export function codeServerPaths(): { nodeBin: string; codeServer: string } {
  const v = pinnedVersions();
  const nodeBin = path.join(v.cacheDir, `node-v${v.node24}`, 'bin');
  const codeServer = path.join(v.cacheDir, `code-server-v${v.codeServer}`, 'node_modules', '.bin', 'code-server');
  if (!fs.existsSync(codeServer)) throw new Error(`code-server is not installed at ${codeServer}: run bash test/env/setup.sh vscode`);
  return { nodeBin, codeServer };
}

export interface CodeServerOptions {
  /** A folder for this run: home, settings, extensions, logs. Emptied first. */
  readonly runDir: string;
  /** The folder the workbench opens. */
  readonly workspace: string;
  /** Lets the workbench take a development payload (extensionDevelopmentPath, extensionTestsPath). */
  readonly smokeTestDriver?: boolean;
  /** A .vsix to install before starting. */
  readonly vsix?: string;
  /** Other extensions' .vsix files, installed offline with `vsix`. */
  readonly extensions?: readonly string[];
  /**
   * Installs into a folder shared by the runs of this process that install the same files
   * (each install starts code-server's CLI for about 3 s); by default a run's own folder.
   * Only for runs one after another: code-server keeps its extensions list there.
   */
  readonly shareInstalled?: boolean;
  /** Folders put first on code-server's PATH, and so the extension host's (kubectl for the Kubernetes extension). */
  readonly path?: readonly string[];
  /** User settings.json content. */
  readonly settings?: Record<string, unknown>;
  /** Extra environment for code-server and so for the extension host (KUBECONFIG, ...). */
  readonly env?: NodeJS.ProcessEnv;
  readonly port?: number;
  /** Where code-server's own output goes; defaults to runDir/code-server.log. */
  readonly logFile?: string;
  /** Leave workspace trust on (the folder opens untrusted, with no prompt). */
  readonly workspaceTrust?: boolean;
  /** The workspace's own .vscode/settings.json. */
  readonly workspaceSettings?: Record<string, unknown>;
  /** Writes files into the workspace before the workbench opens it. */
  readonly prepareWorkspace?: (workspace: string) => void;
}

/** Extensions folders installed by this process, by what was installed (installsKey). */
const sharedInstalls = new Map<string, string>();

/** The files installed, each with its size and time: a file packaged again is installed again. */
function installsKey(files: readonly string[]): string {
  return JSON.stringify(files.map((f) => {
    const st = fs.statSync(f);
    return [path.resolve(f), st.size, st.mtimeMs];
  }));
}

/** Waits for GET url to answer 200. */
async function waitForHttp(url: string, timeoutMs: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`code-server exited with code ${child.exitCode} during start-up`);
    const status = await new Promise<number>((resolve) => {
      const req = http.get(url, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', () => resolve(0));
      req.setTimeout(2000, () => req.destroy());
    });
    if (status === 200) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`code-server did not answer ${url} within ${timeoutMs} ms`);
}

export class CodeServer {
  private constructor(
    readonly url: string,
    readonly port: number,
    readonly options: CodeServerOptions,
    private readonly child: ChildProcess,
  ) {}

  /** The environment code-server runs with: Node 24 first on PATH, every home folder inside runDir. */
  private static environment(options: CodeServerOptions, nodeBin: string): NodeJS.ProcessEnv {
    const home = path.join(options.runDir, 'home');
    for (const d of ['config', 'data', 'cache', 'tmp']) fs.mkdirSync(path.join(home, d), { recursive: true });
    return {
      ...process.env,
      ...options.env,
      PATH: [...(options.path ?? []), nodeBin, process.env.PATH ?? ''].join(path.delimiter),
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, 'config'),
      XDG_DATA_HOME: path.join(home, 'data'),
      XDG_CACHE_HOME: path.join(home, 'cache'),
      TMPDIR: path.join(home, 'tmp'),
    };
  }

  static async start(options: CodeServerOptions): Promise<CodeServer> {
    const { nodeBin, codeServer } = codeServerPaths();
    fs.rmSync(options.runDir, { recursive: true, force: true });
    const userDataDir = path.join(options.runDir, 'user-data');
    fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
    fs.mkdirSync(options.workspace, { recursive: true });
    options.prepareWorkspace?.(options.workspace);
    if (options.workspaceSettings) {
      fs.mkdirSync(path.join(options.workspace, '.vscode'), { recursive: true });
      fs.writeFileSync(path.join(options.workspace, '.vscode', 'settings.json'), JSON.stringify(options.workspaceSettings, null, 2));
    }
    const trust = options.workspaceTrust ? { 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never', 'security.workspace.trust.banner': 'never' } : {};
    const settings = { ...trust, 'workbench.startupEditor': 'none', 'telemetry.telemetryLevel': 'off', 'extensions.autoCheckUpdates': false, 'extensions.autoUpdate': 'off', 'workbench.tips.enabled': false, 'workbench.secondarySideBar.defaultVisibility': 'hidden', 'chat.disableAIFeatures': true, 'git.openRepositoryInParentFolders': 'never', ...options.settings };
    fs.writeFileSync(path.join(userDataDir, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
    const configFile = path.join(options.runDir, 'config.yaml');
    fs.writeFileSync(configFile, 'auth: none\ncert: false\n');
    const env = CodeServer.environment(options, nodeBin);
    const installs = [...(options.vsix ? [options.vsix] : []), ...(options.extensions ?? [])];
    const shared = options.shareInstalled ? sharedInstalls.get(installsKey(installs)) : undefined;
    const extensionsDir = shared ?? (options.shareInstalled ? path.join(path.dirname(options.runDir), 'extensions-shared', String(sharedInstalls.size)) : path.join(options.runDir, 'extensions'));
    const common = ['--config', configFile, '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir];
    if (!shared) {
      fs.rmSync(extensionsDir, { recursive: true, force: true });
      fs.mkdirSync(extensionsDir, { recursive: true });
      // One call installs them all (each call starts code-server's CLI once).
      if (installs.length > 0) execFileSync(codeServer, [...common, ...installs.flatMap((f) => ['--install-extension', f])], { env, stdio: ['ignore', 'ignore', 'inherit'] });
      if (options.shareInstalled) sharedInstalls.set(installsKey(installs), extensionsDir);
    }
    const port = options.port ?? (await freePort());
    const args = [
      ...common,
      '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`,
      '--disable-telemetry', '--disable-update-check', ...(options.workspaceTrust ? [] : ['--disable-workspace-trust']), '--disable-getting-started-override',
      ...(options.smokeTestDriver ? ['--vscode-option', 'enable-smoke-test-driver'] : []),
      options.workspace,
    ];
    const logFile = options.logFile ?? path.join(options.runDir, 'code-server.log');
    const log = fs.openSync(logFile, 'a');
    const child = spawn(codeServer, args, { env, detached: true, stdio: ['ignore', log, log] });
    fs.closeSync(log);
    const server = new CodeServer(`http://127.0.0.1:${port}`, port, options, child);
    try {
      await waitForHttp(`${server.url}/healthz`, 60_000, child);
    } catch (e) {
      await server.stop();
      throw new Error(`${(e as Error).message}; see ${logFile}`);
    }
    return server;
  }

  /** The workbench URL for the workspace, with an optional development payload. */
  workbenchUrl(payload?: [string, string][]): string {
    const u = new URL(this.url);
    u.searchParams.set('folder', this.options.workspace);
    if (payload) u.searchParams.set('payload', JSON.stringify(payload));
    return u.toString();
  }

  /** A path on this machine as the workbench's remote file system sees it. */
  remoteUri(absolutePath: string): string {
    return `vscode-remote://127.0.0.1:${this.port}${absolutePath}`;
  }

  /** Stops code-server and everything it spawned (its process group). */
  async stop(): Promise<void> {
    const pid = this.child.pid;
    if (pid === undefined || this.child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    try {
      process.kill(-pid, 'SIGTERM');
    } catch {
      return;
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }, 5000);
    await exited;
    clearTimeout(timer);
  }
}
