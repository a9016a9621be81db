/**
 * Runs in every test file's context before the file's own modules load (jest `setupFilesAfterEnv`): what one file
 * leaves in the process must not keep it alive once it has finished. All files of a run share one process, and a
 * single reference from the process to a file's objects keeps that file's whole module registry (its Nest apps,
 * entities, compiled code: about 20 MB) until the run ends, gigabytes over the suite.
 */
import perfHooks from 'node:perf_hooks';

// Jest gives each file the globals its own process had when it started, and the global setup (which migrates the
// template database through TypeORM) leaves TypeORM's metadata storage on that process's global. Shared, it would
// collect the entity classes of every file. Each file gets a storage of its own, created by TypeORM on first use.
(globalThis as { typeormMetadataArgsStorage?: unknown }).typeormMetadataArgsStorage = undefined;

// prom-client's default metrics observe garbage collection through a PerformanceObserver that nothing disconnects
// (a service starts its app once); each test app adds one to the process, where it keeps its callback, and with
// it the file, for good. The observers created by this file are disconnected once it has finished.
const observers: perfHooks.PerformanceObserver[] = [];
const { PerformanceObserver } = perfHooks;
class FileObserver extends PerformanceObserver {
  constructor(callback: perfHooks.PerformanceObserverCallback) {
    super(callback);
    observers.push(this);
  }
}
perfHooks.PerformanceObserver = FileObserver;

afterAll(() => {
  perfHooks.PerformanceObserver = PerformanceObserver;
  for (const observer of observers.splice(0)) observer.disconnect();
});
