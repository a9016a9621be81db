import { randomUUID } from 'node:crypto';
import { ENTITY_KEY_PATTERN, MAX_METADATA_NAME_LENGTH, MAX_METADATA_VALUE_LENGTH } from '../../../shared/validation/fields';
import { textLength } from '../../../shared/validation/text-length';
import type { DevEuiHolder, NewDevice } from '../../devices';
import type { DeviceTypeKeyRow, NewDeviceType } from '../../device-types';
import type { LegacySnapshot, SourceRecord } from '../source/legacy-source.client';
import { isCompleteDevice, isCompleteDeviceType } from '../source/legacy-source.schemas';

export const ISSUE_CODES = [
  'invalid_device_type_code',
  'invalid_dev_eui',
  'missing_device_type',
  'duplicate_source_dev_eui',
  'device_exists_in_other_tenant',
  'existing_device_mismatch',
  'disabled_existing_device_type',
  'asset_excluded',
  'incomplete_source_record',
] as const;
export type IssueCode = (typeof ISSUE_CODES)[number];
export type IssueEntity = 'device_type' | 'device';

export interface ImportIssue {
  entity: IssueEntity;
  code: IssueCode;
  sourceIdentifier: string;
}

export interface EntityCounts {
  created: number;
  existing: number;
  skipped: number;
}

/** The issues an answer shows; the counts cover every record. */
export const MAX_ISSUES = 200;
const MAX_SOURCE_IDENTIFIER = 200;
/** Source metadata entries copied to a created device; the two `legacy.*` entries make at most 50. */
const MAX_SOURCE_METADATA = 48;
const DEV_EUI_SEPARATORS = /[:\-\s]/g;
const DEV_EUI = /^[A-F0-9]{16}$/;

/** What the target tenant holds of the keys and devEuis the snapshot names (read in the import's transaction). */
export interface TargetState {
  tenantId: string;
  /** Device types of the target tenant by key. */
  typesByKey: ReadonlyMap<string, DeviceTypeKeyRow>;
  /** Non-retired devices of every tenant by devEui. */
  devicesByDevEui: ReadonlyMap<string, DevEuiHolder>;
}

export interface ImportPlan {
  deviceTypes: EntityCounts;
  devices: EntityCounts;
  /** Every issue, in source order: device types, then devices. */
  issues: ImportIssue[];
  newTypes: NewDeviceType[];
  newDevices: NewDevice[];
}

/** Which target type a source type record (tenant, id) ends up as. */
type TypeOutcome = { kind: 'usable'; deviceTypeId: string } | { kind: 'disabled' };

/**
 * The validity rules, record by record in source order. Every record counts once as created, existing or skipped,
 * and every skipped record has exactly one issue (the first rule it breaks, in the order below).
 *
 * Device types: incomplete (id, code or name missing, name blank or over 200) → the lower-cased code is not an
 * entity key → a code already seen (in any source tenant) is merged into the first record with it and counts as
 * existing (skipped if that one was) → the key exists in the target: active is existing, disabled is skipped →
 * else created.
 *
 * Devices: `kind` `asset` → incomplete (id, devEui, name or type missing, name blank or over 200) → devEui, without
 * `:`, `-` and spaces and upper-cased, not 16 hex digits → its type record invalid or absent (missing) or an
 * existing disabled type → the devEui appears in more than one such record (all of them skipped) → a non-retired
 * device of another tenant holds it → a device of the target holds it: same type and name is existing, else
 * skipped → else created, `active`, unassigned.
 */
