// Hovering over a manifest resource's header (apiVersion to metadata.name) shows its newest
// events as plain text: a code block with a fence no event text can close, so nothing in it
// renders or links.
import * as vscode from 'vscode';
import { codeFence, hoverLines } from '../../model/manifests/manifestText';
import type { ManifestService } from '../../services/manifestService';
import { headerRange } from './manifestRanges';

/** Events the hover lists, newest first. */
export const HOVER_EVENTS = 10;
/** A message longer than this is cut in the hover (the Events view has it whole). */
const HOVER_MESSAGE_CHARS = 240;

export class ManifestHover implements vscode.HoverProvider {
  constructor(
    private readonly manifests: ManifestService,
    private readonly connection: { readonly context: string | undefined },
    private readonly enabled: () => boolean,
  ) {}

  register(): vscode.Disposable {
    return vscode.languages.registerHoverProvider([{ scheme: 'file', language: 'yaml' }, { scheme: 'file', language: 'json' }, { scheme: 'file', language: 'jsonc' }], this);
  }

  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    if (!this.enabled()) return undefined;
    const resources = this.manifests.resources(document.uri);
    const index = resources.findIndex((r) => headerRange(r).contains(position));
    if (index < 0) return undefined;
    const path = this.manifests.pathOf(document.uri) ?? '';
    const now = Date.now();
    const events = this.manifests.status.newest(path, index, HOVER_EVENTS).map((e) => (e.message.length > HOVER_MESSAGE_CHARS ? { ...e, message: `${e.message.slice(0, HOVER_MESSAGE_CHARS)}…` } : e));
    const text = hoverLines(this.manifests.statusOf(document.uri, index, now), events, this.manifests.liveNames(document.uri, index), this.connection.context, now).join('\n');
    const md = new vscode.MarkdownString(undefined, false);
    md.isTrusted = false;
    md.supportHtml = false;
    const fence = codeFence(text);
    md.appendMarkdown(`${fence}text\n${text}\n${fence}\n`);
    return new vscode.Hover(md, headerRange(resources[index]));
  }
}
