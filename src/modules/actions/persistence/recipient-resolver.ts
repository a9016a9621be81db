import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { accessOfUsers, type UnitRef } from '../../../shared/access/access.service';
import { readUserContacts } from '../../identity';
import { resolveDeviceSql } from '../../devices';
import type { RecipientResolver, ResolvedRecipient } from '../domain/delivery-ports';

/** At most this many recipients per action request. */
export const MAX_RECIPIENTS_PER_ACTION = 50;

interface DeviceRow {
  tenantId: string;
  deviceTypeId: string;
  organization_unit_id: string | null;
  ancestor_ids: string[] | null;
}

interface BindingRow {
  recipient_binding_id: string;
  recipient_type: 'user' | 'email';
  user_id: string | null;
  email: string | null;
}

/**
 * Resolves the recipients of one `email-action` request from the template's active bindings, inside the execution's
 * transaction. A binding matches when its device type is null or the device's, and its unit is null, the device's
 * current unit, or (with `includeDescendants`) an ancestor of it; an unassigned device matches only bindings without
 * a unit. A `user` binding goes to the user's current address; a disabled user is skipped. A user who cannot see the
 * device (no effective grant with `devices:read` covering its current unit, or a tenant-level one for an unassigned
 * device) is kept with `recipient_out_of_scope`, so the delivery log shows why nothing went out. A platform admin holds
 * every permission in every tenant, so is never out of scope. Addresses are deduplicated in lower case (an in-scope
 * occurrence wins over a suppressed one) in binding order (`createdAt`, id), and cut to 50.
 */
@Injectable()
export class StoredRecipientResolver implements RecipientResolver {
  async resolve(
    manager: EntityManager,
    request: { tenantId: string; emailTemplateId: string; deviceId: string },
  ): Promise<ResolvedRecipient[]> {
    const [device] = await manager.query<DeviceRow[]>(resolveDeviceSql(), [request.deviceId]);
    if (!device || device.tenantId !== request.tenantId) return [];
    const unit: UnitRef | null = device.organization_unit_id
      ? { organizationUnitId: device.organization_unit_id, ancestorIds: device.ancestor_ids ?? [] }
      : null;
    const bindings = await manager.query<BindingRow[]>(
      `SELECT recipient_binding_id, recipient_type, user_id, email
         FROM recipient_bindings
        WHERE email_template_id = $1 AND tenant_id = $2 AND status = 'active'
          AND (device_type_id IS NULL OR device_type_id = $3)
          AND (organization_unit_id IS NULL
               OR organization_unit_id = $4::uuid
               OR (include_descendants AND organization_unit_id = ANY ($5::uuid[])))
        ORDER BY created_at, recipient_binding_id`,
      [request.emailTemplateId, request.tenantId, device.deviceTypeId, unit?.organizationUnitId ?? null, unit?.ancestorIds ?? []],
    );
    if (bindings.length === 0) return [];

    const userIds = bindings.flatMap((binding) => (binding.user_id ? [binding.user_id] : []));
    const contacts = await readUserContacts(manager, userIds);
    const activeUsers = [...contacts.values()].filter((contact) => contact.status === 'active');
    const access = await accessOfUsers(manager, request.tenantId, activeUsers);

    const byAddress = new Map<string, ResolvedRecipient>();
    for (const binding of bindings) {
      let recipient: ResolvedRecipient;
      if (binding.recipient_type === 'email') {
        recipient = { email: binding.email!.toLowerCase(), recipientBindingId: binding.recipient_binding_id, userId: null, suppressedReason: null };
      } else {
        const contact = contacts.get(binding.user_id!);
        if (!contact || contact.status !== 'active') continue;
        const userAccess = access.get(contact.userId);
        const seesDevice = userAccess !== undefined && (unit ? userAccess.covers('devices:read', unit) : userAccess.can('devices:read', 'T'));
        recipient = {
          email: contact.email.toLowerCase(),
          recipientBindingId: binding.recipient_binding_id,
          userId: contact.userId,
          suppressedReason: seesDevice ? null : 'recipient_out_of_scope',
        };
      }
      const seen = byAddress.get(recipient.email);
      if (!seen) byAddress.set(recipient.email, recipient);
      else if (seen.suppressedReason !== null && recipient.suppressedReason === null) byAddress.set(recipient.email, recipient);
    }
    return [...byAddress.values()].slice(0, MAX_RECIPIENTS_PER_ACTION);
  }
}
