import { OptionalEntityName } from '../../../shared/validation/fields';
import type { StorageTarget } from '../persistence/device-field-definition.entity';
import { OptionalDescription, OptionalUnit, StorageTargets } from './device-type.fields';
import { MinProperties } from '../../../shared/validation/min-properties';

/** At least one property; `key`, `schemaRef` and `measurementType` are immutable; `unit: null` clears. */
@MinProperties(1)
export class UpdateDeviceFieldRequest {
  @OptionalEntityName()
  name?: string;

  @OptionalDescription('Absent: unchanged.')
  description?: string;

  @OptionalUnit()
  unit?: string | null;

  @StorageTargets(false)
  storageTargets?: StorageTarget[];
}

export type DeviceFieldChanges = Partial<Pick<UpdateDeviceFieldRequest, 'name' | 'description' | 'unit' | 'storageTargets'>>;
