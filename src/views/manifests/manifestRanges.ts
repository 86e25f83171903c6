// Editor ranges of a manifest resource's parts.
import * as vscode from 'vscode';
import type { ManifestResource, TextSpan } from '../../model/manifests/manifestResource';

export function toRange(s: TextSpan): vscode.Range {
  return new vscode.Range(s.startLine, s.startChar, s.endLine, s.endChar);
}

/** The resource's header: from its first line to its name (apiVersion, kind, metadata.name). */
export function headerRange(r: ManifestResource): vscode.Range {
  return new vscode.Range(r.span.startLine, 0, r.nameSpan.endLine, r.nameSpan.endChar);
}

/** The command a lens or a quick fix runs for a resource: its document and its place. */
export function resourceArguments(uri: vscode.Uri, index: number): [string, number] {
  return [uri.toString(), index];
}

/** Where a warning reason is shown in the Problems panel: "Kubernetes Events (<context>)". */
export function diagnosticSource(context: string | undefined): string {
  return `Kubernetes Events${context ? ` (${context})` : ''}`;
}
