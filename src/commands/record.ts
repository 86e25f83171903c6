// Record Event... (the view's title: any object) and Record Event on This Object (a row).
import type * as vscode from 'vscode';
import { Commands } from '../common/commandIds';
import type { ObjectSummary } from '../model/recordRequest';
import type { RecordEventInput } from '../views/recordEventInput';
import { EventNode } from '../views/tree/nodes/eventNode';
import { GroupNode } from '../views/tree/nodes/groupNode';
import { registerPlainCommand, registerRowCommand } from './registry';

/** The object a row is about, as a reference can be made from it. */
export function objectOfNode(node: GroupNode | EventNode): ObjectSummary {
  const o = (node instanceof EventNode ? node.parent : node).object;
  return { apiVersion: o.apiVersion || 'v1', kind: o.kind, metadata: { name: o.name, namespace: o.namespace || undefined, uid: o.uid || undefined } };
}

export function registerRecordCommands(input: RecordEventInput, selection: () => readonly unknown[]): vscode.Disposable[] {
  const isRow = (x: unknown): x is GroupNode | EventNode => x instanceof GroupNode || x instanceof EventNode;
  return [
    registerPlainCommand(Commands.recordEvent, () => input.recordEvent()),
    registerRowCommand(Commands.recordEventOnObject, isRow, selection, (node) => input.recordOn(objectOfNode(node)), 'Pick an object in the Events view first.'),
  ];
}
