// Show Events and Show Timeline for a manifest resource (its CodeLens and its Problems
// entries' quick fixes): the document's uri and the resource's place in it; anything else is
// refused with a message, never guessed at. A workload's events come with those of what it
// owns (its ReplicaSets and Pods).
import * as vscode from 'vscode';
import { Commands } from '../common/commandIds';
import type { InvolvedObject } from '../model/clusterEvent';
import type { ObjectRef } from '../model/filters';
import type { ManifestService } from '../services/manifestService';
import type { NavigationService } from '../services/navigationService';

const NEEDS = 'needs a manifest document and a resource in it (its CodeLens or a Problems entry passes them).';

/** The resource a command was given, as the object to show and the objects it owns that have events. */
export function manifestObject(manifests: ManifestService, uriText: unknown, index: unknown, reason?: unknown): { ref: ObjectRef; objects: readonly InvolvedObject[] } | undefined {
  if (typeof uriText !== 'string' || typeof index !== 'number') return undefined;
  const uri = vscode.Uri.parse(uriText, true);
  const names = manifests.liveNames(uri, index);
  if (!names.length) return undefined;
  const status = manifests.statusOf(uri, index);
  // A warning reason named: the object it is about comes first.
  const about = typeof reason === 'string' ? status.warnings.find((w) => w.reason === reason)?.object : undefined;
  const objects = about ? [about, ...status.objects.filter((o) => o.uid !== about.uid)] : status.objects;
  const own = status.objects.find((o) => names.some((n) => n.kind === o.kind && n.name === o.name));
  const name = own ? { kind: own.kind, name: own.name, namespace: own.namespace } : names[0];
  const owned = status.objects.filter((o) => o !== own && o.uid).map((o) => o.uid);
  return { ref: { kind: name.kind, name: name.name, namespace: name.namespace || undefined, uid: own?.uid || undefined, ...(owned.length ? { owned } : {}) }, objects };
}

/**
 * The one object Diagnose opens for a resource: with a warning reason, the object the warning
 * is about (a Deployment's pod, say); else the resource's own object.
 */
export function manifestTarget(manifests: ManifestService, uriText: unknown, index: unknown, reason?: unknown): InvolvedObject | undefined {
  const found = manifestObject(manifests, uriText, index, reason);
  if (!found) return undefined;
  const uri = vscode.Uri.parse(uriText as string, true);
  const apiVersion = manifests.resources(uri)[index as number]?.apiVersion ?? 'v1';
  if (typeof reason === 'string' && found.objects[0]) return found.objects[0];
  const own = found.objects.find((o) => o.uid && o.uid === found.ref.uid);
  if (own) return { ...own, apiVersion: own.apiVersion || apiVersion };
  return { kind: found.ref.kind, name: found.ref.name, namespace: found.ref.namespace ?? '', apiVersion, uid: '', fieldPath: '' };
}

export function registerManifestCommands(manifests: ManifestService, navigation: NavigationService): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(Commands.showManifestEvents, async (uriText?: unknown, index?: unknown) => {
      const found = manifestObject(manifests, uriText, index);
      if (!found) return void vscode.window.showErrorMessage(`Show Events for This Manifest Resource ${NEEDS}`);
      const result = await navigation.showEvents(found.ref);
      if (!result.shown) void vscode.window.showInformationMessage(result.text);
      return result.shown;
    }),
  ];
}
