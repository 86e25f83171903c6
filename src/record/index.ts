// The event machinery: a port of client-go's tools/record and apimachinery's
// watch.Broadcaster. Plain Node: nothing here imports vscode.
export * from './clock';
export * from './errors';
export * from './event';
export * from './eventsCache';
export * from './goFormat';
export * from './logger';
export * from './recordToSink';
export * from './reference';
export * from './types';
export * from './util';
export * from './watch/channel';
export * from './watch/mux';
export * from './sleep';
