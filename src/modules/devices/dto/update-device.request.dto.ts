import { Metadata, OptionalEntityName } from '../../../shared/validation/fields';
import { MinProperties } from '../../../shared/validation/min-properties';

/** At least one property; `metadata` replaces the whole map. `devEui` and `deviceTypeId` are immutable. */
@MinProperties(1)
export class UpdateDeviceRequest {
  @OptionalEntityName()
  name?: string;

  @Metadata('Replaces the whole map.')
  metadata?: Record<string, string>;
}

export type DeviceChanges = Partial<Pick<UpdateDeviceRequest, 'name' | 'metadata'>>;
