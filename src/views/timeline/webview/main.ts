// The timeline webview's script: starts the page (timelineApp.ts) once loaded, passes it the
// host's messages and tells the host of script errors and blocked resources.
import type { HostMessage } from '../protocol';
import { TimelineApp, type VsCodeApi } from './timelineApp';

declare function acquireVsCodeApi(): VsCodeApi;

function start(): void {
  const vscode = acquireVsCodeApi();
  window.addEventListener('error', (e) => vscode.postMessage({ type: 'problem', text: `Timeline script error: ${e.message} (${e.filename}:${e.lineno})` }));
  document.addEventListener('securitypolicyviolation', (e) => vscode.postMessage({ type: 'problem', text: `Content security policy blocked ${e.blockedURI || 'an inline resource'} (${e.violatedDirective})` }));
  const app = new TimelineApp(vscode);
  window.addEventListener('message', (e: MessageEvent<HostMessage>) => {
    const m = e.data;
    if (m && typeof m === 'object' && (m.type === 'reset' || m.type === 'update' || m.type === 'details')) app.receive(m);
  });
  vscode.postMessage({ type: 'ready' });
}

start();