export function planImport(snapshot: LegacySnapshot, target: TargetState): ImportPlan {
  const issues: ImportIssue[] = [];
  const deviceTypes: EntityCounts = { created: 0, existing: 0, skipped: 0 };
  const devices: EntityCounts = { created: 0, existing: 0, skipped: 0 };
  const newTypes: NewDeviceType[] = [];
  const newDevices: NewDevice[] = [];

  const typeByKey = new Map<string, TypeOutcome>();
  const typeByRef = new Map<string, TypeOutcome>();
  snapshot.deviceTypes.forEach((source, index) => {
    const skip = (code: IssueCode) => {
      deviceTypes.skipped++;
      issues.push({ entity: 'device_type', code, sourceIdentifier: identifierOf(source.record, index, 'code') });
    };
    const record = source.record;
    if (!isCompleteDeviceType(record)) return skip('incomplete_source_record');
    const key = record.code.toLowerCase();
    if (!ENTITY_KEY_PATTERN.test(key)) return skip('invalid_device_type_code');
    const ref = refOf(source.sourceTenantId, record.id);
    const merged = typeByKey.get(key);
    if (merged) {
      typeByRef.set(ref, merged);
      return merged.kind === 'usable' ? void deviceTypes.existing++ : skip('disabled_existing_device_type');
    }
    const existing = target.typesByKey.get(key);
    let outcome: TypeOutcome;
    if (existing?.status === 'disabled') {
      outcome = { kind: 'disabled' };
      skip('disabled_existing_device_type');
    } else if (existing) {
      outcome = { kind: 'usable', deviceTypeId: existing.deviceTypeId };
      deviceTypes.existing++;
    } else {
      const deviceTypeId = randomUUID();
      const description = typeof record.description === 'string' ? [...record.description].slice(0, 500).join('') : '';
      newTypes.push({ deviceTypeId, key, name: record.name, description });
      outcome = { kind: 'usable', deviceTypeId };
      deviceTypes.created++;
    }
    typeByKey.set(key, outcome);
    typeByRef.set(ref, outcome);
  });

  // devEuis of the records that pass the record-level rules, to find the ones the source lists twice.
  const normalized = snapshot.devices.map(({ record }) => (record.kind !== 'asset' && isCompleteDevice(record) ? devEuiOf(record.devEui) : null));
  const occurrences = new Map<string, number>();
  for (const devEui of normalized) if (devEui) occurrences.set(devEui, (occurrences.get(devEui) ?? 0) + 1);

  snapshot.devices.forEach((source, index) => {
    const skip = (code: IssueCode) => {
      devices.skipped++;
      issues.push({ entity: 'device', code, sourceIdentifier: identifierOf(source.record, index, 'devEui') });
    };
    const record = source.record;
    if (record.kind === 'asset') return skip('asset_excluded');
    if (!isCompleteDevice(record)) return skip('incomplete_source_record');
    const devEui = normalized[index];
    if (!devEui) return skip('invalid_dev_eui');
    const type = typeByRef.get(refOf(source.sourceTenantId, record.deviceTypeId));
    if (!type) return skip('missing_device_type');
    if (type.kind === 'disabled') return skip('disabled_existing_device_type');
    if ((occurrences.get(devEui) ?? 0) > 1) return skip('duplicate_source_dev_eui');
    const holder = target.devicesByDevEui.get(devEui);
    if (holder && holder.tenantId !== target.tenantId) return skip('device_exists_in_other_tenant');
    if (holder) {
      return holder.deviceTypeId === type.deviceTypeId && holder.name === record.name ? void devices.existing++ : skip('existing_device_mismatch');
    }
    newDevices.push({
      deviceId: randomUUID(),
      deviceTypeId: type.deviceTypeId,
      devEui,
      name: record.name,
      metadata: metadataOf(record.metadata, String(record.id), source.sourceTenantId),
    });
    devices.created++;
  });

  return { deviceTypes, devices, issues, newTypes, newDevices };
}

/** The devEuis of the snapshot's devices in the target's form (for reading their holders before planning). */
export function devEuisOf(snapshot: LegacySnapshot): string[] {
  const devEuis = new Set<string>();
  for (const { record } of snapshot.devices) {
    if (typeof record.devEui !== 'string') continue;
    const devEui = devEuiOf(record.devEui);
    if (devEui) devEuis.add(devEui);
  }
  return [...devEuis];
}

/** The target keys of the snapshot's device types. */
export function typeKeysOf(snapshot: LegacySnapshot): string[] {
  const keys = new Set<string>();
  for (const { record } of snapshot.deviceTypes) {
    if (typeof record.code !== 'string') continue;
    const key = record.code.toLowerCase();
    if (ENTITY_KEY_PATTERN.test(key)) keys.add(key);
  }
  return [...keys];
}

function devEuiOf(raw: string): string | null {
  const devEui = raw.replace(DEV_EUI_SEPARATORS, '').toUpperCase();
  return DEV_EUI.test(devEui) ? devEui : null;
}

const refOf = (sourceTenantId: string, id: string | number): string => `${sourceTenantId}\u0000${String(id)}`;

/** The source `id`, else the code or devEui, else `index:<n>` (0-based position in the source order), cut to 200. */
function identifierOf(record: SourceRecord['record'], index: number, fallback: 'code' | 'devEui'): string {
  const candidates = [record.id, record[fallback]];
  const found = candidates.find((value) => (typeof value === 'string' && value.length > 0) || (typeof value === 'number' && Number.isFinite(value)));
  return [...(found === undefined ? `index:${index}` : String(found))].slice(0, MAX_SOURCE_IDENTIFIER).join('');
}

/**
 * The source's string metadata entries the target can hold (names 1..64, values ≤ 1024), the first 48 in source
 * order, plus `legacy.sourceId` and `legacy.tenantId` (which replace source entries of those names).
 */
function metadataOf(source: unknown, sourceId: string, sourceTenantId: string): Record<string, string> {
  const metadata: Record<string, string> = {};
  if (source !== null && typeof source === 'object' && !Array.isArray(source)) {
    let copied = 0;
    for (const [name, value] of Object.entries(source)) {
      if (copied === MAX_SOURCE_METADATA) break;
      if (typeof value !== 'string' || name === 'legacy.sourceId' || name === 'legacy.tenantId') continue;
      const nameLength = textLength(name);
      if (nameLength === 0 || nameLength > MAX_METADATA_NAME_LENGTH || textLength(value) > MAX_METADATA_VALUE_LENGTH) continue;
      metadata[name] = value;
      copied++;
    }
  }
  metadata['legacy.sourceId'] = [...sourceId].slice(0, MAX_METADATA_VALUE_LENGTH).join('');
  metadata['legacy.tenantId'] = [...sourceTenantId].slice(0, MAX_METADATA_VALUE_LENGTH).join('');
  return metadata;
}
