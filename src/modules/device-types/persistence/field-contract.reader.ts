import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { DeviceFieldDefinitionEntity } from './device-field-definition.entity';

/** A field of a contract: a frozen copy of the definition, shared by every caller (never change it). */
export type ContractField = Readonly<DeviceFieldDefinitionEntity>;

/** A device type's field contract: every field definition, active and deprecated, at one version. */
export interface FieldContract {
  deviceTypeId: string;
  /**
   * The type's field contract version (text): it changes in the same transaction as any change of one of its
   * fields, so two contracts of a type with the same version have the same fields.
   */
  version: string;
  /** In the API's order, (createdAt, id) ascending. */
  fields: readonly ContractField[];
  byKey: ReadonlyMap<string, ContractField>;
  /** field key -> fieldNo (the 4-byte key telemetry rows use). */
  fieldNos: ReadonlyMap<string, number>;
  byFieldNo: ReadonlyMap<number, ContractField>;
}

/**
 * The SQL expression of the stored field contract version (as text) of the device type `deviceTypeId` (an SQL
 * expression): a primary-key read a caller puts in a statement it runs anyway, then hands the value to
 * `FieldContractReader.at`, so checking that a cached contract is current costs no round trip.
 */
export const fieldContractVersionSql = (deviceTypeId: string) =>
  `(SELECT fcv.field_contract_version::text FROM device_types fcv WHERE fcv.device_type_id = ${deviceTypeId})`;

/** The type's version with each of its fields (one row with null fields when it has none), in the API's order. */
const LOAD_SQL = `
  SELECT v.version, f.device_field_definition_id AS "deviceFieldDefinitionId", f.field_no AS "fieldNo", f.tenant_id AS "tenantId",
         f.device_type_id AS "deviceTypeId", f.key, f.name, f.description, f.schema_ref AS "schemaRef", f.unit,
         f.storage_targets AS "storageTargets", f.measurement_type AS "measurementType", f.status, f.lock_version AS "lockVersion",
         f.created_at AS "createdAt", f.updated_at AS "updatedAt", f.deprecated_at AS "deprecatedAt"
    FROM (SELECT ${fieldContractVersionSql('$1::uuid')} AS version) v
    LEFT JOIN device_field_definitions f ON f.device_type_id = $1::uuid
   ORDER BY f.created_at, f.device_field_definition_id`;

/** Contracts kept; past it the cache starts over (a service sees far fewer device types). */
const CAPACITY = 2000;

/**
 * The one reader of device field definitions for other modules (flows, processing, telemetry): a type's contract,
 * cached per device type under its version.
 *
 * Correct across replicas without a TTL: the version lives in `device_types` and the database raises it in the
 * transaction that changes a field (a trigger, so no writer can forget it), so any replica's next check sees it.
 * A check is a comparison with a version the caller read (`at`, free when the caller read it in its own
 * statement, as routing and the telemetry writer do) or one primary-key read (`current`). A stale copy is never
 * used past a check; the contract itself is read again only when the version moved.
 */
@Injectable()
export class FieldContractReader {
  private readonly contracts = new Map<string, FieldContract>();
  /** fieldNo -> device type: never changes (a field stays with its type and is never renumbered). */
  private readonly typeOfFieldNo = new Map<number, string>();

  constructor(private readonly dataSource: DataSource) {}

  /** The contract at `version` (read by the caller through `fieldContractVersionSql`): the cached copy when it is at that version. */
  async at(deviceTypeId: string, version: string, manager: EntityManager = this.dataSource.manager): Promise<FieldContract> {
    const cached = this.contracts.get(deviceTypeId);
    if (cached && cached.version === version) return cached;
    return this.load(manager, deviceTypeId);
  }

  /** The current contract: one primary-key read of the version, then the cached copy unless it moved. */
  async current(deviceTypeId: string, manager: EntityManager = this.dataSource.manager): Promise<FieldContract> {
    const [row] = await manager.query<{ version: string }[]>(`SELECT ${fieldContractVersionSql('$1::uuid')} AS version`, [deviceTypeId]);
    return this.at(deviceTypeId, row?.version ?? '', manager);
  }

  /**
   * The contracts of the device types the field numbers belong to, as cached (one read for numbers never seen,
   * one per type not cached): the caller checks their versions in its own statement and calls `forget` and
   * again when one moved. Unknown numbers have no contract.
   */
  async ofFieldNos(fieldNos: readonly number[], manager: EntityManager = this.dataSource.manager): Promise<FieldContract[]> {
    const unseen = [...new Set(fieldNos.filter((fieldNo) => !this.typeOfFieldNo.has(fieldNo)))];
    if (unseen.length > 0) {
      const rows = await manager.query<{ field_no: number; device_type_id: string }[]>(
        `SELECT field_no, device_type_id FROM device_field_definitions WHERE field_no = ANY ($1::int[])`,
        [unseen],
      );
      for (const row of rows) this.typeOfFieldNo.set(row.field_no, row.device_type_id);
    }
    const types = new Set<string>();
    for (const fieldNo of fieldNos) {
      const type = this.typeOfFieldNo.get(fieldNo);
      if (type !== undefined) types.add(type);
    }
    const contracts: FieldContract[] = [];
    for (const type of types) contracts.push(this.contracts.get(type) ?? (await this.load(manager, type)));
    return contracts;
  }

  /** Drops the cached contracts of these types (their stored version moved). */
  forget(deviceTypeIds: Iterable<string>): void {
    for (const id of deviceTypeIds) this.contracts.delete(id);
  }

  /** The version and the fields in one statement (one snapshot: the fields are exactly those of that version). */
  private async load(manager: EntityManager, deviceTypeId: string): Promise<FieldContract> {
    const rows = await manager.query<(Partial<DeviceFieldDefinitionEntity> & { version: string })[]>(LOAD_SQL, [deviceTypeId]);
    const fields: ContractField[] = [];
    for (const { version: _version, ...row } of rows) {
      if (row.deviceFieldDefinitionId === null || row.deviceFieldDefinitionId === undefined) continue;
      const field = Object.assign(new DeviceFieldDefinitionEntity(), row, { storageTargets: Object.freeze([...row.storageTargets!]) });
      fields.push(Object.freeze(field) as ContractField);
    }
    const contract: FieldContract = {
      deviceTypeId,
      version: rows[0]?.version ?? '',
      fields,
      byKey: new Map(fields.map((field) => [field.key, field])),
      fieldNos: new Map(fields.map((field) => [field.key, field.fieldNo])),
      byFieldNo: new Map(fields.map((field) => [field.fieldNo, field])),
    };
    for (const field of fields) this.typeOfFieldNo.set(field.fieldNo, deviceTypeId);
    if (this.contracts.size >= CAPACITY) this.contracts.clear();
    this.contracts.set(deviceTypeId, contract);
    return contract;
  }
}
