import { useEffect, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import { canTenantWide, useMe } from '../../auth/me';
import { WriteError, ifMatch } from '../../components/Conflict';
import { FieldErrors } from '../../components/email/FieldErrors';
import { EmailPreview } from '../../components/email/EmailPreview';
import { RecipientBindings } from '../../components/email/RecipientBindings';
import type { EmailTemplate, TemplateVersion, TemplateVersionSummary } from '../../components/email/lookups';
import { Empty, QueryState, formatTime } from '../../components/status';
import { useTenantNumber } from '../../tenant';

const VARIABLES =
  '{{tenant.name}}, {{device.name}}, {{device.devEui}}, {{device.metadata.<key>}}, {{organizationUnit.name}}, {{organizationUnit.key}}, {{values.<fieldKey>}}, {{observedAt}}, {{flow.name}}, {{parameters.<key>}}';

interface Draft {
  subject: string;
  bodyText: string;
  bodyHtml: string;
}

/**
 * One e-mail template: its versions (release, deprecate, activate with If-Match), the chosen version with a rendered
 * preview and a test send, a form for a new draft, and the template's recipient bindings.
 */
export function EmailTemplatePage() {
  const tenantNumber = useTenantNumber();
  const { templateId = '' } = useParams();
  const [search, setSearch] = useSearchParams();
  const me = useMe(tenantNumber);
  const canWrite = canTenantWide(me.data, tenantNumber, 'actions:write');
  const canRelease = canTenantWide(me.data, tenantNumber, 'actions:release');
  const [draft, setDraft] = useState<Draft | null>(null);
  const template = useQuery({
    queryKey: ['email-template', templateId],
    queryFn: () => unwrap(api.GET('/v1/email-templates/{templateId}', { params: { path: { templateId } } })),
  });
  const versions = useQuery({
    queryKey: ['email-template-versions', templateId],
    queryFn: () => unwrap(api.GET('/v1/email-templates/{templateId}/versions', { params: { path: { templateId }, query: { limit: 100 } } })),
  });
  const chosenId = search.get('version') ?? template.data?.activeVersionId ?? versions.data?.items[0]?.emailTemplateVersionId ?? null;
  const choose = (versionId: string) => setSearch({ version: versionId }, { replace: true });
  return (
    <QueryState query={template} what="the e-mail template">
      {(data) => (
        <section aria-labelledby="template-title">
          <p className="small">
            <Link to={`/t/${tenantNumber}/email-templates`}>E-mail templates</Link> / {data.name}
          </p>
          <h1 id="template-title">{data.name}</h1>
          <dl className="facts">
            <dt>Key</dt>
            <dd>
              <code>{data.key}</code>
            </dd>
            <dt>Active version</dt>
            <dd>{data.activeVersionNumber === null ? 'None: an email-action node of this template sends nothing yet' : `v${data.activeVersionNumber}`}</dd>
            <dt>Description</dt>
            <dd>{data.description || '—'}</dd>
          </dl>
          {canWrite ? <EditTemplate template={data} onReload={() => void template.refetch()} /> : null}
          <h2>Versions</h2>
          <QueryState query={versions} what="versions">
            {(page) =>
              page.items.length === 0 ? (
                <Empty>No versions yet{canWrite ? ': write the first one below.' : '.'}</Empty>
              ) : (
                <div className="table-wrap">
                  <table>
                    <caption className="visually-hidden">Versions, newest first</caption>
                    <thead>
                      <tr>
                        <th scope="col">Version</th>
                        <th scope="col">Status</th>
                        <th scope="col">Subject</th>
                        <th scope="col">Created</th>
                        <th scope="col">
                          <span className="visually-hidden">Actions</span>
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {page.items.map((version) => (
                        <VersionRow
                          key={version.emailTemplateVersionId}
                          template={data}
                          version={version}
                          chosen={version.emailTemplateVersionId === chosenId}
                          canRelease={canRelease}
                          onChoose={() => choose(version.emailTemplateVersionId)}
                          onReload={() => void Promise.all([template.refetch(), versions.refetch()])}
                        />
                      ))}
                    </tbody>
                  </table>
                  {page.nextCursor ? <p className="small">The newest 100 versions are listed; older ones can still be opened by their id (<code>?version=</code>).</p> : null}
                </div>
              )
            }
          </QueryState>
          {chosenId ? <ChosenVersion tenantNumber={tenantNumber} templateId={templateId} versionId={chosenId} canWrite={canWrite} onCopy={setDraft} /> : null}
          {canWrite ? <NewVersion templateId={templateId} draft={draft} onCreated={(version) => choose(version.emailTemplateVersionId)} /> : null}
          <RecipientBindings tenantNumber={tenantNumber} emailTemplateId={templateId} canWrite={canWrite} />
        </section>
      )}
    </QueryState>
  );
}

function EditTemplate({ template, onReload }: { template: EmailTemplate; onReload: () => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(template.name);
  const [description, setDescription] = useState(template.description);
  useEffect(() => {
    setName(template.name);
    setDescription(template.description);
  }, [template.lockVersion, template.name, template.description]);
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PATCH('/v1/email-templates/{templateId}', {
          params: { path: { templateId: template.emailTemplateId }, header: { 'If-Match': ifMatch(template.lockVersion) } },
          body: { name, description },
        }),
      ),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['email-template', template.emailTemplateId] }),
        queryClient.invalidateQueries({ queryKey: ['email-templates'] }),
      ]),
  });
  return (
    <details className="card">
      <summary>Rename or describe</summary>
      <form
        aria-label="Edit the template"
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          save.mutate();
        }}
      >
        <div className="grid2">
          <label>
            Name
            <input required maxLength={200} value={name} onChange={(event) => setName(event.target.value)} />
          </label>
          <label>
            Description
            <input maxLength={500} value={description} onChange={(event) => setDescription(event.target.value)} />
          </label>
        </div>
        {save.error ? (
          <WriteError
            error={save.error}
            what="template"
            onReload={() => {
              save.reset();
              onReload();
            }}
          />
        ) : null}
        {save.isSuccess ? <p className="notice">Saved.</p> : null}
        <button type="submit" className="primary" disabled={save.isPending}>
          Save
        </button>
      </form>
    </details>
  );
}

