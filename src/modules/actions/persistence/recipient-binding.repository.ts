import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { AccessService, accessOfUsers, TenantAccess } from '../../../shared/access/access.service';
import { resolveResource } from '../../../shared/access/resolve-resource';
import type { Principal } from '../../../shared/auth/principal';
import type { ConstraintErrors } from '../../../shared/database/pg-errors';
import { ConflictError, ResourceNotFoundError, ValidationFailedError } from '../../../shared/errors/domain-error';
import type { FieldViolation } from '../../../shared/errors/error-codes';
import { DeviceTypeEntity } from '../../device-types';
import { readUserContacts } from '../../identity';
import { OrganizationUnitEntity } from '../../tenancy';
import { EmailTemplateEntity } from './email-template.entity';
import { RecipientBindingEntity } from './recipient-binding.entity';

/** A template has at most this many active bindings. */
export const MAX_BINDINGS_PER_TEMPLATE = 500;

export const recipientBindingNotFound = () => new ResourceNotFoundError('recipient_binding');
export const duplicateBinding = () =>
  new ConflictError('duplicate_binding', 'The template already has an active binding of this recipient for the same device type and unit.');
export const maxBindings = () =>
  new ConflictError('max_bindings', `A template has at most ${MAX_BINDINGS_PER_TEMPLATE} active recipient bindings.`);

/** A concurrent create or reactivation that passed the checks still answers 409 `duplicate_binding`, never 500. */
export const RECIPIENT_BINDING_CONSTRAINTS: ConstraintErrors = { recipient_bindings_active_key: duplicateBinding };

export interface ResolvedBinding {
  access: TenantAccess;
  binding: RecipientBindingEntity;
}

/** References a request names, checked against the tenant (missing or foreign: 400 `reference_not_found`). */
export interface BindingReferences {
  emailTemplateId?: string;
  userId?: string;
  deviceTypeId?: string | null;
  organizationUnitId?: string | null;
}

const notFound = (path: string, what: string): FieldViolation => ({ path, rule: 'reference_not_found', message: `This tenant has no ${what} with this id.` });

/**
 * Recipient bindings: rows, visibility (a tenant-node object: any effective grant in its tenant sees it; everyone else
 * gets the 404 of a missing one), the tenant checks of what a binding names, and the limit per template.
 */
@Injectable()
export class RecipientBindingRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly accessService: AccessService,
  ) {}

  async resolve(principal: Principal, recipientBindingId: string): Promise<ResolvedBinding> {
    const { resource: binding, access } = await resolveResource(this.accessService, principal, {
      load: () => this.dataSource.manager.findOneBy(RecipientBindingEntity, { recipientBindingId }),
      notFound: recipientBindingNotFound,
    });
    return { access, binding };
  }

  /** The binding locked until the end of the transaction. */
  async lock(manager: EntityManager, recipientBindingId: string): Promise<RecipientBindingEntity> {
    const binding = await manager.findOne(RecipientBindingEntity, { where: { recipientBindingId }, lock: { mode: 'pessimistic_write' } });
    if (!binding) throw recipientBindingNotFound();
    return binding;
  }

  /**
   * 400 `reference_not_found` for each id that names nothing in the tenant, under `<location>.<field>`: the template,
   * the device type, the unit, and the user, who must be a member of the tenant (an effective grant in it).
   */
  async assertReferences(manager: EntityManager, tenantId: string, refs: BindingReferences, location: 'body' | 'query'): Promise<void> {
    const problems: FieldViolation[] = [];
    if (refs.emailTemplateId !== undefined && !(await manager.existsBy(EmailTemplateEntity, { emailTemplateId: refs.emailTemplateId, tenantId }))) {
      problems.push(notFound(`${location}.emailTemplateId`, 'e-mail template'));
    }
    if (refs.userId !== undefined) {
      const contact = (await readUserContacts(manager, [refs.userId])).get(refs.userId);
      const access = contact ? (await accessOfUsers(manager, tenantId, [{ userId: contact.userId, isPlatformAdmin: false }])).get(contact.userId) : undefined;
      if (!access || access.grants.length === 0) {
        problems.push({ path: `${location}.userId`, rule: 'reference_not_found', message: 'No member of this tenant has this id (the user needs an active grant in it).' });
      }
    }
    if (refs.deviceTypeId && !(await manager.existsBy(DeviceTypeEntity, { deviceTypeId: refs.deviceTypeId, tenantId }))) {
      problems.push(notFound(`${location}.deviceTypeId`, 'device type'));
    }
    if (refs.organizationUnitId && !(await manager.existsBy(OrganizationUnitEntity, { organizationUnitId: refs.organizationUnitId, tenantId }))) {
      problems.push(notFound(`${location}.organizationUnitId`, 'organization unit'));
    }
    if (problems.length > 0) throw new ValidationFailedError(problems);
  }

  /**
   * 409 `max_bindings` when the template already has 500 active bindings. Takes the template's row lock first, so two
   * parallel creates cannot both pass the count.
   */
  async assertRoomFor(manager: EntityManager, emailTemplateId: string): Promise<void> {
    await manager.query(`SELECT 1 FROM email_templates WHERE email_template_id = $1 FOR UPDATE`, [emailTemplateId]);
    const active = await manager.countBy(RecipientBindingEntity, { emailTemplateId, status: 'active' });
    if (active >= MAX_BINDINGS_PER_TEMPLATE) throw maxBindings();
  }

  /** The current addresses of the users the bindings name (a `user` binding's `email`). */
  async userEmails(manager: EntityManager, bindings: readonly RecipientBindingEntity[]): Promise<Map<string, string>> {
    const contacts = await readUserContacts(manager, bindings.flatMap((binding) => (binding.userId ? [binding.userId] : [])));
    return new Map([...contacts.values()].map((contact) => [contact.userId, contact.email]));
  }
}
