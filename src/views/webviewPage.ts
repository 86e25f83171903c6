// The extension's webview pages (the timeline, Diagnose) under one strict content security
// policy: the page's own stylesheet and one script from the extension's media folder, the
// script by a fresh nonce; no inline code, no remote source, no base or form target. Event
// and log text reaches a page only as messages it puts in as text.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

/** The page's HTML: `<name>.css` and `<name>.js` from media, the title escaped, the body as given (markup of ours, no data). */
export function webviewPage(webview: vscode.Webview, media: vscode.Uri, name: string, title: string, body: string): string {
  const nonce = randomBytes(18).toString('base64');
  const script = webview.asWebviewUri(vscode.Uri.joinPath(media, `${name}.js`));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(media, `${name}.css`));
  const csp = [`default-src 'none'`, `style-src ${webview.cspSource}`, `script-src 'nonce-${nonce}'`, `base-uri 'none'`, `form-action 'none'`].join('; ');
  const esc = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style.toString()}">
<title>${esc(title)}</title>
</head>
<body>
${body}
<script nonce="${nonce}" src="${script.toString()}"></script>
</body>
</html>`;
}