function VersionRow({
  template,
  version,
  chosen,
  canRelease,
  onChoose,
  onReload,
}: {
  template: EmailTemplate;
  version: TemplateVersionSummary;
  chosen: boolean;
  canRelease: boolean;
  onChoose: () => void;
  onReload: () => void;
}) {
  const queryClient = useQueryClient();
  const path = { templateId: template.emailTemplateId, versionId: version.emailTemplateVersionId };
  const done = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['email-template', template.emailTemplateId] }),
      queryClient.invalidateQueries({ queryKey: ['email-template-versions', template.emailTemplateId] }),
      queryClient.invalidateQueries({ queryKey: ['email-template-version', version.emailTemplateVersionId] }),
      queryClient.invalidateQueries({ queryKey: ['email-templates'] }),
    ]);
  const release = useMutation({
    mutationFn: () => unwrap(api.POST('/v1/email-templates/{templateId}/versions/{versionId}/release', { params: { path } })),
    onSuccess: done,
  });
  const deprecate = useMutation({
    mutationFn: () => unwrap(api.POST('/v1/email-templates/{templateId}/versions/{versionId}/deprecate', { params: { path } })),
    onSuccess: done,
  });
  const activate = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/v1/email-templates/{templateId}/activate', {
          params: { path: { templateId: template.emailTemplateId }, header: { 'If-Match': ifMatch(template.lockVersion) } },
          body: { emailTemplateVersionId: version.emailTemplateVersionId },
        }),
      ),
    onSuccess: done,
  });
  const active = template.activeVersionId === version.emailTemplateVersionId;
  const error = release.error ?? deprecate.error ?? activate.error;
  const label = `v${version.versionNumber}`;
  return (
    <>
      <tr className={chosen ? 'email-chosen' : undefined} aria-current={chosen ? 'true' : undefined}>
        <td>
          {label} {active ? <span className="badge active">active</span> : null}
        </td>
        <td>
          <span className={`badge ${version.status}`}>{version.status}</span>
        </td>
        <td className="email-subject">{version.subject}</td>
        <td>
          {formatTime(version.createdAt)}
          {version.releasedAt ? <span className="small"> · released {formatTime(version.releasedAt)}</span> : null}
        </td>
        <td>
          <div className="row tight">
            <button type="button" onClick={onChoose} disabled={chosen}>
              Open {label}
            </button>
            {canRelease && version.status === 'draft' ? (
              <button type="button" onClick={() => release.mutate()} disabled={release.isPending}>
                Release {label}
              </button>
            ) : null}
            {canRelease && version.status === 'released' && !active ? (
              <button type="button" className="primary" onClick={() => activate.mutate()} disabled={activate.isPending}>
                Activate {label}
              </button>
            ) : null}
            {canRelease && version.status === 'released' ? (
              <button
                type="button"
                className="danger"
                onClick={() =>
                  window.confirm(`Deprecate ${label}? It can never be activated again${active ? '; it stays active until another version is activated' : ''}.`) &&
                  deprecate.mutate()
                }
                disabled={deprecate.isPending}
              >
                Deprecate {label}
              </button>
            ) : null}
          </div>
        </td>
      </tr>
      {error ? (
        <tr>
          <td colSpan={5}>
            <WriteError
              error={error}
              what="template"
              onReload={() => {
                release.reset();
                deprecate.reset();
                activate.reset();
                onReload();
              }}
            />
          </td>
        </tr>
      ) : null}
    </>
  );
}

