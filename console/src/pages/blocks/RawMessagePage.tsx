import { useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import { JsonBlock } from '../../components/blocks/GateReport';
import { base64ToBytes, hexDump, payloadBytes } from '../../components/blocks/bytes';
import { CopyButton, QueryState, formatTime } from '../../components/status';
import { useTenantNumber } from '../../tenant';

/** JSON text parsed, or undefined when it is not JSON. */
function parsedJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

/** The exact request body: JSON pretty-printed beside the exact text, binary as a hex dump. */
function BodyView({ body }: { body: { contentType: string; encoding: 'utf8' | 'base64'; data: string } }) {
  if (body.encoding === 'base64') {
    const bytes = base64ToBytes(body.data);
    return (
      <>
        <p className="small">
          {bytes.length} bytes of <code>{body.contentType}</code>, not valid UTF-8: shown as hex.
        </p>
        <pre className="hex" aria-label="Body as a hex dump" data-testid="raw-body-hex" tabIndex={0}>
          {hexDump(bytes)}
        </pre>
        <details>
          <summary>Body as base64</summary>
          <pre aria-label="Body as base64" tabIndex={0}>
            {body.data}
          </pre>
        </details>
      </>
    );
  }
  const json = /json/i.test(body.contentType) || /^\s*[[{]/.test(body.data) ? parsedJson(body.data) : undefined;
  return (
    <>
      <p className="small">
        <code>{body.contentType}</code>
        {json ? ', pretty-printed below; the exact text follows.' : '.'}
      </p>
      {json ? <JsonBlock value={json.value} label="Body, pretty-printed JSON" testId="raw-body-json" /> : null}
      <details open={!json}>
        <summary>Exact body</summary>
        <pre aria-label="Exact body" data-testid="raw-body-exact" tabIndex={0}>
          {body.data}
        </pre>
      </details>
      <div className="row">
        <CopyButton text={body.data} label="Copy the exact body" />
      </div>
    </>
  );
}

/** One stored raw message with its exact body, the payload read from it and its connection data (the read is audited). */
export function RawMessagePage() {
  const tenantNumber = useTenantNumber();
  const { rawMessageId = '' } = useParams();
  const [params] = useSearchParams();
  const receivedAt = params.get('receivedAt') ?? undefined;
  const message = useQuery({
    queryKey: ['raw-message', rawMessageId],
    queryFn: () =>
      unwrap(
        api.GET('/v1/raw-ingestion-messages/{rawIngestionMessageId}', {
          params: { path: { rawIngestionMessageId: rawMessageId }, query: receivedAt ? { receivedAt } : {} },
        }),
      ),
  });
  return (
    <QueryState query={message} what="the raw message">
      {(data) => {
        const bytes = data.rawPayload ? payloadBytes(data.rawPayload) : null;
        return (
          <section aria-labelledby="raw-message-title">
            <p className="small">
              <Link to={`/t/${tenantNumber}/raw-messages`}>Raw messages</Link> / {formatTime(data.receivedAt)}
            </p>
            <h1 id="raw-message-title">Raw message</h1>
            <dl className="facts">
              <dt>Id</dt>
              <dd>
                <code>{data.rawIngestionMessageId}</code> <CopyButton text={data.rawIngestionMessageId} label="Copy the id" />
              </dd>
              <dt>Received</dt>
              <dd>{formatTime(data.receivedAt)}</dd>
              <dt>Observed</dt>
              <dd>{formatTime(data.observedAt)}</dd>
              <dt>Source</dt>
              <dd>
                {data.source} ({data.event})
              </dd>
              <dt>Status</dt>
              <dd>
                <span className={`badge ${data.processingStatus}`}>{data.processingStatus}</span> {data.processingReason ?? ''}
              </dd>
              <dt>DevEUI</dt>
              <dd>{data.devEui ? <code>{data.devEui}</code> : '—'}</dd>
              <dt>Device</dt>
              <dd>{data.deviceId ? <Link to={`/t/${tenantNumber}/devices/${data.deviceId}`}>{data.deviceId}</Link> : '—'}</dd>
              <dt>Execution</dt>
              <dd>{data.flowExecutionId ? <Link to={`/t/${tenantNumber}/executions/${data.flowExecutionId}`}>{data.flowExecutionId}</Link> : '—'}</dd>
              <dt>Size</dt>
              <dd>{data.sizeBytes} bytes</dd>
              <dt>Pinned by a fixture</dt>
              <dd>{data.pinned ? 'yes (kept past retention)' : 'no'}</dd>
            </dl>
            <h2>Body</h2>
            <BodyView body={data.body} />
            <h2>Payload</h2>
            {data.rawPayload ? (
              <>
                <p className="small">
                  As read from the body: <code>{data.rawPayload.encoding}</code>
                  {bytes ? `, ${bytes.length} bytes` : ''}. A block's codec playground takes this message's id to run a codec on its payload and fPort.
                </p>
                {bytes ? (
                  <pre className="hex" aria-label="Payload as a hex dump" data-testid="raw-payload-hex" tabIndex={0}>
                    {hexDump(bytes)}
                  </pre>
                ) : (
                  <pre aria-label="Payload" tabIndex={0}>
                    {data.rawPayload.data}
                  </pre>
                )}
              </>
            ) : (
              <p className="small">No uplink payload was read from this message.</p>
            )}
            <h2>Connection data</h2>
            {data.connectionData ? <JsonBlock value={data.connectionData} label="Connection data" /> : <p className="small">None.</p>}
          </section>
        );
      }}
    </QueryState>
  );
}
