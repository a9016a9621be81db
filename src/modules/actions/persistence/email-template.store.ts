import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { AccessService, TenantAccess } from '../../../shared/access/access.service';
import { resolveResource } from '../../../shared/access/resolve-resource';
import type { Principal } from '../../../shared/auth/principal';
import { assertLockVersion } from '../../../shared/concurrency/if-match';
import type { ConstraintErrors } from '../../../shared/database/pg-errors';
import { ConflictError, ResourceNotFoundError } from '../../../shared/errors/domain-error';
import { CursorCodec } from '../../../shared/pagination/cursor-codec';
import { VersionStore } from '../../../shared/versioning/version-store';
import { EmailTemplateEntity } from './email-template.entity';

export const emailTemplateNotFound = () => new ResourceNotFoundError('email_template');
export const emailTemplateVersionNotFound = () => new ResourceNotFoundError('email_template_version');
export const duplicateTemplateKey = () => new ConflictError('duplicate_key', 'An e-mail template with this key already exists in the tenant.');

/** A concurrent create that passed the key check still answers 409 `duplicate_key`, never 500. */
export const EMAIL_TEMPLATE_CONSTRAINTS: ConstraintErrors = { email_templates_tenant_id_key_key: duplicateTemplateKey };

/** A template with the number of its active version, as its responses show it. */
export interface EmailTemplateView {
  emailTemplateId: string;
  tenantId: string;
  key: string;
  name: string;
  description: string;
  activeVersionId: string | null;
  activeVersionNumber: number | null;
  lockVersion: number;
  createdAt: Date;
  updatedAt: Date;
}

const VIEW_SQL = `
  SELECT t.email_template_id AS "emailTemplateId", t.tenant_id AS "tenantId", t.key, t.name, t.description,
         t.active_version_id AS "activeVersionId", v.version_number AS "activeVersionNumber",
         t.lock_version AS "lockVersion", t.created_at AS "createdAt", t.updated_at AS "updatedAt"
    FROM email_templates t
    LEFT JOIN email_template_versions v ON v.email_template_version_id = t.active_version_id`;

export interface ResolvedEmailTemplate {
  access: TenantAccess;
  template: EmailTemplateEntity;
}

/**
 * E-mail templates for the actions API: the rows, their versions (through the shared `VersionStore`: numbering,
 * release, deprecation, activation with `If-Match`) and visibility. A template is a tenant-node object: any effective
 * grant in its tenant sees it; every other caller gets exactly the 404 of a missing template.
 */
@Injectable()
export class EmailTemplateStore {
  readonly versions: VersionStore;

  constructor(
    private readonly dataSource: DataSource,
    private readonly accessService: AccessService,
    codec: CursorCodec,
  ) {
    this.versions = new VersionStore(
      {
        parentEntityType: 'email_template',
        versionEntityType: 'email_template_version',
        parent: {
          table: 'email_templates',
          id: 'email_template_id',
          activeVersion: 'active_version_id',
          lockVersion: 'lock_version',
          tenant: 'tenant_id',
          updatedAt: 'updated_at',
        },
        version: {
          table: 'email_template_versions',
          id: 'email_template_version_id',
          parent: 'email_template_id',
          number: 'version_number',
          status: 'status',
        },
        // An e-mail template's activation is one event, whichever way the number moves.
        auditsRollback: false,
        parentNotFound: emailTemplateNotFound,
        versionNotFound: emailTemplateVersionNotFound,
      },
      codec,
    );
  }

  /** The template if its tenant is visible to the caller; otherwise exactly the 404 of a missing template. */
  async resolve(principal: Principal, emailTemplateId: string): Promise<ResolvedEmailTemplate> {
    const { resource: template, access } = await resolveResource(this.accessService, principal, {
      load: () => this.dataSource.manager.findOneBy(EmailTemplateEntity, { emailTemplateId }),
      notFound: emailTemplateNotFound,
    });
    return { access, template };
  }

  async view(manager: EntityManager, emailTemplateId: string): Promise<EmailTemplateView> {
    const [row] = await this.views(manager, [emailTemplateId]);
    if (!row) throw emailTemplateNotFound();
    return row;
  }

  /** The views of `ids`, in the order given. */
  async views(manager: EntityManager, ids: readonly string[]): Promise<EmailTemplateView[]> {
    if (ids.length === 0) return [];
    const rows = await manager.query<EmailTemplateView[]>(`${VIEW_SQL} WHERE t.email_template_id = ANY ($1::uuid[])`, [ids]);
    const byId = new Map(rows.map((row) => [row.emailTemplateId, { ...row, activeVersionNumber: row.activeVersionNumber === null ? null : Number(row.activeVersionNumber) }]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /** The template locked until the end of the transaction, at the version `If-Match` named (else 409). */
  async lock(manager: EntityManager, emailTemplateId: string, expectedLockVersion?: number): Promise<EmailTemplateEntity> {
    const template = await manager.findOne(EmailTemplateEntity, { where: { emailTemplateId }, lock: { mode: 'pessimistic_write' } });
    if (!template) throw emailTemplateNotFound();
    if (expectedLockVersion !== undefined) assertLockVersion(template.lockVersion, expectedLockVersion);
    return template;
  }

  async assertKeyAvailable(manager: EntityManager, tenantId: string, key: string): Promise<void> {
    if (await manager.existsBy(EmailTemplateEntity, { tenantId, key })) throw duplicateTemplateKey();
  }
}