function ChosenVersion({
  tenantNumber,
  templateId,
  versionId,
  canWrite,
  onCopy,
}: {
  tenantNumber: number;
  templateId: string;
  versionId: string;
  canWrite: boolean;
  onCopy: (draft: Draft) => void;
}) {
  const version = useQuery({
    queryKey: ['email-template-version', versionId],
    queryFn: () => unwrap(api.GET('/v1/email-templates/{templateId}/versions/{versionId}', { params: { path: { templateId, versionId } } })),
  });
  return (
    <QueryState query={version} what="the version">
      {(data: TemplateVersion) => (
        <>
          {canWrite ? (
            <div className="row">
              <button
                type="button"
                onClick={() => {
                  onCopy({ subject: data.subject, bodyText: data.bodyText, bodyHtml: data.bodyHtml ?? '' });
                  document.getElementById('new-version')?.scrollIntoView();
                }}
              >
                Copy v{data.versionNumber} into a new draft
              </button>
            </div>
          ) : null}
          <EmailPreview key={data.emailTemplateVersionId} tenantNumber={tenantNumber} version={data} canSend={canWrite} />
        </>
      )}
    </QueryState>
  );
}

function NewVersion({ templateId, draft, onCreated }: { templateId: string; draft: Draft | null; onCreated: (version: TemplateVersion) => void }) {
  const queryClient = useQueryClient();
  const [subject, setSubject] = useState('');
  const [bodyText, setBodyText] = useState('');
  const [bodyHtml, setBodyHtml] = useState('');
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (draft === null) return;
    setSubject(draft.subject);
    setBodyText(draft.bodyText);
    setBodyHtml(draft.bodyHtml);
    setOpen(true);
  }, [draft]);
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/v1/email-templates/{templateId}/versions', {
          params: { path: { templateId } },
          body: { subject, bodyText, bodyHtml: bodyHtml.trim() === '' ? null : bodyHtml },
        }),
      ),
    onSuccess: async (version) => {
      await queryClient.invalidateQueries({ queryKey: ['email-template-versions', templateId] });
      setOpen(false);
      onCreated(version);
    },
  });
  return (
    <details className="card" id="new-version" open={open} onToggle={(event) => setOpen((event.target as HTMLDetailsElement).open)}>
      <summary>Write a new version (draft)</summary>
      <form
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          create.mutate();
        }}
      >
        <p className="small">
          Plain text with variables only: <code>{VARIABLES}</code>. Values are HTML-escaped in the HTML part. Versions never change: an edit is a new draft.
        </p>
        <label>
          Subject
          <input required maxLength={200} value={subject} onChange={(event) => setSubject(event.target.value)} />
        </label>
        <label>
          Text body
          <textarea className="email-textarea" required rows={6} maxLength={20000} value={bodyText} onChange={(event) => setBodyText(event.target.value)} />
        </label>
        <label>
          HTML body (optional; empty: a text-only e-mail)
          <textarea className="email-textarea" rows={6} maxLength={100000} value={bodyHtml} onChange={(event) => setBodyHtml(event.target.value)} />
        </label>
        {create.error ? <FieldErrors error={create.error} /> : null}
        <button type="submit" className="primary" disabled={create.isPending}>
          Save draft
        </button>
      </form>
    </details>
  );
}
