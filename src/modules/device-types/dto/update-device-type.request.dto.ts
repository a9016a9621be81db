import { OptionalEntityName } from '../../../shared/validation/fields';
import { OptionalDescription } from './device-type.fields';
import { MinProperties } from '../../../shared/validation/min-properties';

/** At least one property; `key` is immutable. */
@MinProperties(1)
export class UpdateDeviceTypeRequest {
  @OptionalEntityName()
  name?: string;

  @OptionalDescription('Absent: unchanged.')
  description?: string;
}

export type DeviceTypeChanges = Partial<Pick<UpdateDeviceTypeRequest, 'name' | 'description'>>;
