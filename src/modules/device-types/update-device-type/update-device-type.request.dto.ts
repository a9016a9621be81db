import { OptionalEntityName } from '../../../shared/validation/fields';
import { OptionalDescription } from '../domain/device-type.fields';

/** At least one property (design C4); `key` is immutable. */
export class UpdateDeviceTypeRequest {
  @OptionalEntityName()
  name?: string;

  @OptionalDescription('Absent: unchanged.')
  description?: string;
}

export type DeviceTypeChanges = Partial<Pick<UpdateDeviceTypeRequest, 'name' | 'description'>>;
