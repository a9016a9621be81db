import { fieldContractVersionSql } from '../../device-types';
import type { JsonObject, StoredUplinkRow } from '../../flows/engine';
import { storedMappingColumns, type StoredMappingRow } from '../../ingestion';
import type { RoutedDevice } from '../run/message-outcome';

/** A claimed pending raw message. `tenant_id` is the delivering credential's tenant (null: platform credential, MQTT). */
export interface ClaimedRow extends StoredUplinkRow, StoredMappingRow<JsonObject> {
  tenant_id: string | null;
  dev_eui: string | null;
  /** An earlier message of the same devEui is pending outside this claim: run it later, after that one. */
  blocked: boolean;
}

/**
 * The oldest pending messages not locked by another worker, in receipt order (receipt_seq), each with whether it must wait for
 * an earlier message of its devEui that is still pending outside this claim (locked by another worker). Such a
 * message stays pending (its lock ends with this transaction) and is claimed again later. Pending messages are
 * those in ingestion's queue (`raw_message_queue`, kept by the database to exactly the raw rows whose status is
 * `pending`; recording the outcome takes a message out of it); the claim locks their queue entries.
 */
export const CLAIM_SQL = `
  WITH claimed AS MATERIALIZED (
    SELECT raw_ingestion_message_id, receipt_seq, dev_eui
      FROM raw_message_queue
     ORDER BY receipt_seq
     LIMIT $1
       FOR UPDATE SKIP LOCKED
  )
  SELECT r.raw_ingestion_message_id, r.received_at, r.tenant_id, r.dev_eui, r.observed_at, ${storedMappingColumns('r')}, r.correlation_id,
         c.dev_eui IS NOT NULL AND EXISTS (
           SELECT 1 FROM raw_message_queue e
            WHERE e.dev_eui = c.dev_eui AND e.receipt_seq < c.receipt_seq
              AND NOT EXISTS (SELECT 1 FROM claimed o WHERE o.receipt_seq = e.receipt_seq)
         ) AS blocked
    FROM claimed c
    JOIN raw_ingestion_messages r ON r.raw_ingestion_message_id = c.raw_ingestion_message_id
   ORDER BY c.receipt_seq`;

/** The device behind each devEui ($1, upper case): the one non-retired device in any tenant, with what routing checks. */
export interface RouteRow {
  dev_eui: string;
  device_id: string;
  tenant_id: string;
  device_type_id: string;
  name: string;
  metadata: Record<string, string>;
  device_status: 'active' | 'disabled';
  tenant_status: 'active' | 'disabled';
  device_type_status: 'active' | 'disabled';
  flow_id: string | null;
  active_version_id: string | null;
  /** The device type's field contract version: plans and field numbers are read again when it moves. */
  field_tag: string;
}

export const ROUTE_SQL = `
  WITH routed AS (
    SELECT d.dev_eui, d.device_id, d.tenant_id, d.device_type_id, d.name, d.metadata, d.status AS device_status
      FROM devices d
     WHERE d.dev_eui = ANY ($1::varchar[]) AND d.status <> 'retired'
  )
  SELECT r.*, t.status AS tenant_status, dt.status AS device_type_status, f.flow_id, f.active_version_id,
         ${fieldContractVersionSql('r.device_type_id')} AS field_tag
    FROM routed r
    JOIN tenants t ON t.tenant_id = r.tenant_id
    JOIN device_types dt ON dt.device_type_id = r.device_type_id
    LEFT JOIN flows f ON f.device_type_id = r.device_type_id`;

export type OutcomeUpdate = { status: 'unrouted' | 'rejected' | 'skipped'; reason: string; deviceId: string | null; tenantId: string | null };

export type RoutingDecision =
  | { kind: 'final'; update: OutcomeUpdate }
  | { kind: 'run'; device: RoutedDevice; flowVersionId: string; fieldTag: string };

/**
 * What happens to a message, in this order: no device → `unrouted`/`unknown_dev_eui`; a tenant credential
 * delivering to another tenant's device → `rejected`/`tenant_mismatch` (the device stays unnamed: a tenant never
 * learns of another tenant's devices); the tenant, device type or device disabled → `skipped`; no flow or no
 * active version → `skipped`; otherwise the active version runs.
 */
export function decideRoute(row: ClaimedRow, route: RouteRow | undefined): RoutingDecision {
  if (!route) return final('unrouted', 'unknown_dev_eui', null, null);
  if (row.tenant_id !== null && row.tenant_id !== route.tenant_id) return final('rejected', 'tenant_mismatch', null, null);
  const skip = (reason: string) => final('skipped', reason, route.device_id, route.tenant_id);
  if (route.tenant_status !== 'active') return skip('tenant_disabled');
  if (route.device_type_status !== 'active') return skip('device_type_disabled');
  if (route.device_status !== 'active') return skip('device_disabled');
  if (route.flow_id === null) return skip('no_flow');
  if (route.active_version_id === null) return skip('no_active_flow_version');
  return {
    kind: 'run',
    device: {
      deviceId: route.device_id,
      tenantId: route.tenant_id,
      deviceTypeId: route.device_type_id,
      devEui: route.dev_eui,
      name: route.name,
      metadata: route.metadata,
    },
    flowVersionId: route.active_version_id,
    fieldTag: route.field_tag,
  };
}

function final(status: OutcomeUpdate['status'], reason: string, deviceId: string | null, tenantId: string | null): RoutingDecision {
  return { kind: 'final', update: { status, reason, deviceId, tenantId } };
}
