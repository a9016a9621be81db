import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { ApiError } from '../../api/errors';
import type { components } from '../../api/schema';
import { ErrorBox } from '../status';
import { CodeEditor } from './CodeEditor';
import { IssueList, SampleRun, issueWhere, type GateIssue } from './GateReport';
import { codecPartsOf, parseObject } from './sample';
import { UplinkBytesFields, useUplinkBytes } from './UplinkBytes';

type RunRequest = components['schemas']['RunFlowBlockVersionRequest'];
type RunResult = components['schemas']['FlowBlockRunResult'];
type SampleInput = components['schemas']['SampleInputRequest'];

type Source = 'bytes' | 'raw' | 'json';

/** A 422 of the run: the source does not compile, with the compile gate's issues. */
function compileFailureOf(error: unknown): GateIssue[] | null {
  if (!(error instanceof ApiError) || error.status !== 422) return null;
  return Array.isArray(error.details.issues) ? (error.details.issues as GateIssue[]) : [];
}

/** The issues of a run to mark in the version's editor: a failed run's position, or the compile issues of a 422. */
export function runIssuesOf(result: RunResult | undefined, error: unknown): GateIssue[] {
  const compile = compileFailureOf(error);
  if (compile) return compile;
  if (!result || result.ok || !result.error) return [];
  const { code, message, line, column } = result.error;
  return [{ severity: 'error', code, path: 'sourceCode', message, line, column }];
}

/**
 * The codec playground of one version, in any status: the version runs in the sandbox on typed bytes (hex or
 * base64) and an fPort, on a stored raw message of the block's tenant, or on a JSON input shaped like a sample.
 * Nothing is released, stored or audited; the output, the logs and any error (with its line and column, marked in
 * the editor through `onIssues`) are shown below the form.
 */
export function Playground({
  flowBlockId,
  flowBlockVersionId,
  sampleInput,
  onIssues,
  onGoTo,
}: {
  flowBlockId: string;
  flowBlockVersionId: string;
  /** The version's own sample: the form starts from it. */
  sampleInput: Record<string, unknown>;
  onIssues: (issues: GateIssue[]) => void;
  onGoTo: (line: number, column?: number) => void;
}) {
  const codec = codecPartsOf(sampleInput);
  const [source, setSource] = useState<Source>(codec ? 'bytes' : 'json');
  const bytes = useUplinkBytes(codec);
  const [observedAt, setObservedAt] = useState('');
  const [rawId, setRawId] = useState('');
  const [inputJson, setInputJson] = useState(JSON.stringify(sampleInput, null, 2));
  const [variables, setVariables] = useState('');

  const body = (): RunRequest => {
    const configuration = variables.trim() ? { configuration: parseObject(variables, 'The variables') } : {};
    if (source === 'raw') return { rawIngestionMessageId: rawId.trim(), ...configuration };
    if (source === 'json') return { input: parseObject(inputJson, 'The input') as SampleInput, ...configuration };
    return { input: bytes.message(observedAt.trim()), ...configuration };
  };

  const run = useMutation({
    mutationFn: () =>
      unwrap(api.POST('/v1/flow-blocks/{flowBlockId}/versions/{flowBlockVersionId}/run', { params: { path: { flowBlockId, flowBlockVersionId } }, body: body() })),
    onSuccess: (result) => onIssues(runIssuesOf(result, null)),
    onError: (error) => onIssues(runIssuesOf(undefined, error)),
  });
  const compileIssues = compileFailureOf(run.error);
  const result = run.data;

  return (
    <form
      className="card playground"
      aria-labelledby="playground-title"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        run.mutate();
      }}
    >
      <h3 id="playground-title">Codec playground</h3>
      <p className="small">
        Runs this version in the sandbox, exactly as its release gate would, on the message below. Nothing is released or stored; the version stays as
        it is.
      </p>
      <div className="row" role="radiogroup" aria-label="Message to run on">
        <label className="inline">
          <input type="radio" name="playground-source" checked={source === 'bytes'} onChange={() => setSource('bytes')} /> Bytes and fPort
        </label>
        <label className="inline">
          <input type="radio" name="playground-source" checked={source === 'raw'} onChange={() => setSource('raw')} /> A stored raw message
        </label>
        <label className="inline">
          <input type="radio" name="playground-source" checked={source === 'json'} onChange={() => setSource('json')} /> JSON input
        </label>
      </div>
      {source === 'bytes' ? (
        <>
          <UplinkBytesFields bytes={bytes} helpId="playground-bytes-help" labels={{ bytes: 'Uplink bytes', encoding: 'Uplink bytes as', fPort: 'Uplink fPort' }} />
          <label>
            Observed at (optional)
            <input
              value={observedAt}
              onChange={(event) => setObservedAt(event.target.value)}
              spellCheck={false}
              placeholder="2026-05-04T10:20:30Z"
              aria-describedby="playground-time-help"
            />
          </label>
          <p id="playground-time-help" className="small">
            RFC 3339; the codec gets it as <code>recvTime</code>. Empty: now.
          </p>
        </>
      ) : source === 'raw' ? (
        <label>
          Raw message id to run on
          <input value={rawId} onChange={(event) => setRawId(event.target.value)} spellCheck={false} aria-describedby="playground-raw-help" />
          <span id="playground-raw-help" className="small">
            A stored uplink of this block's tenant: its payload, connection data (fPort) and time become the input.
          </span>
        </label>
      ) : (
        <CodeEditor value={inputJson} onChange={setInputJson} language="json" label="Input of the run as JSON" height="10rem" />
      )}
      <label>
        Variables for the run (the node configuration as JSON; the schema's defaults when empty)
        <textarea rows={2} value={variables} onChange={(event) => setVariables(event.target.value)} spellCheck={false} />
      </label>
      <div className="row">
        <button type="submit" disabled={run.isPending || (source === 'raw' && !rawId.trim())}>
          {run.isPending ? 'Running…' : 'Run'}
        </button>
      </div>
      {compileIssues ? (
        <div className="card gate-report" role="region" aria-label="Run refused">
          <h4>The source does not compile</h4>
          <IssueList issues={compileIssues} onGoTo={onGoTo} />
        </div>
      ) : run.error ? (
        <ErrorBox error={run.error} />
      ) : null}
      {result ? (
        <div className="card gate-report" role="region" aria-label={result.ok ? 'Run succeeded' : 'Run failed'}>
          <h4>
            {result.ok ? 'Run succeeded' : 'Run failed'} <span className="small">in {result.durationMs} ms</span>
          </h4>
          {!result.ok && result.error ? <RunError error={result.error} onGoTo={onGoTo} /> : null}
          <SampleRun result={result.ok ? (result.result ?? null) : undefined} logs={result.logs} logsTruncated={result.logsTruncated} testId="playground-output" what="the playground run" />
        </div>
      ) : null}
    </form>
  );
}

function RunError({ error, onGoTo }: { error: NonNullable<RunResult['error']>; onGoTo: (line: number, column?: number) => void }) {
  const where = issueWhere(error);
  return (
    <p className="error" role="alert" data-testid="playground-error">
      <code>{error.code}</code>{' '}
      {where && error.line !== undefined ? (
        <button type="button" className="link" onClick={() => onGoTo(error.line as number, error.column)} aria-label={`Go to ${where}`}>
          {where}
        </button>
      ) : null}{' '}
      {error.message}
    </p>
  );
}
