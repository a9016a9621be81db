import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** What flow validation needs to know of an e-mail template named by an `email-action` node. */
export interface EmailTemplateInfo {
  emailTemplateId: string;
  tenantId: string;
  hasActiveVersion: boolean;
}

/** The tenant's e-mail templates as flow validation sees them (bound to `EMAIL_TEMPLATE_LOOKUP`). */
export interface EmailTemplateLookup {
  /**
   * The templates among `ids` that exist (in any tenant: the caller compares `tenantId`), keyed by id; a missing
   * or malformed id is simply absent. Reads through `manager`: the caller may be inside a transaction (the
   * release gate), where a second pool connection is banned.
   */
  findTemplates(manager: EntityManager, ids: readonly string[]): Promise<Map<string, EmailTemplateInfo>>;
}

export const EMAIL_TEMPLATE_LOOKUP = Symbol('EmailTemplateLookup');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The lookup over the stored templates: a template has an active version when its active pointer is set. */
@Injectable()
export class StoredEmailTemplates implements EmailTemplateLookup {
  async findTemplates(manager: EntityManager, ids: readonly string[]): Promise<Map<string, EmailTemplateInfo>> {
    const wanted = [...new Set(ids.filter((id) => UUID.test(id)).map((id) => id.toLowerCase()))];
    if (wanted.length === 0) return new Map();
    const rows = await manager.query<{ email_template_id: string; tenant_id: string; has_active_version: boolean }[]>(
      `SELECT email_template_id, tenant_id, active_version_id IS NOT NULL AS has_active_version
         FROM email_templates WHERE email_template_id = ANY ($1::uuid[])`,
      [wanted],
    );
    const found = new Map<string, EmailTemplateInfo>();
    for (const row of rows) {
      const info = { emailTemplateId: row.email_template_id, tenantId: row.tenant_id, hasActiveVersion: row.has_active_version };
      found.set(row.email_template_id, info);
    }
    // Keyed by the ids as asked (a node may name a template in upper case).
    for (const id of ids) {
      const info = found.get(id.toLowerCase());
      if (info) found.set(id, info);
    }
    return found;
  }
}
