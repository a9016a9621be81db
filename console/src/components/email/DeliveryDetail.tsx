import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, unwrap } from '../../api/client';
import { QueryState, formatTime } from '../status';

function Bodies({ subject, bodyText, bodyHtml }: { subject: string | null; bodyText: string | null; bodyHtml: string | null }) {
  if (subject === null && bodyText === null) return <p className="small">Not rendered: the e-mail never got to a first attempt.</p>;
  return (
    <div className="email-side-by-side">
      <section aria-label="Text part">
        <h4>Subject</h4>
        <pre>{subject}</pre>
        <h4>Text</h4>
        <pre>{bodyText}</pre>
      </section>
      <section aria-label="HTML part">
        <h4>HTML</h4>
        {bodyHtml === null ? (
          <p className="small">No HTML part.</p>
        ) : (
          <iframe className="email-html" title={`HTML body: ${subject ?? ''}`} sandbox="" srcDoc={bodyHtml} />
        )}
      </section>
    </div>
  );
}

/** One delivery: where it came from, every attempt with the SMTP server's reply or the connection error, and what was sent. */
export function DeliveryDetail({ tenantNumber, deliveryId, showBodies = true }: { tenantNumber: number; deliveryId: string; showBodies?: boolean }) {
  const delivery = useQuery({
    queryKey: ['email-delivery', deliveryId],
    queryFn: () => unwrap(api.GET('/v1/email-deliveries/{emailDeliveryId}', { params: { path: { emailDeliveryId: deliveryId } } })),
  });
  return (
    <QueryState query={delivery} what="the delivery">
      {(data) => (
        <div className="email-detail" data-testid="delivery-detail">
          <dl className="facts">
            <dt>Message-ID</dt>
            <dd>
              <code>{data.messageId ?? '—'}</code>
            </dd>
            <dt>Execution</dt>
            <dd>
              <Link to={`/t/${tenantNumber}/executions/${data.flowExecutionId}${data.flowId ? `?flowId=${data.flowId}` : ''}`}>{data.flowExecutionId}</Link> (node <code>{data.nodeId}</code>)
            </dd>
            <dt>Device</dt>
            <dd>
              <Link to={`/t/${tenantNumber}/devices/${data.deviceId}`}>{data.deviceId}</Link>
            </dd>
            <dt>Sent</dt>
            <dd>{formatTime(data.sentAt)}</dd>
          </dl>
          <h4>Attempts</h4>
          {data.attempts.length === 0 ? (
            <p className="small">No attempt yet.</p>
          ) : (
            <div className="table-wrap">
              <table>
                <caption className="visually-hidden">Attempts</caption>
                <thead>
                  <tr>
                    <th scope="col">At</th>
                    <th scope="col">SMTP code</th>
                    <th scope="col">Reply or error</th>
                  </tr>
                </thead>
                <tbody>
                  {data.attempts.map((attempt, index) => (
                    <tr key={index}>
                      <td>{formatTime(attempt.at)}</td>
                      <td>{attempt.smtpCode ?? '—'}</td>
                      <td className="email-reply">
                        {attempt.smtpReply ?? null}
                        {attempt.error ? (
                          <>
                            {attempt.smtpReply ? ' · ' : null}
                            <code>{attempt.error.code}</code> {attempt.error.message}
                          </>
                        ) : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {showBodies ? <Bodies subject={data.subject} bodyText={data.bodyText} bodyHtml={data.bodyHtml} /> : null}
        </div>
      )}
    </QueryState>
  );
}

/** One dead letter: the rendered message it holds and its delivery's attempts. */
export function DeadLetterDetail({ tenantNumber, deadLetterId }: { tenantNumber: number; deadLetterId: string }) {
  const letter = useQuery({
    queryKey: ['dead-letter', deadLetterId],
    queryFn: () => unwrap(api.GET('/v1/dead-letters/{deadLetterId}', { params: { path: { deadLetterId } } })),
  });
  return (
    <QueryState query={letter} what="the dead letter">
      {(data) => (
        <div className="email-detail" data-testid="dead-letter-detail">
          <dl className="facts">
            <dt>First attempt</dt>
            <dd>{formatTime(data.firstAttemptAt)}</dd>
            <dt>Last attempt</dt>
            <dd>{formatTime(data.lastAttemptAt)}</dd>
          </dl>
          <DeliveryDetail tenantNumber={tenantNumber} deliveryId={data.emailDeliveryId} showBodies={false} />
          <Bodies subject={data.subject} bodyText={data.bodyText} bodyHtml={data.bodyHtml} />
        </div>
      )}
    </QueryState>
  );
}
