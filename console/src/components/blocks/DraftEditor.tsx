import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import type { components } from '../../api/schema';
import { ErrorBox } from '../status';
import { CodeEditor } from './CodeEditor';
import { payloadBytes } from './bytes';
import { codecPartsOf, parseObject } from './sample';
import { UplinkBytesFields, useUplinkBytes } from './UplinkBytes';

type Version = components['schemas']['FlowBlockVersionResponse'];
type SampleInput = components['schemas']['SampleInputRequest'];

export const TTN_EXAMPLE = `// A TTN / ChirpStack v4 payload formatter runs unchanged.
function decodeUplink(input) {
  return {
    data: { fPort: input.fPort, firstByte: input.bytes[0] },
    warnings: [],
    errors: [],
  };
}
`;

/** What a new draft starts from: a copy of a version, or the example codec. */
export interface DraftSeed {
  sourceCode: string;
  configurationSchema: Record<string, unknown> | null;
  sampleInput: Record<string, unknown>;
  notes: string;
  /** Bumped on every "edit as a new draft", so the form takes the new seed. */
  key: number;
}

export const EMPTY_SEED: DraftSeed = {
  sourceCode: TTN_EXAMPLE,
  configurationSchema: null,
  sampleInput: { payload: [1, 2], values: {}, input: { connectionData: { fPort: 2 } } },
  notes: '',
  key: 0,
};

export const seedOf = (version: Version, key: number): DraftSeed => ({
  sourceCode: version.sourceCode,
  configurationSchema: version.configurationSchema,
  sampleInput: version.sampleInput,
  notes: version.notes,
  key,
});

/**
 * A new immutable draft: the script in a JavaScript editor and the sample the release gate runs it on. For a codec
 * the sample is the uplink's bytes (hex or base64), its fPort and the variables, or a stored raw message's payload;
 * other scripts take a JSON sample input. Once saved, the draft is tried in its version's playground (any bytes or
 * stored message, nothing released) and compiled and released from there.
 */
export function DraftEditor({
  flowBlockId,
  seed,
  canLoadRaw,
  onCreated,
}: {
  flowBlockId: string;
  seed: DraftSeed;
  canLoadRaw: boolean;
  onCreated: (version: Version) => void;
}) {
  const codec = codecPartsOf(seed.sampleInput);
  const [sourceCode, setSourceCode] = useState(seed.sourceCode);
  const [mode, setMode] = useState<'codec' | 'json'>(codec ? 'codec' : 'json');
  const bytes = useUplinkBytes(codec);
  const [variables, setVariables] = useState(codec?.variables ?? '{}');
  const [observedAt, setObservedAt] = useState('');
  const [sampleJson, setSampleJson] = useState(JSON.stringify(seed.sampleInput, null, 2));
  const [schemaJson, setSchemaJson] = useState(seed.configurationSchema ? JSON.stringify(seed.configurationSchema, null, 2) : '');
  const [notes, setNotes] = useState(seed.notes);
  const [rawId, setRawId] = useState('');
  const [loaded, setLoaded] = useState<string | null>(null);

  const sample = (): SampleInput => {
    if (mode === 'json') return parseObject(sampleJson, 'The sample input') as SampleInput;
    const { payload, input } = bytes.message(observedAt);
    return { payload, values: {}, configuration: parseObject(variables || '{}', 'The variables'), input };
  };

  const loadRaw = useMutation({
    mutationFn: async () => {
      const raw = await unwrap(
        api.GET('/v1/raw-ingestion-messages/{rawIngestionMessageId}', { params: { path: { rawIngestionMessageId: rawId.trim() } } }),
      );
      const payload = raw.rawPayload ? payloadBytes(raw.rawPayload) : null;
      if (payload === null) throw new Error('This message has no binary payload (it is text or JSON): use a JSON sample input instead.');
      return { raw, payload };
    },
    onSuccess: ({ raw, payload }) => {
      const port = (raw.connectionData as { fPort?: unknown } | undefined)?.fPort;
      setMode('codec');
      bytes.fill(payload, typeof port === 'number' ? port : undefined);
      setObservedAt(raw.observedAt ?? '');
      setLoaded(raw.rawIngestionMessageId);
    },
  });

  const create = useMutation({
    mutationFn: () => {
      const body = {
        sourceCode,
        sampleInput: sample(),
        ...(schemaJson.trim() ? { configurationSchema: parseObject(schemaJson, 'The configuration schema') } : {}),
        notes,
      };
      return unwrap(api.POST('/v1/flow-blocks/{flowBlockId}/versions', { params: { path: { flowBlockId } }, body }));
    },
    onSuccess: onCreated,
  });

  return (
    <form
      className="card draft-editor"
      aria-labelledby="draft-title"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        create.mutate();
      }}
    >
      <h2 id="draft-title">New draft</h2>
      <p className="small">
        Drafts are immutable: saving makes a new version. Try it in the version's codec playground on any bytes or stored raw message without
        releasing it; releasing runs it in the sandbox on the sample below, and a failed release changes nothing.
      </p>
      <h3 id="draft-source-label">Script</h3>
      <CodeEditor value={sourceCode} onChange={setSourceCode} language="javascript" label="Script source of the new draft" testId="draft-source" />
      <fieldset>
        <legend>Sample the release gate runs the script on</legend>
        <div className="row" role="radiogroup" aria-label="Kind of sample">
          <label className="inline">
            <input type="radio" name="sample-mode" checked={mode === 'codec'} onChange={() => setMode('codec')} /> Uplink bytes and fPort (codec)
          </label>
          <label className="inline">
            <input type="radio" name="sample-mode" checked={mode === 'json'} onChange={() => setMode('json')} /> JSON sample input
          </label>
        </div>
        {mode === 'codec' ? (
          <>
            <UplinkBytesFields bytes={bytes} helpId="bytes-help" labels={{ bytes: 'Payload bytes', encoding: 'Bytes as', fPort: 'fPort' }} />
            <label>
              Variables (the node configuration, as JSON)
              <textarea rows={3} value={variables} onChange={(event) => setVariables(event.target.value)} spellCheck={false} />
            </label>
            {canLoadRaw ? (
              <div className="filters">
                <label>
                  Stored raw message id
                  <input value={rawId} onChange={(event) => setRawId(event.target.value)} spellCheck={false} />
                </label>
                <button type="button" onClick={() => loadRaw.mutate()} disabled={!rawId.trim() || loadRaw.isPending}>
                  Use its payload
                </button>
              </div>
            ) : null}
            {loadRaw.error ? <ErrorBox error={loadRaw.error} /> : null}
            {loaded ? (
              <p className="notice" role="status">
                Bytes, fPort and time taken from raw message <code>{loaded}</code>.
              </p>
            ) : null}
          </>
        ) : (
          <CodeEditor value={sampleJson} onChange={setSampleJson} language="json" label="Sample input as JSON" height="12rem" />
        )}
      </fieldset>
      <details>
        <summary>Configuration schema and notes</summary>
        <p className="small">A JSON Schema of the node configuration (optional); its defaults fill the sample's configuration.</p>
        <CodeEditor value={schemaJson} onChange={setSchemaJson} language="json" label="Configuration schema as JSON" height="10rem" />
        <label>
          Notes
          <textarea rows={2} maxLength={2000} value={notes} onChange={(event) => setNotes(event.target.value)} />
        </label>
      </details>
      {create.error ? <ErrorBox error={create.error} /> : null}
      <div className="row">
        <button type="submit" className="primary" disabled={create.isPending}>
          Save as a new draft
        </button>
      </div>
    </form>
  );
}
