import { Metadata, OptionalEntityName } from '../../../shared/validation/fields';

/** At least one property (design C4); `metadata` replaces the whole map. `devEui` and `deviceTypeId` are immutable. */
export class UpdateDeviceRequest {
  @OptionalEntityName()
  name?: string;

  @Metadata('Replaces the whole map.')
  metadata?: Record<string, string>;
}

export type DeviceChanges = Partial<Pick<UpdateDeviceRequest, 'name' | 'metadata'>>;
