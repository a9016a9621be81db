import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { FieldContractReader, type FieldStatus, type SchemaRef, type StorageTarget } from '../../device-types';

/** What storing and reading telemetry needs of a field definition. */
export interface TelemetryField {
  fieldNo: number;
  key: string;
  schemaRef: SchemaRef;
  storageTargets: StorageTarget[];
  status: FieldStatus;
}

/**
 * A device type's field definitions keyed by field key, deprecated ones included: flows map their output keys
 * to `fieldNo` with it (and skip deprecated ones), the measurements query checks `fieldKeys` against it.
 */
@Injectable()
export class TelemetryFieldReader {
  constructor(private readonly contracts: FieldContractReader) {}

  async byKey(deviceTypeId: string, manager?: EntityManager): Promise<Map<string, TelemetryField>> {
    const { fields } = await this.contracts.current(deviceTypeId, manager);
    return new Map(
      fields.map(({ fieldNo, key, schemaRef, storageTargets, status }) => [key, { fieldNo, key, schemaRef, storageTargets: [...storageTargets], status }]),
    );
  }
}
