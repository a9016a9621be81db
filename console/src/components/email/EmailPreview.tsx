import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, unwrap } from '../../api/client';
import { ApiError } from '../../api/errors';
import { ErrorBox } from '../status';
import { ExecutionPicker } from './ExecutionPicker';
import type { Rendered, TemplateVersion } from './lookups';

/**
 * A version's texts next to what they render to for a chosen execution (the render API sends nothing), and a test
 * send of that rendering to one address.
 */
export function EmailPreview({ tenantNumber, version, canSend }: { tenantNumber: number; version: TemplateVersion; canSend: boolean }) {
  const [executionId, setExecutionId] = useState('');
  const path = { templateId: version.emailTemplateId, versionId: version.emailTemplateVersionId };
  const render = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/v1/email-templates/{templateId}/versions/{versionId}/render', {
          params: { path },
          body: executionId ? { flowExecutionId: executionId } : {},
        }),
      ),
  });
  return (
    <section className="card email-card" aria-labelledby="preview-title">
      <h2 id="preview-title">Preview of version {version.versionNumber}</h2>
      <form
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          render.mutate();
        }}
      >
        <ExecutionPicker
          tenantNumber={tenantNumber}
          value={executionId}
          onChange={(id) => {
            setExecutionId(id);
            render.reset();
          }}
        />
        <div className="row">
          <button type="submit" className="primary" disabled={render.isPending}>
            Render preview
          </button>
          {executionId ? (
            <span className="small">
              Execution <Link to={`/t/${tenantNumber}/executions/${executionId}`}>{executionId.slice(0, 8)}…</Link>
            </span>
          ) : (
            <span className="small">Without an execution every variable prints as "".</span>
          )}
        </div>
      </form>
      {render.error ? <ErrorBox error={render.error} /> : null}
      {render.data ? <SideBySide version={version} rendered={render.data} /> : null}
      {canSend ? <TestSend version={version} executionId={executionId} /> : null}
    </section>
  );
}

function SideBySide({ version, rendered }: { version: TemplateVersion; rendered: Rendered }) {
  return (
    <div className="email-side-by-side" data-testid="email-preview">
      <section aria-label="Template">
        <h3>Template</h3>
        <h4>Subject</h4>
        <pre>{version.subject}</pre>
        <h4>Text</h4>
        <pre>{version.bodyText}</pre>
        <h4>HTML source</h4>
        {version.bodyHtml === null ? <p className="small">No HTML part: a text-only e-mail.</p> : <pre>{version.bodyHtml}</pre>}
      </section>
      <section aria-label="Rendered">
        <h3>Rendered</h3>
        <h4>Subject</h4>
        <pre data-testid="rendered-subject">{rendered.subject}</pre>
        <h4>Text</h4>
        <pre data-testid="rendered-text">{rendered.bodyText}</pre>
        <h4>HTML</h4>
        {rendered.bodyHtml === null ? (
          <p className="small">No HTML part.</p>
        ) : (
          // A sandbox without scripts and with an opaque origin: the template's HTML is shown, never run.
          <iframe className="email-html" title="Rendered HTML body" sandbox="" srcDoc={rendered.bodyHtml} />
        )}
      </section>
    </div>
  );
}

function TestSend({ version, executionId }: { version: TemplateVersion; executionId: string }) {
  const [to, setTo] = useState('');
  const send = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/v1/email-templates/{templateId}/versions/{versionId}/test-send', {
          params: { path: { templateId: version.emailTemplateId, versionId: version.emailTemplateVersionId } },
          body: { to, ...(executionId ? { flowExecutionId: executionId } : {}) },
        }),
      ),
  });
  const refused = send.error instanceof ApiError ? send.error.details : null;
  return (
    <form
      className="email-test-send"
      aria-label="Test send"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        send.mutate();
      }}
    >
      <h3>Test send</h3>
      <p className="small">Sends this version, rendered for the execution chosen above, to one address now; the SMTP server's reply is shown.</p>
      <div className="row">
        <label>
          Send a test to
          <input type="email" required maxLength={254} value={to} onChange={(event) => setTo(event.target.value)} />
        </label>
        <button type="submit" disabled={send.isPending}>
          Send test e-mail
        </button>
      </div>
      {send.error ? <ErrorBox error={send.error} /> : null}
      {refused && typeof refused.smtpReply === 'string' ? (
        <p className="small">
          SMTP reply: <code>{refused.smtpReply}</code>
        </p>
      ) : null}
      {send.data ? (
        <p className="notice" role="status">
          Sent: <code>{send.data.smtpReply}</code> (Message-ID <code>{send.data.messageId}</code>)
        </p>
      ) : null}
    </form>
  );
}
